// Quiz progress in storage (web/lib/progress.js), with an in-memory
// localStorage: entries of quizzes the lesson no longer has are removed,
// current ones kept, and nothing throws on storage that is broken or absent.
// (tests/browser/reliability.test.mjs covers the same in Chromium.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryStorage, withStorage } from './memory-storage.mjs';
import { loadProgress, forgetUnknownQuizzes, progressKey } from '../../web/lib/progress.js';

const entry = (correct) => ({ correct, solutionShown: false, attempts: 1, response: [0] });

test('stored progress of quizzes the lesson no longer has is removed; current quizzes keep theirs', () => {
  const s = new MemoryStorage({ [progressKey]: JSON.stringify({ 'kept-quiz': entry(true), 'removed-quiz': entry(true), 'renamed-quiz': entry(false) }), other: 'untouched' });
  withStorage(s);
  forgetUnknownQuizzes(['kept-quiz', 'never-answered']);
  assert.deepEqual(JSON.parse(s.getItem(progressKey)), { 'kept-quiz': entry(true) });
  assert.deepEqual(loadProgress(), { 'kept-quiz': entry(true) });
  assert.equal(s.getItem('other'), 'untouched');
  forgetUnknownQuizzes(['kept-quiz']); // again: nothing changes
  assert.deepEqual(loadProgress(), { 'kept-quiz': entry(true) });
});

test('only stale or invalid entries: the key is removed; no known ids: nothing is touched', () => {
  const s = new MemoryStorage({ [progressKey]: JSON.stringify({ 'removed-quiz': entry(true), 'current-quiz': { correct: 'yes' } }) });
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
  Object.defineProperty(globalThis, 'localStorage', { get: () => { throw new Error('SecurityError'); }, configurable: true });
  assert.doesNotThrow(() => forgetUnknownQuizzes(['a-quiz']));
});
