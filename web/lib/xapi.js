// xAPI statements for the lesson's questions (quizzes and exercises), shaped
// like H5P's (its `answered` and its content-level `completed`), so an LRS or
// an LMS that reads H5P's statements reads ours the same way; and where they
// go (configureXapi: in-page events only by default, or a learning record
// store through the queue of lrs-queue.js).
//
//   answered   verb http://adlnet.gov/expapi/verbs/answered; object an Activity
//              with a stable IRI per question and a cmi.interaction definition
//              (name, interactionType "choice" for a quiz, "numeric" for an
//              exercise with one number to type, "fill-in" for a formula or
//              several parts; correctResponsesPattern; a quiz's choices with
//              ids); result with the response (choice ids joined with "[,]",
//              the number, or the typed text), success (the answer is right
//              and the solution was not shown) and score (the credit this
//              answer earned: 1 at the first try, a third less per earlier
//              miss, 0 when wrong or after "Show solution"); context parent
//              the question's section, grouping the lesson
//   completed  verb http://adlnet.gov/expapi/verbs/completed; object the lesson;
//              result with the total score (the sum of credit), once every
//              question has an answer
//
// Every statement is complete when it is made (at the answer, not when it is
// sent): id (a UUID v4, so a retry is the same statement), timestamp, actor
// (the configured learner, else an anonymous account kept per browser),
// context.registration (the launch's, else one kept per browser),
// context.platform and context.language.
//
// Choice ids are the options' authored indices ("0", "1", ...): the order
// each learner sees is shuffled, the ids are not.
import { tally, loadProgress } from './progress.js';
import { quizzes, exercises } from '../gen/lesson-data.js';
import { questionIdsIn, selectedSections } from './sections.js';
import { createLrsQueue } from './lrs-queue.js';
import {
  UUID,
  LANGUAGE_TAG,
  isPlainObject,
  show,
  checkEndpoint,
  checkAuth,
  checkBase,
  checkAgent,
} from './xapi-checks.js';

// cmi5.js checks its launch's actor the same way
export { checkAgent };

/** The IRI base nobody configured: a placeholder, the same wherever the lesson runs. */
export const DEFAULT_ACTIVITY_BASE = 'https://posenc-course.example/positional-encoding';
export const LESSON_NAME = 'Positional encoding, computed live';
export const DEFAULT_PLATFORM = 'posenc-course';
export const DEFAULT_LANGUAGE = 'en-US';
/** The launch query parameters read by configureFromLaunch (Rustici's "TinCan launch", plus language). */
export const LAUNCH_PARAMS = ['endpoint', 'auth', 'actor', 'registration', 'activity_id', 'language'];
/** The window event that says how sending goes: detail { state, message, pending, endpoint }. */
export const STATUS_EVENT = 'posenc-xapi-status';

// The base of every activity IRI (the lesson's own IRI), configurable with
// configureXapi({ activityBase }); these follow it (live bindings).
export let ACTIVITY_BASE = DEFAULT_ACTIVITY_BASE;
export let LESSON_IRI = ACTIVITY_BASE;
export let REVEALED_EXTENSION = `${ACTIVITY_BASE}/extensions/revealed`;
export const quizIri = (quizId) => `${ACTIVITY_BASE}/quiz/${encodeURIComponent(quizId)}`;
export const sectionIri = (sectionId) => `${ACTIVITY_BASE}/section/${encodeURIComponent(sectionId)}`;

const LEARNER_KEY = 'posenc-course:xapi-learner:v1';

// what configureXapi set; auth stays here only (never stored)
const config = {
  endpoint: null,
  auth: null,
  actor: null,
  registration: null,
  language: DEFAULT_LANGUAGE,
  platform: DEFAULT_PLATFORM,
};
let status = {
  state: 'off',
  message: 'No LRS configured: statements are in-page events only.',
  pending: 0,
  endpoint: null,
};
let queue = null;

const VERBS = {
  answered: 'http://adlnet.gov/expapi/verbs/answered',
  completed: 'http://adlnet.gov/expapi/verbs/completed',
};
const verb = (name) => ({ id: VERBS[name], display: { [config.language]: name } });
const round = (x) => Math.round(x * 10000) / 10000;
const lessonActivity = () => ({ id: LESSON_IRI, objectType: 'Activity' });

/** The section of the lesson that holds a quiz or an exercise, or null. */
export function sectionOf(questionId) {
  const q = Object.hasOwn(quizzes, questionId)
    ? quizzes[questionId]
    : Object.hasOwn(exercises, questionId)
      ? exercises[questionId]
      : null;
  return typeof q?.section === 'string' && q.section ? q.section : null;
}

