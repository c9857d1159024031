// Nothing is cut off without a cue, on a 375 px phone and a 1280 px desktop:
// with every widget rendered and every aside open, each element of the page
// (and each box inside a widget's shadow root) whose content is wider
// than its box must scroll sideways, show the scroll cue (lesson.css: the
// shadows at the edges, background-attachment scroll, and the covers that
// move with the content, local) in the colour of what is behind it, and be
// reachable from the keyboard; and the page itself never scrolls sideways on
// the phone. The phone also gets its way back to the contents: a sticky bar.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, newPage, renderAllWidgets } from './harness.mjs';
import { tags } from './widget-tags.mjs';

const site = useSite();

const phone = { viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };
const desktop = { viewport: { width: 1280, height: 900 } };

async function openLesson(options) {
  const page = await newPage(site.browser, options);
  await page.goto(`${site.url}/`);
  // what an aside holds has no width (and its widgets do not render) until it
  // opens; lesson.js re-marks the wide formulas on toggle
  await page.evaluate(async () => {
    for (const d of document.querySelectorAll('details.aside')) d.open = true;
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  });
  await renderAllWidgets(page, tags);
  await page.waitForTimeout(100);
  return page;
}

// Runs in the page: every overflowing box and what is wrong with it.
function findUncuedOverflow() {
  // colours as [r, g, b, a] (0-255, alpha 0-1), from rgb()/rgba() or color(srgb ...)
  const parse = (text) => {
    let m = text.match(/^rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)(?:,\s*([\d.]+))?\)$/);
    if (m) return [+m[1], +m[2], +m[3], m[4] === undefined ? 1 : +m[4]];
    m = text.match(/^color\(srgb ([\d.e-]+) ([\d.e-]+) ([\d.e-]+)(?: \/ ([\d.e-]+))?\)$/);
    if (m) return [m[1] * 255, m[2] * 255, m[3] * 255, m[4] === undefined ? 1 : +m[4]];
    return null;
  };
  // what shows behind `el`: its ancestors' backgrounds composited, nearest on top
  const behind = (el) => {
    const layers = [];
    for (let n = el.parentElement ?? el.getRootNode().host; n; n = n.parentElement ?? n.getRootNode().host) {
      const c = parse(getComputedStyle(n).backgroundColor);
      if (c && c[3] > 0) layers.push(c);
      if (c && c[3] >= 1) break;
    }
    let out = [255, 255, 255];
    for (const c of layers.reverse()) out = out.map((v, i) => v * (1 - c[3]) + c[i] * c[3]);
    return out;
  };
  const describe = (el) => {
    const host = el.getRootNode().host;
    const where = el.closest('section[id]')?.id ?? host?.closest('section[id]')?.id ?? '';
    const text = (el.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 60);
    return `${host ? `${host.localName} > ` : ''}${el.localName}${el.className && typeof el.className === 'string' ? `.${el.className.trim().replace(/\s+/g, '.')}` : ''} in #${where} ("${text}")`;
  };
  // the nearest ancestor (across shadow roots) that clips or scrolls sideways
  const clipper = (el) => {
    for (
      let n = el.parentElement ?? el.getRootNode().host;
      n && n !== document.documentElement;
      n = n.parentElement ?? n.getRootNode().host
    ) {
      if (getComputedStyle(n).overflowX !== 'visible') return n;
    }
    return null;
  };
  const boxes = [...document.querySelectorAll('body *')];
  for (const el of document.querySelectorAll('*'))
    if (el.shadowRoot) boxes.push(...el.shadowRoot.querySelectorAll('*'));
  const problems = [];
  for (const el of boxes) {
    // an SVG element has no scroll box (its clientWidth is 0): its <svg> is checked
    if (el instanceof SVGElement && el.localName !== 'svg') continue;
    if (el.scrollWidth <= el.clientWidth + 1) continue;
    const style = getComputedStyle(el);
    if (style.display === 'none' || style.visibility === 'hidden') continue;
    // the 1 px boxes that hide text from the eye but not from screen readers
    if (el.clientWidth <= 1 && /hidden|clip/.test(style.overflowX)) continue;
    // text cut with an ellipsis says so itself
    if (style.textOverflow === 'ellipsis' && /hidden|clip/.test(style.overflowX)) continue;
    if (!/auto|scroll/.test(style.overflowX)) {
      // content spilling out of a box inside a scroller (a formula's MathML in
      // its .math-display) is fine if that scroller holds it: it is checked itself
      const scroller = clipper(el);
      if (
        scroller &&
        /auto|scroll/.test(getComputedStyle(scroller).overflowX) &&
        scroller.scrollWidth > scroller.clientWidth + 1
      )
        continue;
      problems.push(
        `${describe(el)}: content ${el.scrollWidth} px wide in a ${el.clientWidth} px box that does not scroll (overflow-x: ${style.overflowX})`,
      );
      continue;
    }
    const attachments = style.backgroundAttachment;
    if (!/gradient/.test(style.backgroundImage) || !attachments.includes('local') || !attachments.includes('scroll')) {
      problems.push(`${describe(el)}: scrolls sideways (${el.scrollWidth} in ${el.clientWidth} px) with no scroll cue`);
      continue;
    }
    if (!(el.tabIndex >= 0 && el.hasAttribute('tabindex')))
      problems.push(`${describe(el)}: scrolls sideways but has no tab stop for keyboard users`);
    // a cue whose covers are not the colour behind the box paints a patch;
    // boxes with a colour of their own (code, printouts) are exempt
    if (!/^(pre)$/.test(el.localName)) {
      const own = parse(style.backgroundColor);
      const back = behind(el);
      if (own && own.slice(0, 3).some((v, i) => Math.abs(v - back[i]) > 3)) {
        problems.push(
          `${describe(el)}: its scroll cue is painted in ${style.backgroundColor} on a background of rgb(${back.map(Math.round).join(', ')})`,
        );
      }
    }
  }
  return {
    problems,
    pageWidth: document.documentElement.scrollWidth,
    screenWidth: document.documentElement.clientWidth,
  };
}

