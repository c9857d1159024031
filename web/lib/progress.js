// Progress of the lesson's questions (quizzes and exercises) in
// localStorage, under one key, so it survives a reload and one "reset" clears
// it. Whatever is stored is checked before use: data that is corrupted, from
// an older version, or written by someone else is discarded and the page
// carries on with a clean slate.
//
// Credit (the one rule, said to the learner above the score): a question
// earns 1 point when its first check is right; each wrong check, and each
// solution shown before a right answer, takes CREDIT_STEP (a third) off what
// a later right answer can earn, never below 0 (Moodle's "interactive with
// multiple tries" works this way). A right answer after "Show solution" earns
// nothing for those numbers. "New numbers" is practice: it never takes away
// credit already earned, and the misses so far still count.
const KEY = 'posenc-course:quiz-progress:v1';
const SEED_KEY = 'posenc-course:learner-seed:v1';
const EVENT = 'pe-progress';

export const CREDIT_STEP = 1 / 3;
const round4 = (x) => Math.round(x * 10000) / 10000;
/** What a right answer earns after `misses` wrong checks or shown solutions: 1, 2/3, 1/3, then 0. */
export const creditAfter = (misses) => Math.max(0, round4(1 - misses * CREDIT_STEP));

// entry: { credit, misses, attempts, correct, solutionShown, response, seed?, view? }
//   credit         the best credit earned on this question, 0 to 1
//   misses         wrong checks, and solutions shown before a right answer, on every draw of it
//   attempts       checks, on every draw
//   correct        the current draw's last check was right (with credit or not)
//   solutionShown  the current draw's solution was shown; a right answer after it earns nothing
//   response       the current draw's last answer: a quiz's picks as indices in the authored
//                  (generated) option order, or an exercise's typed text, one string per part
//   seed           written quizzes: the seed of the displayed option order; generated
//                  quizzes and exercises: of the question's numbers (and order)
//   view           what the question showed last: the checked answer or the solution
// Entries written before credit existed ({ correct, solutionShown, attempts, response }, where
// correct meant "credit earned") are read as credit 1 or 0 with no misses.
export function validEntry(e) {
  if (e === null || typeof e !== 'object' || Array.isArray(e)) return false;
  const responseOk =
    Array.isArray(e.response) &&
    e.response.length <= 16 &&
    (e.response.every((i) => Number.isInteger(i) && i >= 0 && i < 16) ||
      e.response.every((t) => typeof t === 'string' && t.length <= MAX_TYPED));
  return (
    typeof e.correct === 'boolean' &&
    typeof e.solutionShown === 'boolean' &&
    Number.isInteger(e.attempts) &&
    e.attempts >= 0 &&
    responseOk &&
    (e.credit === undefined || (typeof e.credit === 'number' && e.credit >= 0 && e.credit <= 1)) &&
    (e.misses === undefined || (Number.isInteger(e.misses) && e.misses >= 0)) &&
    (e.seed === undefined || isSeed(e.seed)) &&
    (e.view === undefined || e.view === 'check' || e.view === 'solution')
  );
}

/** Longest typed answer (per part) that progress keeps. */
export const MAX_TYPED = 300;

/** A valid entry in today's shape (an older entry gets credit and misses). */
export function normalEntry(e) {
  if (e.credit !== undefined && e.misses !== undefined) return e;
  // before credit existed, correct meant "credit earned" (and stayed set)
  return { ...e, credit: e.credit ?? (e.correct ? 1 : 0), misses: e.misses ?? 0 };
}

const EMPTY = { credit: 0, misses: 0, attempts: 0, correct: false, solutionShown: false, response: [] };

/**
 * The entry after one check of the current draw; `earned` is what this check
 * earned (0 unless right before the solution was shown).
 */
export function afterCheck(before, { right, response, seed }) {
  const e = before ? normalEntry(before) : EMPTY;
  const earned = right && !e.solutionShown ? creditAfter(e.misses) : 0;
  const entry = {
    credit: Math.max(e.credit, earned),
    misses: right || e.solutionShown ? e.misses : e.misses + 1,
    attempts: e.attempts + 1,
    correct: right,
    solutionShown: e.solutionShown,
    response,
    view: 'check',
  };
  if (seed !== undefined) entry.seed = seed;
  return { entry, earned };
}

