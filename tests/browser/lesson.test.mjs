// The lesson page in real Chromium: it loads without errors, every widget
// renders, the exercise lines appear exactly, a quiz works from the keyboard
// and its score survives a reload, a parameter change updates a live output,
// axe-core finds no accessibility violations, and a 375 px phone needs no
// horizontal scrolling. Screenshots go to screenshots/ (git-ignored).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import {
  useSite,
  assertNoSidewaysScroll,
  newPage,
  renderAllWidgets,
  shadowTexts,
  screenshotPath,
  SAVE_SCREENSHOTS,
  EXERCISE_LINES,
} from './harness.mjs';
import { tags } from './widget-tags.mjs';

const require = createRequire(import.meta.url);
const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

const site = useSite();

// The page is too tall for one image: the first screen, then each section's start.
async function screenshotSections(page, name) {
  if (!SAVE_SCREENSHOTS) return;
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: screenshotPath(`lesson-${name}-00-top.png`) });
  const ids = await page.$$eval('main section[id]', (nodes) => nodes.map((n) => n.id));
  for (const [i, id] of ids.entries()) {
    await page.evaluate((id) => document.getElementById(id).scrollIntoView({ behavior: 'instant' }), id);
    await page.screenshot({ path: screenshotPath(`lesson-${name}-${String(i + 1).padStart(2, '0')}-${id}.png`) });
  }
}

// One image of the first instance of each widget.
async function screenshotWidgets(page, name) {
  if (!SAVE_SCREENSHOTS) return;
  for (const tag of tags) {
    const el = page.locator(tag).first();
    await el.evaluate((n) => n.scrollIntoView({ block: 'start', behavior: 'instant' }));
    await page.waitForTimeout(100);
    const box = await el.boundingBox();
    const viewport = page.viewportSize();
    const clip = {
      x: Math.max(0, box.x - 4),
      y: Math.max(0, box.y - 4),
      width: Math.min(viewport.width, box.width + 8),
      height: Math.min(viewport.height - Math.max(0, box.y - 4), box.height + 8),
    };
    await page.screenshot({ path: screenshotPath(`widget-${name}-${tag}.png`), clip });
  }
}

// The desktop page of the first test, every widget rendered, read again by
// the checks that only read it (the exercise lines): one render, not two.
// It stays open until the browser closes (useSite).
let desktop = null;

async function openLesson(options = {}) {
  const page = await newPage(site.browser, { viewport: { width: 1280, height: 900 }, ...options });
  await page.goto(`${site.url}/`);
  return page;
}

test('the lesson loads, every widget renders, with no console errors', async () => {
  const page = await openLesson();
  // the text is there before any widget has rendered
  assert.ok((await page.locator('main section').count()) >= 8, 'fewer than 8 sections');
  const count = await renderAllWidgets(page, tags);
  assert.ok(count >= 30, `only ${count} widgets on the page`);
  const undefinedTags = await page.evaluate(() =>
    [...document.querySelectorAll(':not(:defined)')].map((e) => e.localName),
  );
  assert.deepEqual(undefinedTags, [], 'elements never upgraded');
  const invalid = await page.$$eval('[data-invalid]', (nodes) =>
    nodes.map((n) => `<${n.localName}>: ${n.shadowRoot.querySelector('.error')?.textContent}`),
  );
  assert.deepEqual(invalid, [], "widgets showing an error with the lesson's own attributes");
  for (const tag of tags.filter((t) => t !== 'pe-quiz-score')) {
    assert.ok((await page.locator(tag).count()) > 0, `the lesson uses no <${tag}>`);
  }
  await screenshotSections(page, 'desktop');
  await screenshotWidgets(page, 'desktop');
  assert.deepEqual(page.errors, []);
  desktop = page;
});

