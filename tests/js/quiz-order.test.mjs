// The order quiz options are shown in (web/lib/questions/random.js deriveSeed and
// seededOrder, web/lib/reporting/progress.js learnerSeed): one seed per learner, kept in
// storage; from it each quiz gets its own order, the same on every load, and
// over many learners every option is first about equally often. Stored
// responses are authored indices, so older entries stay valid.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryStorage, withStorage } from './memory-storage.mjs';
import { deriveSeed, seededOrder } from '../../web/lib/questions/random.js';
import {
  learnerSeed,
  learnerSeedKey,
  loadProgress,
  progressKey,
  resetProgress,
  attempt,
} from '../../web/lib/reporting/progress.js';

test('seededOrder is a permutation, the same for the same seed', () => {
  for (const n of [1, 2, 3, 4, 5, 7]) {
    for (let seed = 0; seed < 50; seed++) {
      const order = seededOrder(seed, n);
      assert.deepEqual(
        [...order].sort((a, b) => a - b),
        Array.from({ length: n }, (_, i) => i),
      );
      assert.deepEqual(seededOrder(seed, n), order);
    }
  }
});

test('deriveSeed: 32-bit, stable, different per quiz id and per learner', () => {
  const a = deriveSeed(12345, 'rope-what-rotates');
  assert.equal(a, deriveSeed(12345, 'rope-what-rotates'));
  assert.ok(Number.isInteger(a) && a >= 0 && a < 2 ** 32);
  assert.notEqual(a, deriveSeed(12345, 'rope-what-rotate'));
  assert.notEqual(a, deriveSeed(12346, 'rope-what-rotates'));
  const ids = Array.from({ length: 200 }, (_, i) => `quiz-${i}`);
  assert.equal(new Set(ids.map((id) => deriveSeed(7, id))).size, ids.length);
});

test('over learners and quizzes, each option is shown first about equally often', () => {
  for (const n of [3, 4, 5]) {
    const first = new Array(n).fill(0);
    let trials = 0;
    for (let learner = 0; learner < 400; learner++) {
      for (const id of [
        'why-position-shuffle-outputs',
        'sinusoidal-fastest-pair',
        'rope-what-rotates',
        'alibi-slopes',
      ]) {
        first[seededOrder(deriveSeed(learner * 7919, id), n)[0]]++;
        trials++;
      }
    }
    for (const count of first)
      assert.ok(Math.abs(count / trials - 1 / n) < 0.04, `n = ${n}: first-place counts ${first}`);
  }
});

test('a learner seed is made once and kept in storage; "Reset my answers" starts a new attempt with a new seed', () => {
  const s = new MemoryStorage();
  withStorage(s);
  let made = 0;
  const make = () => (made++, 987654321);
  assert.equal(learnerSeed(make), 987654321);
  assert.equal(s.getItem(learnerSeedKey), '987654321');
  assert.equal(learnerSeed(make), 987654321);
  assert.equal(made, 1);
  assert.equal(attempt(), 1);
  // a reset draws every question anew: a revealed answer cannot be typed back on the same numbers
  resetProgress();
  const after = learnerSeed(make);
  assert.notEqual(after, 987654321);
  assert.equal(s.getItem(learnerSeedKey), String(after));
  assert.equal(made, 1, 'the reset made the seed, not learnerSeed');
  assert.equal(attempt(), 2);
  resetProgress(['one-quiz']);
  assert.equal(attempt(), 3);
  // another learner (another browser) has another seed
  withStorage(new MemoryStorage({ [learnerSeedKey]: '42' }));
  assert.equal(learnerSeed(make), 42);
});

test('a corrupt learner seed is replaced; no storage still gives one seed per page load', () => {
  for (const bad of ['abc', '-1', '1.5', String(2 ** 32), '']) {
    const s = new MemoryStorage({ [learnerSeedKey]: bad });
    withStorage(s);
    const seed = learnerSeed(() => 5);
    assert.ok(Number.isInteger(seed) && seed >= 0 && seed < 2 ** 32, bad);
    assert.equal(s.getItem(learnerSeedKey), String(seed));
  }
  withStorage(undefined);
  const once = learnerSeed(() => 77);
  assert.equal(
    learnerSeed(() => 78),
    once,
  );
  Object.defineProperty(globalThis, 'localStorage', {
    get: () => {
      throw new Error('SecurityError');
    },
    configurable: true,
  });
  assert.equal(
    learnerSeed(() => 79),
    once,
  );
});

test('entries keep their seed and view; old entries (no view, authored indices) still load; bad ones are dropped', () => {
  const entries = {
    'old-entry': { correct: true, solutionShown: false, attempts: 2, response: [0] },
    'new-entry': {
      correct: false,
      solutionShown: true,
      attempts: 1,
      response: [2, 3],
      seed: 4000000000,
      view: 'check',
    },
    'bad-view': { correct: false, solutionShown: true, attempts: 1, response: [1], view: 'everything' },
    'bad-seed': { correct: false, solutionShown: false, attempts: 1, response: [1], seed: -3 },
  };
  withStorage(new MemoryStorage({ [progressKey]: JSON.stringify(entries) }));
  // entries from before credit existed get it: 1 where correct meant "credit earned", no misses
  assert.deepEqual(loadProgress(), {
    'old-entry': { ...entries['old-entry'], credit: 1, misses: 0 },
    'new-entry': { ...entries['new-entry'], credit: 0, misses: 0 },
  });
});
