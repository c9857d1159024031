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
import { newSeed } from '../questions/random.js';
const KEY = 'posenc-course:quiz-progress:v1';
const SEED_KEY = 'posenc-course:learner-seed:v1';
const ATTEMPT_KEY = 'posenc-course:attempt:v1';
const PROBE_KEY = 'posenc-course:probe';
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
//   own            the question is its author's own (written inside the element, not the
//                  lesson's): forgetUnknownQuizzes keeps it whatever lesson is registered
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
    (e.view === undefined || e.view === 'check' || e.view === 'solution') &&
    (e.own === undefined || e.own === true)
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

/**
 * The entry after "New numbers": credit, misses and attempts stay; the draw
 * starts afresh, from `seed` (with no entry before: nothing earned yet).
 */
export function afterNewDraw(before, { seed }) {
  const e = before ? normalEntry(before) : EMPTY;
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
 * points (the sum of credit, to 4 decimals), full (earned 1), revealed
 * (solution shown, no credit), total, and scaled, the share of the points
 * an LMS is sent: counted in whole steps of credit (each credit is kept to 4
 * decimals, ⅔ as 0.6667), so 1⅔ of 2 is 0.8333…, not 0.83335. Credit comes
 * in steps of CREDIT_STEP (creditAfter); a stored credit off those steps
 * (edited by hand) counts as the nearest step in the share.
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
  const steps = Math.round(points / CREDIT_STEP);
  const scaled = ids.length ? (steps * CREDIT_STEP) / ids.length : 0;
  return { answered, points: round4(points), full, revealed, total: ids.length, scaled };
}

function isSeed(x) {
  return Number.isInteger(x) && x >= 0 && x < 2 ** 32;
}

// Where progress lives. A host that keeps it (a SCORM launch's suspend_data,
// a cmi5 state document) hands in a Storage-like object before any question
// loads (useStorage); an anywidget model hands back what it kept when its
// widget mounts (anywidget-front.js). Otherwise localStorage, if this
// frame may write to it; where it is missing or refuses (a cross-site frame
// with third-party storage blocked, a sandboxed iframe, a browser that
// blocks site data, a full quota), progress is kept in memory for this page
// view, under exactly the same rules: misses, shown solutions and typed
// answers count as they do anywhere else. A write refused later (the quota
// filled up) moves everything to memory from then on.
let storageOverride = null;
let local = { source: undefined, usable: false }; // the localStorage last probed
const pageMemory = new Map();

/** A Storage-like object ({ getItem, setItem, removeItem }) over `map`, for a host that keeps progress itself. */
export function memoryStorage(map = new Map()) {
  return {
    getItem: (k) => (map.has(k) ? map.get(k) : null),
    setItem: (k, v) => void map.set(k, String(v)),
    removeItem: (k) => void map.delete(k),
  };
}
const pageStore = memoryStorage(pageMemory);
const OUR_KEYS = () => [KEY, SEED_KEY, ATTEMPT_KEY];

/** Keeps progress in `store` ({ getItem, setItem, removeItem }) instead of localStorage. */
export function useStorage(store) {
  storageOverride = store;
}

function readLocal() {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null; // a sandboxed iframe or blocked storage throws on the very access
  }
}

// copies what `s` holds of ours into the page's memory (whatever is readable)
function toMemory(s) {
  pageMemory.clear();
  for (const k of OUR_KEYS()) {
    try {
      const v = s?.getItem(k);
      if (v !== null && v !== undefined) pageMemory.set(k, String(v));
    } catch {
      // unreadable: nothing to carry over
    }
  }
}

function storage() {
  if (storageOverride) return storageOverride;
  const s = readLocal();
  if (s !== local.source) {
    // first use on this page (or, in the node tests, another stand-in): may this frame write?
    local = { source: s, usable: false };
    try {
      if (s) {
        s.setItem(PROBE_KEY, '1');
        s.removeItem(PROBE_KEY);
        local.usable = true;
      }
    } catch {
      local.usable = false;
    }
    if (!local.usable) toMemory(s);
  }
  return local.usable ? s : pageStore;
}

