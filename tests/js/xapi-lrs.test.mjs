// The statement queue (web/lib/reporting/lrs-queue.js) against a real LRS: Learning
// Locker's statements service (tests/js/lrs.mjs), in memory. A small proxy in
// front of it plays the bad days (5xx, 429, an answer that comes after the
// queue gave up on it, an LRS that answers a repeat with 409); the LRS itself is stopped and started again (it
// forgets what it stored, so each lifetime is read back before its stop and
// the two are counted together); a tiny server answers 401 or 403. Every
// statement must arrive exactly once and pass @learninglocker/xapi-validation.
import { test, before, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { createRequire } from 'node:module';
import { startLrs, LRS_AUTH } from './lrs.mjs';
import { MemoryStorage, withStorage } from './memory-storage.mjs';
import { createLrsQueue, QUEUE_PREFIX, REJECTED_PREFIX } from '../../web/lib/reporting/lrs-queue.js';
import {
  answeredStatement,
  completedStatement,
  configureXapi,
  xapiConfig,
  sendStatement,
} from '../../web/lib/reporting/xapi.js';
import { questionIds, exercises as lessonExercises } from '../../web/gen/lesson-data.js';
import { loadPosenc } from '../../web/posenc.js';
import { compileExercise } from '../../web/lib/questions/own-exercise.js';
import { drawExercise, judgePart, interactionOf } from '../../web/lib/questions/answers.js';
import { seededRandom } from '../../web/lib/questions/random.js';

const require = createRequire(import.meta.url);
const pe = await loadPosenc();
const ACTIVITY_BASE_NOW = () => xapiConfig().activityBase;
const validateStatement = require('@learninglocker/xapi-validation').default;

const ACTOR = { name: 'Queue Test', mbox: 'mailto:queue-test@example.org' };
const REGISTRATION = '6d1bbd83-3c6d-4c2b-9e5e-0a0f0c1e2d3f';
// fast clocks: the same code paths as the page's defaults, in milliseconds
// (the timeout is long enough that a busy machine does not trip it)
const FAST = { batchSize: 10, batchDelayMs: 20, timeoutMs: 2000, retryBaseMs: 50, retryCapMs: 400 };

let lrs;
// what a test started, closed after it whatever happened (an open server or
// a queue's timer would keep the process alive)
const open = [];
const close = () => {
  for (const x of open.splice(0)) {
    if (x.stop) x.stop();
    else {
      x.close();
      x.closeAllConnections();
    }
  }
};
before(async () => {
  lrs = await startLrs();
  assert.equal(
    configureXapi({ actor: ACTOR, registration: REGISTRATION, activityBase: 'https://courses.example.org/posenc' }).ok,
    true,
  );
});
afterEach(close);
after(async () => {
  close();
  await lrs?.stop();
});

const until = async (what, fn, ms = 8000) => {
  const end = Date.now() + ms;
  while (!(await fn())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

// n answered statements, as the page makes them (a quiz's or an exercise's)
let made = 0;
function statements(n) {
  return Array.from({ length: n }, () => {
    const quizId = questionIds[made++ % questionIds.length];
    return answeredStatement({
      quizId,
      kind: 'numeric',
      question: `Question ${made}`,
      response: String(made),
      correctPattern: '12',
      correct: made % 2 === 0,
      revealed: false,
      score: 1,
    });
  });
}

function listen(server) {
  open.push(server);
  return new Promise((r) => server.listen(0, '127.0.0.1', () => r(`http://127.0.0.1:${server.address().port}/xAPI/`)));
}

// forwards to the LRS; `plan` (a list, consumed in order) can make the next
// requests answer 503/429/409 without forwarding, or forward and answer too late
function startProxy() {
  const proxy = { plan: [], posts: [], url: '' };
  proxy.server = http.createServer(async (req, res) => {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const body = Buffer.concat(chunks).toString();
    if (req.method === 'POST') proxy.posts.push(JSON.parse(body).length);
    const step = req.method === 'POST' ? (proxy.plan.shift() ?? 'pass') : 'pass';
    if (step === 503 || step === 429 || step === 409) {
      res
        .writeHead(step, step === 429 ? { 'Retry-After': '0' } : {})
        .end(step === 409 ? '{"message":"conflict"}' : '{"message":"try later"}');
      return;
    }
    try {
      const r = await fetch(new URL(req.url, lrs.origin), {
        method: req.method,
        headers: {
          authorization: req.headers.authorization,
          'x-experience-api-version': req.headers['x-experience-api-version'],
          'content-type': 'application/json',
        },
        body: req.method === 'GET' ? undefined : body,
      });
      const text = await r.text();
      // stored, but the answer comes after the queue stopped waiting
      if (step === 'late') await new Promise((r) => setTimeout(r, FAST.timeoutMs * 2));
      res.writeHead(r.status, { 'content-type': 'application/json' }).end(text);
    } catch {
      res.writeHead(502).end();
    }
  });
  return listen(proxy.server).then((url) => Object.assign(proxy, { url }));
}

function assertStored(stored, sent, label) {
  const ids = stored.map((s) => s.id);
  assert.equal(new Set(ids).size, ids.length, `${label}: a statement is stored twice`);
  assert.deepEqual([...ids].sort(), sent.map((s) => s.id).sort(), `${label}: stored ≠ sent`);
  for (const s of stored) {
    assert.deepEqual(validateStatement(s), [], JSON.stringify(s).slice(0, 300));
    assert.ok(
      s.timestamp &&
        s.actor &&
        s.context.registration &&
        s.context.contextActivities.parent &&
        s.context.platform &&
        s.context.language,
      `${label}: ${s.id} incomplete`,
    );
  }
}

test('batches, 5xx and 429, an answer too late, the LRS stopped and restarted with a reload between: every statement arrives once', async () => {
  const proxy = await startProxy();
  const storage = new MemoryStorage();
  const states = [];
  const queue = createLrsQueue({
    endpoint: proxy.url,
    auth: LRS_AUTH,
    storage,
    ...FAST,
    onStatus: (s) => states.push(s.state),
  });
  open.push(queue);
  const sent = [];
  const add = (list) => {
    for (const s of list) {
      assert.deepEqual(validateStatement(s), [], 'made invalid');
      queue.add(s);
      sent.push(s);
    }
  };

  // 25 at once: three POSTs of 10, 10, 5; adding does not wait for any
  const first = statements(25);
  add(first);
  // add() returned before any answer could come: all 25 still wait in the queue (no clock involved)
  assert.equal(queue.pending(), 25, 'adding waited for the LRS');
  await until('the first 25', () => queue.pending() === 0 && queue.state === 'idle');
  assert.deepEqual(proxy.posts, [10, 10, 5]);
  assertStored(await lrs.statements(), sent, 'batches');

  // two 503s and a 429, then through: kept and sent again
  proxy.posts.length = 0;
  proxy.plan.push(503, 503, 429);
  add(statements(4));
  await until('after 5xx', () => queue.pending() === 0 && queue.state === 'idle');
  assert.deepEqual(proxy.posts, [4, 4, 4, 4]);
  assert.ok(states.includes('retrying'));
  assertStored(await lrs.statements(), sent, 'after 5xx and 429');

  // the LRS stores a batch but its answer comes too late: the queue sends
  // the same statements again, and Learning Locker, given an identical
  // statement it has, answers 200 and stores it once
  proxy.posts.length = 0;
  proxy.plan.push('late');
  add(statements(3));
  await until('after a late answer', () => queue.pending() === 0 && queue.state === 'idle');
  assert.deepEqual(proxy.posts, [3, 3]);
  assertStored(await lrs.statements(), sent, 'after a late answer');
  // an LRS that answers such a repeat with 409 (the proxy plays one): the
  // batch goes one by one, and a lone 409 counts as stored
  proxy.posts.length = 0;
  proxy.plan.push('late', 409, 409, 409, 409);
  add(statements(3));
  await until('after 409s', () => queue.pending() === 0 && queue.state === 'idle');
  assert.deepEqual(proxy.posts, [3, 3, 1, 1, 1]);
  assertStored(await lrs.statements(), sent, 'after 409s');
  assert.equal(queue.rejected, 0, 'a statement the LRS already had was set aside');
  assert.equal(queue.sent, 35);
  queue.stop();

  // straight to the LRS, which goes down: what is answered meanwhile waits
  // in storage, across a reload (a new queue on the same storage)
  const lifetime1 = await lrs.statements();
  assertStored(lifetime1, sent, 'first lifetime');
  const direct = createLrsQueue({ endpoint: lrs.endpoint, auth: LRS_AUTH, storage, ...FAST });
  open.push(direct);
  await lrs.stop();
  const whileDown = statements(7);
  for (const s of whileDown) direct.add(s);
  await until('a failed attempt', () => direct.state === 'retrying');
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(direct.pending(), 7);
  direct.stop(); // the page goes away
  assert.equal(JSON.parse(storage.getItem(`${QUEUE_PREFIX}${lrs.endpoint}`)).length, 7, 'not in storage');
  await lrs.start();
  const reloaded = createLrsQueue({ endpoint: lrs.endpoint, auth: LRS_AUTH, storage, ...FAST });
  open.push(reloaded);
  await until('after the restart', () => reloaded.pending() === 0 && reloaded.state === 'idle');
  const lifetime2 = await lrs.statements();
  assertStored(lifetime2, whileDown, 'second lifetime');
  assertStored([...lifetime1, ...lifetime2], [...sent, ...whileDown], 'both lifetimes');
  assert.equal(storage.getItem(`${QUEUE_PREFIX}${lrs.endpoint}`), null, 'the queue was not emptied');
  reloaded.stop();
});

test('401 and 403 stop sending and say so, the queue is kept; a statement the LRS refuses (400) is set aside and the rest arrive', async () => {
  for (const code of [401, 403]) {
    let posts = 0;
    const server = http.createServer((req, res) => {
      posts += 1;
      res.writeHead(code, { 'content-type': 'application/json' }).end('{"message":"no"}');
    });
    const endpoint = await listen(server);
    const storage = new MemoryStorage();
    const said = [];
    const errors = [];
    const error = console.error;
    console.error = (m) => errors.push(m);
    try {
      const queue = createLrsQueue({
        endpoint,
        auth: 'Basic bm86bm8=',
        storage,
        ...FAST,
        onStatus: (s) => said.push(s),
      });
      open.push(queue);
      const list = statements(3);
      for (const s of list) queue.add(s);
      await until(`${code} stops`, () => queue.state === 'stopped');
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(posts, 1, `${code}: asked again after it stopped`);
      assert.match(said.at(-1).message, /refused the credentials/);
      assert.match(errors.join('\n'), new RegExp(`${code}`));
      queue.add(statements(1)[0]);
      await new Promise((r) => setTimeout(r, 100));
      assert.equal(posts, 1, `${code}: a new statement was sent after the stop`);
      assert.equal(queue.pending(), 4);
      // a later launch with good credentials (same endpoint: the same server now lets them through) would send them;
      // here the kept statements move to the real LRS to show they are intact
      const kept = JSON.parse(storage.getItem(`${QUEUE_PREFIX}${endpoint}`));
      assert.deepEqual(
        kept.slice(0, 3).map((s) => s.id),
        list.map((s) => s.id),
      );
      queue.stop();
    } finally {
      console.error = error;
      server.close();
    }
  }

  await lrs.stop();
  await lrs.start();
  const storage = new MemoryStorage();
  const warnings = [];
  const warn = console.warn;
  console.warn = (m) => warnings.push(m);
  try {
    const queue = createLrsQueue({ endpoint: lrs.endpoint, auth: LRS_AUTH, storage, ...FAST });
    open.push(queue);
    const good = statements(4);
    const bad = { ...statements(1)[0], actor: { mbox: 'not-an-address' } };
    const list = [good[0], good[1], bad, good[2], good[3]];
    for (const s of list) queue.add(s);
    await until('the refused one set aside', () => queue.pending() === 0 && queue.state === 'idle');
    assertStored(await lrs.statements(), good, 'with one refused');
    assert.equal(queue.rejected, 1);
    const aside = JSON.parse(storage.getItem(`${REJECTED_PREFIX}${lrs.endpoint}`));
    assert.equal(aside.length, 1);
    assert.equal(aside[0].statement.id, bad.id);
    assert.equal(aside[0].status, 400);
    assert.match(aside[0].answer, /actor/);
    assert.match(warnings.join('\n'), /refused statement/);
    queue.stop();
  } finally {
    console.warn = warn;
  }
});

test('the completed statement and a section-less answer validate and are stored', async () => {
  const storage = new MemoryStorage();
  const queue = createLrsQueue({ endpoint: lrs.endpoint, auth: LRS_AUTH, storage, ...FAST });
  open.push(queue);
  const before = (await lrs.statements()).length;
  const list = [
    completedStatement({ points: 3.5, total: questionIds.length, mastery: 0.8 }),
    answeredStatement({
      quizId: 'not-in-the-lesson',
      kind: 'fill-in',
      response: 'x',
      correctPattern: 'y',
      correct: false,
      score: 0,
    }),
  ];
  for (const s of list) queue.add(s);
  await until('two more', () => queue.pending() === 0 && queue.state === 'idle');
  const stored = (await lrs.statements()).slice(before);
  assertStoredLoose(stored, list);
  queue.stop();
});

// completed has no parent (the lesson is the top); the rest as assertStored
function assertStoredLoose(stored, sent) {
  assert.deepEqual(stored.map((s) => s.id).sort(), sent.map((s) => s.id).sort());
  for (const s of stored) {
    assert.deepEqual(validateStatement(s), []);
    assert.equal(s.actor.mbox, ACTOR.mbox);
    assert.equal(s.context.registration, REGISTRATION);
  }
}

// what <pe-exercise> says of a checked answer (pe-quiz-answered), from an exercise as the widget draws it
function exerciseDetail(id, generator, seed, learner) {
  const x = drawExercise(generator, pe, seededRandom(seed));
  const texts = x.parts.map((p) => p.solutionValue);
  const judged = x.parts.map((p) => judgePart(p, p.solutionValue, seededRandom(1)));
  const inter = interactionOf(x.parts, texts, judged);
  return {
    quizId: id,
    kind: inter.kind,
    response: inter.response,
    correct: true,
    revealed: false,
    score: 1,
    title: 'How much more the newest key weighs',
    question: `${x.prompt} (${learner})`,
    numbers: x.numbers,
    seed,
    correctPattern: inter.correctPattern,
  };
}

test('an exercise is one activity for every learner: two learners with other numbers send one definition, their numbers beside the result; an LRS filters both by the activity', async () => {
  const id = 'relative-bias-alibi-ratio';
  const { generator } = compileExercise(lessonExercises[id].definition, { pe });
  const storage = new MemoryStorage();
  const queue = createLrsQueue({ endpoint: lrs.endpoint, auth: LRS_AUTH, storage, ...FAST });
  open.push(queue);
  const sent = [];
  for (const [k, learner] of ['ann', 'bob'].entries()) {
    configureXapi({ actor: { name: learner, mbox: `mailto:${learner}@example.org` } });
    const s = answeredStatement(exerciseDetail(id, generator, 11 + k * 1000, learner));
    sent.push(s);
    queue.add(s);
  }
  configureXapi({ actor: ACTOR });
  await until('both stored', () => queue.pending() === 0 && queue.state === 'idle');
  const iri = sent[0].object.id;
  const stored = await lrs.statements(`activity=${encodeURIComponent(iri)}`);
  assert.deepEqual(
    stored.map((s) => s.actor.mbox),
    ['mailto:ann@example.org', 'mailto:bob@example.org'],
  );
  for (const s of stored) assert.deepEqual(validateStatement(s), []);
  const [a, b] = stored;
  assert.deepEqual(a.object.definition, b.object.definition, 'one definition for both learners');
  assert.deepEqual(a.object.definition, {
    name: { 'en-US': 'How much more the newest key weighs' },
    type: 'http://adlnet.gov/expapi/activities/cmi.interaction',
    interactionType: 'numeric',
  });
  const draws = stored.map((s) => s.result.extensions[`${ACTIVITY_BASE_NOW()}/extensions/draw`]);
  assert.notDeepEqual(draws[0].numbers, draws[1].numbers, 'other numbers for the other learner');
  assert.deepEqual(Object.keys(draws[0].numbers), ['h', 'j', 'delta']);
  assert.match(draws[0].correctResponsesPattern[0], /^[\d.]+\[:\][\d.]+$/);
  queue.stop();
});

test('a page configured for an LRS says initialized once when it opens, whatever is configured after', async () => {
  const before = (await lrs.statements('verb=http%3A%2F%2Fadlnet.gov%2Fexpapi%2Fverbs%2Finitialized')).length;
  // the page's storage, where the queue keeps what it has not sent across a reconfiguration
  withStorage(new MemoryStorage());
  try {
    assert.equal(configureXapi({ endpoint: lrs.endpoint, auth: LRS_AUTH }).sending, true);
    assert.equal(configureXapi({ endpoint: lrs.endpoint, auth: LRS_AUTH, language: 'en-GB' }).sending, true);
    await until('initialized stored', async () => {
      const list = await lrs.statements('verb=http%3A%2F%2Fadlnet.gov%2Fexpapi%2Fverbs%2Finitialized');
      return list.length > before;
    });
    await new Promise((r) => setTimeout(r, 300));
    const list = await lrs.statements('verb=http%3A%2F%2Fadlnet.gov%2Fexpapi%2Fverbs%2Finitialized');
    assert.equal(list.length, before + 1, 'once');
    const s = list.at(-1);
    assert.deepEqual(validateStatement(s), []);
    assert.equal(s.object.id, ACTIVITY_BASE_NOW());
    assert.equal(s.actor.mbox, ACTOR.mbox);
  } finally {
    configureXapi({ endpoint: null, language: 'en-US' });
  }
});

test('new credentials for the same LRS keep what was not sent yet, also where the queue lives in memory only', async () => {
  // no localStorage here: the queue is kept in memory, as in a sandboxed frame
  assert.equal(globalThis.localStorage, undefined);
  try {
    assert.equal(configureXapi({ endpoint: lrs.endpoint, auth: LRS_AUTH }).sending, true);
    const waiting = statements(3);
    for (const s of waiting) assert.equal(sendStatement(s), true);
    // before the first batch leaves (200 ms), the page swaps in a fresh token for the same LRS
    assert.equal(configureXapi({ endpoint: lrs.endpoint, auth: LRS_AUTH }).sending, true);
    await until('the three statements stored', async () => {
      const ids = new Set((await lrs.statements()).map((s) => s.id));
      return waiting.every((s) => ids.has(s.id));
    });
    const stored = (await lrs.statements()).filter((s) => waiting.some((w) => w.id === s.id));
    assert.equal(stored.length, 3, 'each once');
  } finally {
    configureXapi({ endpoint: null });
  }
});
