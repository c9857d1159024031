// Shared setup of the browser tests: Debian's Chromium driven by
// playwright-core, and the static server of `npm start` on a free port.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { before, after } from 'node:test';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { createStaticServer, listenLocal } from '../../scripts/run/serve.mjs';
import { launchChromium } from '../../scripts/run/chromium.mjs';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const screenshotDir = path.join(root, 'screenshots');
// Screenshots no check reads (each section and widget, desktop and phone, in
// every engine) are saved only with POSENC_SCREENSHOTS=1: they cost about a
// minute of the browser stages and nobody looks at them on a passing run.
// Shots a check compares (overflow.test's strips) are always taken.
export const SAVE_SCREENSHOTS = process.env.POSENC_SCREENSHOTS === '1';

/** The static server of `npm start` (or of `dir`, with the same options) on a free port. */
export async function startServer({ dir, ...options } = {}) {
  const server = createStaticServer(dir, options);
  return { server, url: await listenLocal(server) };
}

// The Content-Security-Policy of a strict host: scripts and styles from the site only, WebAssembly allowed.
export const STRICT_CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'";

/** Runs use({ server, url }) with a server of startServer(options), closed when use ends, however it ends. */
export async function withServer(options, use) {
  const site = await startServer(options);
  try {
    return await use(site);
  } finally {
    site.server.close();
  }
}

export const launch = launchChromium;

/**
 * The usual set-up of a browser test file: the static server and Chromium,
 * started before its tests and closed after them. Returns { browser, server,
 * url }, filled in once the tests run.
 */
export function useSite(options) {
  const site = { browser: null, server: null, url: '' };
  before(async () => {
    Object.assign(site, await startServer(options));
    site.browser = await launch();
  });
  after(async () => {
    await site.browser?.close();
    site.server?.close();
  });
  return site;
}

/**
 * Run in a page (page.evaluate): how wide the page is against its screen,
 * with the first elements that stick out past the right edge.
 */
export function pageOverflow() {
  const width = document.documentElement.clientWidth;
  const wide = [...document.querySelectorAll('body *')]
    .filter((e) => e.getBoundingClientRect().right > width + 1 && getComputedStyle(e).position !== 'absolute')
    .slice(0, 5)
    .map((e) => `${e.localName}${e.id ? `#${e.id}` : ''}.${e.className}`);
  return { scrollWidth: document.documentElement.scrollWidth, width, wide };
}

/**
 * Run in a page or frame (evaluate): its origin and what reading localStorage
 * gives, 'available' or the error's name (a sandboxed frame: 'SecurityError').
 * It uses nothing outside itself, so the other engines' drivers can send it too.
 */
export function originAndStorage() {
  let storage;
  try {
    localStorage.getItem('x');
    storage = 'available';
  } catch (e) {
    storage = e.name;
  }
  return { origin, storage };
}

/** Fails unless the page fits its screen's width (to `slack` px), naming the first elements that stick out. */
export async function assertNoSidewaysScroll(page, slack = 0) {
  const overflow = await page.evaluate(pageOverflow);
  assert.ok(
    overflow.scrollWidth <= overflow.width + slack,
    `page is ${overflow.scrollWidth} px wide on a ${overflow.width} px screen: ${overflow.wide.join(', ')}`,
  );
}

/**
 * A page for a site served under a strict CSP that must make no mistake:
 * `violations` (CSP), `problems` (HTTP errors, console errors, uncaught
 * exceptions) and `requests` (paths) fill in as it runs. Chromium asks for
 * /favicon.ico by itself (not a page request, and a 404 here): that one is
 * not counted.
 */
export async function strictPage(browser) {
  const page = await newPage(browser, { viewport: { width: 1100, height: 900 } });
  page.violations = [];
  page.requests = [];
  page.problems = [];
  const favicon = (url) => url.endsWith('/favicon.ico');
  page.on('request', (r) => !favicon(r.url()) && page.requests.push(new URL(r.url()).pathname));
  page.on(
    'response',
    (r) => r.status() >= 400 && !favicon(r.url()) && page.problems.push(`HTTP ${r.status()} ${r.url()}`),
  );
  page.on(
    'console',
    (m) => m.type() === 'error' && !favicon(m.location().url) && page.problems.push(`console: ${m.text()}`),
  );
  page.on('pageerror', (e) => page.problems.push(`exception: ${e.message}`));
  await page.exposeFunction('reportViolation', (v) => page.violations.push(v));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) =>
      window.reportViolation(`${e.violatedDirective}: ${e.blockedURI}`),
    );
  });
  return page;
}

