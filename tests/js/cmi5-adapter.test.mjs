// web/lib/reporting/cmi5.js's rules, in Node with a stand-in LMS (a fetch that plays
// the fetch URL, the State API and the statements resource) and a window
// whose document hears answers as the lesson's widgets send them: which of
// passed, failed and completed go, when, and how often (cmi5 9.3); the
// LMS's masteryScore against the built-in one; Browse/Review; the AU's own
// state carried to the next session; failures that leave the page alone.
// The browser test (tests/browser/cmi5.test.mjs) runs the same adapter in
// the exported page against the real LRS.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startCmi5, SESSION_EXTENSION, MASTERY_EXTENSION, PROGRESS_STATE } from '../../web/lib/reporting/cmi5.js';
import { saveEntry, loadProgress, afterCheck } from '../../web/lib/reporting/progress.js';
import { sections, codeExercises } from '../../web/gen/lesson-data.js';
import { MemoryStorage } from './memory-storage.mjs';

// the rope section's questions as an AU (a one-file copy) counts them: without its code exercise
const IDS = sections.find((s) => s.id === 'rope').questionIds.filter((id) => !codeExercises[id]); // 6
const ACTOR = { objectType: 'Agent', account: { homePage: 'https://lms.example.org', name: 'a1' } };
const REGISTRATION = '5d1e6f2a-8b3c-4d7e-9f10-a1b2c3d4e5f6';
const AU = 'https://x.example/au/rope';
const verbs = (list) => list.map((s) => s.verb.id.split('/').pop());

/** The stand-in LMS and LRS: one registration's State documents, the statements posted. */
function lms() {
  const states = new Map();
  const posted = [];
  let fetches = 0;
  const fetch = async (url, options = {}) => {
    const u = new URL(url);
    if (u.pathname.startsWith('/fetch'))
      return Response.json(
        fetches++ === 0 ? { 'auth-token': 'dG9rZW4=' } : { 'error-code': '1', 'error-text': 'already used' },
      );
    if (u.pathname === '/xapi/activities/state') {
      const id = u.searchParams.get('stateId');
      if ((options.method ?? 'GET') === 'GET')
        return states.has(id) ? new Response(states.get(id)) : new Response('', { status: 404 });
      states.set(id, options.body);
      return new Response(null, { status: 204 });
    }
    if (u.pathname === '/xapi/statements') {
      for (const s of JSON.parse(options.body)) if (!posted.some((p) => p.id === s.id)) posted.push(s);
      return Response.json([]);
    }
    return new Response('', { status: 404 });
  };
  return {
    states,
    posted,
    fetch,
    /** A new session: LMS.LaunchData written, the fetch URL fresh. */
    session(sessionId, { launchMode = 'Normal', masteryScore } = {}) {
      fetches = 0;
      states.set(
        'LMS.LaunchData',
        JSON.stringify({
          contextTemplate: { extensions: { [SESSION_EXTENSION]: sessionId } },
          launchMode,
          masteryScore,
          moveOn: 'Passed',
        }),
      );
    },
  };
}

const search = new URLSearchParams({
  endpoint: 'https://lrs.example.org/xapi/',
  fetch: 'https://lms.example.org/fetch/1',
  actor: JSON.stringify(ACTOR),
  registration: REGISTRATION,
  activityId: AU,
}).toString();

function fakeWindow(query = search) {
  const win = new EventTarget();
  win.location = { search: `?${query}` };
  win.document = new EventTarget();
  return win;
}

async function start(l, { win = fakeWindow(), mastery = 0.8 } = {}) {
  const logs = [];
  const session = await startCmi5({
    questionIds: IDS,
    mastery,
    window: win,
    fetch: l.fetch,
    storage: new MemoryStorage(),
    log: (m) => logs.push(m),
    warn: (m) => logs.push(`warn ${m}`),
  });
  return { session, win, logs };
}

// an answer as a widget gives it: progress saved, then the event
function answer(win, id, right) {
  saveEntry(id, afterCheck(loadProgress()[id], { right, response: [0] }).entry);
  const score = right ? 1 : 0;
  win.document.dispatchEvent(
    new CustomEvent('pe-quiz-answered', {
      detail: {
        quizId: id,
        kind: 'choice',
        question: id,
        options: ['a', 'b'],
        choices: [0],
        correctChoices: right ? [0] : [1],
        correct: right,
        score,
        revealed: false,
      },
    }),
  );
}

