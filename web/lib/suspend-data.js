// Quiz progress as a short string for an LMS's suspend_data (SCORM 1.2
// allows 4,096 characters): the same entries as web/lib/progress.js keeps in
// localStorage, written compactly.
//
//   pe1~<learner seed>~<quiz id>.<flags><attempts>.<response>[.<seed>]~...
//
//   learner seed  base 36
//   flags         one base-36 digit: 1 correct (credit earned), 2 solution
//                 shown, 4 the quiz last showed the solution (else the check)
//   attempts      base 36
//   response      the picks as authored indices, one hex digit each
//   seed          base 36, only where it differs from the one the learner seed
//                 gives this quiz (generated quizzes)
//
// Reading never throws: a string of another version or another program
// restores nothing, and a damaged entry is skipped while the others restore.
import { validEntry } from './progress.js';
import { deriveSeed } from './random.js';

const PREFIX = 'pe1';
const isSeed = (x) => Number.isInteger(x) && x >= 0 && x < 2 ** 32;

/**
 * `progress` ({ quizId: entry }) and the learner seed as one string of at most
 * `limit` characters. If every entry does not fit (it does, by far, for this
 * lesson), the responses and then the views go first; the credit stays.
 */
export function encodeProgress(progress, learnerSeed, { limit = 4096 } = {}) {
  for (const level of [0, 1, 2]) {
    const parts = [PREFIX, isSeed(learnerSeed) ? learnerSeed.toString(36) : ''];
    for (const [id, e] of Object.entries(progress)) {
      if (!/^[a-z0-9-]{1,80}$/.test(id) || !validEntry(e)) continue;
      const flags = (e.correct ? 1 : 0) | (e.solutionShown ? 2 : 0) | (level < 2 && e.view === 'solution' ? 4 : 0);
      let s = `${id}.${flags.toString(36)}${Math.min(e.attempts, 36 ** 4 - 1).toString(36)}.${level < 1 ? e.response.map((i) => i.toString(16)).join('') : ''}`;
      if (e.seed !== undefined && !(isSeed(learnerSeed) && e.seed === deriveSeed(learnerSeed, id))) s += `.${e.seed.toString(36)}`;
      parts.push(s);
    }
    const text = parts.join('~');
    if (text.length <= limit || level === 2) return text.length <= limit ? text : `${PREFIX}~${parts[1]}`;
  }
  return PREFIX;
}

/**
 * { progress, learnerSeed } from a stored string; entries of quizzes not in
 * `knownIds` (when given) are dropped. Anything unreadable gives
 * { progress: {}, learnerSeed: null, foreign: true }.
 */
export function decodeProgress(text, { knownIds = null } = {}) {
  const none = { progress: {}, learnerSeed: null, foreign: typeof text === 'string' && text !== '' };
  if (typeof text !== 'string' || text.length > 64000) return none;
  const parts = text.split('~');
  if (parts[0] !== PREFIX || parts.length < 2) return none;
  const known = knownIds ? new Set(knownIds) : null;
  const learnerSeed = /^[0-9a-z]{1,7}$/.test(parts[1]) && isSeed(parseInt(parts[1], 36)) ? parseInt(parts[1], 36) : null;
  const progress = {};
  for (const part of parts.slice(2)) {
    const m = /^([a-z0-9-]{1,80})\.([0-7])([0-9a-z]{1,4})\.([0-9a-f]{0,16})(?:\.([0-9a-z]{1,7}))?$/.exec(part);
    if (!m) continue;
    const [, id, f, attempts, response, seed] = m;
    if (known && !known.has(id)) continue;
    const flags = parseInt(f, 36);
    const entry = {
      correct: (flags & 1) !== 0,
      solutionShown: (flags & 2) !== 0,
      attempts: parseInt(attempts, 36),
      response: [...new Set([...response].map((c) => parseInt(c, 16)))],
      view: flags & 4 ? 'solution' : 'check',
    };
    if (seed !== undefined) entry.seed = parseInt(seed, 36);
    else if (learnerSeed !== null) entry.seed = deriveSeed(learnerSeed, id);
    if (validEntry(entry)) progress[id] = entry;
  }
  return { progress, learnerSeed, foreign: false };
}