/** A page that records console errors and uncaught exceptions in `errors`. */
export async function newPage(browser, options = {}) {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  page.errors = [];
  page.on('console', (m) => {
    if (m.type() === 'error') page.errors.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => page.errors.push(`exception: ${e.message}`));
  return page;
}

// Where the lesson keeps a learner's seed (web/lib/reporting/progress.js), which picks their numbers and option order.
export const SEED_KEY = 'posenc-course:learner-seed:v1';

/**
 * The lesson page of `site` as the learner whose seed is `seed` (undefined: a
 * fresh learner), with the answers it reports (pe-quiz-answered) gathered in
 * window.answers. `options` are more of the browser context's.
 */
export async function openLessonAs(site, seed, options = {}) {
  const page = await newPage(site.browser, { viewport: { width: 1280, height: 900 }, ...options });
  if (seed !== undefined)
    await page.context().addInitScript(([k, v]) => localStorage.setItem(k, v), [SEED_KEY, String(seed)]);
  await page.goto(`${site.url}/`);
  await page.evaluate(() => {
    window.answers = [];
    document.addEventListener('pe-quiz-answered', (e) => window.answers.push(e.detail));
  });
  return page;
}

export function screenshotPath(name) {
  mkdirSync(screenshotDir, { recursive: true });
  return path.join(screenshotDir, name);
}

/**
 * Scrolls every matching element into view in turn (opening the asides that
 * hold it, as a learner would) and waits until each has drawn (its
 * updateComplete, PeElement's). Widgets above may grow as they render and
 * push the next one off screen before it starts: it is scrolled to again
 * each second until it has drawn.
 */
export async function renderAllWidgets(page, tags) {
  const selector = tags.join(',');
  const count = await page.locator(selector).count();
  for (let i = 0; i < count; i++) {
    const el = page.locator(selector).nth(i);
    const ready = await el.evaluate(async (node) => {
      // an element whose tag is not defined yet (define() defers) has no
      // updateComplete; one never defined (its module not loaded) fails here, not by hanging
      const defined = await Promise.race([
        customElements.whenDefined(node.localName).then(() => true),
        new Promise((r) => setTimeout(() => r(false), 20000)),
      ]);
      if (!defined) return 'undefined';
      // a widget in a closed aside renders when the learner opens it
      for (let d = node.closest('details'); d; d = d.parentElement?.closest('details') ?? null) d.open = true;
      const drawn = node.updateComplete.then(() => node.hasAttribute('data-ready'));
      for (let attempt = 0; attempt < 20; attempt++) {
        node.scrollIntoView({ block: 'center', behavior: 'instant' });
        const done = await Promise.race([drawn, new Promise((r) => setTimeout(() => r(null), 1000))]);
        if (done !== null) return done;
      }
      return false;
    });
    if (ready === 'undefined')
      throw new Error(`widget did not render: <${tags[0]}...>: its tag was never defined (20 s)`);
    if (!ready) {
      const text = await el.evaluate(
        (node) =>
          `<${node.localName} ${[...node.attributes].map((a) => `${a.name}="${a.value}"`).join(' ')}>: ${node.shadowRoot?.textContent.slice(0, 200)}`,
      );
      throw new Error(`widget did not render: ${text}`);
    }
  }
  return count;
}

/**
 * Fails unless the first element `selector` matches shows some text in its
 * shadow root besides an error or status line (an error box, or "Loading the
 * compute core…", is not the widget showing something).
 */
export async function assertShowsSomething(page, selector) {
  const text = await page
    .locator(selector)
    .first()
    .evaluate((n) => {
      const walker = document.createTreeWalker(n.shadowRoot, NodeFilter.SHOW_TEXT);
      let shown = '';
      for (let t = walker.nextNode(); t; t = walker.nextNode())
        if (!t.parentElement?.closest('.error, .status')) shown += t.data;
      return shown;
    });
  assert.ok(text.trim().length > 0, `${selector} shows something besides an error or status line`);
}

/**
 * What a learner would read as something gone wrong in the widgets
 * `selector` matches (and in widgets inside their shadow roots), one line
 * each: a widget marked data-invalid, a non-empty error box (.error), a note
 * beside a control (.field-note), a box marked aria-invalid. [] when none.
 */
export async function learnerVisibleErrors(page, selector) {
  return page.$$eval(selector, (nodes) => {
    const found = [];
    const visit = (n, where) => {
      const name = `${where}<${n.localName}${n.id ? `#${n.id}` : ''}>`;
      if (n.hasAttribute('data-invalid')) found.push(`${name}: data-invalid`);
      const root = n.shadowRoot;
      if (!root) return;
      for (const e of root.querySelectorAll('.error, .field-note')) {
        const text = e.textContent.trim();
        if (text) found.push(`${name} .${e.className.split(' ')[0]}: ${text.slice(0, 200)}`);
      }
      for (const e of root.querySelectorAll('[aria-invalid="true"]'))
        found.push(`${name}: ${e.id || e.localName} aria-invalid`);
      for (const inner of root.querySelectorAll('*')) if (inner.shadowRoot) visit(inner, `${name} > `);
    };
    nodes.forEach((n) => visit(n, ''));
    return found;
  });
}

/** Text of every shadow root of the given elements (what the learner reads in the widgets). */
export async function shadowTexts(page, selector) {
  return page.$$eval(selector, (nodes) => nodes.map((n) => n.shadowRoot?.textContent ?? ''));
}

/**
 * One widget alone on the development page (/widgets/dev.html), rendered:
 * { page, el }. `options` are more of the browser context's (isMobile,
 * deviceScaleFactor, colorScheme, ...). The page lends the lesson's
 * questions and samples by id, as widgets.js does (web/lib/lesson/lesson-registry.js).
 */
export async function openWidget(site, markup, viewport = { width: 1000, height: 900 }, options = {}) {
  const page = await newPage(site.browser, { viewport, ...options });
  const tag = markup.match(/<([a-z0-9-]+)/)[1];
  await page.goto(`${site.url}/widgets/dev.html`);
  await page.evaluate(
    async ([m, t]) => {
      await import(`/widgets/${t}.js`);
      const { hasLesson, registerLessonLoader } = await import('/lib/lesson/lesson-registry.js');
      if (!hasLesson()) registerLessonLoader(() => import('/gen/lesson-data.js'));
      document.body.insertAdjacentHTML('beforeend', m);
    },
    [markup, tag],
  );
  await page.locator(tag).evaluate((n) => n.updateComplete);
  return { page, el: page.locator(tag) };
}

// The lines the seed texts' exercises print, which the lesson, its one-file
// export, the bundles and every engine must show exactly.
export const EXERCISE_LINES = [
  'position 0: [0. 1. 0. 1.]',
  'position 1: [0.841 0.54  0.01  1.   ]',
  'Attention Score (Seats 1 vs 3): 0.65457',
  'Attention Score (Seats 101 vs 103): 0.65457',
];
