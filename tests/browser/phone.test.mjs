// The lesson on a 375 px phone (touch, dark): every control is a target a
// finger can hit (WCAG 2.2, 2.5.8 Target Size: at least 24 x 24 CSS px);
// everything that scrolls sideways shows the scroll cue; a live sample's
// values can be typed, not only dragged on a short slider; and the RoPE
// clock's phase slider stays on screen with the score and dials it turns.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, newPage, renderAllWidgets } from './harness.mjs';
import { tags } from './widget-tags.mjs';

const site = useSite();

const phone = { viewport: { width: 375, height: 800 }, isMobile: true, hasTouch: true, colorScheme: 'dark' };

// Runs in the page: the controls smaller than 24 x 24 px, and the boxes that
// scroll (or, inside a widget, may scroll) sideways without the scroll cue.
function findSmallTargetsAndBareScrollers() {
  const roots = [document];
  for (const el of document.querySelectorAll('*')) if (el.shadowRoot) roots.push(el.shadowRoot);
  const where = (el) => {
    const host = el.getRootNode().host;
    const outer = host ?? el;
    const section = outer.closest('section[id]')
      ? `#${outer.closest('section[id]').id}`
      : (outer.closest('nav, header, footer')?.localName ?? 'body');
    const name = `${el.localName}${el.id ? `#${el.id}` : ''}${el.type && el.localName === 'input' ? `[type=${el.type}]` : ''}`;
    const text = (el.textContent || el.getAttribute('aria-label') || '').replace(/\s+/g, ' ').trim().slice(0, 40);
    return `${host ? `${host.localName} > ` : ''}${name}${text ? ` "${text}"` : ''} in ${section}`;
  };
  // WCAG's inline exception: a link inside a sentence is as tall as its line
  const inSentence = (a) => {
    if (a.localName !== 'a' || getComputedStyle(a).display !== 'inline') return false;
    const inline = (n) =>
      n && (n.nodeType === Node.TEXT_NODE ? n.data.trim() !== '' : getComputedStyle(n).display.startsWith('inline'));
    return inline(a.previousSibling) || inline(a.nextSibling);
  };
  const targets =
    'input:not([type=hidden]), select, textarea, button, summary, a[href], [role=button], [role=slider], [role=checkbox], [role=radio], [role=tab]';
  const small = [];
  const bare = [];
  for (const root of roots) {
    const inWidget = root !== document;
    for (const el of root.querySelectorAll(targets)) {
      const r = el.getBoundingClientRect();
      if (!r.width && !r.height) continue; // not shown (in a closed part)
      if (getComputedStyle(el).visibility === 'hidden' || inSentence(el)) continue;
      if (r.width < 24 - 0.01 || r.height < 24 - 0.01)
        small.push(`${where(el)}: ${r.width.toFixed(1)} x ${r.height.toFixed(1)} px`);
    }
    for (const el of root.querySelectorAll('*')) {
      const style = getComputedStyle(el);
      if (
        !/auto|scroll/.test(style.overflowX) ||
        style.display === 'none' ||
        /^(textarea|input|select)$/.test(el.localName)
      )
        continue;
      // the page's own boxes that fit are left alone (an inline formula takes
      // its cue only once it is wider than its line); a widget's may scroll
      // at another setting, so each has its cue all the time
      const scrolls = el.scrollWidth > el.clientWidth + 1;
      if (!scrolls && !inWidget) continue;
      // the 1 px boxes that hide text from the eye but not from screen readers
      if (el.clientWidth <= 1) continue;
      const attach = style.backgroundAttachment;
      if (!/gradient/.test(style.backgroundImage) || !attach.includes('local') || !attach.includes('scroll')) {
        bare.push(`${where(el)}${scrolls ? ` (${el.scrollWidth} px in ${el.clientWidth})` : ' (may scroll)'}`);
      }
    }
  }
  return { small, bare };
}

// The lesson with every widget rendered, for the two checks of the whole
// page: the one that only reads it runs first, then the one that opens every
// part; one render of the page for both (a render is most of their time).
let lesson = null;
const renderedLesson = () =>
  (lesson ??= (async () => {
    const page = await newPage(site.browser, phone);
    await page.goto(`${site.url}/`);
    await renderAllWidgets(page, tags);
    return page;
  })());