/** The entry after "Show solution" on the current draw: a miss, unless it was answered right already. */
export function afterSolution(before, { response, seed }) {
  const e = before ? normalEntry(before) : EMPTY;
  const entry = {
    ...e,
    misses: e.correct || e.solutionShown ? e.misses : e.misses + 1,
    solutionShown: true,
    response,
    view: 'solution',
  };
  if (seed !== undefined) entry.seed = seed;
  return entry;
}

/** The entry after "New numbers": credit, misses and attempts stay; the draw starts afresh. */
export function afterNewDraw(before, { seed }) {
  if (!before) return null;
  const e = normalEntry(before);
  return {
    credit: e.credit,
    misses: e.misses,
    attempts: e.attempts,
    correct: false,
    solutionShown: false,
    response: [],
    seed,
  };
}

/**
 * Counts over the lesson's questions: answered (checked or solution shown),
 * points (the sum of credit), full (earned 1), revealed (solution shown, no
 * credit), total.
 */
export function tally(ids, progress) {
  let answered = 0;
  let points = 0;
  let full = 0;
  let revealed = 0;
  for (const id of ids) {
    const e = progress[id];
    if (!e) continue;
    if (e.attempts > 0 || e.solutionShown) answered += 1;
    const credit = normalEntry(e).credit;
    points += credit;
    if (credit === 1) full += 1;
    if (e.solutionShown && credit === 0) revealed += 1;
  }
  return { answered, points: round4(points), full, revealed, total: ids.length };
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

/** All stored entries, { questionId: entry }, in today's shape; invalid data is dropped. */
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
  for (const [id, e] of Object.entries(parsed))
    if (/^[a-z0-9-]{1,80}$/.test(id) && validEntry(e)) clean[id] = normalEntry(e);
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

/** Clears every question's progress, or only that of `ids` (a score that counts part of the lesson). */
export function resetProgress(ids) {
  try {
    if (ids === undefined) storage()?.removeItem(KEY);
    else {
      const kept = Object.fromEntries(Object.entries(loadProgress()).filter(([id]) => !ids.includes(id)));
      if (Object.keys(kept).length) storage()?.setItem(KEY, JSON.stringify(kept));
      else storage()?.removeItem(KEY);
    }
  } catch {
    // nothing stored
  }
  globalThis.dispatchEvent?.(
    new CustomEvent(EVENT, { detail: ids === undefined ? { reset: true } : { reset: true, ids: [...ids] } }),
  );
}

export function onProgress(listener) {
  globalThis.addEventListener?.(EVENT, listener);
  return () => globalThis.removeEventListener?.(EVENT, listener);
}

export const progressKey = KEY;
export const learnerSeedKey = SEED_KEY;

/** Points as a learner reads them: thirds as ⅓ and ⅔ ("12⅔", "⅓", "0"), anything else to two decimals. */
export function formatPoints(x) {
  const thirds = Math.round(x * 3);
  // credit is kept to 4 decimals, so ⅔ arrives as 0.6667
  if (Math.abs(x * 3 - thirds) > 1e-3) return (Math.round(x * 100) / 100).toString();
  const whole = Math.floor(thirds / 3);
  const frac = ['', '⅓', '⅔'][thirds % 3];
  return whole === 0 && frac ? frac : `${whole}${frac}`;
}

/** The credit rule in one sentence, shown above the score (and in docs/embedding.md, "Credit"). */
export const CREDIT_RULE =
  'Each question earns 1 point when your first check is right; each wrong check, and each solution you show before answering right, takes ⅓ off what it can still earn. New numbers never take away points you have earned.';

/** What a right answer earned, in a sentence: "1 point.", "⅔ point, after earlier misses or a shown solution." (each takes a third), with the best kept when it is higher. */
export function earnedText(earned, best) {
  const got =
    earned === 1
      ? '1 point.'
      : earned > 0
        ? `${formatPoints(earned)} point, after earlier misses or a shown solution.`
        : 'No point: it came after three misses.';
  return best > earned ? `${got} Your best on this question stays ${formatPoints(best)}.` : got;
}
