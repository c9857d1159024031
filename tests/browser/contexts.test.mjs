// Where it is used: every widget tag, every kind of question and the train
// lab, each in the four places a course puts them, in real Chromium:
//
//   top-level    an author's page on its own origin, loading widgets.js from
//                ours (storage works; xAPI to an LRS through configureXapi)
//   sandboxed    embed.html in a cross-site <iframe sandbox="allow-scripts">
//                (an opaque origin: no storage, no forms, no popups)
//   no-storage   embed.html in a cross-site <iframe> without a sandbox, where
//                the browser refuses third-party storage (Chromium's
//                localStorage throws "Access is denied for this document")
//   file         dist/lesson.html, the one-file export, opened from disk
//                (xAPI to an LRS named by the launch parameters)
//   bundle       an author's page made one file with the one-file bundle
//                (npx posenc-course export html: dist/posenc-lms.js inlined,
//                the lesson's questions lent by id), opened from disk; the
//                train lab is not in the bundles
//
// In each: every element renders and computes with no error shown; every
// question accepts a right answer, and a right answer after one miss earns
// 2/3, not 1, in the widget's own words, in its pe-quiz-answered event, in
// the posenc:answered message a frame sends its parent, and in the xAPI
// statement (from the message, or as the LRS received it); the train lab
// trains where it should (in workers, from a blob: worker where the page may
// not start one from its URL; on the page from file://).
// The matrix is printed at the end (context x element: rendered, submitted,
// credit after one miss).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createStaticServer, listenLocal } from '../../scripts/run/serve.mjs';
import { exportLesson } from '../../scripts/export/export.mjs';
import { exportPage } from '../../lms/export.mjs';
import { ownCodeExample } from '../js/author-page.mjs';
import { startServer, launch, newPage, renderAllWidgets } from './harness.mjs';
import { exerciseState, typeAnswer, quizState, answerWithKeyboard, wrongPick, waitUntil } from './questions.mjs';
import { tags } from './widget-tags.mjs';

const require = createRequire(import.meta.url);
const validateStatement = require('@learninglocker/xapi-validation').default;

// one question of each kind the lesson has
const QUESTIONS = [
  { row: 'choice quiz', tag: 'pe-quiz', id: 'sinusoidal-fastest-pair' },
  { row: 'generated quiz', tag: 'pe-quiz', id: 'rope-same-offset' },
  { row: 'number', tag: 'pe-exercise', id: 'relative-bias-t5-bucket' },
  { row: 'formula', tag: 'pe-exercise', id: 'rope-rotated-pair' },
  { row: 'prediction, live reveal', tag: 'pe-exercise', id: 'rope-shifted-score', reveal: true },
  { row: 'bug hunt', tag: 'pe-exercise', id: 'ablation-find-the-bug' },
];
const attrOf = (q) => (q.tag === 'pe-quiz' ? 'quiz' : 'exercise');
const selectorOf = (q) => `${q.tag}[${attrOf(q)}="${q.id}"]`;
// every other tag of widgets.js (the score board is checked with the questions)
const SPECIAL = new Set(['pe-quiz', 'pe-exercise', 'pe-quiz-score', 'train-lab']);
const WIDGETS = tags
  .filter((t) => !SPECIAL.has(t))
  .map((tag) => ({
    row: tag,
    tag,
    // (a code exercise renders here; its Python runs in code-exercise.test.mjs: the page, a sandboxed embed, the one-file copy)
    attrs:
      tag === 'pe-live-output'
        ? { sample: 'rope-seats' }
        : tag === 'pe-code-exercise'
          ? { exercise: 'sinusoidal-code-row' }
          : {},
  }));
const LAB = { row: 'train-lab', tag: 'train-lab', attrs: { steps: '50', encodings: 'none,rope' } };
const LRS = 'https://lrs.example/xapi/';
// an LRS named by TinCan launch parameters, as an LMS launches a one-file page
const LAUNCH_QUERY = new URLSearchParams({
  endpoint: LRS,
  auth: 'Basic dGVzdDp0ZXN0',
  actor: JSON.stringify({ name: 'A Learner', mbox: 'mailto:learner@example.org' }),
});