// Issue 46, what a newcomer met on a 375 px phone in the dark theme.
test('375 px phone: text fields at 16 px, indented contents, the comparison tables fit, θ and shift next to their plot', async () => {
  const page = await renderedLesson();
  // in the shadow roots too: iOS Safari zooms into a field whose text is
  // under 16 px; a table that scrolls sideways keeps its caption within its
  // box, so the caption wraps instead of running off the screen (train-lab's did)
  const { small, cut } = await page.evaluate(() => {
    const [small, cut] = [[], []];
    const roots = [
      document,
      ...[...document.querySelectorAll('*')].filter((e) => e.shadowRoot).map((e) => e.shadowRoot),
    ];
    for (const root of roots)
      for (const f of root.querySelectorAll(
        'input:not([type=range], [type=checkbox], [type=radio], [type=hidden]), select, textarea',
      )) {
        const size = parseFloat(getComputedStyle(f).fontSize);
        if (size < 16) small.push(`${root.host?.localName ?? 'page'} ${f.localName}#${f.id}: ${size} px`);
      }
    for (const root of roots)
      for (const wrap of root.querySelectorAll('.table-wrap')) {
        // its width comes from its parent (a query container), never squeezed below its table's
        const table = wrap.querySelector('table');
        const room = (wrap.parentElement ?? wrap.getRootNode().host).clientWidth;
        if (table && wrap.clientWidth + 1 < Math.min(table.offsetWidth, room * 0.9))
          cut.push(
            `${root.host?.localName ?? 'page'}: a table box ${wrap.clientWidth} px wide for a ${table.offsetWidth} px table in ${room} px`,
          );
      }
    for (const root of roots)
      for (const c of root.querySelectorAll('caption')) {
        const box = c.closest('.table-wrap, .scroll-cue');
        if (!box || box.scrollWidth <= box.clientWidth + 1 || !c.textContent.trim()) continue;
        const w = c.getBoundingClientRect().width;
        if (w > box.clientWidth + 1)
          cut.push(
            `${root.host?.localName ?? 'page'}: "${c.textContent.slice(0, 40)}…" ${w.toFixed(0)} px in ${box.clientWidth}`,
          );
      }
    return { small, cut };
  });
  assert.deepEqual(small, [], `fields under 16 px:\n${small.join('\n')}`);
  assert.deepEqual(cut, [], `captions wider than their scrolling box:\n${cut.join('\n')}`);
  // a section's sub-entries sit to the right of the section's own entry
  const indent = await page.evaluate(() => {
    const top = document.querySelector('.toc > details > ol > li > a');
    const sub = document.querySelector('.toc ol ol a');
    return sub.getBoundingClientRect().left - top.getBoundingClientRect().left;
  });
  assert.ok(indent >= 12, `sub-entries indented by ${indent} px`);
  // 06's two tables of sentences: cards, nothing cut at the screen's edge
  const tables = await page.evaluate(() =>
    [...document.querySelectorAll('.stack-table table')].map((t) => [t.scrollWidth, t.clientWidth, innerWidth]),
  );
  assert.equal(tables.length, 2);
  for (const [scroll, client, width] of tables)
    assert.ok(scroll <= client + 1 && client <= width, `${scroll} px in ${client}`);
  // a link in a card is one touch target, never split over two lines (WCAG 2.2's
  // target size; axe found one split at 375 px now and then): here, and in
  // cards as narrow as a citation (160 px), where a split link would show
  const split = await page.evaluate(() => {
    const links = () =>
      [...document.querySelectorAll('.stack-table td a')]
        .filter((a) => a.getClientRects().length > 1)
        .map((a) => `${a.textContent} (${a.closest('.stack-table').style.width || 'as laid out'})`);
    const here = links();
    for (const t of document.querySelectorAll('.stack-table')) t.style.width = '160px';
    const narrow = links();
    for (const t of document.querySelectorAll('.stack-table')) t.style.width = '';
    return [...here, ...narrow];
  });
  assert.deepEqual(split, [], 'links split over lines in the cards');
  // rope-offset-check: θ and shift within a screen's reach of the plot they change
  const gap = await page
    .locator('rope-offset-check')
    .first()
    .evaluate((n) => {
      const r = n.shadowRoot;
      const plot = r.querySelector('.plot-wrap, svg').getBoundingClientRect();
      return ['#c-theta', '#c-shift'].map((s) => {
        const b = r.querySelector(s).getBoundingClientRect();
        return Math.max(b.top - plot.bottom, plot.top - b.bottom, 0);
      });
    });
  for (const g of gap) assert.ok(g <= 150, `a control ${g.toFixed(0)} px from the plot`);
  assert.deepEqual(page.errors, []);
});

