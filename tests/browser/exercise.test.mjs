// Exercises with typed answers (<pe-exercise>, issue 33), in Chromium on the
// lesson page: enough of them, across the sections; fresh numbers per learner
// and the same numbers for the same learner; the value the worked solution
// shows (part="solution-value"), typed by the same learner in a fresh
// session, is accepted and scored, and a wrong one is not; credit falls with
// each miss and new numbers never take it away; hostile typing gets a message
// and runs nothing; the keyboard alone does it all; and the widget fits 375 px.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, newPage, openLessonAs, renderAllWidgets, assertNoSidewaysScroll } from './harness.mjs';

const PROGRESS_KEY = 'posenc-course:quiz-progress:v1';
const site = useSite();

/** The lesson as the learner with `seed` (openLessonAs), counting in window.dialogs the alerts it would show. */
async function openLesson(seed, options = {}) {
  const page = await openLessonAs(site, seed, options);
  await page.evaluate(() => {
    window.dialogs = 0;
    window.alert = () => (window.dialogs += 1);
  });
  return page;
}

const exerciseIds = (page) => page.$$eval('pe-exercise', (nodes) => nodes.map((n) => n.getAttribute('exercise')));
const sectionsOf = (page) => page.$$eval('pe-exercise', (nodes) => nodes.map((n) => n.closest('section')?.id));
const texts = (page, id) =>
  page
    .locator(`pe-exercise[exercise="${id}"]`)
    .evaluate(
      (n) => n.shadowRoot.querySelector('.prompt').textContent + n.shadowRoot.querySelector('.parts').textContent,
    );
const result = (el) => el.evaluate((n) => n.shadowRoot.querySelector('.result').textContent);
const board = (page) => page.locator('pe-quiz-score').evaluate((n) => n.shadowRoot.querySelector('.text').textContent);

test('at least 10 exercises in at least 7 sections; two learners see different numbers in most, one learner the same after a reload', async () => {
  const a = await openLesson(1234567);
  const ids = await exerciseIds(a);
  const sections = new Set(await sectionsOf(a));
  assert.ok(ids.length >= 10, `only ${ids.length} exercises`);
  assert.ok(sections.size >= 7, `exercises in only ${sections.size} sections: ${[...sections]}`);
  await renderAllWidgets(a, ['pe-exercise']);
  const first = Object.fromEntries(await Promise.all(ids.map(async (id) => [id, await texts(a, id)])));
  await a.reload();
  await renderAllWidgets(a, ['pe-exercise']);
  for (const id of ids) assert.equal(await texts(a, id), first[id], `${id}: other numbers after a reload`);
  const b = await openLesson(3141592653);
  await renderAllWidgets(b, ['pe-exercise']);
  let differ = 0;
  for (const id of ids) if ((await texts(b, id)) !== first[id]) differ += 1;
  assert.ok(differ >= ids.length - 2, `only ${differ} of ${ids.length} exercises differ between two learners`);
  assert.deepEqual(a.errors, []);
  assert.deepEqual(b.errors, []);
  await a.context().close();
  await b.context().close();
});

