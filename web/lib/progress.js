// Quiz progress in localStorage, under one key, so it survives a reload and
// one "reset" clears it. Whatever is stored is checked before use: data that
// is corrupted, from an older version, or written by someone else is
// discarded and the page carries on with a clean slate.
const KEY = 'posenc-course:quiz-progress:v1';
const SEED_KEY = 'posenc-course:learner-seed:v1';
const EVENT = 'pe-progress';

// entry: { correct: boolean, solutionShown: boolean, attempts: int, response: int[], seed?: int, view?: 'check' | 'solution' }
//   correct        earned credit: answered right before any "Show solution"
//   solutionShown  the solution was shown once; it stays set, and a later right answer is "revealed"
//   response       the learner's last picks, as indices in the authored (generated) option order
//   seed           written quizzes: the seed of the displayed option order; generated ones: of the question (and order)
//   view           what the quiz showed last: the checked answer or the solution (older entries: solution if solutionShown)
export function validEntry(e) {
  return (
    e !== null &&
    typeof e === 'object' &&
    typeof e.correct === 'boolean' &&
    typeof e.solutionShown === 'boolean' &&
    Number.isInteger(e.attempts) &&
    e.attempts >= 0 &&
    Array.isArray(e.response) &&
    e.response.length <= 16 &&
    e.response.every((i) => Number.isInteger(i) && i >= 0 && i < 16) &&
    (e.seed === undefined || isSeed(e.seed)) &&
    (e.view === undefined || e.view === 'check' || e.view === 'solution')
  );
}

function isSeed(x) {
  return Number.isInteger(x) && x >= 0 && x < 2 ** 32;
}

// A SCORM launch keeps progress with the LMS instead (web/lib/scorm.js):
// it hands in a Storage-like object before any quiz loads.
let storageOverride = null;

/** Keeps progress in `store` ({ getItem, setItem, removeItem }) instead of localStorage. */
export function useStorage(store) {
  storageOverride = store;
}

function storage() {
  if (storageOverride) return storageOverride;
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null; // storage disabled (privacy mode, sandboxed iframe)
  }
}

/** All stored entries, { quizId: entry }; invalid data is dropped. */
export function loadProgress() {
  const s = storage();
  if (!s) return {};
  let parsed;
  try {
    parsed = JSON.parse(s.getItem(KEY) ?? '{}');
  } catch {
    s.removeItem(KEY);
    return {};
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    s.removeItem(KEY);
    return {};
  }
  const clean = {};
  for (const [id, e] of Object.entries(parsed)) if (/^[a-z0-9-]{1,80}$/.test(id) && validEntry(e)) clean[id] = e;
  return clean;
}

/**
 * Removes stored entries of quizzes the lesson no longer has (removed or
 * renamed since they were answered), and invalid ones, from storage; the
 * widgets call it with the lesson's quiz ids when they load. An empty list
 * removes nothing. Never throws.
 */
export function forgetUnknownQuizzes(knownIds) {
  const known = new Set(knownIds);
  if (!known.size) return;
  try {
    const s = storage();
    const before = s?.getItem(KEY);
    if (before === null || before === undefined) return;
    const kept = Object.fromEntries(Object.entries(loadProgress()).filter(([id]) => known.has(id)));
    const after = JSON.stringify(kept);
    if (after === before) return;
    if (Object.keys(kept).length) s.setItem(KEY, after);
    else s.removeItem(KEY);
  } catch {
    // disabled storage or quota: nothing to clean
  }
}

export function saveEntry(id, entry) {
  const all = loadProgress();
  if (entry === null) delete all[id];
  else all[id] = entry;
  try {
    storage()?.setItem(KEY, JSON.stringify(all));
  } catch {
    // quota or disabled storage: progress simply is not kept
  }
  globalThis.dispatchEvent?.(new CustomEvent(EVENT, { detail: { id } }));
}

let sessionSeed = null;

/**
 * This learner's seed (a 32-bit integer), from which each quiz's option order
 * is derived: made once and kept in storage, apart from the answers so that
 * "Reset my answers" does not reshuffle the page. Without storage, one seed
 * per page load. `makeSeed` supplies a new one when needed.
 */
export function learnerSeed(makeSeed) {
  const s = storage();
  try {
    const stored = Number(s?.getItem(SEED_KEY));
    if (s?.getItem(SEED_KEY) && isSeed(stored)) return stored;
  } catch {
    // unreadable storage: a seed for this page load
  }
  sessionSeed ??= makeSeed() >>> 0;
  try {
    s?.setItem(SEED_KEY, String(sessionSeed));
  } catch {
    // quota or disabled storage: the order holds for this page load only
  }
  return sessionSeed;
}

export function resetProgress() {
  try {
    storage()?.removeItem(KEY);
  } catch {
    // nothing stored
  }
  globalThis.dispatchEvent?.(new CustomEvent(EVENT, { detail: { reset: true } }));
}

export function onProgress(listener) {
  globalThis.addEventListener?.(EVENT, listener);
  return () => globalThis.removeEventListener?.(EVENT, listener);
}

export const progressKey = KEY;
export const learnerSeedKey = SEED_KEY;
