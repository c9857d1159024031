// The lesson's budget (issue 12, "The lesson, second edition"): at most 9,000
// words on the main path (asides, quizzes, code and the References part are
// not counted; scripts/lesson/lesson-stats.mjs says how words are counted), at most
// 36 quizzes, every section with at least one quiz, and every section but
// the closing review with at least one widget or live sample. `npm run lesson:stats` prints the counts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { builtLesson } from './built-lesson.mjs';
import { lessonStats, formatStats } from '../../scripts/lesson/lesson-stats.mjs';

const MAX_MAIN_WORDS = 9000;
const MAX_QUIZZES = 36;

const { sections } = await builtLesson();
const stats = lessonStats(sections);
const table = `\n${formatStats(stats)}`;

test(`lesson budget: at most ${MAX_MAIN_WORDS} words on the main path`, () => {
  assert.ok(stats.totals.mainWords <= MAX_MAIN_WORDS, `${stats.totals.mainWords} main-path words${table}`);
});

test(`lesson budget: at most ${MAX_QUIZZES} quizzes`, () => {
  assert.ok(stats.totals.quizzes <= MAX_QUIZZES, `${stats.totals.quizzes} quizzes${table}`);
});

test('lesson budget: every section has a quiz, and every section but the review a widget or live sample', () => {
  const missing = stats.sections.flatMap((s) => [
    ...(s.quizzes ? [] : [`${s.id} has no quiz`]),
    ...(s.widgets + s.samples || s.id === 'review' ? [] : [`${s.id} has no widget or live sample`]),
  ]);
  assert.deepEqual(missing, [], table);
});