// a write localStorage refuses (the quota) moves progress to memory, and the write goes there
function write(k, v) {
  const s = storage();
  try {
    if (v === null) s.removeItem(k);
    else s.setItem(k, v);
    return;
  } catch {
    if (s !== local.source) return; // a host's store that throws: its own adapter reports it
  }
  toMemory(s);
  local.usable = false;
  if (v === null) pageMemory.delete(k);
  else pageMemory.set(k, v);
}

/**
 * Where progress is kept: 'host' (an LMS or notebook keeps it), 'browser'
 * (localStorage: it survives a reload) or 'page' (memory: this page view only).
 */
export function progressHome() {
  if (storageOverride) return 'host';
  return storage() === pageStore ? 'page' : 'browser';
}

/** What a learner is told, once per page, where progress is kept for this page view only. */
export const PAGE_ONLY_NOTE =
  'Your answers are kept for this page only: this page may not store them, so they are gone after a reload.';
let noteClaimed = false;

/** The page-only note for the first element that asks (then null): said once, quietly. */
export function claimPageOnlyNote() {
  if (noteClaimed || progressHome() !== 'page') return null;
  noteClaimed = true;
  return PAGE_ONLY_NOTE;
}

/** All stored entries, { questionId: entry }, in today's shape; invalid data is dropped. */
export function loadProgress() {
  let parsed;
  try {
    parsed = JSON.parse(storage().getItem(KEY) ?? '{}');
  } catch {
    write(KEY, null);
    return {};
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    write(KEY, null);
    return {};
  }
  const clean = {};
  for (const [id, e] of Object.entries(parsed))
    if (/^[a-z0-9-]{1,80}$/.test(id) && validEntry(e)) clean[id] = normalEntry(e);
  return clean;
}

// the whole progress, or no key at all when it is empty
const writeAll = (all) => write(KEY, Object.keys(all).length ? JSON.stringify(all) : null);

/**
 * Removes stored entries of quizzes the lesson no longer has (removed or
 * renamed since they were answered), and invalid ones, from storage; the
 * widgets call it with the lesson's quiz ids when they load. An author's own
 * questions' entries (own: true) stay: the lesson cannot know their ids. An
 * empty list removes nothing. Never throws.
 */
export function forgetUnknownQuizzes(knownIds) {
  const known = new Set(knownIds);
  if (!known.size) return;
  let before;
  try {
    before = storage().getItem(KEY);
  } catch {
    return; // a host's store that throws: nothing to clean
  }
  if (before === null || before === undefined) return;
  const kept = Object.fromEntries(Object.entries(loadProgress()).filter(([id, e]) => known.has(id) || e.own));
  if (JSON.stringify(kept) !== before) writeAll(kept);
}

export function saveEntry(id, entry) {
  const all = loadProgress();
  if (entry === null) delete all[id];
  else all[id] = entry;
  write(KEY, JSON.stringify(all));
  globalThis.dispatchEvent?.(new CustomEvent(EVENT, { detail: { id } }));
}

function readSeed() {
  try {
    const text = storage().getItem(SEED_KEY);
    return text && isSeed(Number(text)) ? Number(text) : null;
  } catch {
    return null;
  }
}

/**
 * This learner's seed (a 32-bit integer), from which each quiz's option
 * order and each exercise's numbers are derived: made once and kept with the
 * progress (so a reload shows the same numbers), and made anew by "Reset my
 * answers", which starts a new attempt with new numbers. `makeSeed` supplies
 * a new one when needed.
 */
export function learnerSeed(makeSeed) {
  const stored = readSeed();
  if (stored !== null) return stored;
  const seed = makeSeed() >>> 0;
  write(SEED_KEY, String(seed));
  return readSeed() ?? seed;
}

/** The learner's attempt at the lesson: 1, and one more after each "Reset my answers". */
export function attempt() {
  try {
    const n = Number(storage().getItem(ATTEMPT_KEY));
    return Number.isInteger(n) && n >= 1 && n < 36 ** 4 ? n : 1;
  } catch {
    return 1;
  }
}