async function settle(session, win) {
  win.dispatchEvent(new Event('pagehide'));
  await session.saved();
  await new Promise((r) => setTimeout(r, 20));
}

test("failed at the end below the built-in mastery, once a session; completed and passed once a registration; the LMS's masteryScore wins; the own state resumes", async () => {
  const l = lms();
  l.session('s1'); // no masteryScore: the built-in 0.8
  const a = await start(l);
  assert.equal(a.session.passing, 0.8);
  IDS.forEach((id, i) => answer(a.win, id, i < 4)); // 4 of 6
  answer(a.win, IDS[5], false); // again, still wrong: no second failed
  await settle(a.session, a.win);
  assert.deepEqual(verbs(l.posted), [
    'initialized',
    'answered',
    'answered',
    'answered',
    'answered',
    'answered',
    'answered',
    'failed',
    'completed',
    'answered',
    'terminated',
  ]);
  const failed = l.posted.find((s) => s.verb.id.endsWith('/failed'));
  assert.deepEqual(failed.result.score, { scaled: 0.6667, raw: 4, min: 0, max: 6 });
  assert.equal(failed.result.success, false);
  assert.equal(failed.context.extensions[MASTERY_EXTENSION], undefined, 'no masteryScore from the LMS, no extension');
  assert.ok(
    l.posted.every((s) => s.context.extensions[SESSION_EXTENSION] === 's1' && s.context.registration === REGISTRATION),
  );
  const own = JSON.parse(l.states.get(PROGRESS_STATE));
  assert.equal(own.completed, true);
  assert.equal(own.passed, false);

  // the next session, the LMS's masteryScore 0.75: resumed (6 answered); the
  // fifth right after a miss (2/3) makes 4.67 of 6: passed, but completed is not said again
  l.posted.length = 0;
  l.session('s2', { masteryScore: 0.75 });
  const b = await start(l);
  assert.equal(b.session.tally.answered, 6);
  assert.ok(b.logs.some((m) => /session s2 \(Normal\), mastery 0.75, progress restored/.test(m)));
  answer(b.win, IDS[4], true);
  await settle(b.session, b.win);
  assert.deepEqual(verbs(l.posted), ['initialized', 'answered', 'passed', 'terminated']);
  assert.deepEqual(l.posted[2].result.score, { scaled: 0.7778, raw: 4.6667, min: 0, max: 6 });
  assert.equal(JSON.parse(l.states.get(PROGRESS_STATE)).passed, true);

  // a third session: passed is not said again either
  l.posted.length = 0;
  l.session('s3', { masteryScore: 0.5 });
  const c = await start(l);
  assert.equal(c.session.passing, 0.5, "the LMS's masteryScore wins");
  answer(c.win, IDS[5], true);
  await settle(c.session, c.win);
  assert.deepEqual(verbs(l.posted), ['initialized', 'answered', 'terminated']);
});

test("Review and Browse send nothing that judges; the LMS's masteryScore goes in passed's extension", async () => {
  for (const launchMode of ['Review', 'Browse']) {
    const l = lms();
    l.session('r', { launchMode, masteryScore: 0 });
    const a = await start(l);
    for (const id of IDS) answer(a.win, id, true);
    await settle(a.session, a.win);
    assert.deepEqual(verbs(l.posted), ['initialized', ...IDS.map(() => 'answered'), 'terminated'], launchMode);
  }
  const l = lms();
  l.session('n', { masteryScore: 0.3 });
  const a = await start(l);
  answer(a.win, IDS[0], true);
  answer(a.win, IDS[1], true);
  await settle(a.session, a.win);
  assert.deepEqual(verbs(l.posted), ['initialized', 'answered', 'answered', 'passed', 'terminated']);
  assert.equal(l.posted[3].context.extensions[MASTERY_EXTENSION], 0.3);
  assert.equal(l.posted[3].result.score.scaled, 0.3333);
});

