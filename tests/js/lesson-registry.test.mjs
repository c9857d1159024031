// The lesson is registered by the page, not imported by the library (issue
// 47, item 1): nothing under web/lib or web/widgets imports a generated file
// or a part of the lesson (its samples, quizzes, exercises, numbers, code
// cases: what they share lives in web/lib, issue 49);
// web/lib/lesson/lesson-registry.js takes the lesson as data (the page shows it) or
// as a loader (its questions are lent by id, loaded on the first ask), checks
// what it is given and names the wrong field; the entry points register it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as lessonData from '../../web/gen/lesson-data.js';
import {
  LESSON_FIELDS,
  registerLesson,
  registerLessonLoader,
  hasLesson,
  lessonNow,
  lessonShown,
  loadLesson,
  onLesson,
} from '../../web/lib/lesson/lesson-registry.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
// every module specifier a file imports, statically or dynamically (comments left out)
const code = (text) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
const specifiers = (text) =>
  [
    ...code(text).matchAll(
      /(?:\bimport\s*(?:[\w*{}\s,]+from\s*)?|\bimport\s*\(\s*|\bexport\s*[\w*{}\s,]+from\s*)['"`]([^'"`]+)['"`]/g,
    ),
  ].map((m) => m[1]);

// the lesson's own folders under web/: the library serves them, never the other way
const LESSON_PARTS = /(^|\/)(gen|samples|quizzes|exercises|numbers|code-cases)\//;

test('web/lib and web/widgets import nothing generated (web/gen/) nor a part of the lesson; the entry points register the lesson', () => {
  const offenders = [];
  for (const dir of ['web/lib', 'web/widgets']) {
    for (const f of readdirSync(path.join(root, dir), { recursive: true }).filter((n) => n.endsWith('.js'))) {
      for (const s of specifiers(readFileSync(path.join(root, dir, f), 'utf8')))
        if (LESSON_PARTS.test(s)) offenders.push(`${dir}/${f} imports ${s}`);
    }
  }
  assert.deepEqual(offenders, []);
  // the check reads imports at all: the entry points' are seen
  const lesson = readFileSync(path.join(root, 'web/lesson.js'), 'utf8');
  assert.ok(specifiers(lesson).includes('./gen/lesson-data.js'));
  assert.match(lesson, /registerLesson\(lessonData\)/);
  assert.match(readFileSync(path.join(root, 'web/embed.js'), 'utf8'), /registerLesson\(lessonData\)/);
  assert.match(
    readFileSync(path.join(root, 'web/widgets.js'), 'utf8'),
    /registerLessonLoader\(\(\) => import\('\.\/gen\/lesson-data\.js'\)\)/,
  );
});

test('a lesson given as data is here at once and shown; a wrong one is refused, naming the field', async () => {
  registerLesson(lessonData);
  assert.equal(hasLesson(), true);
  assert.equal(lessonShown(), true);
  assert.deepEqual(lessonNow().questionIds, lessonData.questionIds);
  assert.equal(await loadLesson(), lessonNow());
  assert.throws(() => registerLesson(null), /^TypeError: registerLesson: a lesson is an object with sections, quizzes/);
  assert.throws(
    () => registerLesson({ ...lessonData, quizzes: [] }),
    /^TypeError: registerLesson: the lesson's quizzes must be an object; got an array$/,
  );
  const { samples: _, ...noSamples } = lessonData;
  assert.throws(() => registerLesson(noSamples), /the lesson's samples must be an object; got nothing$/);
  // a refused lesson leaves the one registered before
  assert.deepEqual(lessonNow().questionIds, lessonData.questionIds);
  assert.deepEqual(
    LESSON_FIELDS.filter((f) => !(f in lessonData)),
    [],
    'lesson-data.js has every field',
  );
});

test('a lesson given as a loader is loaded once, on the first ask, and lent rather than shown; a failing loader rejects and is tried again', async () => {
  let calls = 0;
  let fail = true;
  registerLessonLoader(async () => {
    calls++;
    if (fail) throw new Error('offline');
    return lessonData;
  });
  assert.equal(hasLesson(), true);
  assert.equal(lessonNow(), null, 'nothing is loaded before an ask');
  assert.equal(calls, 0);
  await assert.rejects(loadLesson(), /offline/);
  fail = false;
  const heard = [];
  const off = onLesson((l) => heard.push(l.questionIds.length));
  const [a, b] = await Promise.all([loadLesson(), loadLesson()]);
  off();
  assert.equal(a, b);
  assert.equal(calls, 2, 'one call for the failed ask, one for both later asks');
  assert.deepEqual(heard, [lessonData.questionIds.length]);
  assert.equal(lessonShown(), false, 'a lent lesson is not the page’s');
  registerLessonLoader(async () => ({ sections: [] }));
  await assert.rejects(loadLesson(), /registerLessonLoader: the lesson's quizzes must be an object; got nothing/);
  assert.throws(
    () => registerLessonLoader(lessonData),
    /takes a function that returns a promise of the lesson; got object/,
  );
});
