// Quiz progress in storage (web/lib/reporting/progress.js), with an in-memory
// localStorage: entries of quizzes the lesson no longer has are removed,
// current ones kept, and nothing throws on storage that is broken or absent.
// (tests/browser/reliability.test.mjs covers the same in Chromium.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryStorage, withStorage } from './memory-storage.mjs';
import {
  loadProgress,
  forgetUnknownQuizzes,
  progressKey,
  afterCheck,
  afterSolution,
  afterNewDraw,
  creditAfter,
  tally,
  CREDIT_STEP,
  formatPoints,
  validEntry,
  saveEntry,
  learnerSeed,
  resetProgress,
  attempt,
  progressHome,
  claimPageOnlyNote,
  PAGE_ONLY_NOTE,
  CREDIT_RULE,
  pointsPhrase,
  earnedText,
} from '../../web/lib/reporting/progress.js';

const entry = (correct) => ({
  correct,
  solutionShown: false,
  attempts: 1,
  response: [0],
  credit: correct ? 1 : 0,
  misses: 0,
});

test('stored progress of quizzes the lesson no longer has is removed; current quizzes keep theirs', () => {
  const s = new MemoryStorage({
    [progressKey]: JSON.stringify({
      'kept-quiz': entry(true),
      'removed-quiz': entry(true),
      'renamed-quiz': entry(false),
    }),
    other: 'untouched',
  });
  withStorage(s);
  forgetUnknownQuizzes(['kept-quiz', 'never-answered']);
  assert.deepEqual(JSON.parse(s.getItem(progressKey)), { 'kept-quiz': entry(true) });
  assert.deepEqual(loadProgress(), { 'kept-quiz': entry(true) });
  assert.equal(s.getItem('other'), 'untouched');
  forgetUnknownQuizzes(['kept-quiz']); // again: nothing changes
  assert.deepEqual(loadProgress(), { 'kept-quiz': entry(true) });
});

test('only stale or invalid entries: the key is removed; no known ids: nothing is touched', () => {
  const s = new MemoryStorage({
    [progressKey]: JSON.stringify({ 'removed-quiz': entry(true), 'current-quiz': { correct: 'yes' } }),
  });
  withStorage(s);
  forgetUnknownQuizzes([]);
  assert.notEqual(s.getItem(progressKey), null);
  forgetUnknownQuizzes(['current-quiz']);
  assert.equal(s.getItem(progressKey), null);
});

test('corrupted, absent or throwing storage: no exception', () => {
  for (const raw of ['{', 'null', '[]', '42']) {
    withStorage(new MemoryStorage({ [progressKey]: raw }));
    assert.doesNotThrow(() => forgetUnknownQuizzes(['a-quiz']));
    assert.deepEqual(loadProgress(), {});
  }
  withStorage(undefined);
  assert.doesNotThrow(() => forgetUnknownQuizzes(['a-quiz']));
  const throwing = new MemoryStorage({ [progressKey]: JSON.stringify({ stale: entry(true) }) });
  throwing.setItem = () => {
    throw new Error('QuotaExceededError');
  };
  withStorage(throwing);
  assert.doesNotThrow(() => forgetUnknownQuizzes(['a-quiz']));
  Object.defineProperty(globalThis, 'localStorage', {
    get: () => {
      throw new Error('SecurityError');
    },
    configurable: true,
  });
  assert.doesNotThrow(() => forgetUnknownQuizzes(['a-quiz']));
});

test('credit: 1 at the first check, a third less per miss, never below 0; a right answer after the solution earns nothing', () => {
  assert.deepEqual([0, 1, 2, 3, 4].map(creditAfter), [1, 0.6667, 0.3333, 0, 0]);
  // right at once
  let { entry: e, earned } = afterCheck(undefined, { right: true, response: [1], seed: 5 });
  assert.equal(earned, 1);
  assert.deepEqual(e, {
    credit: 1,
    misses: 0,
    attempts: 1,
    correct: true,
    solutionShown: false,
    response: [1],
    view: 'check',
    seed: 5,
  });
  // wrong, wrong, right: a third of a point
  ({ entry: e } = afterCheck(undefined, { right: false, response: [0] }));
  ({ entry: e } = afterCheck(e, { right: false, response: [2] }));
  ({ entry: e, earned } = afterCheck(e, { right: true, response: [1] }));
  assert.equal(earned, 0.3333);
  assert.equal(e.credit, 0.3333);
  assert.equal(e.misses, 2);
  assert.equal(e.attempts, 3);
  // the solution first: a miss, and a right answer after it earns nothing
  let s = afterSolution(undefined, { response: [] });
  assert.equal(s.misses, 1);
  ({ entry: e, earned } = afterCheck(s, { right: true, response: [1] }));
  assert.equal(earned, 0);
  assert.equal(e.credit, 0);
  // a solution shown after a right answer costs nothing
  ({ entry: e } = afterCheck(undefined, { right: true, response: [1] }));
  s = afterSolution(e, { response: [1] });
  assert.equal(s.misses, 0);
  assert.equal(s.credit, 1);
  for (const x of [e, s]) assert.ok(validEntry(x));
});