let browser;
let widgets; // web/, the widgets' origin (http://127.0.0.1:port)
let host; // the course's pages, on another site (http://localhost:port)
let hostDir;
let lessonFile; // dist/lesson.html's twin, exported for this test
let bundleFile; // the author's page as one file (posenc-course export html)
const matrix = new Map(); // row -> { context: cell }

before(async () => {
  browser = await launch();
  widgets = await startServer();
  hostDir = mkdtempSync(path.join(os.tmpdir(), 'posenc-contexts-'));
  const server = createStaticServer(hostDir);
  // localhost and 127.0.0.1 are different sites: a frame of one in a page of the other is third-party
  host = { server, url: (await listenLocal(server)).replace('127.0.0.1', 'localhost') };
  lessonFile = path.join(hostDir, 'lesson.html');
  await exportLesson({ out: lessonFile });
  writeFileSync(
    path.join(hostDir, 'bundle-source.html'),
    authorPage({ script: null, lab: false, extra: ownCodeExample().html }),
  );
  bundleFile = (
    await exportPage({
      kind: 'html',
      page: path.join(hostDir, 'bundle-source.html'),
      out: path.join(hostDir, 'bundle.html'),
    })
  ).out;
});
after(async () => {
  await browser?.close();
  widgets?.server.close();
  host?.server.close();
  console.log(matrixTable());
});

const attrText = (attrs) =>
  Object.entries(attrs)
    .map(([k, v]) => ` ${k}="${v}"`)
    .join('');

// ------------------------------------------------------------------ the pages

// the author's page: every element inline, widgets.js from our origin (`script`;
// null for the export, whose bundle defines the widgets), statements to an LRS
function authorPage({ script = `${widgets.url}/widgets.js`, lab = true, extra = '' } = {}) {
  const elements = [
    ...WIDGETS.map((w) => `<${w.tag}${attrText(w.attrs)}></${w.tag}>`),
    ...QUESTIONS.map((q) => `<${q.tag} ${attrOf(q)}="${q.id}"></${q.tag}>`),
    ...(lab ? [`<train-lab${attrText(LAB.attrs)}></train-lab>`] : []),
    ...(extra ? [extra] : []),
    '<pe-quiz-score></pe-quiz-score>',
  ];
  const module = script
    ? `<script type="module">
import { configureXapi } from '${script}';
configureXapi({ endpoint: '${LRS}', auth: 'Basic dGVzdDp0ZXN0', actor: { name: 'A Learner', mbox: 'mailto:learner@example.org' } });
</script>`
    : '';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>An author's page</title>
<link rel="icon" href="data:,">
${module}</head><body><main>
${elements.map((e) => `<section>${e}</section>`).join('\n')}
</main></body></html>`;
}

// the course page that frames each element alone in embed.html; `sandbox`: the attribute, or null
function framingPage(sandbox) {
  const frames = [...WIDGETS, ...QUESTIONS.map((q) => ({ ...q, attrs: { [attrOf(q)]: q.id } })), LAB].map((x) => {
    const query = new URLSearchParams({ widget: x.tag, ...x.attrs });
    return `<iframe id="${frameId(x)}" title="${x.row}"${sandbox === null ? '' : ` sandbox="${sandbox}"`} style="width:100%;height:700px;border:0" src="${widgets.url}/embed.html?${query.toString().replaceAll('&', '&amp;')}"></iframe>`;
  });
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A course page</title>
<link rel="icon" href="data:,"><script src="host.js"></script></head><body>
${frames.join('\n')}
</body></html>`;
}
const frameId = (x) => `f-${x.row.replace(/[^a-z0-9]+/g, '-')}`;

// what the course page hears from its frames (a sandboxed frame's origin is "null": trust the window)
const HOST_SCRIPT = `
window.hostMessages = [];
addEventListener('message', (event) => {
  const from = [...document.querySelectorAll('iframe')].find((f) => f.contentWindow === event.source);
  if (!from || event.data === null || typeof event.data !== 'object') return;
  window.hostMessages.push({ frame: from.id, ...event.data });
});
`;

// ------------------------------------------------------------------ the contexts

