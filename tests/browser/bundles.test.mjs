// The one-file bundles in Chromium, each copied alone into an empty folder
// served under the strict CSP (needs `npm run build`, which writes dist/):
// - dist/posenc-widgets.js: every tag it holds renders, the four exercise
//   lines are exact, no CSP violation, no console error, and no request but
//   the page and the bundle;
// - dist/anywidget.mjs, driven by a harness that behaves as anywidget's front
//   end does (a model with get, set, on, off, save_changes; the element in a
//   shadow root): it renders, follows a model change, and its cleanup
//   removes the widget; no request but the page, the harness and the bundle;
// - the same harness played both ways, its model recording every set and
//   save_changes as a kernel would receive them: a slider moved by the
//   learner lands in `state`, a quiz's answers in `answers` and `score`,
//   each saved; attributes set by the "kernel" change the widget (state
//   written once per change); bad attribute names get a message;
// - dist/anywidget.mjs under MyST's own renderer and model
//   (@myst-theme/anywidget, what Jupyter Book 2 runs for {anywidget}): it
//   renders from the directive's JSON, follows MystAnyModel.set, and unmounts
//   cleanly although that model's off() throws; the widget's state is
//   written into that model although its save_changes() throws.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  root,
  launch,
  strictPage,
  renderAllWidgets,
  shadowTexts,
  assertShowsSomething,
  learnerVisibleErrors,
  EXERCISE_LINES,
  STRICT_CSP,
} from './harness.mjs';
import { createStaticServer, listenLocal } from '../../scripts/run/serve.mjs';
import { BUNDLE_EXCLUDED } from '../../scripts/build/bundles.mjs';
import { tags as lessonTags } from './widget-tags.mjs';
import { build } from 'esbuild';
import { quizzes } from '../../web/gen/lesson-data.js';