test('375 px phone, touch, dark: every control is at least 24 x 24 px, and whatever scrolls sideways shows the scroll cue', async () => {
  const page = await renderedLesson();
  lesson = null; // what follows opens every part: the page is this test's now
  // every part a learner can open, open: the asides, the contents, each widget's tables
  await page.evaluate(async () => {
    for (const d of document.querySelectorAll('details')) d.open = true;
    for (const el of document.querySelectorAll('*'))
      for (const d of el.shadowRoot?.querySelectorAll('details') ?? []) d.open = true;
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  });
  const { small, bare } = await page.evaluate(findSmallTargetsAndBareScrollers);
  assert.deepEqual(small, [], `targets smaller than 24 x 24 px:\n${small.join('\n')}`);
  assert.deepEqual(bare, [], `sideways scrollers without a scroll cue:\n${bare.join('\n')}`);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('375 px phone: a sample value typed into its number box changes the printout and the URL; a bad one is marked, then taken back with a note', async () => {
  const page = await newPage(site.browser, phone);
  await page.goto(`${site.url}/`);
  const sample = page.locator('pe-live-output[sample="rope-seats"]');
  await renderAllWidgets(page, ['pe-live-output[sample="rope-seats"]']);
  const printout = () => sample.evaluate((n) => n.shadowRoot.querySelector('pre.output').textContent);
  const box = sample.locator('#p-shift-box');
  const slider = sample.locator('#p-shift');
  assert.match(await printout(), /Seats 101 vs 103/);
  assert.equal(await box.count(), 1, 'the shift slider has no number box beside it');
  // a value a 120 px slider over 0 to 10000 cannot hit by touch, typed
  await box.tap();
  await box.fill('250');
  await page.waitForFunction(
    (n) => n.shadowRoot.querySelector('pre.output').textContent.includes('Seats 251 vs 253'),
    await sample.elementHandle(),
  );
  assert.equal(await slider.inputValue(), '250', 'the slider follows the box');
  assert.match(await sample.evaluate((n) => n.shadowRoot.querySelector('pre.code').textContent), /shift = 1, 3, 250/);
  await page.waitForFunction(() => /\.shift=250(&|$)/.test(location.search));
  // out of range: marked while typed, the printout unchanged; on Enter, back with a note
  await box.fill('20000');
  assert.equal(await box.getAttribute('aria-invalid'), 'true');
  await box.press('Enter');
  assert.equal(await box.inputValue(), '250');
  assert.equal(await box.getAttribute('aria-invalid'), null);
  assert.equal(await sample.locator('#note-shift').textContent(), 'shift must be an integer from 0 to 10000; kept 250');
  assert.match(await printout(), /Seats 251 vs 253/);
  // off the slider's grid (rope-seats needs a theta whose factor is exact), on leaving the box
  const theta = sample.locator('#p-theta-box');
  await theta.fill('0.33');
  await theta.blur();
  assert.equal(await theta.inputValue(), '0.5');
  assert.equal(
    await sample.locator('#note-theta').textContent(),
    'theta must be a number from 0.05 to 1.5 in steps of 0.05; kept 0.5',
  );
  // the slider moves the box, and clears the note
  await sample.locator('#p-theta').focus();
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(
    (n) => n.shadowRoot.querySelector('#p-theta-box').value === '0.55',
    await sample.elementHandle(),
  );
  assert.equal(await sample.locator('#note-theta').textContent(), '');
  // the URL brings the typed value back
  await page.waitForFunction(() => /\.theta=0\.55(&|$)/.test(location.search));
  await page.reload();
  await renderAllWidgets(page, ['pe-live-output[sample="rope-seats"]']);
  assert.equal(await box.inputValue(), '250');
  assert.match(await printout(), /Seats 251 vs 253/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("375 px phone: the RoPE clock's phase slider shares the screen with the score and the dials it turns, and stays there as the dials scroll by", async () => {
  const page = await newPage(site.browser, phone);
  await page.goto(`${site.url}/`);
  const clock = page.locator('rope-clock').first();
  await renderAllWidgets(page, ['rope-clock']);
  const boxes = () =>
    clock.evaluate((n) => {
      const r = n.shadowRoot;
      const box = (el) => {
        const b = el.getBoundingClientRect();
        return { top: b.top, bottom: b.bottom };
      };
      const dials = [...r.querySelectorAll('.dials figure')].map(box);
      return {
        phase: box(r.querySelector('#c-phase')),
        phaseBox: box(r.querySelector('#c-phase-box')),
        score: box(r.querySelector('.scores')),
        dials,
        bar: document.querySelector('.toc').getBoundingClientRect().bottom,
      };
    });
  const b = await boxes();
  const all = [b.phase, b.phaseBox, b.score, ...b.dials];
  const span = Math.max(...all.map((x) => x.bottom)) - Math.min(...all.map((x) => x.top));
  assert.ok(
    span <= 800 - b.bar,
    `the phase slider, the score and the ${b.dials.length} dials span ${span.toFixed(0)} px: more than the ${800 - b.bar} px the phone shows below the contents bar`,
  );
  // 32 dials: scrolled to the last one, the slider and the score are still on screen, below the contents bar
  await clock.evaluate((n) => {
    n.setAttribute('d-model', '64');
    return n.updateNow();
  });
  await clock.evaluate((n) =>
    n.shadowRoot.querySelector('.dials figure:last-child').scrollIntoView({ block: 'end', behavior: 'instant' }),
  );
  await page.waitForTimeout(50);
  const s = await boxes();
  assert.equal(s.dials.length, 32);
  assert.ok(s.dials.at(-1).bottom <= 800 + 1, 'the last dial is on screen');
  for (const [name, x] of [
    ['phase slider', s.phase],
    ['phase box', s.phaseBox],
    ['score', s.score],
  ]) {
    assert.ok(
      x.top >= s.bar - 1 && x.bottom <= 800,
      `${name} is off screen (${x.top.toFixed(0)} to ${x.bottom.toFixed(0)} px, contents bar to ${s.bar.toFixed(0)}) beside the last dial`,
    );
  }
  // the slider still turns the score there
  const before = await clock.evaluate((n) => n.shadowRoot.querySelector('.scores').textContent);
  await clock.locator('#c-phase-box').fill('1');
  await page.waitForFunction(
    ([n, t]) => n.shadowRoot.querySelector('.scores').textContent !== t,
    [await clock.elementHandle(), before],
  );
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