test('text, code and default outputs show before the wasm arrives, and written quizzes already work', async () => {
  const page = await newPage(site.browser, { viewport: { width: 1280, height: 900 } });
  let release;
  const held = new Promise((resolve) => (release = resolve));
  await page.route('**/*.wasm', async (route) => {
    await held; // the compute core is "still downloading"
    await route.continue();
  });
  await page.goto(`${site.url}/`, { waitUntil: 'domcontentloaded' });
  assert.match(await page.locator('h1').textContent(), /Positional encoding/);
  assert.ok(await page.locator('#sinusoidal p').first().isVisible());
  // the live output shows its code and default printout from the page itself
  await page.waitForFunction(() => !!customElements.get('pe-live-output'));
  const sample = page.locator('pe-live-output[sample="seat-vectors"]');
  await sample.scrollIntoViewIfNeeded();
  // the element renders after its first update (a task, not at definition), so wait for it; the
  // core is held until release() below, so an output that needs the core never comes and this times out
  const shown = await sample
    .evaluate(
      (n) =>
        new Promise((resolve, reject) => {
          const until = Date.now() + 10000;
          const poll = () => {
            const text = n.shadowRoot?.textContent ?? '';
            if (text.includes('position 1: [0.841 0.54  0.01  1.   ]')) resolve(text);
            else if (Date.now() > until) reject(new Error(`shown: ${text.slice(0, 300)}`));
            else setTimeout(poll, 50);
          };
          poll();
        }),
    )
    .catch((e) => e.message);
  assert.ok(
    shown.includes('position 1: [0.841 0.54  0.01  1.   ]'),
    `default output missing before the core (${shown})`,
  );
  assert.ok(shown.includes('import'), 'code missing before the core');
  // a written quiz is interactive without the core
  const quiz = page.locator('pe-quiz[quiz="why-position-shuffle-outputs"]');
  await renderAllWidgets(page, ['pe-quiz[quiz="why-position-shuffle-outputs"]']);
  assert.ok((await quiz.locator('input').count()) >= 2);
  // a drawing waits for the core, says so, and renders once it arrives
  const heatmap = page.locator('pe-heatmap').first();
  await heatmap.scrollIntoViewIfNeeded();
  assert.match(await heatmap.evaluate((n) => n.shadowRoot.textContent), /Loading the compute core/);
  release();
  await renderAllWidgets(page, ['pe-heatmap']);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the exercise lines appear exactly', async () => {
  // the first test's page when it passed (rendering these again there is a no-op), else one of its own
  const page = desktop ?? (await openLesson());
  await renderAllWidgets(page, ['pe-live-output', 'rope-offset-check']);
  const texts = (await shadowTexts(page, 'pe-live-output, rope-offset-check')).join('\n');
  for (const line of EXERCISE_LINES) assert.ok(texts.includes(line), `missing: ${line}`);
  if (page !== desktop) await page.context().close();
});

test('changing a parameter updates a live output', async () => {
  const page = await openLesson();
  const sample = page.locator('pe-live-output[sample="seat-vectors"]');
  await sample.scrollIntoViewIfNeeded();
  await renderAllWidgets(page, ['pe-live-output[sample="seat-vectors"]']);
  const output = () => sample.evaluate((n) => n.shadowRoot.querySelector('pre.output').textContent);
  const code = () => sample.evaluate((n) => n.shadowRoot.querySelector('pre.code').textContent);
  const before = await output();
  const codeBefore = await code();
  // the first control, moved with the keyboard
  const control = sample.locator('input, select').first();
  await control.focus();
  await page.keyboard.press('ArrowRight');
  const handle = await sample.elementHandle();
  await page.waitForFunction(([n, b]) => n.shadowRoot.querySelector('pre.output').textContent !== b, [handle, before]);
  assert.notEqual(await output(), before, 'output did not change');
  assert.notEqual(await code(), codeBefore, 'the code did not show the new value');
  await page.context().close();
});

test('a quiz can be answered with the keyboard alone, and its score persists across a reload', async () => {
  const page = await openLesson();
  await page.evaluate(() => localStorage.clear());
  await page.reload();
  const quiz = page.locator('pe-quiz:not([quiz*="-gen"])').first();
  await quiz.scrollIntoViewIfNeeded();
  await renderAllWidgets(page, ['pe-quiz', 'pe-quiz-score']);
  const id = await quiz.getAttribute('quiz');
  const correctIndex = await page.evaluate(async (quizId) => {
    const { quizzes } = await import('/gen/lesson-data.js');
    return quizzes[quizId].options.findIndex((o) => o.correct);
  }, id);
  // Tab into the quiz: focus the element before it, then Tab until a radio of this quiz has focus
  await quiz.locator('input').first().focus();
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Tab');
  // options are shuffled per learner: an input's value is its authored index
  const focusedIndex = () =>
    quiz.evaluate((n) =>
      [...n.shadowRoot.querySelectorAll('input')].includes(n.shadowRoot.activeElement)
        ? Number(n.shadowRoot.activeElement.value)
        : -1,
    );
  assert.ok((await focusedIndex()) >= 0, 'Tab does not reach the quiz options');
  // radio groups: arrow keys move and select
  await page.keyboard.press('Space');
  for (let guard = 0; (await focusedIndex()) !== correctIndex && guard < 10; guard++)
    await page.keyboard.press('ArrowDown');
  assert.equal(await focusedIndex(), correctIndex);
  // Tab past the remaining options? radios are one tab stop: next Tab is the Check button
  await page.keyboard.press('Tab');
  const focusedText = await quiz.evaluate((n) => n.shadowRoot.activeElement?.textContent);
  assert.equal(focusedText, 'Check');
  await page.keyboard.press('Enter');
  const result = () => quiz.evaluate((n) => n.shadowRoot.querySelector('.result').textContent);
  assert.match(await result(), /^Correct/);
  const score = () => page.locator('pe-quiz-score').evaluate((n) => n.shadowRoot.textContent);
  await page.waitForFunction(() => /Score: 1 of/.test(document.querySelector('pe-quiz-score').shadowRoot.textContent));
  await page.reload();
  await renderAllWidgets(page, [`pe-quiz[quiz="${id}"]`, 'pe-quiz-score']);
  assert.match(await score(), /Score: 1 of \d+ points/);
  assert.match(await quiz.evaluate((n) => n.shadowRoot.querySelector('.result').textContent), /^Correct/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

// axe-core's rules for WCAG 2.0, 2.1 and 2.2 at levels A and AA (2.2 adds
// target-size, off by default), and its best practices; it looks inside the
// widgets' shadow roots too.
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

/**
 * axe's violations on the page as it is, one line each (rule, impact, the
 * first nodes); `only`: CSS selectors of the parts to audit (all: the page).
 */
async function axeViolations(page, only = null) {
  return page.evaluate(
    async ([values, include]) => {
      const context = include ? { include: include.map((s) => [s]) } : document;
      const r = await window.axe.run(context, { runOnly: { type: 'tag', values }, resultTypes: ['violations'] });
      return r.violations.map(
        (v) =>
          `${v.id} (${v.impact}): ${v.help} — ${v.nodes
            .slice(0, 4)
            .map((n) => `${n.target.join(' ')} ${n.html.replace(/\s+/g, ' ').slice(0, 80)}`)
            .join(' | ')}`,
      );
    },
    [AXE_TAGS, only],
  );
}

// Every <details> inside the widgets' shadow roots (tables of numbers, a pasted config), opened.
function openWidgetDetails() {
  const visit = (root) => {
    for (const e of root.querySelectorAll('*')) {
      if (!e.shadowRoot) continue;
      for (const d of e.shadowRoot.querySelectorAll('details')) d.open = true;
      visit(e.shadowRoot);
    }
  };
  visit(document);
}

// Two animation frames and a moment: what a resize, a theme change or an opened table sets off is done.
const settle = (page) =>
  page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 300)))));