// parent the section where known, with the lesson as grouping; else the lesson
function contextActivities(section) {
  return section
    ? { parent: [{ id: sectionIri(section), objectType: 'Activity' }], grouping: [lessonActivity()] }
    : { parent: [lessonActivity()] };
}

// the fields every statement carries, fixed now (at the answer)
function envelope(statement, activities) {
  const context = {
    registration: config.registration ?? learner().registration,
    platform: config.platform,
    language: config.language,
  };
  if (activities) context.contextActivities = activities;
  return {
    id: uuid(),
    timestamp: new Date().toISOString(),
    actor: config.actor ?? anonymousActor(),
    ...statement,
    context,
  };
}

/**
 * The `answered` statement for one checked question, from the detail of a
 * `pe-quiz-answered` event: { quizId, kind ('choice' | 'numeric' |
 * 'fill-in'), question, correct, revealed, score (the credit this answer
 * earned), and for a quiz options, choices, correctChoices; for an exercise
 * response (the typed text, or the number) and correctPattern }; `section`
 * (optional) names the lesson section, else the lesson data says.
 */
export function answeredStatement(d) {
  const ids = (list) => list.map(String).join('[,]');
  const lang = config.language;
  const kind = d.kind ?? 'choice';
  const credit = d.correct === true && d.revealed !== true ? Math.max(0, Math.min(1, Number(d.score) || 0)) : 0;
  const definition = {
    name: { [lang]: clip(d.question || d.quizId, 1000) },
    type: 'http://adlnet.gov/expapi/activities/cmi.interaction',
    interactionType: kind,
  };
  let response;
  if (kind === 'choice') {
    definition.correctResponsesPattern = [ids(d.correctChoices ?? [])];
    definition.choices = (d.options ?? []).map((text, i) => ({
      id: String(i),
      description: { [lang]: clip(text, 1000) },
    }));
    response = ids(d.choices ?? []);
  } else {
    definition.correctResponsesPattern = [clip(String(d.correctPattern ?? ''), 1000)];
    response = clip(String(d.response ?? ''), 1000);
  }
  const section = typeof d.section === 'string' && d.section ? d.section : sectionOf(d.quizId);
  return envelope(
    {
      verb: verb('answered'),
      object: { objectType: 'Activity', id: quizIri(d.quizId), definition },
      result: {
        response,
        success: d.correct === true && d.revealed !== true,
        completion: true,
        score: { raw: round(credit), min: 0, max: 1, scaled: round(credit) },
        extensions: { [REVEALED_EXTENSION]: d.revealed === true },
      },
    },
    contextActivities(section),
  );
}

/**
 * The lesson-level `completed` statement: `points` (the sum of credit) out of
 * `total` questions; `passed` when a mastery score is known (omitted
 * otherwise). With `section`, the section is the object and the lesson its
 * parent.
 */
export function completedStatement({ points, total, mastery = null, section = null }) {
  const scaled = total > 0 ? round(points / total) : 0;
  const result = { completion: true, score: { raw: round(points), min: 0, max: total, scaled } };
  if (mastery !== null) result.success = scaled >= mastery;
  const object = section
    ? {
        objectType: 'Activity',
        id: sectionIri(section),
        definition: { type: 'http://adlnet.gov/expapi/activities/module' },
      }
    : {
        objectType: 'Activity',
        id: LESSON_IRI,
        definition: { name: { [config.language]: LESSON_NAME }, type: 'http://adlnet.gov/expapi/activities/lesson' },
      };
  return envelope({ verb: verb('completed'), object, result }, section ? { parent: [lessonActivity()] } : null);
}

/**
 * Calls `send(statement)` for each answer, and once with `completed` when the
 * answer just given was the last question without one. `progress()` returns
 * the stored progress (after the answer has been saved); `questionIds` are the
 * lesson's quizzes and exercises.
 */
export function statementTracker({ questionIds, progress, send, mastery = () => null }) {
  let wasComplete = tally(questionIds, progress()).answered === questionIds.length;
  return (detail) => {
    send(answeredStatement(detail));
    const t = tally(questionIds, progress());
    const complete = questionIds.length > 0 && t.answered === questionIds.length;
    if (complete && !wasComplete) send(completedStatement({ points: t.points, total: t.total, mastery: mastery() }));
    wasComplete = complete;
  };
}

// ------------------------------------------------------------ configuration

const OPTIONS = ['endpoint', 'auth', 'actor', 'activityBase', 'registration', 'language', 'platform'];