test('the solution value, typed by the same learner in a fresh session, is accepted and scored; a wrong one is not, and costs a third', async () => {
  // session 1: show the solution and read the values under part="solution-value"
  const s1 = await openLesson(777);
  const ids = await exerciseIds(s1);
  const id = ids.find((x) => /wavelength/.test(x)) ?? ids[0];
  const sel = `pe-exercise[exercise="${id}"]`;
  await renderAllWidgets(s1, [sel]);
  await s1.locator(sel).getByRole('button', { name: 'Show solution' }).click();
  const values = await s1
    .locator(sel)
    .evaluate((n) => [...n.shadowRoot.querySelectorAll('[part~="solution-value"]')].map((e) => e.textContent));
  assert.ok(values.length >= 1 && values.every((v) => v.trim() !== ''), `no solution values: ${values}`);
  await s1.context().close();

  // session 2: same learner (seed), no progress: a wrong answer first, then the solution's values
  const s2 = await openLesson(777);
  await renderAllWidgets(s2, [sel, 'pe-quiz-score']);
  const el = s2.locator(sel);
  const inputs = el.locator('.parts input');
  assert.equal(await inputs.count(), values.length);
  for (let i = 0; i < values.length; i++) await inputs.nth(i).fill(i === 0 ? '12345' : values[i]);
  await el.getByRole('button', { name: 'Check' }).click();
  assert.match(await result(el), /^Not right yet/);
  assert.match(await result(el), /now earns ⅔ point/);
  for (let i = 0; i < values.length; i++) await inputs.nth(i).fill(values[i]);
  await el.getByRole('button', { name: 'Check' }).click();
  assert.match(await result(el), /^Correct\. ⅔ point/);
  await s2.waitForFunction(() => /Score: ⅔ of/.test(document.querySelector('pe-quiz-score').shadowRoot.textContent));
  const answers = await s2.evaluate(() => window.answers);
  assert.equal(answers.length, 2);
  assert.equal(answers[0].correct, false);
  assert.equal(answers[0].score, 0);
  assert.equal(answers[1].correct, true);
  assert.ok(Math.abs(answers[1].score - 2 / 3) < 1e-3, `second answer scored ${answers[1].score}`);
  assert.ok(['numeric', 'fill-in'].includes(answers[1].kind));
  assert.ok(answers[1].latencyMs >= 0);
  const stored = await s2.evaluate((k) => JSON.parse(localStorage.getItem(k)), PROGRESS_KEY);
  assert.ok(Math.abs(stored[id].credit - 2 / 3) < 1e-3);
  assert.equal(stored[id].misses, 1);

  // new numbers are practice: the credit stays on the board and in storage
  await el.getByRole('button', { name: 'New numbers' }).click();
  await s2.waitForFunction(
    (s) => document.querySelector(s).shadowRoot.querySelector('.parts input')?.value === '',
    sel,
  );
  assert.match(await board(s2), /^Score: ⅔ of/);
  const after = await s2.evaluate((k) => JSON.parse(localStorage.getItem(k)), PROGRESS_KEY);
  assert.ok(Math.abs(after[id].credit - 2 / 3) < 1e-3, 'new numbers took the credit away');
  assert.deepEqual(s2.errors, []);
  await s2.context().close();
});

