// The cmi5 AU adapter of `npm run export:cmi5`: it runs before the lesson's
// own script (the export's prelude awaits it, 6 s at most) and,
// when an LMS launched the page the cmi5 way, reports to its LRS.
//
//   launch     endpoint, fetch, actor (JSON), registration, activityId from
//              the launch URL (cmi5 8.1)
//   token      one POST to the fetch URL: {"auth-token": ...}, used as
//              "Basic <token>"; the fetch URL works once (cmi5 8.2.3), so a
//              reloaded page gets an error there and reports nothing
//   LMS.LaunchData   read from the State API (cmi5 10.0): contextTemplate
//              (with the session id), launchMode, masteryScore (wins over
//              the built-in mastery), moveOn, returnURL
//   own state  an activity state document (stateId posenc-course.progress,
//              per registration) with the progress as suspend-data.js
//              writes it for SCORM, and which of passed/completed this
//              registration has had: a re-launch resumes
//   statements initialized; an `answered` per checked question (xapi.js's
//              statement, the context template merged in); passed or failed
//              once the score settles against the mastery; completed when
//              every question has an answer; terminated on pagehide, with
//              the session's duration
//
// cmi5's rules kept here (cmi5 9.3): passed and completed at most once per
// registration (remembered in the own state document), failed at most once
// per session; passed, failed and completed only in launchMode "Normal"
// ("Browse" and "Review" send nothing that judges); cmi5-defined statements
// carry the cmi5 category, the judging ones the moveOn category too, and
// passed/failed the masteryScore extension when the LMS gave one.
//
// The client is this file, not @xapi/cmi5 (1.4.0): bundled for the browser
// it adds 87 KiB minified (axios and @xapi/xapi), and it posts each
// statement once, straight away, so an answer given while the LRS is down
// or just before a reload is lost. Here statements go through lrs-queue.js
// (localStorage, retried with backoff, sent again by the next page with the
// same endpoint), and the last ones also with a keepalive request on
// pagehide.
//
// Every failure (no launch, a refused fetch URL, the LRS down, a bad State
// document) costs the LMS record, never the page: the lesson runs on with
// its progress in memory, and the console says why.
import { loadProgress, onProgress, tally } from './progress.js';
import { useHostProgress } from './host-progress.js';
import { answeredStatement, attemptedStatement, configureXapi, checkAgent, uuid } from './xapi.js';
import { createLrsQueue, XAPI_VERSION, QUEUE_PREFIX } from './lrs-queue.js';
import { formatSessionTime } from './scorm.js';

export const LAUNCH_DATA = 'LMS.LaunchData';
export const PROGRESS_STATE = 'posenc-course.progress';
export const SESSION_EXTENSION = 'https://w3id.org/xapi/cmi5/context/extensions/sessionid';
export const MASTERY_EXTENSION = 'https://w3id.org/xapi/cmi5/context/extensions/masteryscore';
export const CMI5_CATEGORY = 'https://w3id.org/xapi/cmi5/context/categories/cmi5';
export const MOVEON_CATEGORY = 'https://w3id.org/xapi/cmi5/context/categories/moveon';
const VERBS = {
  initialized: 'http://adlnet.gov/expapi/verbs/initialized',
  passed: 'http://adlnet.gov/expapi/verbs/passed',
  failed: 'http://adlnet.gov/expapi/verbs/failed',
  completed: 'http://adlnet.gov/expapi/verbs/completed',
  terminated: 'http://adlnet.gov/expapi/verbs/terminated',
};
const LAUNCH_MODES = ['Normal', 'Browse', 'Review'];
const MOVE_ON = ['Passed', 'Completed', 'CompletedAndPassed', 'CompletedOrPassed', 'NotApplicable'];
// RFC 4122, as xAPI (and configureXapi) has it
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
// the lesson waits for the start (token, LMS.LaunchData, saved progress) this long at most
const START_MS = 6000;
const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const round = (x) => Math.round(x * 10000) / 10000;

