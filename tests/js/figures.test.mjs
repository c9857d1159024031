// The figures the docs quote (issue 47, item 5): every count of the lesson
// (quizzes, exercises, questions, words, the quiz-tell counts) marked in
// README.md, docs/embedding.md and lessons/README.md equals what the built
// lesson has, and every size lies within SIZE_TOLERANCE of the file an export
// writes now (scripts/build/figures.mjs; `node scripts/build/figures.mjs --sizes`
// rewrites them).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  countFigures,
  measureSizes,
  quotedFigures,
  checkSize,
  sizeText,
  FIGURE_FILES,
} from '../../scripts/build/figures.mjs';

const quoted = quotedFigures();

test('every count the docs quote is the lesson’s', async () => {
  const counts = await countFigures();
  const wrong = quoted
    .filter((f) => !f.name.startsWith('size-'))
    .filter((f) => counts[f.name] !== f.text)
    .map((f) => `${f.file}: ${f.name} is ${f.text}, the lesson has ${counts[f.name] ?? '(no such figure)'}`);
  assert.deepEqual(wrong, [], 'run node scripts/build/figures.mjs');
  // each file quotes some, and the figures the issue found drifting are among them
  for (const file of FIGURE_FILES)
    assert.ok(
      quoted.some((f) => f.file === file),
      `${file} quotes no figure`,
    );
  for (const name of ['quizzes', 'exercises', 'main-words', 'questions'])
    assert.ok(
      quoted.some((f) => f.name === name),
      `no doc quotes ${name}`,
    );
});

test('every size the docs quote is within the tolerance of what the exports write now', async () => {
  const sizes = await measureSizes();
  for (const name of new Set(quoted.filter((f) => f.name.startsWith('size-')).map((f) => f.name))) {
    assert.ok(Object.hasOwn(sizes, name), `${name}: nothing measures it`);
    checkSize(name, sizes[name]);
  }
  assert.equal(sizeText(700 * 1024), '700 KiB');
  assert.equal(sizeText(2_000_000), '2.0 MB');
  assert.throws(
    () => checkSize('size-scorm12', sizes['size-scorm12'] * 2),
    /run node scripts\/build\/figures\.mjs --sizes/,
  );
});