test('hostile typing gets a message and runs nothing; the exercise still works afterwards', async () => {
  const page = await openLesson(4242);
  const ids = await exerciseIds(page);
  // a formula exercise: the input reaches the expression parser
  const id = ids.find((x) => /ntk|wavelength|rotated/.test(x)) ?? ids[0];
  const sel = `pe-exercise[exercise="${id}"]`;
  await renderAllWidgets(page, [sel]);
  const el = page.locator(sel);
  const input = el.locator('.parts input').first();
  for (const hostile of [
    '<img src=x onerror=alert(1)>',
    'constructor.constructor("alert(1)")()',
    '__proto__',
    '1e999',
    'x'.repeat(20000),
    '((((((((',
    ')',
  ]) {
    await input.fill(hostile);
    await el.getByRole('button', { name: 'Check' }).click();
    const state = await el.evaluate((n) => ({
      result: n.shadowRoot.querySelector('.result').textContent,
      read: n.shadowRoot.querySelector('.read').textContent,
      imgs: n.shadowRoot.querySelectorAll('img').length,
      invalid: n.shadowRoot.querySelector('.parts input').getAttribute('aria-invalid'),
    }));
    assert.ok(state.result.length > 0 && !/^Correct/.test(state.result), `${hostile.slice(0, 20)}: ${state.result}`);
    assert.equal(state.imgs, 0, 'markup became elements');
    assert.equal(state.invalid, 'true', `${hostile.slice(0, 20)}: the box is not marked`);
  }
  assert.equal(await page.evaluate(() => window.dialogs), 0);
  // nothing unreadable was counted as an attempt
  assert.deepEqual(await page.evaluate(() => window.answers), []);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('keyboard only: Tab to the box, type, Enter checks; Show solution by keyboard; the widget fits a 375 px phone', async () => {
  const page = await openLesson(99, {
    viewport: { width: 375, height: 800 },
    hasTouch: true,
    isMobile: true,
    colorScheme: 'dark',
  });
  const ids = await exerciseIds(page);
  const sel = `pe-exercise[exercise="${ids[0]}"]`;
  await renderAllWidgets(page, [sel]);
  const el = page.locator(sel);
  await el.locator('.parts input').first().focus();
  await page.keyboard.type('1');
  await page.keyboard.press('Enter');
  assert.ok((await result(el)).length > 0, 'Enter did not check');
  await el.getByRole('button', { name: 'Show solution' }).focus();
  await page.keyboard.press('Enter');
  assert.ok(await el.evaluate((n) => !n.shadowRoot.querySelector('.solution').hidden));
  // every box has a label a screen reader reads, and a described rule
  const labelled = await el.evaluate((n) =>
    [...n.shadowRoot.querySelectorAll('.parts input')].every(
      (i) => n.shadowRoot.querySelector(`label[for="${i.id}"]`) && i.getAttribute('aria-describedby'),
    ),
  );
  assert.ok(labelled);
  await renderAllWidgets(page, ['pe-exercise']);
  await assertNoSidewaysScroll(page, 1);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('in the iframe embed: an exercise answered with the solution value posts posenc:answered with its kind, typed text and credit', async () => {
  const page = await newPage(site.browser, { viewport: { width: 900, height: 900 } });
  await page.goto(`${site.url}/examples/course-page.html`);
  await page.evaluate((src) => {
    window.messages = [];
    addEventListener('message', (e) => window.messages.push(e.data));
    const frame = document.createElement('iframe');
    frame.src = src;
    frame.style.width = '800px';
    frame.style.height = '800px';
    document.body.replaceChildren(frame);
  }, `${site.url}/embed.html?widget=pe-exercise&exercise=long-context-unturned-pairs`);
  const frame = page.frameLocator('iframe');
  const el = frame.locator('pe-exercise');
  await el.locator('.parts input').first().waitFor();
  const solution = await el.evaluate((n) => n._draw.parts.map((p) => p.solutionValue));
  const inputs = el.locator('.parts input');
  for (let i = 0; i < solution.length; i++) await inputs.nth(i).fill(solution[i]);
  await el.getByRole('button', { name: 'Check' }).click();
  await page.waitForFunction(() => window.messages.some((m) => m?.type === 'posenc:answered'));
  const m = await page.evaluate(() => window.messages.find((x) => x?.type === 'posenc:answered'));
  assert.equal(m.version, 3);
  assert.equal(m.quizId, 'long-context-unturned-pairs');
  assert.equal(m.kind, 'numeric');
  assert.deepEqual(m.response, solution);
  assert.equal(m.correct, true);
  assert.equal(m.score, 1);
  assert.deepEqual(m.choices, []);
  assert.equal(m.statement.object.definition.interactionType, 'numeric');
  assert.equal(m.statement.result.response, solution[0]);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

// Issue 46: a first part that does not parse left the others without a
// verdict; a right answer after three misses "earns 0 point".
test('a part that cannot be read does not keep the others from their verdict, and nothing is counted; three misses earn "no points"', async () => {
  const sel = 'pe-exercise[exercise="long-context-ntk-base"]';
  const first = await openLesson(4242);
  await renderAllWidgets(first, [sel]);
  await first.locator(sel).getByRole('button', { name: 'Show solution' }).click();
  const values = await first
    .locator(sel)
    .evaluate((n) => [...n.shadowRoot.querySelectorAll('[part~="solution-value"]')].map((e) => e.textContent));
  await first.context().close();
  // the same learner in a fresh session: the same numbers, no progress
  const page = await openLesson(4242);
  const el = page.locator(sel);
  await renderAllWidgets(page, [sel]);
  const inputs = el.locator('.parts input');
  await inputs.nth(0).fill('base*(');
  await inputs.nth(1).fill(values[1]);
  await el.getByRole('button', { name: 'Check' }).click();
  assert.match(await result(el), /^Part 1: /);
  const second = await el.evaluate((n) => n.shadowRoot.querySelectorAll('.parts .right').length);
  assert.equal(second, 1, 'the readable part 2 is marked right');
  assert.equal((await page.evaluate(() => window.answers)).length, 0, 'an unreadable part is not an attempt');
  // three wrong checks, then a right one: "no points", never "0 point"
  for (let k = 0; k < 3; k++) {
    await inputs.nth(0).fill('base*s');
    await el.getByRole('button', { name: 'Check' }).click();
  }
  assert.doesNotMatch(await result(el), /0 point/);
  assert.match(await result(el), /now earns no points/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
