// Embedding, in real Chromium: widgets.js loaded from another origin, an
// iframe that resizes and reports quiz answers, the lesson and embed.html
// under a strict Content-Security-Policy, the single-file export opened from
// disk with the network off, hostile URL parameters, and URL state.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync, copyFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createStaticServer, listenLocal } from '../../scripts/run/serve.mjs';
import { exportLesson } from '../../scripts/export/export.mjs';
import {
  root,
  startServer,
  launch,
  newPage,
  renderAllWidgets,
  shadowTexts,
  screenshotPath,
  SAVE_SCREENSHOTS,
  EXERCISE_LINES,
  STRICT_CSP,
  originAndStorage,
} from './harness.mjs';
import { tags } from './widget-tags.mjs';

let browser;
let widgets; // web/ with CORS (the widgets' origin)
let strict; // web/ under the strict CSP header
let host; // the example course page, on another origin
let hostDir;

before(async () => {
  browser = await launch();
  widgets = await startServer();
  strict = await startServer({ headers: { 'Content-Security-Policy': STRICT_CSP } });
  // the example course page, with its widget URLs pointed at the other origin
  hostDir = mkdtempSync(path.join(os.tmpdir(), 'posenc-host-'));
  const page = readFileSync(path.join(root, 'web/examples/course-page.html'), 'utf8')
    .replaceAll('../widgets.js', `${widgets.url}/widgets.js`)
    .replaceAll('../embed.html', `${widgets.url}/embed.html`);
  writeFileSync(path.join(hostDir, 'course-page.html'), page);
  for (const f of ['course-page.js', 'course-page.css'])
    copyFileSync(path.join(root, 'web/examples', f), path.join(hostDir, f));
  const server = createStaticServer(hostDir);
  host = { server, url: await listenLocal(server) };
});
after(async () => {
  await browser?.close();
  for (const s of [widgets, strict, host]) s?.server.close();
});

// Checks the right option of the quiz in an embed.html frame and presses
// Check. Options are shuffled per learner: an input's value is its authored index.
async function answerCorrectly(frame, quizId) {
  const correctIndex = await frame.locator('body').evaluate(async (_body, id) => {
    const { quizzes } = await import('./gen/lesson-data.js');
    return quizzes[id].options.findIndex((o) => o.correct);
  }, quizId);
  const quiz = frame.locator('pe-quiz');
  await quiz.locator(`input[value="${correctIndex}"]`).check();
  await quiz.getByRole('button', { name: 'Check' }).click();
}

// Records CSP violations from the first script on.
async function cspPage(options = {}) {
  const page = await newPage(browser, options);
  page.violations = [];
  await page.exposeFunction('reportViolation', (v) => page.violations.push(v));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) =>
      window.reportViolation(`${e.violatedDirective}: ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`),
    );
  });
  return page;
}

test('a course page on another origin loads widgets.js and renders widgets; attribute changes re-render them', async () => {
  assert.notEqual(new URL(host.url).origin, new URL(widgets.url).origin);
  const page = await newPage(browser, { viewport: { width: 1000, height: 900 } });
  await page.goto(`${host.url}/course-page.html`);
  await renderAllWidgets(page, ['rope-clock', 'alibi-bias']);
  const clock = page.locator('rope-clock');
  const dials = () => clock.evaluate((n) => n.shadowRoot.querySelectorAll('svg').length);
  const before = await dials();
  const text = await clock.evaluate((n) => n.shadowRoot.textContent);
  assert.match(text, /cat/);
  await clock.evaluate((n) => n.setAttribute('d-model', '16'));
  await page.waitForFunction(
    ([el, b]) => el.shadowRoot.querySelectorAll('svg').length !== b,
    [await clock.elementHandle(), before],
  );
  assert.ok((await dials()) > before, 'd-model 16 shows more dials than 8');
  const alibi = page.locator('alibi-bias');
  const textBefore = await alibi.evaluate((n) => n.shadowRoot.textContent);
  await alibi.evaluate((n) => n.setAttribute('heads', '6'));
  await page.waitForFunction(([el, t]) => el.shadowRoot.textContent !== t, [await alibi.elementHandle(), textBefore]);
  // the host's own styles did not reach into the widget, nor the widget's out
  const fonts = await page.evaluate(() => [
    getComputedStyle(document.body).fontFamily,
    getComputedStyle(document.querySelector('rope-clock')).fontFamily,
  ]);
  assert.match(fonts[0], /Georgia/);
  assert.doesNotMatch(fonts[1], /Georgia/);
  assert.deepEqual(page.errors, []);
  if (SAVE_SCREENSHOTS) await page.screenshot({ path: screenshotPath('embed-course-page.png') });
  await page.context().close();
});

