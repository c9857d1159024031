// The cmi5 package (scripts/export/export-cmi5.mjs) launched as an LMS launches it,
// against a real LRS (Learning Locker's statements service, tests/js/lrs.mjs).
//
// The harness plays the LMS: it serves the exported lesson.html (read from
// the zip), a fetch URL per launch (the first POST answers
// {"auth-token": ...}, a second one an error, as cmi5 8.2.3 has it), and the
// xAPI endpoint the AU is given: /xapi/statements is passed through to the
// real LRS, while /xapi/activities/state (LMS.LaunchData, and the AU's own
// progress document) is served by the harness itself, because Learning
// Locker's statements service has no State API.
//
// One registration, two sessions of the RoPE AU (lesson.html?sections=rope,
// 6 questions): the first answers the three fixed quizzes right (3 of 6, at
// LMS.LaunchData's masteryScore 0.5, which wins over the built-in 0.8: passed)
// and leaves; the second (a new fetch URL, a new session id) resumes with
// those three answered and answers the other three wrong (completed; no
// second passed, no failed). The statements read back from the LRS are in
// order, carry the session id, the registration and the template's grouping,
// and validate with @learninglocker/xapi-validation. Then bad launches: a
// fetch URL used a second time, a launch without its endpoint, a
// LMS.LaunchData with a launchMode cmi5 does not have: the page works, the
// console says why. Last, a Browse launch with the LRS down: its statements
// wait in the queue and arrive once the LRS is back, and none judges.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { createRequire } from 'node:module';
import { mkdtempSync, rmSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { unzipSync, strFromU8 } from 'fflate';
import { XMLParser } from 'fast-xml-parser';
import { launch, newPage, renderAllWidgets } from './harness.mjs';
import { startLrs, LRS_AUTH } from '../js/lrs.mjs';
import { exportCmi5 } from '../../scripts/export/export-cmi5.mjs';
import { exportPage } from '../../lms/export.mjs';
import { writeAuthorPage } from '../js/author-page.mjs';
import { answerAuthorQuestions, assertAuthorAnswers } from './questions.mjs';
import { listenLocal } from '../../scripts/run/serve.mjs';

const require = createRequire(import.meta.url);
const validateStatement = require('@learninglocker/xapi-validation').default;

const ACTOR = {
  objectType: 'Agent',
  name: 'Ann',
  account: { homePage: 'https://lms.example.org', name: 'learner-17' },
};
const REGISTRATION = '5d1e6f2a-8b3c-4d7e-9f10-a1b2c3d4e5f6';
const SESSION_EXT = 'https://w3id.org/xapi/cmi5/context/extensions/sessionid';
const V = (name) => `http://adlnet.gov/expapi/verbs/${name}`;
const TOKEN = LRS_AUTH.replace(/^Basic /, ''); // the LRS takes any Basic credentials

let lrs;
let browser;
let lms; // { server, url, fetches, states, html, au }
let tmp;

before(async () => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'posenc-cmi5-test-'));
  const t0 = Date.now();
  const { file } = await exportCmi5({ outDir: tmp, activityBase: 'https://lms.example.org/courses/posenc' });
  const zip = unzipSync(new Uint8Array(readFileSync(file)));
  const cs = new XMLParser({ ignoreAttributes: false }).parse(strFromU8(zip['cmi5.xml'])).courseStructure;
  const au = cs.au.find((a) => a.url === 'lesson.html?sections=rope');
  assert.ok(au, 'an AU for rope');
  console.log(`# export:cmi5 ${Date.now() - t0} ms, zip ${readFileSync(file).length} bytes`);
  [lrs, browser] = await Promise.all([startLrs(), launch()]);
  lms = await startLms(zip['lesson.html'], au);
});
after(async () => {
  await browser?.close();
  lms?.server.close();
  await lrs?.stop();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

async function body(req) {
  const chunks = [];
  for await (const c of req) chunks.push(c);
  return Buffer.concat(chunks);
}

/** The LMS of one AU (`html`, its page): fetch URLs, the State API; statements go on to the LRS. */
async function startLms(html, au) {
  const fetches = new Map(); // key -> used
  const states = new Map(); // JSON [stateId, activityId, agent, registration] -> text
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url, 'http://lms');
    const send = (status, text, type = 'application/json') => {
      res.writeHead(status, { 'Content-Type': type });
      res.end(text);
    };
    if (url.pathname === `/course/${au.url.split('?')[0]}`) return send(200, html, 'text/html; charset=utf-8');
    if (url.pathname.startsWith('/fetch/') && req.method === 'POST') {
      const key = url.pathname.slice(7);
      if (!fetches.has(key)) return send(404, '{"error-code":"3","error-text":"unknown launch"}');
      if (fetches.get(key))
        return send(200, JSON.stringify({ 'error-code': '1', 'error-text': 'this fetch URL has already been used' }));
      fetches.set(key, true);
      return send(200, JSON.stringify({ 'auth-token': TOKEN }));
    }
    if (url.pathname === '/xapi/activities/state') {
      if (req.headers.authorization !== `Basic ${TOKEN}`) return send(401, '{}');
      const p = url.searchParams;
      const key = JSON.stringify(
        ['stateId', 'activityId', 'agent', 'registration'].map((k) =>
          k === 'agent' ? JSON.parse(p.get(k)) : p.get(k),
        ),
      );
      if (req.method === 'GET') return states.has(key) ? send(200, states.get(key)) : send(404, '');
      if (req.method === 'PUT' || req.method === 'POST') {
        states.set(key, (await body(req)).toString());
        return send(204, '');
      }
    }
    if (url.pathname.startsWith('/xapi/statements')) {
      // through to the real LRS
      try {
        const r = await fetch(`${lrs.endpoint}statements${url.search}`, {
          method: req.method,
          headers: {
            Authorization: req.headers.authorization ?? '',
            'Content-Type': 'application/json',
            'X-Experience-API-Version': req.headers['x-experience-api-version'] ?? '1.0.3',
          },
          body: req.method === 'GET' ? undefined : await body(req),
        });
        return send(r.status, await r.text());
      } catch {
        return send(503, '{}');
      }
    }
    send(404, '');
  });
  const url = await listenLocal(server);
  const stateKey = (stateId, registration = REGISTRATION) => JSON.stringify([stateId, au['@_id'], ACTOR, registration]);
  return {
    server,
    url,
    au,
    states,
    /** A launch URL of a new session: its fetch URL and LMS.LaunchData written first. */
    newLaunch({ sessionId, launchMode = 'Normal', masteryScore = 0.5, omit = [], registration = REGISTRATION }) {
      const key = `k${fetches.size}`;
      fetches.set(key, false);
      states.set(
        stateKey('LMS.LaunchData', registration),
        JSON.stringify({
          contextTemplate: {
            contextActivities: { grouping: [{ id: au['@_id'], objectType: 'Activity' }] },
            extensions: { [SESSION_EXT]: sessionId },
          },
          launchMode,
          masteryScore,
          moveOn: au['@_moveOn'],
          returnURL: `${url}/return`,
        }),
      );
      const params = new URLSearchParams({
        endpoint: `${url}/xapi/`,
        fetch: `${url}/fetch/${key}`,
        actor: JSON.stringify(ACTOR),
        registration,
        activityId: au['@_id'],
      });
      for (const k of omit) params.delete(k);
      return `${url}/course/${au.url}${au.url.includes('?') ? '&' : '?'}${params}`;
    },
    ownState: () => JSON.parse(states.get(stateKey('posenc-course.progress')) ?? 'null'),
  };
}