// Whatever is wider than its box, found on `page` once the page has settled
// (a re-measure waits 150 ms and far boxes wait for idle moments): none may lack
// its cue or tab stop, and the page itself never scrolls sideways.
async function assertOverflowCued(page, when) {
  let found;
  for (let i = 0; i < 20; i++) {
    found = await page.evaluate(findUncuedOverflow);
    if (!found.problems.length) break;
    await page.waitForTimeout(250);
  }
  const { problems, pageWidth, screenWidth } = found;
  assert.deepEqual(problems, [], when);
  assert.ok(
    pageWidth <= screenWidth,
    `${when}: the page scrolls sideways: ${pageWidth} px on a ${screenWidth} px screen`,
  );
}

for (const colorScheme of ['light', 'dark']) {
  test(`1280 px desktop, ${colorScheme}: whatever is wider than its box scrolls, shows the scroll cue and takes a tab stop`, async () => {
    const page = await openLesson({ ...desktop, colorScheme });
    await assertOverflowCued(page, colorScheme);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}

// the phone's page loaded light, then switched to dark as a reader's system
// does at dusk (one render for both schemes; lesson.js measures again on the switch)
test('375 px phone, light and then dark on the same page: whatever is wider than its box scrolls, shows the scroll cue and takes a tab stop', async () => {
  const page = await openLesson({ ...phone, colorScheme: 'light' });
  await assertOverflowCued(page, 'light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await renderAllWidgets(page, tags);
  await assertOverflowCued(page, 'dark, after the switch');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the scroll cue is drawn: a shadow at an edge with more behind it, none at an edge without (pixels of a live output)', async () => {
  for (const colorScheme of ['light', 'dark']) {
    const page = await newPage(site.browser, { ...phone, colorScheme });
    await page.goto(`${site.url}/`);
    await page
      .locator('pe-live-output')
      .first()
      .evaluate((n) => n.scrollIntoView({ block: 'center', behavior: 'instant' }));
    await page.waitForSelector('pe-live-output[data-ready]');
    const pre = page.locator('pe-live-output').first().locator('pre.code.scroll-cue');
    assert.ok(
      await pre.evaluate((n) => n.scrollWidth > n.clientWidth + 1),
      'the first sample code is expected to scroll on a phone',
    );
    // only the background is left to see: text and highlights transparent
    await pre.evaluate((n) => {
      const hide = new CSSStyleSheet();
      hide.replaceSync('pre, pre * { color: transparent !important; } .param { background: none !important; }');
      n.getRootNode().adoptedStyleSheets = [...n.getRootNode().adoptedStyleSheets, hide];
      n.scrollIntoView({ block: 'center', behavior: 'instant' });
    });
    const box = await pre.boundingBox();
    const y = Math.max(box.y, 812 / 2 - 40) + 4;
    const strip = (x) => page.screenshot({ clip: { x, y, width: 8, height: 60 } });
    const left = box.x + 2;
    const right = box.x + box.width - 10;
    const middle = await strip(box.x + box.width / 2);
    await pre.evaluate((n) => (n.scrollLeft = 0));
    assert.ok(
      !(await strip(right)).equals(middle),
      `${colorScheme}: no shadow at the right edge while more lies to the right`,
    );
    assert.ok((await strip(left)).equals(middle), `${colorScheme}: a shadow at the left edge with nothing to the left`);
    await pre.evaluate((n) => (n.scrollLeft = n.scrollWidth));
    await page.waitForTimeout(50);
    assert.ok(
      (await strip(right)).equals(middle),
      `${colorScheme}: a shadow at the right edge once scrolled to the end`,
    );
    assert.ok(!(await strip(left)).equals(middle), `${colorScheme}: no shadow at the left edge once scrolled`);
    await page.context().close();
  }
});

test('375 px phone: the contents stay one tap away (a sticky bar naming the section) and do not cover the text', async () => {
  // (reduced motion: the jump is instant, not a smooth scroll to wait for)
  const page = await newPage(site.browser, { ...phone, reducedMotion: 'reduce' });
  await page.goto(`${site.url}/`);
  const sectionId = await page.$$eval('main section[id]', (s) => s[4].id);
  // deep in a section: its middle
  await page.evaluate((id) => {
    const s = document.getElementById(id);
    window.scrollTo({ top: s.getBoundingClientRect().top + window.scrollY + s.offsetHeight / 2, behavior: 'instant' });
  }, sectionId);
  await page.waitForTimeout(500);
  const bar = await page.evaluate(() => {
    const toc = document.querySelector('.toc');
    const r = toc.getBoundingClientRect();
    return {
      top: r.top,
      height: r.height,
      open: toc.querySelector('details').open,
      label: toc.querySelector('.toc-current')?.textContent ?? '',
    };
  });
  assert.ok(Math.abs(bar.top) <= 1, `the contents bar is not at the top of the screen (top ${bar.top})`);
  assert.ok(bar.height <= 56, `the folded contents bar is ${bar.height} px tall`);
  assert.equal(bar.open, false);
  assert.match(bar.label, /^5\./, 'the bar names the section being read');
  // one tap opens the list; a link jumps there and folds it again, with the heading below the bar
  await page.locator('.toc summary').tap();
  const target = await page.$$eval('.toc > details > ol > li > a', (a) => a[2].getAttribute('href'));
  await page.locator(`.toc a[href="${target}"]`).first().tap();
  await page.waitForTimeout(300);
  const after = await page.evaluate((href) => {
    const toc = document.querySelector('.toc');
    return {
      open: toc.querySelector('details').open,
      headingTop: document.querySelector(`${href} h2`).getBoundingClientRect().top,
      barBottom: toc.getBoundingClientRect().bottom,
    };
  }, target);
  assert.equal(after.open, false);
  assert.ok(
    after.headingTop >= after.barBottom - 1,
    `the section heading (${after.headingTop}) lies under the bar (bottom ${after.barBottom})`,
  );
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