const CONTEXTS = {
  'top-level': {
    async open(page) {
      writeFileSync(path.join(hostDir, 'author.html'), authorPage());
      await page.goto(`${host.url}/author.html`);
    },
    frame: (page) => page,
    storage: 'available',
    // widgets.js from another origin: a blob: worker imports the worker module
    trains: 'workers',
  },
  sandboxed: {
    async open(page) {
      writeFileSync(path.join(hostDir, 'host.js'), HOST_SCRIPT);
      writeFileSync(path.join(hostDir, 'sandboxed.html'), framingPage('allow-scripts'));
      await page.goto(`${host.url}/sandboxed.html`);
    },
    frame: (page, x) => page.frameLocator(`#${frameId(x)}`),
    messages: true,
    storage: 'SecurityError',
    origin: 'null',
    trains: 'workers', // an opaque origin: a blob: worker
  },
  'no-storage': {
    async open(page) {
      writeFileSync(path.join(hostDir, 'host.js'), HOST_SCRIPT);
      writeFileSync(path.join(hostDir, 'third-party.html'), framingPage(null));
      await page.goto(`${host.url}/third-party.html`);
    },
    frame: (page, x) => page.frameLocator(`#${frameId(x)}`),
    messages: true,
    storage: 'SecurityError',
    trains: 'workers',
  },
  file: {
    async open(page) {
      await page.goto(`${pathToFileURL(lessonFile)}?${LAUNCH_QUERY}`);
      // the lab is the lesson's: made small here, as a learner could set it
      await page
        .locator('train-lab')
        .first()
        .evaluate((n, attrs) => {
          for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, v);
        }, LAB.attrs);
    },
    frame: (page) => page,
    storage: 'available',
    trains: 'page', // no worker from file://
  },
  bundle: {
    async open(page) {
      await page.goto(`${pathToFileURL(bundleFile)}?${LAUNCH_QUERY}`);
    },
    frame: (page) => page,
    storage: 'available',
    trains: null, // the train lab is not in the bundles
    // the six questions: the code exercises (the lesson's, and an author's own
    // beside the board) are shown, not scored: no Python in one file
    boardTotal: 6,
  },
};

// every page: each answer event recorded in its own frame; the LRS (a route) records what it is sent
async function contextPage(name) {
  const page = await newPage(browser, { viewport: { width: 1000, height: 900 } });
  await page.addInitScript(() => {
    window.answers = [];
    document.addEventListener('pe-quiz-answered', (e) => window.answers.push(e.detail));
  });
  page.statements = [];
  await page.route(`${LRS}**`, async (route) => {
    const r = route.request();
    const cors = {
      'Access-Control-Allow-Origin': '*',
      'Access-Control-Allow-Headers': 'Authorization, Content-Type, X-Experience-API-Version',
      'Access-Control-Allow-Methods': 'GET, POST, PUT, OPTIONS',
    };
    if (r.method() === 'POST') {
      const body = JSON.parse(r.postData() ?? '[]');
      page.statements.push(...(Array.isArray(body) ? body : [body]));
      await route.fulfill({ status: 200, headers: cors, contentType: 'application/json', body: '[]' });
    } else await route.fulfill({ status: 204, headers: cors });
  });
  await CONTEXTS[name].open(page);
  return page;
}

function mark(row, context, cell) {
  if (!matrix.has(row)) matrix.set(row, {});
  matrix.get(row)[context] = cell;
}

function matrixTable() {
  const names = Object.keys(CONTEXTS);
  const lines = [`| element | ${names.join(' | ')} |`, `|---|${names.map(() => '---').join('|')}|`];
  for (const [row, cells] of matrix) lines.push(`| ${row} | ${names.map((c) => cells[c] ?? '—').join(' | ')} |`);
  return lines.map((l) => `# ${l}`).join('\n');
}

// ------------------------------------------------------------------ the checks