test('failures cost the record, never the page: no launch, a refused or unreachable fetch URL, the LRS down, a bad document', async () => {
  const l = lms();
  l.session('x');
  let r = await start(l, { win: fakeWindow('') });
  assert.equal(r.session, null);
  assert.match(r.logs[0], /^cmi5: not launched by a cmi5 LMS/);

  await start(l); // uses the fetch URL
  r = await start(l);
  assert.equal(r.session, null);
  assert.match(r.logs.at(-1), /^warn cmi5: the fetch URL gave no token \(1 already used; it answers once per launch/);

  const down = async () => {
    throw new TypeError('fetch failed');
  };
  const said = [];
  assert.equal(
    await startCmi5({ questionIds: IDS, window: fakeWindow(), fetch: down, warn: (m) => said.push(m), log: () => {} }),
    null,
  );
  assert.match(said[0], /cmi5: the fetch URL could not be reached \(fetch failed\); the lesson works on/);

  l.session('x');
  const lrsDown = async (url, o) =>
    new URL(url).pathname.startsWith('/fetch') ? l.fetch(url, o) : Promise.reject(new TypeError('fetch failed'));
  const logs = [];
  assert.equal(
    await startCmi5({
      questionIds: IDS,
      window: fakeWindow(),
      fetch: lrsDown,
      warn: (m) => logs.push(m),
      log: () => {},
    }),
    null,
  );
  assert.match(logs[0], /cmi5: the LRS could not be reached \(fetch failed\); the lesson works on/);

  // an LMS that never answers: the lesson waits startMs (6 s in the page) at most
  const silent = (url, o) =>
    new Promise((resolve, reject) => o.signal.addEventListener('abort', () => reject(o.signal.reason)));
  const t0 = Date.now();
  said.length = 0;
  assert.equal(
    await startCmi5({
      questionIds: IDS,
      window: fakeWindow(),
      fetch: silent,
      startMs: 300,
      warn: (m) => said.push(m),
      log: () => {},
    }),
    null,
  );
  assert.ok(Date.now() - t0 < 1000);
  assert.match(said[0], /the fetch URL could not be reached \(no answer within 0.3 s\)/);

  l.session('x');
  l.states.set('LMS.LaunchData', '{"contextTemplate":{}}');
  r = await start(l);
  assert.equal(r.session, null);
  assert.match(r.logs.at(-1), /no session id extension/);

  // a damaged own state document: the session starts afresh
  l.session('y');
  l.states.set(PROGRESS_STATE, 'not json');
  r = await start(l);
  assert.equal(r.session.tally.answered, 0);
});

test('leaving once the progress is saved sends no state again, so a request cut off by the unload warns of nothing', async () => {
  // progress.js says each change on the global object, as on a page
  const events = new EventTarget();
  const saved = ['addEventListener', 'removeEventListener', 'dispatchEvent'].map((k) => [k, globalThis[k]]);
  for (const [k] of saved) globalThis[k] = events[k].bind(events);
  try {
    const l = lms();
    l.session('leave');
    const cut = [];
    const fetch = (url, o = {}) => {
      // what a browser does to a request still open as the page goes
      if (o.keepalive && new URL(url).pathname === '/xapi/activities/state') {
        cut.push(url);
        return Promise.reject(new TypeError('Failed to fetch'));
      }
      return l.fetch(url, o);
    };
    const win = fakeWindow();
    const logs = [];
    const session = await startCmi5({
      questionIds: IDS,
      window: win,
      fetch,
      storage: new MemoryStorage(),
      log: () => {},
      warn: (m) => logs.push(m),
    });
    answer(win, IDS[0], true);
    await new Promise((r) => setTimeout(r, 20));
    await session.saved();
    assert.equal(JSON.parse(l.states.get(PROGRESS_STATE)).passed, false, 'saved with the answer');
    await settle(session, win);
    assert.deepEqual(cut, [], 'no state sent as the page goes: the LMS has it');
    assert.deepEqual(logs, []);
    assert.deepEqual(verbs(l.posted).at(-1), 'terminated');
  } finally {
    for (const [k, v] of saved) globalThis[k] = v;
  }
});