/**
 * Clears every question's progress, or only that of `ids` (a score that
 * counts part of the lesson), and starts a new attempt: the attempt number
 * goes up and the learner gets a new seed, so every exercise and generated
 * quiz draws new numbers and every written quiz a new order (a revealed
 * answer cannot be typed back for credit). The event's detail says
 * { reset: true, attempt, ids? }, for the reports (SCORM, cmi5, xAPI).
 */
export function resetProgress(ids) {
  if (ids === undefined) write(KEY, null);
  else writeAll(Object.fromEntries(Object.entries(loadProgress()).filter(([id]) => !ids.includes(id))));
  const next = attempt() + 1;
  // the seed before the attempt: another tab redraws when it hears of the
  // attempt (watchOtherTabs), and must read the new seed then
  write(SEED_KEY, String(newSeed() >>> 0));
  write(ATTEMPT_KEY, String(next));
  const detail = { reset: true, attempt: next };
  if (ids !== undefined) detail.ids = [...ids];
  globalThis.dispatchEvent?.(new CustomEvent(EVENT, { detail }));
}

// Another tab of the same learner changed the progress: said to the page's
// listeners as a progress event { external: true } (with reset: true for a
// new attempt there), so the score board and the questions follow it.
let watchingOtherTabs = false;
function watchOtherTabs() {
  if (watchingOtherTabs || typeof globalThis.addEventListener !== 'function') return;
  watchingOtherTabs = true;
  globalThis.addEventListener('storage', (e) => {
    if (storageOverride || !local.usable || (e.key !== null && !OUR_KEYS().includes(e.key))) return;
    // a new attempt there (or storage cleared) is a reset here: every question draws anew
    const reset = e.key === null || e.key === ATTEMPT_KEY;
    globalThis.dispatchEvent(
      new CustomEvent(EVENT, { detail: reset ? { external: true, reset: true } : { external: true } }),
    );
  });
}

/** Calls `listener(event)` after every change of progress, on this page or in another tab; returns the unsubscribe. */
export function onProgress(listener) {
  watchOtherTabs();
  globalThis.addEventListener?.(EVENT, listener);
  return () => globalThis.removeEventListener?.(EVENT, listener);
}

export const progressKey = KEY;
export const learnerSeedKey = SEED_KEY;
export const attemptKey = ATTEMPT_KEY;

/** Points as a learner reads them: thirds as ⅓ and ⅔ ("12⅔", "⅓", "0"), anything else to two decimals. */
export function formatPoints(x) {
  const thirds = Math.round(x * 3);
  // credit is kept to 4 decimals, so ⅔ arrives as 0.6667
  if (Math.abs(x * 3 - thirds) > 1e-3) return (Math.round(x * 100) / 100).toString();
  const whole = Math.floor(thirds / 3);
  const frac = ['', '⅓', '⅔'][thirds % 3];
  return whole === 0 && frac ? frac : `${whole}${frac}`;
}

/** An amount of credit as a phrase: "1 point", "⅔ point", "no points", "12⅓ points". */
export function pointsPhrase(x) {
  if (x === 0) return 'no points';
  return `${formatPoints(x)} ${x <= 1 ? 'point' : 'points'}`;
}

/**
 * The credit rule, shown above the score (and in docs/embedding.md,
 * "Credit"): what afterCheck, afterSolution and afterNewDraw do, in words.
 */
export const CREDIT_RULE =
  'A question earns 1 point when your first check is right, and ⅓ less for each wrong check before the right one. Show solution gives up the point for the numbers shown; where a question offers new numbers, a right answer on them can still earn, with the shown solution counted as a miss. New numbers never take away points you have earned.';

/** What a right answer earned, in a sentence ("1 point.", "⅔ point: ⅓ off for each earlier miss."), with the best kept when it is higher. */
export function earnedText(earned, best) {
  const got =
    earned === 1
      ? '1 point.'
      : earned > 0
        ? `${pointsPhrase(earned)}: ⅓ off for each earlier wrong check or shown solution.`
        : 'No points: three or more wrong checks or shown solutions came before it.';
  return best > earned ? `${got} Your best on this question stays ${pointsPhrase(best)}.` : got;
}