test('axe-core finds no violation of WCAG 2.2 AA or best practice: every aside open, widgets before and after they draw, light and dark, desktop and 375 px wide', async (t) => {
  const started = performance.now();
  const page = await openLesson({ colorScheme: 'light' });
  // Blocks far from the screen are not laid out (content-visibility: auto in
  // lesson.css): axe would measure them at their placeholder size and call
  // whatever overflows it obscured. Laid out for the audit, as each block is
  // once scrolled to.
  await page.addStyleTag({ content: 'main > section > * { content-visibility: visible !important; }' });
  await page.evaluate(axeSource);
  await page.evaluate(() => {
    for (const d of document.querySelectorAll('details.aside')) d.open = true;
  });
  const found = [];
  const audit = async (state, only) => {
    for (const v of await axeViolations(page, only)) found.push(`${state}: ${v}`);
  };
  // 1. the widgets as the page builds them in idle moments, most not drawn
  //    yet: what a screen reader meets first
  await page.waitForFunction(
    (selector) =>
      [...document.querySelectorAll(selector)].every((n) => n.shadowRoot && !n.shadowRoot.querySelector('slot')),
    tags.join(','),
    { timeout: 60_000 },
  );
  //    The widgets only: the rest of the page (text, asides, formulas) is the
  //    same in audit 2, whole, and auditing it twice took a quarter of the test
  await audit('desktop, light, widgets built but most not drawn', tags);
  // 2. every widget drawn, every table in them open; both themes on this one page
  await renderAllWidgets(page, tags);
  await page.evaluate(openWidgetDetails);
  await settle(page);
  const notDrawn = await page.evaluate(async () => {
    const label = (await import('/lib/base/pe-element.js')).NOT_DRAWN_LABEL;
    const left = [];
    const visit = (root) => {
      for (const e of root.querySelectorAll('*')) {
        if (e.getAttribute('role') === 'img' && e.getAttribute('aria-label') === label) left.push(e.localName);
        if (e.shadowRoot) visit(e.shadowRoot);
      }
    };
    visit(document);
    return left;
  });
  assert.deepEqual(notDrawn, [], 'every drawing has its own label once drawn');
  await audit('desktop, light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await settle(page);
  await audit('desktop, dark');
  // 3. the same page, light again, in a window as narrow as a phone: tables
  //    and printouts that now scroll sideways must take focus
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 375, height: 812 });
  await settle(page);
  //    lesson.js measures every box again after a resize (near ones at once,
  //    the rest in idle moments) and says when it is done
  await page
    .waitForFunction(() => document.documentElement.hasAttribute('data-wide-measured'), null, { timeout: 30_000 })
    .catch(() => found.push('375 px: lesson.js did not finish measuring the wide boxes in 30 s after the resize'));
  await audit('375 px, light');
  assert.deepEqual(found, []);
  assert.deepEqual(page.errors, []);
  t.diagnostic(`axe: 4 audits of one page in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  await page.context().close();
});

test('a 375 px wide phone has no horizontal scrolling', async () => {
  const page = await openLesson({
    viewport: { width: 375, height: 812 },
    isMobile: true,
    hasTouch: true,
    deviceScaleFactor: 2,
  });
  await renderAllWidgets(page, tags);
  await assertNoSidewaysScroll(page);
  await screenshotSections(page, 'phone');
  await screenshotWidgets(page, 'phone');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