/** The cmi5 launch parameters of a query string: { launch } or { error } naming what is missing or wrong. */
export function cmi5Launch(search) {
  const params = new URLSearchParams(search);
  const missing = ['endpoint', 'fetch', 'actor', 'registration', 'activityId'].filter((k) => !params.get(k));
  if (missing.length === 5) return { error: 'not launched by a cmi5 LMS (no launch parameters)' };
  if (missing.length) return { error: `the launch URL lacks ${missing.join(', ')}` };
  let endpoint;
  let fetchUrl;
  try {
    endpoint = new URL(params.get('endpoint'));
    fetchUrl = new URL(params.get('fetch'));
  } catch {
    return { error: "the launch URL's endpoint or fetch is not an absolute URL" };
  }
  if (!/^https?:$/.test(endpoint.protocol) || !/^https?:$/.test(fetchUrl.protocol))
    return { error: 'the endpoint and fetch URL must be http(s)' };
  let actor;
  try {
    actor = checkAgent(JSON.parse(params.get('actor')));
  } catch (error) {
    return { error: `the launch actor is not JSON (${error.message})` };
  }
  if (actor.error) return { error: `the launch actor is not an xAPI Agent: ${actor.error}` };
  const registration = params.get('registration');
  if (!UUID.test(registration)) return { error: 'the launch registration is not a UUID' };
  const href = endpoint.href.endsWith('/') ? endpoint.href : `${endpoint.href}/`;
  return {
    launch: {
      endpoint: href,
      fetch: fetchUrl.href,
      actor: actor.agent,
      registration: registration.toLowerCase(),
      activityId: params.get('activityId'),
    },
  };
}

/** LMS.LaunchData checked: { data } or { error }. */
export function checkLaunchData(doc) {
  if (!isObject(doc)) return { error: 'LMS.LaunchData is not a JSON object' };
  const t = doc.contextTemplate;
  if (!isObject(t)) return { error: 'LMS.LaunchData has no contextTemplate object' };
  const sessionId = isObject(t.extensions) ? t.extensions[SESSION_EXTENSION] : undefined;
  if (typeof sessionId !== 'string' || !sessionId)
    return { error: "LMS.LaunchData's contextTemplate has no session id extension" };
  if (!LAUNCH_MODES.includes(doc.launchMode))
    return {
      error: `LMS.LaunchData's launchMode is ${JSON.stringify(doc.launchMode)}, not one of ${LAUNCH_MODES.join(', ')}`,
    };
  if (
    doc.masteryScore !== undefined &&
    !(typeof doc.masteryScore === 'number' && doc.masteryScore >= 0 && doc.masteryScore <= 1)
  )
    return { error: "LMS.LaunchData's masteryScore is not a number from 0 to 1" };
  if (doc.moveOn !== undefined && !MOVE_ON.includes(doc.moveOn))
    return { error: `LMS.LaunchData's moveOn is ${JSON.stringify(doc.moveOn)}` };
  return {
    data: {
      contextTemplate: t,
      sessionId,
      launchMode: doc.launchMode,
      masteryScore: doc.masteryScore ?? null,
      moveOn: doc.moveOn ?? null,
      returnURL: typeof doc.returnURL === 'string' ? doc.returnURL : null,
    },
  };
}

/** A statement's context with cmi5's context template merged in (the template's extensions and activities win; lists are joined). */
export function withTemplate(statement, template, registration, categories = []) {
  const context = { ...(statement.context ?? {}), registration };
  const ours = context.contextActivities ?? {};
  const theirs = template.contextActivities ?? {};
  const activities = {};
  for (const key of ['parent', 'grouping', 'category', 'other']) {
    const list = [
      ...(Array.isArray(theirs[key]) ? theirs[key] : theirs[key] ? [theirs[key]] : []),
      ...(ours[key] ?? []),
    ];
    if (key === 'category') list.push(...categories.map((id) => ({ id, objectType: 'Activity' })));
    const seen = new Set();
    const unique = list.filter((a) => isObject(a) && typeof a.id === 'string' && !seen.has(a.id) && seen.add(a.id));
    if (unique.length) activities[key] = unique;
  }
  context.contextActivities = activities;
  context.extensions = { ...(context.extensions ?? {}), ...(template.extensions ?? {}) };
  return { ...statement, context };
}