test('the iframe embed resizes to its height, and a quiz answer reaches the host page', async () => {
  const page = await newPage(browser, { viewport: { width: 1000, height: 900 } });
  await page.goto(`${host.url}/course-page.html`);
  const frame = page.locator('#quiz-frame');
  await frame.scrollIntoViewIfNeeded();
  // the host received a height and the iframe follows it
  await page.waitForFunction(() =>
    (window.hostMessages ?? []).some((m) => m.type === 'posenc:resize' && m.height > 100),
  );
  const posted = await page.evaluate(() => window.hostMessages.filter((m) => m.type === 'posenc:resize').at(-1).height);
  await page.waitForFunction(
    (h) => Math.abs(document.getElementById('quiz-frame').getBoundingClientRect().height - h) <= 1,
    posted,
  );
  const messages = await page.evaluate(() => window.hostMessages);
  assert.ok(
    messages.some((m) => m.subject === 'lti.frameResize' && m.height === posted),
    'Canvas-style message',
  );
  assert.ok(
    messages.some((m) => m.context === 'h5p' && m.action === 'prepareResize' && m.scrollHeight === posted),
    'H5P-style message',
  );
  // answer the quiz inside the iframe: its height changes (feedback) and the answer is reported
  await answerCorrectly(page.frameLocator('#quiz-frame'), 'sinusoidal-fastest-pair');
  await page.waitForFunction(() => window.hostMessages.some((m) => m.type === 'posenc:answered'));
  const answered = await page.evaluate(() => window.hostMessages.find((m) => m.type === 'posenc:answered'));
  assert.equal(answered.quizId, 'sinusoidal-fastest-pair');
  assert.equal(answered.correct, true);
  assert.equal(answered.score, 1);
  assert.equal(answered.revealed, false);
  assert.equal(answered.statement.verb.display['en-US'], 'answered');
  assert.equal(answered.statement.result.success, true);
  assert.ok(Array.isArray(answered.response) && answered.response.length === 1);
  assert.match(await page.locator('#gradebook').textContent(), /sinusoidal-fastest-pair: correct/);
  // the feedback made the quiz taller: a new height was posted and followed
  await page.waitForFunction((h) => {
    const last = window.hostMessages.filter((m) => m.type === 'posenc:resize').at(-1).height;
    return last > h && Math.abs(document.getElementById('quiz-frame').getBoundingClientRect().height - last) <= 1;
  }, posted);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

// What an LMS editor or a cautious author writes: the iframe gets scripts but
// no allow-same-origin, so its origin is opaque ("null") and localStorage throws.
const SANDBOXED_HOST = `
window.hostMessages = [];
addEventListener('message', (event) => {
  const from = [...document.querySelectorAll('iframe')].find((f) => f.contentWindow === event.source);
  // a sandboxed frame's messages come from origin "null": trust the source window only
  if (!from || event.origin !== 'null' || event.data === null || typeof event.data !== 'object') return;
  window.hostMessages.push({ frame: from.id, ...event.data });
  if (event.data.type === 'posenc:resize') from.style.height = Math.ceil(event.data.height) + 'px';
});
`;

test('embed.html in <iframe sandbox="allow-scripts">: a widget renders, a quiz answers with its progress kept for the page view only, and resize and answered messages reach the parent', async () => {
  writeFileSync(path.join(hostDir, 'sandboxed-host.js'), SANDBOXED_HOST);
  writeFileSync(
    path.join(hostDir, 'sandboxed.html'),
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>sandboxed</title><link rel="icon" href="data:,">
<script src="sandboxed-host.js"></script></head><body>
<iframe id="widget" sandbox="allow-scripts" title="widget" style="width:100%;border:0" src="${widgets.url}/embed.html?widget=rope-offset-check&amp;shift=100"></iframe>
<iframe id="quiz" sandbox="allow-scripts" title="quiz" style="width:100%;border:0" src="${widgets.url}/embed.html?widget=pe-quiz&amp;quiz=sinusoidal-fastest-pair"></iframe>
</body></html>`,
  );
  const page = await newPage(browser, { viewport: { width: 900, height: 900 } });
  await page.goto(`${host.url}/sandboxed.html`);
  // the frame really is sandboxed: an opaque origin, no storage
  const inside = await page.frameLocator('#quiz').locator('body').evaluate(originAndStorage);
  assert.deepEqual(inside, { origin: 'null', storage: 'SecurityError' });
  // the widget renders and computes
  const check = page.frameLocator('#widget').locator('rope-offset-check');
  await check.evaluate((n) =>
    n.hasAttribute('data-ready') ? null : new Promise((r) => n.addEventListener('pe-update', r, { once: true })),
  );
  assert.match(await check.evaluate((n) => n.shadowRoot.textContent), /0\.65457/);
  // both frames posted their heights, and the parent followed them
  await page.waitForFunction(() =>
    ['widget', 'quiz'].every((id) =>
      window.hostMessages.some((m) => m.frame === id && m.type === 'posenc:resize' && m.height > 100),
    ),
  );
  for (const id of ['widget', 'quiz']) {
    const last = await page.evaluate(
      (f) => window.hostMessages.filter((m) => m.frame === f && m.type === 'posenc:resize').at(-1).height,
      id,
    );
    await page.waitForFunction(
      ([f, h]) => Math.abs(document.getElementById(f).getBoundingClientRect().height - Math.ceil(h)) <= 1,
      [id, last],
    );
  }
  // a quiz answers: feedback shows and the answer reaches the parent
  const quiz = page.frameLocator('#quiz').locator('pe-quiz');
  await answerCorrectly(page.frameLocator('#quiz'), 'sinusoidal-fastest-pair');
  await page.waitForFunction(() => window.hostMessages.some((m) => m.type === 'posenc:answered'));
  const answered = await page.evaluate(() => window.hostMessages.find((m) => m.type === 'posenc:answered'));
  assert.equal(answered.frame, 'quiz');
  assert.equal(answered.quizId, 'sinusoidal-fastest-pair');
  assert.equal(answered.correct, true);
  assert.equal(answered.statement.result.success, true);
  assert.match(await quiz.evaluate((n) => n.shadowRoot.textContent), /Correct/);
  // kept for the page view only (the quiz says so): the reloaded frame starts unanswered
  assert.match(
    await quiz.evaluate((n) => n.shadowRoot.querySelector('.storage-note').textContent),
    /kept for this page only/,
  );
  await page
    .frameLocator('#quiz')
    .locator('body')
    .evaluate(() => location.reload());
  await page.frameLocator('#quiz').locator('pe-quiz[data-ready]').waitFor();
  assert.equal(await page.frameLocator('#quiz').locator('pe-quiz').locator('input:checked').count(), 0);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

// docs/embedding.md's iframe snippet, taken from between its markers and run
// as written (only the course's origin swapped for this test's), so the docs
// cannot drift from what works.
function readmeSnippet(courseOrigin) {
  const readme = readFileSync(path.join(root, 'docs/embedding.md'), 'utf8');
  const block = readme.match(/<!-- embed-snippet:start[^>]*-->\s*```html\n([\s\S]*?)```\s*<!-- embed-snippet:end -->/);
  assert.ok(
    block,
    'docs/embedding.md has no embed snippet between <!-- embed-snippet:start --> and <!-- embed-snippet:end -->',
  );
  assert.match(block[1], /sandbox="allow-scripts"/);
  return block[1].replaceAll('https://course.example.org', courseOrigin);
}

test('docs/embedding.md\'s iframe snippet, as written: sandboxed, it follows the frame\'s height from origin "null" and ignores other windows; unsandboxed, it checks the origin', async () => {
  const open = async (name, snippet) => {
    writeFileSync(
      path.join(hostDir, name),
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>snippet</title><link rel="icon" href="data:,"></head><body>\n${snippet}\n</body></html>`,
    );
    const page = await newPage(browser, { viewport: { width: 900, height: 900 } });
    await page.goto(`${host.url}/${name}`);
    await page.frameLocator('#posenc-rope').locator('rope-offset-check[data-ready]').waitFor();
    return page;
  };
  const frameHeight = (page) =>
    page.evaluate(() => document.getElementById('posenc-rope').getBoundingClientRect().height);
  const contentHeight = (page) =>
    page
      .frameLocator('#posenc-rope')
      .locator('body')
      .evaluate(() => document.documentElement.scrollHeight);

  // as written: sandboxed, so the messages come from origin "null"
  const sandboxed = await open('snippet-sandboxed.html', readmeSnippet(widgets.url));
  assert.equal(
    await sandboxed
      .frameLocator('#posenc-rope')
      .locator('body')
      .evaluate(() => origin),
    'null',
  );
  await sandboxed.waitForFunction(() => document.getElementById('posenc-rope').getBoundingClientRect().height > 200);
  const followed = await frameHeight(sandboxed);
  assert.ok(
    Math.abs(followed - (await contentHeight(sandboxed))) <= 2,
    `frame ${followed} px, content ${await contentHeight(sandboxed)} px`,
  );
  // a message from another window (here the page itself) is not the frame's
  await sandboxed.evaluate(() => postMessage({ type: 'posenc:resize', height: 40 }, '*'));
  await sandboxed.waitForTimeout(200);
  assert.equal(await frameHeight(sandboxed), followed);
  assert.deepEqual(sandboxed.errors, []);
  await sandboxed.context().close();

  // without the sandbox: the course's origin is checked; another origin's messages are dropped
  const unsandboxed = readmeSnippet(widgets.url).replace(' sandbox="allow-scripts"', '');
  const check = `e.origin !== '${widgets.url}'`;
  assert.ok(unsandboxed.includes(check), 'the snippet checks the origin');
  const right = await open('snippet-origin.html', unsandboxed);
  await right.waitForFunction(() => document.getElementById('posenc-rope').getBoundingClientRect().height > 200);
  await right.context().close();
  const wrong = await open(
    'snippet-wrong-origin.html',
    unsandboxed.replace(check, "e.origin !== 'https://elsewhere.example.org'"),
  );
  await wrong.waitForTimeout(500);
  assert.equal(Math.round(await frameHeight(wrong)), 150, 'followed a frame whose origin is not the course');
  assert.deepEqual(wrong.errors, []);
  await wrong.context().close();
});

test('the lesson and embed.html run under a strict CSP with no violation and no console error', async () => {
  const page = await cspPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(`${strict.url}/`);
  await renderAllWidgets(page, tags);
  assert.deepEqual(page.violations, [], 'lesson');
  assert.deepEqual(page.errors, [], 'lesson');
  for (const widget of [
    'rope-clock',
    'pe-heatmap',
    't5-buckets',
    'pe-quiz&quiz=rope-what-rotates',
    'pe-exercise&exercise=sinusoidal-wavelength',
    'pe-live-output&sample=seat-vectors',
  ]) {
    await page.goto(`${strict.url}/embed.html?widget=${widget}`);
    await renderAllWidgets(page, [widget.split('&')[0]]);
  }
  assert.deepEqual(page.violations, [], 'embed.html');
  assert.deepEqual(page.errors, [], 'embed.html');
  await page.context().close();
});

test('dist/lesson.html works from file:// with the network off, and computes the exercise lines', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'posenc-export-'));
  const { out, bytes } = await exportLesson({ out: path.join(dir, 'lesson.html') });
  assert.ok(bytes > 100_000);
  const page = await newPage(browser, { viewport: { width: 1280, height: 900 } });
  await page.context().setOffline(true);
  const requests = [];
  await page.context().route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith('file:')) return route.continue();
    requests.push(url);
    return route.abort();
  });
  await page.goto(pathToFileURL(out).href);
  await renderAllWidgets(page, tags);
  const text = (await shadowTexts(page, 'pe-live-output, rope-offset-check')).join('\n');
  for (const line of EXERCISE_LINES) assert.ok(text.includes(line), `missing: ${line}`);
  assert.deepEqual(requests, [], 'the page asked for something over the network');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('hostile URL parameters are shown as text or rejected, and run nothing', async () => {
  const page = await cspPage({ viewport: { width: 900, height: 900 } });
  const payload = '<img src=x onerror="window.pwned=1">';
  const probe = async () =>
    page.evaluate(() => {
      const imgs = [document, ...[...document.querySelectorAll('*')].map((e) => e.shadowRoot).filter(Boolean)].flatMap(
        (r) => [...r.querySelectorAll('img')],
      );
      return { pwned: window.pwned ?? null, imgs: imgs.length };
    });
  // as the widget name
  await page.goto(`${widgets.url}/embed.html?widget=${encodeURIComponent(payload)}`);
  await page.waitForSelector('.error');
  assert.match(await page.locator('.error').textContent(), /There is no widget called "<img src=x/);
  assert.deepEqual(await probe(), { pwned: null, imgs: 0 });
  // as a widget's text parameter: it becomes the sentence, as text
  await page.goto(`${widgets.url}/embed.html?widget=rope-clock&sentence=${encodeURIComponent(`${payload} dog man`)}`);
  await renderAllWidgets(page, ['rope-clock']);
  const sentence = await page.locator('rope-clock').evaluate((n) => n.getAttribute('sentence'));
  assert.equal(sentence, `${payload} dog man`);
  assert.deepEqual(await probe(), { pwned: null, imgs: 0 });
  // as a number: refused with a message shown as text
  await page.goto(`${widgets.url}/embed.html?widget=pe-heatmap&d-model=${encodeURIComponent(payload)}`);
  await page.waitForSelector('pe-heatmap[data-invalid]', { state: 'attached' });
  assert.match(
    await page.locator('pe-heatmap').evaluate((n) => n.shadowRoot.querySelector('.error').textContent),
    /d-model must be an even integer/,
  );
  assert.deepEqual(await probe(), { pwned: null, imgs: 0 });
  // on the lesson page
  await page.goto(`${widgets.url}/?pe-heatmap-1.base=${encodeURIComponent(payload)}`);
  await page.locator('pe-heatmap').first().scrollIntoViewIfNeeded();
  await page.waitForSelector('pe-heatmap[data-invalid]', { state: 'attached' });
  assert.match(
    await page
      .locator('pe-heatmap')
      .first()
      .evaluate((n) => n.shadowRoot.querySelector('.error').textContent),
    /base must be a number/,
  );
  assert.deepEqual(await probe(), { pwned: null, imgs: 0 });
  // a hostile origin parameter is refused
  await page.goto(`${widgets.url}/embed.html?widget=rope-clock&origin=${encodeURIComponent('javascript:alert(1)')}`);
  await page.waitForSelector('.error');
  assert.match(await page.locator('.error').textContent(), /origin parameter must be an http\(s\) origin/);
  assert.deepEqual(page.violations, []);
  await page.context().close();
});

test('widget parameters live in the URL: read on load, written when a control moves', async () => {
  const page = await newPage(browser, { viewport: { width: 1280, height: 900 } });
  // the lesson page: the first heatmap opens at d_model 32
  await page.goto(`${widgets.url}/?pe-heatmap-1.d-model=32#sinusoidal`);
  const heatmap = page.locator('pe-heatmap').first();
  assert.equal(await heatmap.getAttribute('d-model'), '32');
  await renderAllWidgets(page, ['pe-heatmap']);
  // moving a control rewrites the address, keeping the anchor
  await heatmap.evaluate((n) => n.shadowRoot.querySelector('input[type=range]').focus());
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => new URL(location.href).searchParams.get('pe-heatmap-1.max-len') === '65');
  assert.equal(new URL(page.url()).hash, '#sinusoidal');
  // a live sample's parameters too
  const sample = page.locator('pe-live-output[sample="seat-vectors"]');
  await renderAllWidgets(page, ['pe-live-output[sample="seat-vectors"]']);
  const prefix = await page.evaluate(() => {
    const all = [...document.querySelectorAll('pe-live-output')];
    return `pe-live-output-${all.findIndex((n) => n.getAttribute('sample') === 'seat-vectors') + 1}`;
  });
  await sample.evaluate((n) => n.setSampleValue('d_model', '8'));
  await page.waitForFunction((p) => new URL(location.href).searchParams.get(`${p}.d_model`) === '8', prefix);
  // and the shared link opens that state
  await page.goto(page.url());
  await renderAllWidgets(page, ['pe-live-output[sample="seat-vectors"]']);
  assert.equal(await sample.evaluate((n) => n.sampleValues.d_model), 8);
  assert.equal(await page.locator('pe-heatmap').first().getAttribute('max-len'), '65');
  // embed.html: unprefixed
  await page.goto(`${widgets.url}/embed.html?widget=rope-clock&d-model=4`);
  await renderAllWidgets(page, ['rope-clock']);
  await page.locator('rope-clock').evaluate((n) => n.setAttribute('base', '500'));
  await page.waitForFunction(() => new URL(location.href).searchParams.get('base') === '500');
  const url = new URL(page.url());
  assert.equal(url.searchParams.get('widget'), 'rope-clock');
  assert.equal(url.searchParams.get('d-model'), '4');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

// docs/embedding.md's table of fixed heights (for an LMS that follows no
// resize message) against what embed.html reports now: every widget has a
// row, and each row is within HEIGHT_TOLERANCE of the measured height at
// both widths. A question or a sample is measured with the id its row names.
const HEIGHT_TOLERANCE = 0.15;
const heightRows = () =>
  readFileSync(path.join(root, 'docs/embedding.md'), 'utf8')
    .split('\n')
    .map((line) => line.match(/^\| `([a-z0-9-]+)`([^|]*)\| (\d+) px \| (\d+) px \|$/))
    .filter(Boolean)
    .map(([, tag, note, wide, phone]) => ({
      tag,
      query: note.match(/`(\w+=[\w-]+)`/)?.[1] ?? '',
      heights: [Number(wide), Number(phone)],
    }));

test("docs/embedding.md's fixed heights list every widget and are within 15% of what embed.html reports", async () => {
  const rows = heightRows();
  const missing = tags.filter((t) => t !== 'pe-quiz-score' && !rows.some((r) => r.tag === t));
  assert.deepEqual(missing, [], 'widgets without a height in docs/embedding.md');
  const measured = [];
  for (const [i, width] of [800, 375].entries()) {
    // one host page with every widget in an iframe of that width, all on
    // screen at once (a widget off screen waits to be built), collecting the
    // last height each reports; settled once no report came for 1.5 s
    const page = await newPage(browser, { viewport: { width: 1200, height: rows.length * 620 } });
    await page.goto(`${host.url}/course-page.html`);
    await page.evaluate(
      ({ rows, base, width }) => {
        window.heights = {};
        window.lastReport = Date.now();
        addEventListener('message', (e) => {
          if (e.data?.type !== 'posenc:resize') return;
          const frame = [...document.querySelectorAll('iframe')].find((f) => f.contentWindow === e.source);
          window.heights[frame.dataset.row] = e.data.height;
          window.lastReport = Date.now();
        });
        document.body.replaceChildren(
          ...rows.map((r, k) => {
            const f = document.createElement('iframe');
            f.dataset.row = String(k);
            f.width = String(width);
            f.height = '600';
            f.style.display = 'block';
            f.src = `${base}/embed.html?widget=${r.tag}${r.query ? `&${r.query}` : ''}`;
            return f;
          }),
        );
      },
      { rows, base: widgets.url, width },
    );
    await page
      .waitForFunction(
        (n) => Object.keys(window.heights).length === n && Date.now() - window.lastReport > 1500,
        rows.length,
        { timeout: 60000, polling: 250 },
      )
      .catch(async () => {
        const got = await page.evaluate(() => window.heights);
        const silent = rows.filter((r, k) => got[k] === undefined).map((r) => r.tag);
        throw new Error(`no height from ${silent.join(', ')} at ${width} px in 60 s`);
      });
    const heights = await page.evaluate(() => window.heights);
    rows.forEach((r, k) => ((measured[k] ??= { ...r, now: [] }).now[i] = heights[k]));
    await page.context().close();
  }
  const off = measured.filter((r) =>
    r.now.some((h, i) => Math.abs(h - r.heights[i]) > HEIGHT_TOLERANCE * r.heights[i]),
  );
  assert.deepEqual(
    off.map((r) => `${r.tag}: the table says ${r.heights.join(' / ')} px, embed.html reports ${r.now.join(' / ')} px`),
    [],
    'update the rows of docs/embedding.md to the heights reported',
  );
});