/**
 * Where statements go and what they say about the learner. Options (each
 * optional; what is left out keeps its value):
 *   endpoint      the LRS's xAPI endpoint, http(s) (null: no LRS, events only)
 *   auth          the Authorization header ('Basic …', or a token a launch
 *                 gave) or { username, password }
 *   actor         the learner, an xAPI Agent ({ name, mbox: 'mailto:…' }, or
 *                 account { homePage, name }, openid, mbox_sha1sum)
 *   activityBase  the lesson's IRI, under which every question's IRI lies
 *   registration  a UUID (the attempt); else one kept per browser
 *   language      the lesson's language tag (default en-US)
 *   platform      context.platform (default posenc-course)
 * Bad options are named in `errors` (and in console.warn and a
 * posenc-xapi-status event); then nothing is sent to an LRS until a call
 * that is all right. Returns { ok, errors, sending }.
 */
export function configureXapi(options = {}) {
  return apply(options, []);
}

/**
 * The launch's options in a query string (Rustici's "TinCan launch":
 * endpoint, auth, actor (JSON), registration, activity_id; also language):
 * { present, options, errors }; not present for a cmi5 launch (`fetch`).
 */
export function launchOptions(search) {
  const params = new URLSearchParams(search);
  const options = {};
  const errors = [];
  // a cmi5 launch (it has a fetch URL for its token) is the cmi5 AU's to read
  const present = !params.has('fetch') && LAUNCH_PARAMS.some((name) => params.has(name));
  if (params.has('endpoint')) options.endpoint = params.get('endpoint');
  if (params.has('auth')) options.auth = params.get('auth');
  if (params.has('registration')) options.registration = params.get('registration');
  if (params.has('activity_id')) options.activityBase = params.get('activity_id');
  if (params.has('language')) options.language = params.get('language');
  if (params.has('actor')) {
    try {
      options.actor = JSON.parse(params.get('actor'));
    } catch (error) {
      errors.push(
        `The launch parameter actor is not JSON (${error.message}); it must be an xAPI Agent such as {"name":"Ann","mbox":"mailto:ann@example.org"}.`,
      );
    }
  }
  return { present, options, errors };
}

/** configureXapi from the page's launch parameters; null when there are none. */
export function configureFromLaunch(search = globalThis.location?.search ?? '') {
  const { present, options, errors } = launchOptions(search);
  return present ? apply(options, errors) : null;
}

/** What configureXapi set (without the credentials), and how sending goes. */
export function xapiConfig() {
  return { ...config, auth: config.auth ? '(set)' : null, activityBase: ACTIVITY_BASE, status: { ...status } };
}

function apply(options, errors) {
  const next = { ...config };
  let base = ACTIVITY_BASE;
  if (!isPlainObject(options)) {
    errors.push(
      `configureXapi takes an object with ${OPTIONS.join(', ')}; got ${options === null ? 'null' : typeof options}.`,
    );
    options = {};
  }
  for (const key of Object.keys(options))
    if (!OPTIONS.includes(key))
      errors.push(`configureXapi has no option "${key.slice(0, 40)}" (options: ${OPTIONS.join(', ')}).`);
  const given = (key) => Object.hasOwn(options, key) && options[key] !== undefined;
  const check = (key, fn) => {
    if (!given(key)) return;
    const error = fn(options[key]);
    if (error) errors.push(error);
  };
  check('endpoint', (v) => {
    if (v === null || v === '') return void (next.endpoint = null);
    const r = checkEndpoint(v);
    if (r.error) return r.error;
    next.endpoint = r.endpoint;
  });
  check('auth', (v) => {
    if (v === null || v === '') return void (next.auth = null);
    const r = checkAuth(v);
    if (r.error) return r.error;
    next.auth = r.auth;
  });
  check('actor', (v) => {
    if (v === null) return void (next.actor = null);
    const r = checkAgent(v);
    if (r.error) return `The actor is not an xAPI Agent: ${r.error}`;
    next.actor = r.agent;
  });
  check('activityBase', (v) => {
    const r = checkBase(v);
    if (r.error) return r.error;
    base = r.base;
  });
  check('registration', (v) => {
    if (v === null || v === '') return void (next.registration = null);
    if (typeof v !== 'string' || !UUID.test(v))
      return `The registration must be a UUID such as ${uuid()}; got ${show(v)}.`;
    next.registration = v.toLowerCase();
  });
  check('language', (v) => {
    if (typeof v !== 'string' || !LANGUAGE_TAG.test(v))
      return `The language must be a language tag such as en-US; got ${show(v)}.`;
    next.language = v;
  });
  check('platform', (v) => {
    if (typeof v !== 'string' || !v.trim() || v.length > 100)
      return `The platform must be a short text such as posenc-course; got ${show(v)}.`;
    next.platform = v;
  });
  // with an error, nothing goes to an LRS: statements whose learner or
  // address is wrong would land in the wrong place, or nowhere
  if (errors.length) next.endpoint = null;
  const restart = errors.length > 0 || given('endpoint') || given('auth');
  Object.assign(config, next);
  setBase(base);
  if (restart) {
    queue?.stop();
    queue = config.endpoint ? createLrsQueue({ endpoint: config.endpoint, auth: config.auth, onStatus: report }) : null;
  }
  if (errors.length) {
    for (const e of errors) console.warn(`xAPI: ${e}`);
    report({ state: 'config-error', message: `xAPI sending is off: ${errors.join(' ')}`, pending: 0, endpoint: null });
  } else if (!queue)
    report({
      state: 'off',
      message: 'No LRS configured: statements are in-page events only.',
      pending: 0,
      endpoint: null,
    });
  if (queue) trackAnswers();
  return { ok: errors.length === 0, errors, sending: queue !== null };
}

