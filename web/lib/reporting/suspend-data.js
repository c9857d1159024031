// Progress as a short string for an LMS's suspend_data (SCORM 1.2 allows
// 4,096 characters): the same entries as web/lib/reporting/progress.js keeps in
// localStorage, written compactly.
//
//   pe2~<learner seed>[+<attempt>]~<id>.<flags><attempts>.<misses>.<credit>.<response>[.<seed>]~...
//
//   learner seed  base 36
//   attempt       base 36: the learner's attempt, from 2 on (after "Reset my
//                 answers"; progress.js, attempt()); absent for the first
//   flags         one base-36 digit: 1 the current numbers were answered
//                 right, 2 their solution was shown, 4 the question last
//                 showed the solution (else the check), 8 the question is an
//                 author's own (progress.js, own)
//   attempts      base 36
//   misses        base 36 (wrong checks and solutions shown before a right answer)
//   credit        the credit earned, in thirds: one digit 0 to 3
//   response      a quiz's picks as authored indices, one hex digit each; or an
//                 exercise's typed parts, "_" then each part percent-encoded
//                 (so it holds no "~", "." or ","), joined by ","
//   seed          base 36, only where it differs from the one the learner seed
//                 gives this question (generated quizzes and exercises)
//
// Strings of the first version (pe1, before credit: <id>.<flags><attempts>.
// <response>[.<seed>], flag 1 meaning "credit earned") are still read.
// Reading never throws: a string of another version or another program
// restores nothing, and a damaged entry is skipped while the others restore.
import { validEntry, normalEntry, MAX_TYPED } from './progress.js';
import { deriveSeed } from '../questions/random.js';

const PREFIX = 'pe2';
const isSeed = (x) => Number.isInteger(x) && x >= 0 && x < 2 ** 32;
const ID = /^[a-z0-9-]{1,80}$/;

// percent-encoding that leaves none of the separators ~ . , in the text
const encodePart = (text) =>
  encodeURIComponent(text).replace(/[.~!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
function decodePart(text) {
  try {
    return decodeURIComponent(text).slice(0, MAX_TYPED);
  } catch {
    return null;
  }
}

function encodeResponse(response) {
  if (response.every((x) => typeof x === 'number')) return response.map((i) => i.toString(16)).join('');
  return `_${response.map(encodePart).join(',')}`;
}

/**
 * `progress` ({ questionId: entry }) and the learner seed as one string of at
 * most `limit` characters. If every entry does not fit (it does, by far, for
 * this lesson), the responses and then the views go first; the credit stays.
 */
export function encodeProgress(progress, learnerSeed, { limit = 4096, attempt = 1 } = {}) {
  const again = Number.isInteger(attempt) && attempt > 1 && attempt < 36 ** 4 ? `+${attempt.toString(36)}` : '';
  for (const level of [0, 1, 2]) {
    const parts = [PREFIX, `${isSeed(learnerSeed) ? learnerSeed.toString(36) : ''}${again}`];
    for (const [id, raw] of Object.entries(progress)) {
      if (!ID.test(id) || !validEntry(raw)) continue;
      const e = normalEntry(raw);
      const flags =
        (e.correct ? 1 : 0) |
        (e.solutionShown ? 2 : 0) |
        (level < 2 && e.view === 'solution' ? 4 : 0) |
        (e.own ? 8 : 0);
      const attempts = Math.min(e.attempts, 36 ** 4 - 1).toString(36);
      const misses = Math.min(e.misses, 36 ** 2 - 1).toString(36);
      const thirds = Math.round(e.credit * 3);
      let s = `${id}.${flags.toString(36)}${attempts}.${misses}.${thirds}.${level < 1 ? encodeResponse(e.response) : ''}`;
      if (e.seed !== undefined && !(isSeed(learnerSeed) && e.seed === deriveSeed(learnerSeed, id)))
        s += `.${e.seed.toString(36)}`;
      parts.push(s);
    }
    const text = parts.join('~');
    if (text.length <= limit || level === 2) return text.length <= limit ? text : `${PREFIX}~${parts[1]}`;
  }
  return PREFIX;
}

function decodeResponse(text) {
  if (text.startsWith('_')) {
    const parts = text.slice(1).split(',').map(decodePart);
    return parts.length <= 16 && !parts.includes(null) ? parts : null;
  }
  if (!/^[0-9a-f]{0,16}$/.test(text)) return null;
  return [...new Set([...text].map((c) => parseInt(c, 16)))];
}

const V2 = /^([a-z0-9-]{1,80})\.([0-9a-f])([0-9a-z]{1,4})\.([0-9a-z]{1,2})\.([0-3])\.([^.~]*)(?:\.([0-9a-z]{1,7}))?$/;
const V1 = /^([a-z0-9-]{1,80})\.([0-7])([0-9a-z]{1,4})\.([0-9a-f]{0,16})(?:\.([0-9a-z]{1,7}))?$/;

/**
 * { progress, learnerSeed, attempt } from a stored string; entries of
 * questions not in `knownIds` (when given) are dropped. Anything unreadable
 * gives { progress: {}, learnerSeed: null, attempt: 1, foreign: true }.
 */
export function decodeProgress(text, { knownIds = null } = {}) {
  const none = { progress: {}, learnerSeed: null, attempt: 1, foreign: typeof text === 'string' && text !== '' };
  if (typeof text !== 'string' || text.length > 64000) return none;
  const parts = text.split('~');
  const version = parts[0];
  if ((version !== PREFIX && version !== 'pe1') || parts.length < 2) return none;
  const known = knownIds ? new Set(knownIds) : null;
  const [seedText, attemptText] = parts[1].split('+');
  const learnerSeed =
    /^[0-9a-z]{1,7}$/.test(seedText) && isSeed(parseInt(seedText, 36)) ? parseInt(seedText, 36) : null;
  const attempt = /^[0-9a-z]{1,4}$/.test(attemptText ?? '') ? Math.max(1, parseInt(attemptText, 36)) : 1;
  const progress = {};
  for (const part of parts.slice(2)) {
    let id;
    let entry;
    let seed;
    if (version === PREFIX) {
      const m = V2.exec(part);
      if (!m) continue;
      const [, i, f, attempts, misses, thirds, response, s] = m;
      const picks = decodeResponse(response);
      if (!picks) continue;
      const flags = parseInt(f, 36);
      id = i;
      seed = s;
      entry = {
        credit: Math.round((Number(thirds) / 3) * 10000) / 10000,
        misses: parseInt(misses, 36),
        attempts: parseInt(attempts, 36),
        correct: (flags & 1) !== 0,
        solutionShown: (flags & 2) !== 0,
        response: picks,
        view: flags & 4 ? 'solution' : 'check',
      };
      if (flags & 8) entry.own = true;
    } else {
      // pe1: flag 1 meant "credit earned" (a right answer before any solution)
      const m = V1.exec(part);
      if (!m) continue;
      const [, i, f, attempts, response, s] = m;
      const flags = parseInt(f, 36);
      id = i;
      seed = s;
      entry = normalEntry({
        correct: (flags & 1) !== 0,
        solutionShown: (flags & 2) !== 0,
        attempts: parseInt(attempts, 36),
        response: [...new Set([...response].map((c) => parseInt(c, 16)))],
        view: flags & 4 ? 'solution' : 'check',
      });
    }
    if (known && !known.has(id)) continue;
    if (seed !== undefined) entry.seed = parseInt(seed, 36);
    else if (learnerSeed !== null) entry.seed = deriveSeed(learnerSeed, id);
    if (validEntry(entry)) progress[id] = entry;
  }
  return { progress, learnerSeed, attempt, foreign: false };
}
