// Quizzes with no tell (issue 33): a quiz must be passed by reading the
// lesson, not by picking the option that looks right. From the options as
// the page shows them (scripts/lesson/lesson-stats.mjs says how each feature is
// measured):
//   - the right option is the longest in at most a third of the written
//     single-answer quizzes (by chance, with four options, a quarter), and
//     the shortest in at most a third (the tell a rewrite that only
//     shortens right options would leave);
//   - in no written quiz does a formula, a number or a hedge word appear
//     only in right options;
//   - the same for generated quizzes, over 200 draws each.
// `npm run lesson:stats` prints the table these come from.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRenderer } from '../../scripts/build/build-lesson.mjs';
import { builtLesson } from './built-lesson.mjs';
import { optionFeatures, optionTells, formatQuizTells } from '../../scripts/lesson/lesson-stats.mjs';

const { tells } = await builtLesson();
const report = `\n${formatQuizTells(tells)}`;

test('what a learner reads: no tags, no TeX source; numbers are tokens, not names; "cannot" is no hedge', () => {
  const { inlineMd } = createRenderer();
  const seen = optionFeatures(inlineMd('Divide $\\theta_i$ by *8*, in `T5` and GPT-2 alike.'));
  assert.equal(seen.text, 'Divide θi by 8, in T5 and GPT-2 alike.');
  assert.equal(seen.length, seen.text.length);
  assert.deepEqual([seen.formula, seen.number, seen.hedge], [true, true, false]);
  const names = optionFeatures(inlineMd("T5, GPT-2 and float16 cannot; $s = 8$ can't either."));
  assert.deepEqual([names.formula, names.number, names.hedge], [true, false, false]);
  assert.equal(optionFeatures('It usually fails').hedge, true);
  assert.equal(optionFeatures('off by −3, or 0.25, or 8,192').number, true);
});

test('a tell is a feature only right options carry, or right options longer (or shorter) than every wrong one', () => {
  const t = optionTells([
    { html: 'the longest option, which usually holds the answer', correct: true },
    { html: 'a short one', correct: false },
    { html: 'another with 2 numbers', correct: false },
  ]);
  assert.deepEqual(t.alone, ['hedge']);
  assert.deepEqual([t.rightLongest, t.rightShortest], [true, false]);
  const select = optionTells([
    { html: 'short', correct: true },
    { html: 'a right one with a 3', correct: true },
    { html: 'a wrong one, 4', correct: false },
  ]);
  assert.deepEqual(select.alone, []);
  assert.deepEqual([select.rightLongest, select.rightShortest], [false, false]);
  // equal lengths tell nothing either way
  const tied = optionTells([
    { html: 'c = 1', correct: true },
    { html: 'c = s', correct: false },
  ]);
  assert.deepEqual([tied.rightLongest, tied.rightShortest], [false, false]);
  assert.equal(
    optionTells([
      { html: 'ab', correct: true },
      { html: 'abc', correct: false },
    ]).rightShortest,
    true,
  );
});

test('the right option is the longest in at most a third of the written single-answer quizzes', () => {
  const { single } = tells;
  const longest = single.filter((r) => r.rightLongest).map((r) => r.id);
  assert.ok(single.length >= 12, report);
  assert.ok(
    longest.length <= single.length / 3,
    `right option longest in ${longest.length} of ${single.length}: ${longest.join(', ')}${report}`,
  );
});

test('the right option is the shortest in at most a third of the written single-answer quizzes', () => {
  const { single } = tells;
  const shortest = single.filter((r) => r.rightShortest).map((r) => r.id);
  assert.ok(
    shortest.length <= single.length / 3,
    `right option shortest in ${shortest.length} of ${single.length}: ${shortest.join(', ')}${report}`,
  );
});

test('in no written quiz is a formula, a number or a hedge carried by right options alone', () => {
  const told = [...tells.single, ...tells.multiple]
    .filter((r) => r.alone.length)
    .map((r) => `${r.id} (${r.alone.join(', ')})`);
  assert.deepEqual(told, [], report);
});

test('in no select-all quiz are the right options the longest ones, or the shortest', () => {
  assert.deepEqual(
    tells.multiple.filter((r) => r.rightLongest || r.rightShortest).map((r) => r.id),
    [],
    report,
  );
});

for (const g of tells.generated) {
  test(`generated ${g.id}: no tell over ${g.draws} draws`, () => {
    assert.ok(g.draws >= 100, report);
    assert.ok(g.rightLongest <= g.draws / 3, `right option longest in ${g.rightLongest} of ${g.draws} draws${report}`);
    assert.ok(
      g.rightShortest <= g.draws / 3,
      `right option shortest in ${g.rightShortest} of ${g.draws} draws${report}`,
    );
    assert.deepEqual(g.alone, { formula: 0, number: 0, hedge: 0 }, report);
  });
}

// Rewriting right options shorter left another pattern: in 13 of 24 quizzes
// the right option was the second shortest, so "drop the longest and the
// shortest, pick the shorter of the two left" beat chance by half again. No
// rank by length may hold more than 40% of the right options (a tie counts
// as the higher rank: indistinguishable lengths give nothing away).
test('written single-answer quizzes: the right option sits at no one rank by length in more than 40% of them', async () => {
  const { quizzes } = await builtLesson();
  const ranks = [0, 0, 0, 0, 0, 0];
  let n = 0;
  for (const q of Object.values(quizzes)) {
    if (q.generator || q.multiple) continue;
    const lengths = q.options.map((o) => optionFeatures(o.html).length);
    const right = lengths[q.options.findIndex((o) => o.correct)];
    ranks[lengths.filter((l) => l > right).length] += 1; // 0: longest (or tied for it)
    n += 1;
  }
  const worst = Math.max(...ranks);
  assert.ok(
    worst <= 0.4 * n,
    `right options by length rank (longest first): ${ranks.slice(0, 4).join(', ')} of ${n}${report}`,
  );
});