/** The element in its frame, rendered: fails on an error box, an invalid parameter or no content. */
async function assertRendered(frame, selector) {
  await renderAllWidgets(frame, [selector]);
  const state = await frame
    .locator(selector)
    .first()
    .evaluate((n) => ({
      error: n.shadowRoot.querySelector('.error')?.textContent ?? '',
      invalid: n.hasAttribute('data-invalid'),
      text: n.shadowRoot.textContent,
      drawn: [...n.shadowRoot.querySelectorAll('canvas, svg')].some((c) => c.getBoundingClientRect().width > 0),
    }));
  assert.equal(state.error, '', `${selector} shows an error`);
  assert.equal(state.invalid, false, `${selector} has an invalid parameter`);
  assert.ok(/\d/.test(state.text) || state.drawn, `${selector} shows no number and draws nothing`);
}

// where the frame keeps its progress, as the page sees it
const storageIn = (frame) =>
  frame.locator('body').evaluate(() => {
    try {
      localStorage.getItem('posenc-course:probe');
      return { storage: 'available', origin };
    } catch (e) {
      return { storage: e.name, origin };
    }
  });

/** A wrong answer, then a right one, as a learner types or picks them. -> the result line after the right one. */
async function wrongThenRight(page, frame, q) {
  const el = frame.locator(selectorOf(q)).first();
  if (q.tag === 'pe-quiz') {
    const s = await quizState(frame, q.id);
    await answerWithKeyboard(page, frame, q.id, s.multiple ? [s.right[0]] : wrongPick(s));
    await el.getByRole('button', { name: 'Try again' }).click();
    await answerWithKeyboard(page, frame, q.id, s.right);
  } else {
    const { solution } = await exerciseState(frame, q.id);
    await typeAnswer(
      page,
      frame,
      q.id,
      solution.map((v) => `${v}+1000`),
    );
    await typeAnswer(page, frame, q.id, solution);
  }
  return el.evaluate((n) => n.shadowRoot.querySelector('.result').textContent);
}

async function checkQuestion(page, name, q) {
  const context = CONTEXTS[name];
  const frame = context.frame(page, q);
  await assertRendered(frame, selectorOf(q));
  const result = await wrongThenRight(page, frame, q);
  assert.match(result, /^Correct\. ⅔ point/, `${q.row}: the widget says ${result}`);
  // where the frame may not store progress, the question says so (once a page: here each frame is one)
  const note = await frame
    .locator(selectorOf(q))
    .first()
    .evaluate((n) => n.shadowRoot.querySelector('.storage-note')?.textContent ?? '');
  if (context.messages)
    assert.match(note, /kept for this page only/, `${q.row}: no note that progress is kept for the page`);
  else assert.equal(note, '', `${q.row}: a page-only note where storage works`);
  // the event in the frame
  const detail = await frame.locator('body').evaluate((_, id) => window.answers.filter((a) => a.quizId === id), q.id);
  assert.deepEqual(
    detail.map((d) => [d.correct, d.score]),
    [
      [false, 0],
      [true, 0.6667],
    ],
    `${q.row}: pe-quiz-answered`,
  );
  let statement;
  if (context.messages) {
    // what the course page heard: posenc:answered, with the statement
    await page.waitForFunction(
      (id) => window.hostMessages.filter((m) => m.type === 'posenc:answered' && m.quizId === id).length === 2,
      q.id,
    );
    const heard = await page.evaluate(
      (id) => window.hostMessages.filter((m) => m.type === 'posenc:answered' && m.quizId === id),
      q.id,
    );
    assert.deepEqual(
      heard.map((m) => [m.correct, m.score, m.credit]),
      [
        [false, 0, 0],
        [true, 0.6667, 0.6667],
      ],
      `${q.row}: posenc:answered`,
    );
    statement = heard[1].statement;
  } else {
    // what the LRS received (the queue sends soon after the answer)
    const ofThis = () =>
      page.statements.filter((s) => s.object?.id?.endsWith(`/quiz/${q.id}`) && s.verb.id.endsWith('/answered'));
    for (let t0 = Date.now(); ofThis().length < 2 && Date.now() - t0 < 20000;)
      await new Promise((r) => setTimeout(r, 100));
    assert.equal(ofThis().length, 2, `${q.row}: the LRS received both answers`);
    statement = ofThis().find((s) => s.result.success);
  }
  assert.ok(statement, `${q.row}: no statement of the right answer`);
  assert.deepEqual(validateStatement(statement), [], `${q.row}: the statement is valid xAPI`);
  assert.equal(statement.result.score.scaled, 0.6667, `${q.row}: the statement's score`);
  if (q.reveal) {
    // the live sample that prints the learner's prediction, with their numbers
    const reveal = frame.locator(selectorOf(q)).first().locator('pe-live-output');
    await reveal.waitFor({ state: 'attached' });
    await waitUntil(reveal, (n) => n.hasAttribute('data-ready'), { ms: 20000, every: 50, message: 'no live reveal' });
    assert.match(await reveal.evaluate((n) => n.shadowRoot.querySelector('.output').textContent), /\d/);
  }
  return 'rendered, submitted, ⅔';
}