// every tag with the attributes a course page would write (a quiz, an exercise and a sample need an id)
const TAGS = [
  'pe-heatmap',
  'pe-wave-barcode',
  'pe-binary-counter',
  'attention-permutation',
  'learned-overflow',
  'rope-clock',
  'alibi-bias',
  't5-buckets',
  't5-learned-bias',
  'rope-scaling-lab',
  'rope-config-lab',
  'pe-quiz-score',
];
const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>bundle</title>
<script type="module" src="posenc-widgets.js"></script></head><body>
${TAGS.map((t) => `<${t}></${t}>`).join('\n')}
<pe-quiz quiz="sinusoidal-fastest-pair"></pe-quiz>
<pe-exercise exercise="sinusoidal-wavelength"></pe-exercise>
<pe-code-exercise exercise="sinusoidal-code-row"></pe-code-exercise>
<pe-live-output sample="seat-vectors"></pe-live-output>
<rope-offset-check q="1.0,0.5" k="0.8,0.2" theta="0.5" m="1" n="3" shift="100"></rope-offset-check>
</body></html>`;

const HARNESS = `
// What anywidget's front end does: a model over a JSON state, an element in a
// shadow root. The model records what the front end writes (set) and sends
// (save_changes), as the kernel would receive it.
function createModel(state) {
  const handlers = new Map();
  const calls = [];
  return {
    get: (key) => state[key],
    set(key, value) {
      state[key] = value;
      calls.push(['set', key, JSON.parse(JSON.stringify(value))]);
      for (const h of handlers.get('change:' + key) ?? []) h({ new: value });
    },
    on: (name, h) => handlers.set(name, [...(handlers.get(name) ?? []), h]),
    off: (name, h) => handlers.set(name, (handlers.get(name) ?? []).filter((x) => x !== h)),
    save_changes() {
      calls.push(['save_changes']);
    },
    handlerCount: () => [...handlers.values()].reduce((n, l) => n + l.length, 0),
    calls,
    // what the kernel has: the traits as of the last save_changes
    saved(key) {
      const last = calls.findLastIndex((c) => c[0] === 'save_changes');
      return calls.slice(0, last + 1).findLast((c) => c[0] === 'set' && c[1] === key)?.[2];
    },
    // a change from the kernel: set without recording it as the front end's
    fromKernel(key, value) {
      state[key] = value;
      for (const h of handlers.get('change:' + key) ?? []) h({ new: value });
    },
  };
}
const mod = await import('./anywidget.mjs');
async function mount(state) {
  const host = document.body.appendChild(document.createElement('div'));
  const el = document.createElement('div');
  host.attachShadow({ mode: 'open' }).append(el);
  const model = createModel(state);
  const cleanup = await mod.render({ model, el });
  return { model, el, cleanup, host };
}
const first = await mount({ tag: 'rope-clock', attributes: { 'd-model': 8, sentence: 'the cat sat on the mat', first: 'cat', second: 'mat' } });
first.host.id = 'host';
window.anywidgetTest = { ...first, hasDefault: typeof mod.default?.render === 'function', mount };
`;

// MyST's own front end for {anywidget} (Jupyter Book 2's theme): the real
// AnyWidgetRenderer (React) and MystAnyModel of @myst-theme/anywidget, given
// the node the directive makes
const MYST_ENTRY = `
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { ANY_RENDERERS, MystAnyModel } from '@myst-theme/anywidget';
const esm = new URL('./anywidget.mjs', location.href).href;
const root = createRoot(document.getElementById('root'));
window.myst = {
  // what MyST renders for \`\`\`{anywidget} ./anywidget.mjs with a JSON body
  show: (model) => root.render(createElement(ANY_RENDERERS.anywidget, { node: { type: 'anywidget', esm, model, id: 'w1' } })),
  unmount: () => root.unmount(),
  // MyST's model class on its own, for a change after render
  async direct(state) {
    const mod = await import(esm);
    const model = new MystAnyModel(state);
    const el = document.getElementById('direct');
    const cleanup = await mod.default.render({ model, el });
    return { model, el, cleanup };
  },
};
`;

let dir;
let server;
let url;
let browser;
before(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'posenc-bundle-'));
  copyFileSync(path.join(root, 'dist/posenc-widgets.js'), path.join(dir, 'posenc-widgets.js'));
  copyFileSync(path.join(root, 'dist/anywidget.mjs'), path.join(dir, 'anywidget.mjs'));
  writeFileSync(path.join(dir, 'index.html'), PAGE);
  writeFileSync(
    path.join(dir, 'anywidget.html'),
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>anywidget</title>
<script type="module" src="harness.js"></script></head><body></body></html>`,
  );
  writeFileSync(path.join(dir, 'harness.js'), HARNESS);
  const myst = await build({
    stdin: { contents: MYST_ENTRY, resolveDir: root, sourcefile: 'myst-entry.js', loader: 'js' },
    bundle: true,
    format: 'esm',
    minify: true,
    define: { 'process.env.NODE_ENV': '"production"' },
    write: false,
    logLevel: 'silent',
  });
  writeFileSync(path.join(dir, 'myst-app.js'), myst.outputFiles[0].contents);
  writeFileSync(
    path.join(dir, 'myst.html'),
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>myst</title>
<script type="module" src="myst-app.js"></script></head><body><div id="root"></div><div id="direct"></div></body></html>`,
  );
  server = createStaticServer(dir, { headers: { 'Content-Security-Policy': STRICT_CSP } });
  url = await listenLocal(server);
  browser = await launch();
});
after(async () => {
  await browser?.close();
  server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('the bundle holds every lesson tag but the ones it leaves out', () => {
  const all = [
    ...new Set([
      ...TAGS,
      'pe-quiz',
      'pe-exercise',
      'pe-code-exercise',
      'pe-live-output',
      'rope-offset-check',
      ...BUNDLE_EXCLUDED,
    ]),
  ].sort();
  assert.deepEqual(all, [...new Set(lessonTags)].sort());
});

test('dist/posenc-widgets.js alone under the strict CSP: every tag renders, the exercise lines are exact, no other request', async () => {
  const page = await strictPage(browser);
  await page.goto(`${url}/`);
  const tags = [...TAGS, 'pe-quiz', 'pe-exercise', 'pe-code-exercise', 'pe-live-output', 'rope-offset-check'];
  assert.equal(await renderAllWidgets(page, tags), tags.length);
  // the bundle carries no Python: the code exercise says so, and asks for nothing
  assert.match(
    await page.locator('pe-code-exercise').evaluate((n) => n.shadowRoot.querySelector('.offline').textContent),
    /^Running code needs the online lesson/,
  );
  const texts = (await shadowTexts(page, 'pe-live-output, rope-offset-check')).join('\n');
  for (const line of EXERCISE_LINES) assert.ok(texts.includes(line), `missing: ${line}`);
  assert.deepEqual(await learnerVisibleErrors(page, tags.join(',')), [], 'errors the learner would see');
  for (const t of tags) await assertShowsSomething(page, t);
  await page.waitForTimeout(300);
  assert.deepEqual(page.violations, []);
  assert.deepEqual(page.problems, []);
  assert.deepEqual([...new Set(page.requests)].sort(), ['/', '/posenc-widgets.js']);
  await page.context().close();
});

test('dist/anywidget.mjs in an anywidget-like harness: renders, follows a model change, cleans up; no other request', async () => {
  const page = await strictPage(browser);
  await page.goto(`${url}/anywidget.html`);
  await page.waitForFunction(() => window.anywidgetTest);
  const clock = page.locator('#host >> rope-clock');
  await clock.waitFor();
  const ready = () => clock.evaluate((n) => n.hasAttribute('data-ready'));
  await page.waitForFunction(() =>
    document.querySelector('#host').shadowRoot.querySelector('rope-clock')?.hasAttribute('data-ready'),
  );
  assert.ok(await ready());
  assert.equal(await page.evaluate(() => window.anywidgetTest.hasDefault), true);
  const dials = () => clock.evaluate((n) => n.shadowRoot.querySelectorAll('figure').length);
  const before = await dials();
  assert.match(await clock.evaluate((n) => n.shadowRoot.textContent), /cat/);
  // a model change (what the kernel side or the directive's JSON does)
  await page.evaluate(() =>
    window.anywidgetTest.model.set('attributes', { 'd-model': 16, sentence: 'the dog bit the man' }),
  );
  assert.equal(await clock.getAttribute('d-model'), '16');
  assert.equal(await clock.getAttribute('first'), null, 'an attribute dropped from the model is removed');
  await page.waitForFunction(
    (b) =>
      document.querySelector('#host').shadowRoot.querySelector('rope-clock').shadowRoot.querySelectorAll('figure')
        .length > b,
    before,
  );
  // another tag
  await page.evaluate(() => window.anywidgetTest.model.set('tag', 'alibi-bias'));
  await page.waitForFunction(() =>
    document.querySelector('#host').shadowRoot.querySelector('alibi-bias')?.hasAttribute('data-ready'),
  );
  assert.equal(await page.evaluate(() => window.anywidgetTest.el.children.length), 1);
  // cleanup removes the widget and stops listening
  const after = await page.evaluate(() => {
    const t = window.anywidgetTest;
    t.cleanup();
    t.model.set('tag', 'rope-clock');
    return { children: t.el.children.length, handlers: t.model.handlerCount() };
  });
  assert.deepEqual(after, { children: 0, handlers: 0 });
  assert.deepEqual(page.violations, []);
  assert.deepEqual(page.problems, []);
  assert.deepEqual([...new Set(page.requests)].sort(), ['/anywidget.html', '/anywidget.mjs', '/harness.js']);
  await page.context().close();
});

test('dist/anywidget.mjs writes back: a moved slider into state, an answer into answers and score, each saved; the kernel still drives the widget', async () => {
  const page = await strictPage(browser);
  await page.goto(`${url}/anywidget.html`);
  await page.waitForFunction(() => window.anywidgetTest);
  const mount = (id, state) =>
    page.evaluateHandle(
      async ([id, state]) => {
        const w = await window.anywidgetTest.mount(state);
        w.host.id = id;
        return w;
      },
      [id, state],
    );
  const lastCall = (w) => w.evaluate((t) => t.model.calls.at(-1));

  // render reports every parameter as the widget reads it, and sends it
  const clock = await mount('clock', { tag: 'rope-clock', attributes: { 'd-model': 8 } });
  await page.locator('#clock rope-clock[data-ready]').waitFor();
  const initial = await clock.evaluate((t) => t.model.saved('state'));
  assert.deepEqual(initial, {
    sentence: 'the dog bit the man',
    first: 'dog',
    second: 'man',
    'd-model': 8,
    base: 10000,
    phase: 0,
  });
  assert.deepEqual(await clock.evaluate((t) => t.model.saved('score')), {
    points: 0,
    total: 0,
    answered: 0,
    revealed: 0,
    full: 0,
  });
  // the learner moves the d_model slider with the keyboard
  await page.locator('#clock #c-d-model').focus();
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(
    () => document.querySelector('#clock').shadowRoot.querySelector('rope-clock').getAttribute('d-model') === '10',
  );
  assert.equal((await clock.evaluate((t) => t.model.saved('state')))['d-model'], 10);
  assert.deepEqual(await lastCall(clock), ['save_changes']);
  // the kernel sets attributes: the widget follows, and state is written once for the change
  const setsBefore = await clock.evaluate((t) => t.model.calls.filter((c) => c[1] === 'state').length);
  await clock.evaluate((t) => t.model.fromKernel('attributes', { 'd-model': 16, base: 500 }));
  assert.equal(await page.locator('#clock rope-clock').getAttribute('d-model'), '16');
  assert.equal(await page.locator('#clock #c-d-model').inputValue(), '16');
  const after = await clock.evaluate((t) => t.model.saved('state'));
  assert.equal(after['d-model'], 16);
  assert.equal(after.base, 500);
  assert.equal(await clock.evaluate((t) => t.model.calls.filter((c) => c[1] === 'state').length), setsBefore + 1);
  // bad input from the kernel: a message, never a crash
  await clock.evaluate((t) => t.model.fromKernel('attributes', { '1 bad': 3, 'd-model': 'many' }));
  assert.match(
    await clock.evaluate((t) => t.el.textContent),
    /ignored attributes that are not attribute names: "1 bad"/,
  );
  await page.waitForFunction(() =>
    /d-model must be an even integer/.test(
      document.querySelector('#clock').shadowRoot.querySelector('rope-clock').shadowRoot.textContent,
    ),
  );

  // a quiz: a wrong answer, then the right one, each into answers and score, each saved
  const id = 'sinusoidal-fastest-pair';
  const right = quizzes[id].options.findIndex((o) => o.correct);
  const quiz = await mount('quiz', { tag: 'pe-quiz', attributes: { quiz: id } });
  await page.locator('#quiz pe-quiz').scrollIntoViewIfNeeded();
  await page.locator('#quiz pe-quiz[data-ready]').waitFor();
  assert.deepEqual(await quiz.evaluate((t) => t.model.saved('score')), {
    points: 0,
    total: 1,
    answered: 0,
    revealed: 0,
    full: 0,
  });
  await page.locator(`#quiz .options input[value="${right === 0 ? 1 : 0}"]`).check();
  await page.locator('#quiz').getByRole('button', { name: 'Check' }).click();
  const wrong = await quiz.evaluate((t) => t.model.saved('answers'));
  assert.equal(wrong[id].correct, false);
  assert.equal(wrong[id].attempts, 1);
  assert.deepEqual(await quiz.evaluate((t) => t.model.saved('score')), {
    points: 0,
    total: 1,
    answered: 1,
    revealed: 0,
    full: 0,
  });
  const tryAgain = page.locator('#quiz').getByRole('button', { name: 'Try again' });
  if (await tryAgain.count()) await tryAgain.click();
  await page.locator(`#quiz .options input[value="${right}"]`).check();
  await page.locator('#quiz').getByRole('button', { name: 'Check' }).click();
  const answers = await quiz.evaluate((t) => t.model.saved('answers'));
  assert.equal(answers[id].correct, true);
  assert.ok(Math.abs(answers[id].score - 2 / 3) < 1e-3, `the right answer after a miss scored ${answers[id].score}`);
  assert.deepEqual(await quiz.evaluate((t) => t.model.saved('score')), {
    points: 0.6667,
    total: 1,
    answered: 1,
    revealed: 0,
    full: 0,
  });
  assert.deepEqual(await lastCall(quiz), ['save_changes']);
  // the notebook keeps the progress: a new page (another browser, no storage of its own) gets it back
  const progress = await quiz.evaluate((t) => t.model.saved('progress'));
  assert.match(progress, new RegExp(`^pe2~~${id}\\.`));
  const again = await strictPage(browser);
  await again.addInitScript(() => Object.defineProperty(window, 'localStorage', { get: () => null }));
  await again.goto(`${url}/anywidget.html`);
  await again.waitForFunction(() => window.anywidgetTest);
  const restored = await again.evaluateHandle(
    async ([id, progress]) => {
      const w = await window.anywidgetTest.mount({ tag: 'pe-quiz', attributes: { quiz: id }, progress });
      w.host.id = 'quiz';
      return w;
    },
    [id, progress],
  );
  await again.locator('#quiz pe-quiz').scrollIntoViewIfNeeded();
  await again.locator('#quiz pe-quiz[data-ready]').waitFor();
  assert.match(await again.locator('#quiz .result').textContent(), /⅔ point/);
  assert.deepEqual(await restored.evaluate((t) => t.model.saved('score')), {
    points: 0.6667,
    total: 1,
    answered: 1,
    revealed: 0,
    full: 0,
  });
  assert.deepEqual(again.problems, []);
  await again.context().close();
  assert.deepEqual(page.violations, []);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test("dist/anywidget.mjs under MyST's own renderer and model (@myst-theme/anywidget): renders, follows a change, unmounts cleanly", async () => {
  const page = await strictPage(browser);
  await page.goto(`${url}/myst.html`);
  await page.waitForFunction(() => window.myst);
  await page.evaluate(() =>
    window.myst.show({
      tag: 'rope-clock',
      attributes: { 'd-model': 8, sentence: 'the cat sat on the mat', first: 'cat', second: 'mat' },
    }),
  );
  const inRenderer = (tag) => `#root >> ${tag}`;
  await page.locator(`${inRenderer('rope-clock')}[data-ready]`).waitFor();
  assert.match(await page.locator(inRenderer('rope-clock')).evaluate((n) => n.shadowRoot.textContent), /cat/);
  // a new directive body: MyST re-runs the renderer (cleanup, then render)
  await page.evaluate(() => window.myst.show({ tag: 'alibi-bias', attributes: { heads: 4 } }));
  await page.locator(`${inRenderer('alibi-bias')}[data-ready]`).waitFor();
  assert.equal(await page.locator(inRenderer('rope-clock')).count(), 0, 'the old widget was cleaned up');
  // MystAnyModel.set reaches the widget; its off() throws, and cleanup still works
  const direct = await page.evaluateHandle(() =>
    window.myst.direct({ tag: 'rope-clock', attributes: { 'd-model': 8 } }),
  );
  await page.locator('#direct rope-clock[data-ready]').waitFor();
  await direct.evaluate((d) => d.model.set('attributes', { 'd-model': 16 }));
  assert.equal(await page.locator('#direct rope-clock').getAttribute('d-model'), '16');
  // the front end writes the widget's state into MyST's model; its save_changes throws, unheard
  assert.equal(await direct.evaluate((d) => d.model.get('state')['d-model']), 16);
  const afterCleanup = await direct.evaluate(async (d) => {
    await d.cleanup();
    d.model.set('tag', 'alibi-bias');
    return d.el.children.length;
  });
  assert.equal(afterCleanup, 0, 'cleanup removed the widget, and a later change adds nothing');
  await page.evaluate(() => window.myst.unmount());
  await page.waitForTimeout(200);
  assert.equal(await page.locator('#root *').count(), 0);
  assert.deepEqual(page.violations, []);
  assert.deepEqual(page.problems, []);
  assert.deepEqual([...new Set(page.requests)].sort(), ['/anywidget.mjs', '/myst-app.js', '/myst.html']);
  await page.context().close();
});