test('new numbers are practice: credit, misses and attempts stay; the draw starts afresh; a later right answer can raise but never lower credit', () => {
  let { entry: e } = afterCheck(undefined, { right: false, response: ['1'] });
  ({ entry: e } = afterCheck(e, { right: true, response: ['2'] }));
  assert.equal(e.credit, 0.6667);
  const fresh = afterNewDraw(e, { seed: 9 });
  assert.deepEqual(fresh, {
    credit: 0.6667,
    misses: 1,
    attempts: 2,
    correct: false,
    solutionShown: false,
    response: [],
    seed: 9,
  });
  // wrong on the new numbers: the credit earned stays
  let { entry: w } = afterCheck(fresh, { right: false, response: ['3'] });
  assert.equal(w.credit, 0.6667);
  assert.equal(w.misses, 2);
  // right on the new numbers after that miss earns a third: the best stays
  const { entry: r, earned } = afterCheck(w, { right: true, response: ['4'] });
  assert.equal(earned, 0.3333);
  assert.equal(r.credit, 0.6667);
  // new numbers before any answer: nothing earned, the seed kept
  assert.deepEqual(afterNewDraw(undefined, { seed: 1 }), {
    credit: 0,
    misses: 0,
    attempts: 0,
    correct: false,
    solutionShown: false,
    response: [],
    seed: 1,
  });
});

test('tally and points: the sum of credit over the questions, revealed where the solution came first', () => {
  const progress = {
    a: { ...entry(true) },
    b: { correct: true, solutionShown: false, attempts: 2, response: [1], credit: 0.6667, misses: 1 },
    c: { correct: false, solutionShown: true, attempts: 0, response: [], credit: 0, misses: 1 },
    gone: { ...entry(true) },
  };
  assert.deepEqual(tally(['a', 'b', 'c', 'd'], progress), {
    answered: 3,
    points: 1.6667,
    full: 1,
    revealed: 1,
    total: 4,
    scaled: (5 * CREDIT_STEP) / 4,
  });
  // the share an LMS gets counts whole thirds: 1⅔ of 2 is 0.8333…, where 1.6667 / 2 rounds to 0.8334
  const two = tally(['a', 'b'], progress);
  assert.equal(two.points, 1.6667);
  assert.equal(Math.round(two.scaled * 10000) / 10000, 0.8333);
  assert.equal(Math.round(two.scaled * 10000) / 100, 83.33);
  assert.equal(tally([], progress).scaled, 0);
  assert.deepEqual([0, 0.3333, 0.6667, 1, 1.6667, 12.3333, 0.5].map(formatPoints), [
    '0',
    '⅓',
    '⅔',
    '1',
    '1⅔',
    '12⅓',
    '0.5',
  ]);
});

test("typed answers are kept as strings (an exercise's parts), within their length", () => {
  assert.ok(validEntry({ correct: false, solutionShown: false, attempts: 1, response: ['2*pi*b^(2*i/d)', '12.5'] }));
  assert.ok(!validEntry({ correct: false, solutionShown: false, attempts: 1, response: ['x'.repeat(301)] }));
  assert.ok(!validEntry({ correct: false, solutionShown: false, attempts: 1, response: [1, 'mixed'] }));
  assert.ok(!validEntry({ correct: false, solutionShown: false, attempts: 1, response: [], credit: 1.5 }));
  assert.ok(!validEntry({ correct: false, solutionShown: false, attempts: 1, response: [], misses: -1 }));
});

// One learner's path through a question, as the widgets call progress.js: a
// wrong check, then a right one. -> what the right one earned and the credit stored.
function wrongThenRight(id) {
  saveEntry(id, afterCheck(loadProgress()[id], { right: false, response: [0] }).entry);
  const { entry, earned } = afterCheck(loadProgress()[id], { right: true, response: [1] });
  saveEntry(id, entry);
  return { earned, credit: loadProgress()[id]?.credit };
}