async function checkLab(page, name) {
  const frame = CONTEXTS[name].frame(page, LAB);
  await assertRendered(frame, 'train-lab');
  const lab = frame.locator('train-lab').first();
  const done = lab.evaluate(
    (n) => new Promise((resolve) => n.addEventListener('train-lab-done', (e) => resolve(e.detail), { once: true })),
  );
  await lab.getByRole('button', { name: 'Start', exact: true }).click();
  const { results } = await done;
  assert.deepEqual(
    results.map((r) => r.encoding),
    ['none', 'rope'],
  );
  for (const r of results) assert.ok(Number.isFinite(r.finalLoss) && r.acc1x >= 0, JSON.stringify(r));
  const { mode, workers } = await lab.evaluate((n) => n.runInfo);
  assert.equal(mode, CONTEXTS[name].trains, `${name}: where the lab trained`);
  return `trained (${mode === 'workers' ? `${workers} workers` : 'on the page'})`;
}

for (const name of Object.keys(CONTEXTS)) {
  test(`${name}: every widget renders and computes, every kind of question grades a right answer after a miss as ⅔, the train lab trains`, async (t) => {
    const page = await contextPage(name);
    const context = CONTEXTS[name];
    if (context.messages) {
      // the frames really are what they claim: no storage, and for the sandbox an opaque origin
      const inside = await storageIn(context.frame(page, QUESTIONS[0]));
      assert.equal(inside.storage, context.storage);
      if (context.origin) assert.equal(inside.origin, context.origin);
    }
    for (const w of WIDGETS)
      await t.test(w.row, async () => {
        await assertRendered(context.frame(page, w), w.tag);
        mark(w.row, name, 'rendered, computed');
      });
    for (const q of QUESTIONS)
      await t.test(q.row, async () => {
        mark(q.row, name, await checkQuestion(page, name, q));
      });
    if (!context.messages) {
      // the page's score board counts what the learner earned: ⅔ on each of the six, nothing else answered
      await t.test('pe-quiz-score', async () => {
        const board = page.locator('pe-quiz-score').first();
        const said = () => board.evaluate((n) => n.shadowRoot.querySelector('.text').textContent);
        await waitUntil(board, (n) => /Score: 4 of \d+ points/.test(n.shadowRoot.textContent), {
          ms: 10000,
          every: 50,
        }).catch(async () => assert.fail(`the score board says ${await said()}`));
        if (context.boardTotal) assert.match(await said(), new RegExp(`^Score: 4 of ${context.boardTotal} points`));
        // its reset starts a new attempt, and the LRS hears of it
        const reset = board.getByRole('button');
        await reset.click();
        await reset.click();
        await waitUntil(board, (n) => /Score: 0 of \d+ points/.test(n.shadowRoot.textContent), {
          ms: 10000,
          every: 50,
        });
        const attempted = () => page.statements.filter((s) => s.verb.id === 'http://adlnet.gov/expapi/verbs/attempted');
        for (let t0 = Date.now(); !attempted().length && Date.now() - t0 < 20000;)
          await new Promise((r) => setTimeout(r, 100));
        assert.equal(attempted().length, 1, 'one attempted statement after the reset');
        assert.deepEqual(validateStatement(attempted()[0]), []);
        mark('pe-quiz-score', name, '4 points for 6 (⅔ each); reset sent as attempted');
      });
    }
    await t.test('train-lab', async () => {
      mark(LAB.row, name, context.trains ? await checkLab(page, name) : '— (not in the bundles)');
    });
    assert.deepEqual(page.errors, [], 'console errors or exceptions');
    await page.context().close();
  });
}