function setBase(base) {
  ACTIVITY_BASE = base;
  LESSON_IRI = base;
  REVEALED_EXTENSION = `${base}/extensions/revealed`;
}

// ------------------------------------------------------------ the learner

/** A UUID v4 (crypto.randomUUID where the page is a secure context). */
export function uuid() {
  const c = globalThis.crypto;
  if (typeof c?.randomUUID === 'function') return c.randomUUID();
  const b = c.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

// who answers when nobody said: an anonymous id and a registration, kept per
// browser (or per page where storage is refused: a sandboxed iframe)
let learnerOnce = null;
function learner() {
  if (learnerOnce) return learnerOnce;
  let kept = null;
  try {
    kept = JSON.parse(globalThis.localStorage?.getItem(LEARNER_KEY) ?? 'null');
  } catch {
    kept = null;
  }
  if (isPlainObject(kept) && UUID.test(kept.id ?? '') && UUID.test(kept.registration ?? ''))
    return (learnerOnce = kept);
  learnerOnce = { id: uuid(), registration: uuid() };
  try {
    globalThis.localStorage?.setItem(LEARNER_KEY, JSON.stringify(learnerOnce));
  } catch {
    // kept for this page only
  }
  return learnerOnce;
}
const anonymousActor = () => ({ objectType: 'Agent', account: { homePage: ACTIVITY_BASE, name: learner().id } });

// ------------------------------------------------------------ sending

function report(detail) {
  status = {
    state: detail.state,
    message: detail.message,
    pending: detail.pending ?? 0,
    endpoint: detail.endpoint ?? config.endpoint,
  };
  if (typeof globalThis.dispatchEvent === 'function' && typeof CustomEvent === 'function')
    globalThis.dispatchEvent(new CustomEvent(STATUS_EVENT, { detail: { ...status } }));
}

/** Queues a statement for the configured LRS (nothing happens without one); true when queued. */
export function sendStatement(statement) {
  if (!queue) return false;
  queue.add(statement);
  return true;
}

// one listener for the page's answers, started by the first trackAnswers()
const answerListeners = new Set();
let tracking = false;

/**
 * Makes the statements of every answer on this page (an `answered`, and a
 * `completed` after the lesson's last question) and sends them to the
 * configured LRS; `onAnswer(detail, statements)`, if given, hears each.
 * configureXapi starts it when it sets an endpoint. Returns a function that
 * stops `onAnswer`.
 */
export function trackAnswers(onAnswer) {
  if (onAnswer) answerListeners.add(onAnswer);
  if (!tracking && typeof document !== 'undefined') {
    tracking = true;
    const made = [];
    // the questions of the sections this page shows (?sections=), so a page of some sections completes
    const track = statementTracker({
      questionIds: questionIdsIn(selectedSections()),
      progress: loadProgress,
      send: (s) => made.push(s),
    });
    document.addEventListener('pe-quiz-answered', (event) => {
      const d = event.detail;
      // a quiz's answer carries its choices; an exercise's, its typed response
      if (
        !isPlainObject(d) ||
        typeof d.quizId !== 'string' ||
        ((d.kind ?? 'choice') === 'choice' && !Array.isArray(d.choices))
      )
        return;
      made.length = 0;
      try {
        track(d);
      } catch (error) {
        console.warn(`xAPI: no statement made for ${d.quizId}: ${error.message}`);
        return;
      }
      const statements = [...made];
      for (const s of statements) queue?.add(s);
      for (const fn of answerListeners) fn(d, statements);
    });
  }
  return () => answerListeners.delete(onAnswer);
}

function clip(text, n) {
  const s = String(text);
  return s.length <= n ? s : `${s.slice(0, n - 1)}…`;
}