async function until(what, fn, ms = 15_000) {
  const end = Date.now() + ms;
  while (!(await fn())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function quiz(page, id) {
  const sel = `pe-quiz[quiz="${id}"]`;
  await renderAllWidgets(page, [sel]);
  const el = page.locator(sel);
  await el.evaluate(
    (n) =>
      new Promise((resolve) =>
        (function poll() {
          n._question && n.shadowRoot.querySelector('input') ? resolve() : setTimeout(poll, 50);
        })(),
      ),
  );
  return el;
}

async function answerQuiz(page, id, right) {
  const el = await quiz(page, id);
  const pick = await el.evaluate((n, r) => n._question.options.findIndex((o) => o.correct === r), right);
  await el.locator(`input[value="${pick}"]`).check();
  await el.getByRole('button', { name: 'Check' }).click();
}

async function answerExerciseWrong(page, id) {
  const sel = `pe-exercise[exercise="${id}"]`;
  await renderAllWidgets(page, [sel]);
  const inputs = page.locator(sel).locator('.parts input');
  await until(`${id} renders`, async () => (await inputs.count()) > 0);
  for (let i = 0; i < (await inputs.count()); i++) await inputs.nth(i).fill('12345');
  await page.locator(sel).getByRole('button', { name: 'Check' }).click();
}

const board = (page) =>
  page
    .locator('pe-quiz-score')
    .first()
    .evaluate((n) => n.shadowRoot.querySelector('.text').textContent);
// the board updates in the frame after an answer: wait for it, then say what it says
async function boardSays(page, re, message) {
  await until(`the board to say ${re}`, async () => re.test(await board(page))).catch(() => {});
  assert.match(await board(page), re, message);
}
const bySession = (all, id) => all.filter((s) => s.context?.extensions?.[SESSION_EXT] === id);
const verbs = (list) => list.map((s) => s.verb.id.split('/').pop());

test('an AU launched twice in one registration: initialized, answered, passed, terminated; then resumed, completed, terminated; all valid in the LRS', async () => {
  const t0 = Date.now();
  const page = await newPage(browser, { viewport: { width: 1280, height: 900 } });
  const messages = [];
  page.on('console', (m) => messages.push(`${m.type()}: ${m.text()}`));
  const failures = [];
  page.on(
    'response',
    (r) => r.status() >= 400 && failures.push(`${r.status()} ${new URL(r.url()).searchParams.get('stateId')}`),
  );

  // session 1: three quizzes right (3 of 6 = the LMS's masteryScore 0.5): passed
  await page.goto(lms.newLaunch({ sessionId: 'session-one' }));
  await until('initialized', async () => verbs(await lrs.statements()).includes('initialized'));
  const fixed = ['rope-what-rotates', 'rope-direction', 'rope-checkpoint-pairing'];
  for (const id of fixed) await answerQuiz(page, id, true);
  await until('passed', async () => verbs(await lrs.statements()).includes('passed'));
  await boardSays(page, /^Score: 3 of 6 points/);
  await until(
    'the progress saved',
    () => lms.ownState()?.passed === true && /rope-checkpoint-pairing/.test(lms.ownState().progress),
  );
  await page.goto('about:blank'); // leaving: pagehide
  await until('terminated', async () => verbs(await lrs.statements()).includes('terminated'));

  // session 2: a new fetch URL and session id, the same registration: resumed
  await page.goto(lms.newLaunch({ sessionId: 'session-two' }));
  await until('the second initialized', async () =>
    verbs(bySession(await lrs.statements(), 'session-two')).includes('initialized'),
  );
  await quiz(page, 'rope-what-rotates');
  await boardSays(page, /^Score: 3 of 6 points/, "resumed with the first session's answers");
  await answerQuiz(page, 'rope-same-offset', false);
  await answerExerciseWrong(page, 'rope-rotated-pair');
  await answerExerciseWrong(page, 'rope-shifted-score');
  await until('completed', async () => verbs(await lrs.statements()).includes('completed'));
  await page.goto('about:blank');
  await until('the second terminated', async () =>
    verbs(bySession(await lrs.statements(), 'session-two')).includes('terminated'),
  );
  await new Promise((r) => setTimeout(r, 300)); // nothing more comes

  const all = await lrs.statements();
  const one = bySession(all, 'session-one');
  const two = bySession(all, 'session-two');
  assert.equal(one.length + two.length, all.length, 'every statement carries a session id of ours');
  assert.deepEqual(verbs(one), ['initialized', 'answered', 'answered', 'answered', 'passed', 'terminated']);
  assert.deepEqual(verbs(two), ['initialized', 'answered', 'answered', 'answered', 'completed', 'terminated']);
  const auId = lms.au['@_id'];
  for (const s of all) {
    assert.deepEqual(validateStatement(s), [], JSON.stringify(s).slice(0, 300));
    assert.equal(s.context.registration, REGISTRATION);
    assert.deepEqual(s.actor, ACTOR);
    assert.ok(
      s.context.contextActivities.grouping.some((a) => a.id === auId),
      "the template's grouping",
    );
    const category = (s.context.contextActivities.category ?? []).map((a) => a.id);
    if (s.verb.id === V('answered')) {
      assert.match(s.object.id, /\/quiz\/rope-/);
      assert.deepEqual(category, [], 'an allowed statement has no cmi5 category');
      assert.match(s.context.contextActivities.parent[0].id, /\/section\/rope$/);
    } else {
      assert.equal(s.object.id, auId, 'cmi5 statements are about the AU');
      assert.ok(category.includes('https://w3id.org/xapi/cmi5/context/categories/cmi5'));
      assert.equal(
        category.includes('https://w3id.org/xapi/cmi5/context/categories/moveon'),
        ['passed', 'failed', 'completed'].some((v) => s.verb.id === V(v)),
      );
    }
  }
  const passed = one.find((s) => s.verb.id === V('passed'));
  assert.deepEqual({ ...passed.result.score }, { scaled: 0.5, raw: 3, min: 0, max: 6 });
  assert.equal(passed.result.success, true);
  assert.match(passed.result.duration, /^PT/);
  assert.equal(passed.context.extensions['https://w3id.org/xapi/cmi5/context/extensions/masteryscore'], 0.5);
  assert.equal(two.find((s) => s.verb.id === V('completed')).result.completion, true);
  assert.match(two.at(-1).result.duration, /^PT/);
  assert.deepEqual(
    two.filter((s) => s.verb.id === V('answered')).map((s) => s.result.success),
    [false, false, false],
  );
  assert.ok(
    messages.some((m) => /cmi5: session session-two \(Normal\), mastery 0\.5, progress restored/.test(m)),
    messages.join('\n'),
  );
  // the one answer above 400: the first launch's own state document, not there yet (xAPI's 404)
  assert.deepEqual(failures, ['404 posenc-course.progress']);
  assert.deepEqual(
    page.errors.filter((e) => !/status of 404/.test(e)),
    [],
  );
  console.log(`# cmi5: ${all.length} statements over two sessions in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  await page.context().close();
});

test('bad launches (a fetch URL used twice, no endpoint): the lesson works, the console says why, nothing is sent', async () => {
  const before = (await lrs.statements()).length;
  const page = await newPage(browser, { viewport: { width: 1280, height: 900 } });
  const warnings = [];
  page.on('console', (m) => m.type() === 'warning' && warnings.push(m.text()));
  const url = lms.newLaunch({ sessionId: 'session-three' });
  await page.goto(url);
  await until('initialized', async () =>
    verbs(bySession(await lrs.statements(), 'session-three')).includes('initialized'),
  );
  await page.reload(); // the same launch URL: its fetch URL has been used
  await until('the warning', () =>
    warnings.some((w) => /fetch URL gave no token \(1 this fetch URL has already been used/.test(w)),
  );
  await answerQuiz(page, 'rope-direction', true);
  await boardSays(page, /^Score: 1 of 6 points/, 'the page works, afresh (no LMS record)');

  // without the LMS, progress is the browser's (as in the plain lesson): the answer above stays
  await page.goto(lms.newLaunch({ sessionId: 'session-four', omit: ['endpoint'] }));
  await answerQuiz(page, 'rope-what-rotates', true);
  await boardSays(page, /^Score: 2 of 6 points/);
  assert.ok(
    warnings.some((w) => /cmi5: the launch URL lacks endpoint; the lesson works on/.test(w)),
    warnings.join('\n'),
  );
  await page.goto('about:blank');
  await new Promise((r) => setTimeout(r, 300));
  assert.equal((await lrs.statements()).length, before + 2, "only the first launch's initialized and terminated");
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('Browse mode judges nothing; with the LRS down its statements wait and arrive when it is back; a bad LMS.LaunchData sends nothing', async () => {
  const registration = '7a2b3c4d-5e6f-4a1b-8c2d-3e4f5a6b7c8d';
  const page = await newPage(browser, { viewport: { width: 1280, height: 900 } });
  const warnings = [];
  page.on('console', (m) => m.type() === 'warning' && warnings.push(m.text()));

  // a launchMode cmi5 has not: the lesson alone
  await page.goto(lms.newLaunch({ sessionId: 'session-bad', registration, launchMode: 'Play' }));
  await until('the warning', () =>
    warnings.some((w) =>
      /cmi5: LMS.LaunchData's launchMode is "Play", not one of Normal, Browse, Review; the lesson works on/.test(w),
    ),
  );
  await quiz(page, 'rope-direction');
  assert.equal(bySession(await lrs.statements(), 'session-bad').length, 0);

  // Browse, mastery 0 (every answer would pass), the LRS down
  await lrs.stop(); // it forgets what it stored: the tests above have read theirs
  await page.goto(lms.newLaunch({ sessionId: 'session-browse', registration, launchMode: 'Browse', masteryScore: 0 }));
  for (const id of ['rope-what-rotates', 'rope-direction', 'rope-checkpoint-pairing']) await answerQuiz(page, id, true);
  const queued = () =>
    page.evaluate(() =>
      Object.entries(localStorage)
        .filter(([k]) => k.startsWith('posenc-course:xapi-queue'))
        .reduce((n, [, v]) => n + JSON.parse(v).length, 0),
    );
  await until('four waiting', async () => (await queued()) === 4);
  await lrs.start();
  await page.evaluate(() => dispatchEvent(new Event('online'))); // try now, not after the backoff
  await until('the four sent', async () => (await queued()) === 0);
  await page.goto('about:blank');
  await until('terminated', async () => verbs(await lrs.statements()).includes('terminated'));
  const all = await lrs.statements();
  assert.deepEqual(verbs(all), ['initialized', 'answered', 'answered', 'answered', 'terminated']);
  assert.ok(
    all.every((s) => s.context.registration === registration && s.context.extensions[SESSION_EXT] === 'session-browse'),
  );
  for (const s of all) assert.deepEqual(validateStatement(s), []);
  assert.deepEqual(
    page.errors.filter((e) => !/status of (404|503)/.test(e)),
    [],
  );
  await page.context().close();
});

// Issue 47: an author's own page packaged by `npx posenc-course export cmi5`
// (not the lesson), launched by the same LMS: its questions report under the
// author's activity base, its AU passes and completes on their credit.
test("an author's page from posenc-course export cmi5: launched, a quiz wrong then right and an exercise right pass and complete the AU, every statement valid and under the author's IRIs", async () => {
  const base = 'https://author.example.org/courses/positions';
  const dir = mkdtempSync(path.join(os.tmpdir(), 'posenc-cmi5-author-'));
  const author = { lms: null, page: null };
  try {
    const { out } = await exportPage({
      kind: 'cmi5',
      page: writeAuthorPage(dir),
      out: path.join(dir, 'author-cmi5.zip'),
      activityBase: base,
    });
    const zip = unzipSync(new Uint8Array(readFileSync(out)));
    const cs = new XMLParser({ ignoreAttributes: false }).parse(strFromU8(zip['cmi5.xml'])).courseStructure;
    const au = [cs.au].flat()[0];
    assert.equal(au.url, 'index.html');
    author.lms = await startLms(zip['index.html'], au);
    const before = (await lrs.statements()).length;
    const page = (author.page = await newPage(browser, { viewport: { width: 1100, height: 900 } }));
    await page.goto(author.lms.newLaunch({ sessionId: 'author-one', masteryScore: 0.8 }));
    await renderAllWidgets(page, ['pe-quiz', 'pe-exercise', 'pe-quiz-score']);
    await answerAuthorQuestions(page, page);
    await boardSays(page, /^Score: 1⅔ of 2 points \(2 of 2 questions answered\)/);
    await until('passed and completed', async () => {
      const v = verbs(bySession(await lrs.statements(), 'author-one'));
      return v.includes('passed') && v.includes('completed');
    });
    await page.goto('about:blank');
    await until('terminated', async () =>
      verbs(bySession(await lrs.statements(), 'author-one')).includes('terminated'),
    );
    const all = (await lrs.statements()).slice(before);
    const mine = bySession(all, 'author-one');
    assert.equal(mine.length, all.length, 'every statement of the launch carries its session');
    assert.deepEqual(
      verbs(mine).filter((v) => v !== 'passed' && v !== 'completed'),
      ['initialized', 'answered', 'answered', 'answered', 'terminated'],
    );
    assertAuthorAnswers(mine, base);
    const passed = mine.find((s) => s.verb.id === V('passed'));
    assert.equal(passed.object.id, au['@_id']);
    assert.ok(au['@_id'].startsWith(base), `the AU ${au['@_id']} lies under the author's base`);
    assert.equal(passed.result.score.scaled, 0.8333);
    assert.equal(passed.context.extensions['https://w3id.org/xapi/cmi5/context/extensions/masteryscore'], 0.8);
    assert.deepEqual(
      page.errors.filter((e) => !/status of 404/.test(e)),
      [],
    );
  } finally {
    await author.page?.context().close();
    author.lms?.server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
