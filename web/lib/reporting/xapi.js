// Where the lesson's xAPI statements (web/lib/reporting/xapi-statements.js, which
// says what they hold) go: configureXapi sets the learning record store
// (in-page events only by default, or an LRS through the queue of
// lrs-queue.js), from the page or from a launch's query parameters, and
// trackAnswers turns every answer on the page into statements and sends them.
// The statements' names are exported from here too.
import { loadProgress, onProgress } from './progress.js';
import { questionIdsIn, selectedSections } from '../lesson/sections.js';
import { lessonNow, lessonShown } from '../lesson/lesson-registry.js';
import { QUESTION_SELECTOR, questionIdsOf } from '../questions/page-questions.js';
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
import {
  config,
  ACTIVITY_BASE,
  setBase,
  uuid,
  statementTracker,
  attemptedStatement,
  initializedStatement,
} from './xapi-statements.js';

export {
  DEFAULT_ACTIVITY_BASE,
  LESSON_NAME,
  DEFAULT_PLATFORM,
  DEFAULT_LANGUAGE,
  ACTIVITY_BASE,
  LESSON_IRI,
  REVEALED_EXTENSION,
  ATTEMPT_EXTENSION,
  DRAW_EXTENSION,
  attemptedStatement,
  initializedStatement,
  quizIri,
  sectionIri,
  sectionOf,
  answeredStatement,
  completedStatement,
  statementTracker,
  uuid,
} from './xapi-statements.js';
// cmi5.js checks its launch's actor the same way
export { checkAgent };

/** The launch query parameters read by configureFromLaunch (Rustici's "TinCan launch", plus language). */
export const LAUNCH_PARAMS = ['endpoint', 'auth', 'actor', 'registration', 'activity_id', 'language'];
/** The window event that says how sending goes: detail { state, message, pending, endpoint }. */
export const STATUS_EVENT = 'posenc-xapi-status';

let status = {
  state: 'off',
  message: 'No LRS configured: statements are in-page events only.',
  pending: 0,
  endpoint: null,
};
let queue = null;
let opened = false; // the initialized statement was queued

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
  const endpointBefore = config.endpoint;
  Object.assign(config, next);
  setBase(base);
  if (restart) {
    const old = queue;
    old?.stop();
    queue = config.endpoint ? createLrsQueue({ endpoint: config.endpoint, auth: config.auth, onStatus: report }) : null;
    // the same LRS (new credentials, say) takes over what was not sent: where
    // storage keeps the queue it is already there; in memory only, it would
    // be lost with the old queue. A batch the old queue had in flight may be
    // sent again: the LRS keeps one (the queue takes its 409 as stored).
    if (old && queue && config.endpoint === endpointBefore) {
      const have = new Set(queue.waiting().map((s) => s.id));
      for (const s of old.waiting()) if (!have.has(s.id)) queue.add(s);
    }
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
  if (queue) {
    trackAnswers();
    // once a page view: the learner opened a page that reports to this LRS
    if (!opened) {
      opened = true;
      queue.add(initializedStatement());
    }
  }
  return { ok: errors.length === 0, errors, sending: queue !== null };
}

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
    // the lesson's questions where the page shows the lesson (of the sections
    // it shows, ?sections=, so a page of some sections completes); on an
    // author's page, the questions on it, as its score board counts them
    const track = statementTracker({
      questionIds: () =>
        lessonShown()
          ? questionIdsIn(selectedSections())
          : questionIdsOf([...document.querySelectorAll(QUESTION_SELECTOR)], lessonNow()?.questionIds ?? []),
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
    // "Reset my answers" is a new attempt, not a silent clean slate
    onProgress((event) => {
      // (a reset in another tab is that tab's to report)
      if (event.detail?.reset && !event.detail.external) queue?.add(attemptedStatement(event.detail));
    });
  }
  return () => answerListeners.delete(onAnswer);
}
