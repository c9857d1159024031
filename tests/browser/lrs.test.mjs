// The lesson page sends to a real LRS (Learning Locker's statements service,
// tests/js/lrs.mjs), in Chromium: opened with the TinCan launch parameters,
// a learner answers 10 questions (6 quizzes, 4 exercises); the LRS goes down
// after the fourth, the page is reloaded after the seventh, the browser is
// offline for the last two, and the LRS comes back (having forgotten what it
// stored: each lifetime is read back before its stop). Every answer must
// reach it exactly once, complete and valid.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { useSite, newPage, renderAllWidgets } from './harness.mjs';
import { startLrs, LRS_AUTH } from '../js/lrs.mjs';

const require = createRequire(import.meta.url);
const validateStatement = require('@learninglocker/xapi-validation').default;
const site = useSite();
let lrs = null;
after(() => lrs?.stop());

const ACTOR = { name: 'Browser Learner', mbox: 'mailto:learner@example.org' };
const REGISTRATION = '0b7f4c1e-9d2a-4f3b-8c5d-6e7f8091a2b3';
const BASE = 'https://courses.example.org/positional-encoding';

const answeredIn = (stored) => stored.filter((s) => s.verb.id === 'http://adlnet.gov/expapi/verbs/answered');

async function until(what, fn, ms = 20_000) {
  const end = Date.now() + ms;
  while (!(await fn())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function answer(page, { tag, id }) {
  const sel = `${tag}[${tag === 'pe-quiz' ? 'quiz' : 'exercise'}="${id}"]`;
  await renderAllWidgets(page, [sel]);
  const el = page.locator(sel);
  if (tag === 'pe-quiz') await el.locator('.options input').first().check();
  else {
    const inputs = el.locator('.parts input');
    for (let i = 0; i < (await inputs.count()); i++) await inputs.nth(i).fill('12345');
  }
  await el.getByRole('button', { name: 'Check' }).click();
}

test('10 answers with the LRS down, a reload and an offline spell between: each reaches the LRS once, complete', async () => {
  lrs = await startLrs();
  const launch = new URLSearchParams({
    endpoint: lrs.endpoint,
    auth: LRS_AUTH,
    actor: JSON.stringify(ACTOR),
    registration: REGISTRATION,
    activity_id: BASE,
  });
  const page = await newPage(site.browser, { viewport: { width: 1280, height: 900 } });
  await page.context().addInitScript(() => {
    window.xapiStates = [];
    addEventListener('posenc-xapi-status', (e) => window.xapiStates.push(e.detail.state));
  });
  await page.goto(`${site.url}/?${launch}`);
  const questions = await page.evaluate(async () => {
    const { quizzes } = await import('/gen/lesson-data.js');
    const quiz = Object.values(quizzes)
      .filter((q) => !q.generator && !q.multiple)
      .map((q) => ({ tag: 'pe-quiz', id: q.id }));
    const exercise = [...document.querySelectorAll('pe-exercise')].map((n) => ({
      tag: 'pe-exercise',
      id: n.getAttribute('exercise'),
    }));
    // spread over the lesson, the two kinds mixed
    return [quiz[0], exercise[0], quiz[3], quiz[6], exercise[3], quiz[9], quiz[12], exercise[6], quiz[15], exercise[9]];
  });
  assert.equal(questions.filter(Boolean).length, 10);
  const t0 = Date.now();

  // 1. four answers, the LRS up
  for (const q of questions.slice(0, 4)) await answer(page, q);
  await until('the first four', async () => answeredIn(await lrs.statements()).length >= 4);
  const lifetime1 = await lrs.statements();

  // 2. the LRS goes down; three answers wait, retried
  await lrs.stop();
  for (const q of questions.slice(4, 7)) await answer(page, q);
  await until('a failed attempt', () => page.evaluate(() => window.xapiStates.includes('retrying')));
  const queueKey = `posenc-course:xapi-queue:v1:${lrs.endpoint}`;
  const waiting = () => page.evaluate((k) => JSON.parse(localStorage.getItem(k) ?? '[]').length, queueKey);
  assert.equal(await waiting(), 3);

  // 3. a reload (the launch URL stays: the page opens again, initialized
  // waits too), one more answer; then offline for two
  await page.reload();
  await renderAllWidgets(
    page,
    questions.slice(7).map((q) => `${q.tag}[${q.tag === 'pe-quiz' ? 'quiz' : 'exercise'}="${q.id}"]`),
  );
  await answer(page, questions[7]);
  await page.context().setOffline(true);
  for (const q of questions.slice(8)) await answer(page, q);
  await until('seven waiting', async () => (await waiting()) === 7);

  // 4. the LRS is back (empty: it forgot), then the browser
  await lrs.start();
  await page.context().setOffline(false);
  await until('the other six', async () => answeredIn(await lrs.statements()).length >= 6);
  await new Promise((r) => setTimeout(r, 500)); // nothing more comes
  const lifetime2 = await lrs.statements();
  console.log(`lrs test: 10 answers, 4 + ${lifetime2.length} stored in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

  const all = [...lifetime1, ...lifetime2];
  const answered = answeredIn(all);
  // each opening of the page said once, then answers only (no completed before the lesson is complete)
  const opened = all.filter((s) => s.verb.id === 'http://adlnet.gov/expapi/verbs/initialized');
  assert.equal(opened.length, 2, 'initialized: the first load and the reload');
  for (const s of opened) {
    assert.deepEqual(validateStatement(s), []);
    assert.equal(s.object.id, BASE);
  }
  assert.equal(all.length, answered.length + opened.length, 'a completed statement before the lesson is complete');
  const ids = answered.map((s) => s.id);
  assert.equal(new Set(ids).size, 10, `statement ids: ${ids}`);
  assert.deepEqual(
    answered.map((s) => s.object.id).sort(),
    questions.map((q) => `${BASE}/quiz/${q.id}`).sort(),
    'each question once',
  );
  for (const s of answered) {
    assert.deepEqual(validateStatement(s), [], JSON.stringify(s).slice(0, 300));
    assert.match(s.id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.ok(
      Date.parse(s.timestamp) >= t0 - 1000 && Date.parse(s.timestamp) < Date.parse(s.stored),
      `${s.id}: timestamp ${s.timestamp}, stored ${s.stored}`,
    );
    assert.deepEqual(s.actor, { objectType: 'Agent', ...ACTOR });
    assert.equal(s.context.registration, REGISTRATION);
    assert.match(s.context.contextActivities.parent[0].id, new RegExp(`^${BASE}/section/[a-z-]+$`));
    assert.deepEqual(s.context.contextActivities.grouping, [{ id: BASE, objectType: 'Activity' }]);
    assert.equal(s.context.platform, 'posenc-course');
    assert.equal(s.context.language, 'en-US');
    assert.ok(['choice', 'numeric', 'fill-in'].includes(s.object.definition.interactionType));
  }
  assert.equal(answered.filter((s) => s.object.definition.interactionType === 'choice').length, 6);
  assert.equal(await waiting(), 0);
  // the page's own errors: none but the refused connections while the LRS was down
  const errors = page.errors.filter(
    (e) => !/ERR_CONNECTION_REFUSED|ERR_INTERNET_DISCONNECTED|Failed to load resource|Failed to fetch/.test(e),
  );
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('a launch with a bad actor or endpoint: the footer says so, the quizzes still work, nothing is sent', async () => {
  const page = await newPage(site.browser, { viewport: { width: 1280, height: 900 } });
  const warnings = [];
  page.on('console', (m) => m.type() === 'warning' && warnings.push(m.text()));
  await page.goto(`${site.url}/?endpoint=ftp%3A%2F%2Flrs.example.org%2F&actor=%7Bname%3A`);
  const status = await page.locator('#xapi-status').textContent();
  assert.match(status, /sending is off/);
  assert.match(status, /http\(s\) address/);
  assert.match(status, /actor is not JSON/);
  assert.ok(warnings.some((w) => /actor is not JSON/.test(w)));
  const id = await page.evaluate(
    async () => Object.values((await import('/gen/lesson-data.js')).quizzes).find((q) => !q.generator).id,
  );
  await answer(page, { tag: 'pe-quiz', id });
  await page.waitForFunction(
    (q) => /\S/.test(document.querySelector(`pe-quiz[quiz="${q}"]`).shadowRoot.querySelector('.result').textContent),
    id,
  );
  assert.equal(
    await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('posenc-course:xapi-queue')).length),
    0,
  );
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