function refusing(items = {}, { reads = true } = {}) {
  const s = new MemoryStorage(items);
  s.setItem = () => {
    throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
  };
  s.removeItem = s.setItem;
  if (!reads)
    s.getItem = () => {
      throw new DOMException('The operation is insecure.', 'SecurityError');
    };
  return s;
}

test('without usable storage, progress is kept in memory for the page view, under the same credit rule', () => {
  const throwingGetter = () =>
    Object.defineProperty(globalThis, 'localStorage', {
      get: () => {
        throw new DOMException('The operation is insecure.', 'SecurityError');
      },
      configurable: true,
    });
  const contexts = {
    'no localStorage at all': () => withStorage(undefined),
    'localStorage that throws on access (a sandboxed frame)': throwingGetter,
    'localStorage that refuses every write (a full quota)': () => withStorage(refusing()),
    'localStorage that throws on every call (site data blocked)': () => withStorage(refusing({}, { reads: false })),
  };
  for (const [name, install] of Object.entries(contexts)) {
    install();
    assert.equal(progressHome(), 'page', name);
    // a miss counts: a right answer after it earns 2/3, not 1
    assert.deepEqual(wrongThenRight(`q-${name.length}`), { earned: 0.6667, credit: 0.6667 }, name);
    // the solution shown counts too, and a typed answer is kept
    const id = `s-${name.length}`;
    saveEntry(id, afterSolution(undefined, { response: ['2*pi'] }));
    assert.deepEqual(loadProgress()[id].response, ['2*pi'], name);
    const { earned } = afterCheck(loadProgress()[id], { right: true, response: ['x'] });
    assert.equal(earned, 0, name);
    // the seed holds for the page view, and a reset starts a new attempt there too
    const seed = learnerSeed(() => 4242);
    assert.equal(
      learnerSeed(() => 1),
      seed,
      name,
    );
    const before = attempt();
    resetProgress();
    assert.deepEqual(loadProgress(), {}, name);
    assert.notEqual(
      learnerSeed(() => 4242),
      seed,
      name,
    );
    assert.equal(attempt(), before + 1, name);
    delete globalThis.localStorage;
  }
});

test('storage that refuses writes carries what it holds into memory; a write refused later moves everything there', () => {
  const stored = { [progressKey]: JSON.stringify({ earlier: entry(true) }) };
  withStorage(refusing(stored));
  assert.equal(progressHome(), 'page');
  assert.deepEqual(Object.keys(loadProgress()), ['earlier']);
  wrongThenRight('later');
  assert.deepEqual(Object.keys(loadProgress()).sort(), ['earlier', 'later']);

  // the quota fills up after the page has saved once
  const s = new MemoryStorage();
  withStorage(s);
  assert.equal(progressHome(), 'browser');
  wrongThenRight('first');
  assert.ok(s.getItem(progressKey).includes('first'));
  s.setItem = () => {
    throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
  };
  assert.deepEqual(wrongThenRight('second'), { earned: 0.6667, credit: 0.6667 });
  assert.equal(progressHome(), 'page');
  assert.deepEqual(Object.keys(loadProgress()).sort(), ['first', 'second']);
});

test('the page-only note is given once, and only where progress is kept for the page view', () => {
  withStorage(new MemoryStorage());
  assert.equal(claimPageOnlyNote(), null);
  withStorage(undefined);
  assert.equal(claimPageOnlyNote(), PAGE_ONLY_NOTE);
  assert.equal(claimPageOnlyNote(), null);
});

test('the credit rule as stated matches what the rule does', () => {
  // "1 point when your first check is right, and 1/3 less for each wrong check before the right one"
  assert.match(CREDIT_RULE, /1 point when your first check is right, and ⅓ less for each wrong check/);
  // "Show solution gives up the point for the numbers shown": a written quiz (no new numbers) keeps 0
  let e = afterSolution(undefined, { response: [] });
  assert.equal(afterCheck(e, { right: true, response: [1] }).earned, 0);
  assert.match(CREDIT_RULE, /Show solution gives up the point for the numbers shown/);
  // "... new numbers ... can still earn, with the shown solution counted as a miss"
  e = afterNewDraw(e, { seed: 3 });
  assert.equal(afterCheck(e, { right: true, response: [1] }).earned, creditAfter(1));
  assert.match(
    CREDIT_RULE,
    /new numbers, a right answer on them can still earn, with the shown solution counted as a miss/,
  );
  assert.equal(pointsPhrase(0), 'no points');
  assert.equal(pointsPhrase(0.6667), '⅔ point');
  assert.equal(pointsPhrase(12.3333), '12⅓ points');
  assert.doesNotMatch(earnedText(0.6667, 0.6667), /0 point\b/);
});