async function request(fetchFn, url, options, { deadline, startMs }) {
  const abort = new AbortController();
  const timer = setTimeout(
    () => abort.abort(new Error(`no answer within ${startMs / 1000} s`)),
    Math.max(0, deadline - Date.now()),
  );
  try {
    return await fetchFn(url, { ...options, signal: abort.signal, credentials: 'omit' });
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Starts the AU: resolves to the session, or null (the page works on
 * without the LMS record). `questionIds`: the questions this AU scores;
 * `mastery`: the passing fraction when LMS.LaunchData has none.
 */
export async function startCmi5({
  questionIds,
  mastery = 0.8,
  window: win = globalThis.window,
  log = (m) => console.info(m),
  warn = (m) => console.warn(m),
  fetch: fetchFn = globalThis.fetch?.bind(globalThis),
  storage,
  startMs = START_MS,
} = {}) {
  if (!win) return null;
  const said = (m) => warn(`cmi5: ${m}; the lesson works on, but this session is not recorded by the LMS.`);
  const { launch, error } = cmi5Launch(win.location?.search ?? '');
  if (error) {
    // a page opened straight from disk is no failure: say it quietly
    (/no launch parameters/.test(error) ? log : warn)(
      `cmi5: ${error}; the lesson works on, ${/no launch/.test(error) ? 'progress stays in this browser' : 'but this session is not recorded by the LMS'}.`,
    );
    return null;
  }

  // 1. the token (the fetch URL answers once)
  const deadline = { deadline: Date.now() + startMs, startMs };
  let token;
  try {
    const r = await request(fetchFn, launch.fetch, { method: 'POST' }, deadline);
    const body = await r.json().catch(() => null);
    if (!r.ok || !isObject(body) || typeof body['auth-token'] !== 'string') {
      const why =
        isObject(body) && body['error-text']
          ? `${body['error-code'] ?? ''} ${body['error-text']}`.trim()
          : `HTTP ${r.status}`;
      return (
        said(
          `the fetch URL gave no token (${why}; it answers once per launch, so a reloaded page must be launched again from the LMS)`,
        ),
        null
      );
    }
    token = body['auth-token'];
  } catch (e) {
    return (said(`the fetch URL could not be reached (${e.message})`), null);
  }
  const auth = `Basic ${token}`;
  const headers = { Authorization: auth, 'X-Experience-API-Version': XAPI_VERSION };
  const stateUrl = (stateId) =>
    `${launch.endpoint}activities/state?${new URLSearchParams({ stateId, activityId: launch.activityId, agent: JSON.stringify(launch.actor), registration: launch.registration })}`;

  // 2. LMS.LaunchData and the AU's own state
  let data;
  let own = null;
  try {
    const r = await request(fetchFn, stateUrl(LAUNCH_DATA), { headers }, deadline);
    if (!r.ok) return (said(`LMS.LaunchData could not be read (HTTP ${r.status})`), null);
    const checked = checkLaunchData(await r.json().catch(() => null));
    if (checked.error) return (said(checked.error), null);
    data = checked.data;
    const o = await request(fetchFn, stateUrl(PROGRESS_STATE), { headers }, deadline);
    if (o.ok) own = await o.json().catch(() => null);
    else if (o.status !== 404) warn(`cmi5: the saved progress could not be read (HTTP ${o.status}); starting afresh`);
  } catch (e) {
    return (said(`the LRS could not be reached (${e.message})`), null);
  }
  const passing = data.masteryScore ?? Math.min(1, Math.max(0, mastery));
  const judging = data.launchMode === 'Normal';
  const started = Date.now();

  // 3. progress from the own state document, kept in memory (like SCORM's suspend_data)
  const host = useHostProgress(isObject(own) && typeof own.progress === 'string' ? own.progress : '', {
    knownIds: questionIds,
    limit: 64000,
  });
  const sent = { passed: own?.passed === true, completed: own?.completed === true, failed: false };

  // the answered statements' actor and registration; sending is this file's
  configureXapi({ actor: launch.actor, registration: launch.registration });
  const queue = createLrsQueue({
    endpoint: launch.endpoint,
    auth,
    storage,
    fetch: fetchFn,
    onStatus: (s) => s.state === 'stopped' && warn(`cmi5: ${s.message}`),
  });

  const cmi5Statement = (name, { result, moveOn = false } = {}) => {
    const s = {
      id: uuid(),
      timestamp: new Date().toISOString(),
      actor: launch.actor,
      verb: { id: VERBS[name], display: { 'en-US': name } },
      object: { objectType: 'Activity', id: launch.activityId },
    };
    if (result) s.result = result;
    const out = withTemplate(
      s,
      data.contextTemplate,
      launch.registration,
      moveOn ? [CMI5_CATEGORY, MOVEON_CATEGORY] : [CMI5_CATEGORY],
    );
    if ((name === 'passed' || name === 'failed') && data.masteryScore !== null)
      out.context.extensions[MASTERY_EXTENSION] = data.masteryScore;
    return out;
  };
  const duration = () => formatSessionTime('2004', (Date.now() - started) / 1000);
  const send = (s) => queue.add(s);
  send(cmi5Statement('initialized'));
  log(
    `cmi5: session ${data.sessionId} (${data.launchMode}), mastery ${passing}${host.restored ? ', progress restored' : ''}`,
  );

  // 4. the own state document after each change: the progress and what has been judged
  let saving = Promise.resolve();
  const ownState = () => {
    return JSON.stringify({
      progress: host.encode(),
      passed: sent.passed,
      completed: sent.completed,
    });
  };
  // what the LMS holds now: the last state document it accepted
  let savedBody = null;
  const save = (keepalive = false) => {
    const body = ownState();
    const put = () =>
      fetchFn(stateUrl(PROGRESS_STATE), {
        method: 'PUT',
        headers: { ...headers, 'Content-Type': 'application/json' },
        body,
        keepalive,
        credentials: 'omit',
      })
        .then((r) => (r.ok ? (savedBody = body) : warn(`cmi5: the progress was not saved (HTTP ${r.status})`)))
        .catch((e) => warn(`cmi5: the progress was not saved (${e.message})`));
    saving = keepalive ? put() : saving.then(put);
  };

  // 5. answers, and the judgement once the score settles
  let terminated = false;
  let known = tally(questionIds, loadProgress());
  const judge = () => {
    const t = tally(questionIds, loadProgress());
    const scaled = round(t.scaled);
    const complete = t.total > 0 && t.answered === t.total;
    const score = { scaled, raw: round(t.points), min: 0, max: t.total };
    if (judging && !sent.passed && scaled >= passing && t.answered > 0) {
      sent.passed = true;
      send(cmi5Statement('passed', { result: { score, success: true, duration: duration() }, moveOn: true }));
    } else if (judging && !sent.passed && !sent.failed && complete && scaled < passing) {
      sent.failed = true;
      send(cmi5Statement('failed', { result: { score, success: false, duration: duration() }, moveOn: true }));
    }
    if (judging && !sent.completed && complete) {
      sent.completed = true;
      send(cmi5Statement('completed', { result: { completion: true, duration: duration() }, moveOn: true }));
    }
    known = t;
  };
  win.document?.addEventListener('pe-quiz-answered', (e) => {
    const d = e.detail;
    if (terminated || !isObject(d) || typeof d.quizId !== 'string' || !questionIds.includes(d.quizId)) return;
    try {
      send(withTemplate(answeredStatement(d), data.contextTemplate, launch.registration));
    } catch (err) {
      warn(`cmi5: no statement made for ${d.quizId}: ${err.message}`);
    }
    judge();
  });
  onProgress((e) => {
    if (terminated) return;
    // "Reset my answers": a new attempt within the registration, said to the LRS
    if (e.detail?.reset) send(withTemplate(attemptedStatement(e.detail), data.contextTemplate, launch.registration));
    queueMicrotask(() => save());
  });

  // 6. leaving: terminated last, sent now with keepalive as well as kept in the queue
  win.addEventListener('pagehide', () => {
    if (terminated) return;
    terminated = true;
    send(cmi5Statement('terminated', { result: { duration: duration() } }));
    // only what the LMS does not hold yet: a request sent as the page goes
    // often fails ("Failed to fetch") and said so on every leave, though
    // the progress had been saved with the last answer
    if (ownState() !== savedBody) save(true);
    try {
      const pending = JSON.parse((storage ?? win.localStorage)?.getItem(QUEUE_PREFIX + launch.endpoint) ?? '[]');
      const body = JSON.stringify(pending);
      // keepalive bodies are capped at 64 KiB; the queue sends the rest next time
      if (pending.length && body.length < 60_000)
        fetchFn(`${launch.endpoint}statements`, {
          method: 'POST',
          headers: { ...headers, 'Content-Type': 'application/json' },
          body,
          keepalive: true,
          credentials: 'omit',
        }).catch(() => {});
    } catch {
      // the queue keeps them
    }
    queue.stop();
  });

  return {
    launch,
    sessionId: data.sessionId,
    launchMode: data.launchMode,
    moveOn: data.moveOn,
    returnURL: data.returnURL,
    get passing() {
      return passing;
    },
    get tally() {
      return known;
    },
    queue,
    saved: () => saving,
  };
}
