// Two widgets a newcomer tripped on. <rope-scaling-lab>: a pair whose
// frequency differs from the unscaled one only by float32 rounding is not
// counted as changed (factor 1, every method); dynamic NTK's larger stretch
// is explained beside the table with the core's numbers; on a 375 px phone
// the factor stays on screen with the plot and the table it changes, and
// every box that scrolls sideways shows it. <t5-buckets>: a combination the
// core refuses is explained beside the control that made it, in the
// learner's words, the last valid combination is kept, and every control
// keeps working; the same for a host page's bad attributes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, openWidget } from './harness.mjs';

const site = useSite();

// One widget alone on the development page, rendered (tests/browser/harness.mjs).
const widget = (markup, viewport, options) => openWidget(site, markup, viewport, options);

// The summary table of <rope-scaling-lab>: { method: [cells] }.
const summaryRows = (el) =>
  el.evaluate((n) =>
    Object.fromEntries(
      [...n.shadowRoot.querySelectorAll('.summary tbody tr')].map((tr) => [
        tr.cells[0].textContent,
        [...tr.cells].slice(1).map((c) => c.textContent),
      ]),
    ),
  );
const set = (el, attrs) =>
  el.evaluate((n, a) => {
    for (const [k, v] of Object.entries(a)) n.setAttribute(k, v);
    return n.updateNow();
  }, attrs);
const shadowText = (el) => el.evaluate((n) => n.shadowRoot.textContent);

test('rope-scaling-lab at factor 1: no method changes a pair beyond float32 rounding, and the table says so', async () => {
  const { page, el } = await widget('<rope-scaling-lab factor="1" seq-len="8192"></rope-scaling-lab>');
  for (const [dim, base, orig] of [
    [128, 10000, 8192],
    [128, 500000, 8192],
    [64, 10000, 2048],
    [96, 1000000, 32768],
    [512, 10000, 2048],
  ]) {
    await set(el, { dim, base, 'original-max-positions': orig, 'seq-len': orig });
    const rows = await summaryRows(el);
    assert.deepEqual(Object.keys(rows), ['none', 'linear', 'NTK-aware', 'dynamic NTK', 'YaRN', 'Llama 3']);
    for (const [method, cells] of Object.entries(rows)) {
      assert.equal(
        cells[2],
        `0/${dim / 2}`,
        `dim ${dim}, base ${base}, L ${orig}: ${method} changes ${cells[2]} pairs at factor 1`,
      );
    }
  }
  // the case of the report: YaRN's ramp blend differs from the unscaled
  // frequency by a rounding step; the widget says it counts it as unchanged
  await set(el, { dim: 128, base: 10000, 'original-max-positions': 8192, 'seq-len': 8192 });
  assert.match(
    await el.locator('.rounding').textContent(),
    /^Equal to the unscaled frequency up to float32 rounding, so counted as unchanged: YaRN 1 pair\./,
  );
  // a real change is still one: factor 1.5 changes every pair under linear
  await set(el, { factor: '1.5' });
  assert.equal((await summaryRows(el)).linear[2], '64/64');
  // NTK-aware (issue 46: the method the lesson derives is drawn too): every pair but pair 0
  assert.equal((await summaryRows(el))['NTK-aware'][2], '63/64');
  assert.match(await el.locator('h3').textContent(), /under each method$/);
  assert.equal(await el.locator('.rounding').textContent(), '');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("rope-scaling-lab: dynamic NTK's longer stretch is explained beside the table, with the numbers the core computed", async () => {
  const { page, el } = await widget('<rope-scaling-lab></rope-scaling-lab>');
  const rows = await summaryRows(el);
  assert.equal(rows['dynamic NTK'][1], '707,332');
  assert.equal(rows.linear[1], '217,641');
  const why = el.locator('.summary + .dynamic-note');
  assert.match(
    await why.textContent(),
    /longest λ is 13× the unscaled one, not 4×: at the current length ℓ = 32,768 Hugging Face uses the factor sℓ\/L − \(s − 1\) = 4 · 32,768\/8,192 − 3 = 13, which is s² − s \+ 1 at ℓ = sL/,
  );
  // computed, not typed: another factor and length give other numbers
  await set(el, { factor: '2', 'seq-len': '65536' });
  assert.match(await why.textContent(), /longest λ is 15× the unscaled one, not 2×: .* = 2 · 65,536\/8,192 − 1 = 15\./);
  // factor 1 past the original length: dynamic NTK still changes the pairs, and says why
  await set(el, { factor: '1', 'seq-len': '32768' });
  assert.equal((await summaryRows(el))['dynamic NTK'][2], '63/64');
  assert.match(await why.textContent(), /longest λ is 4× the unscaled one, not 1×: .* = 1 · 32,768\/8,192 − 0 = 4\./);
  // within the original length it keeps the trained frequencies
  await set(el, { 'seq-len': '8192' });
  assert.match(await why.textContent(), /keeps the trained frequencies/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('rope-scaling-lab on a 375 px phone: the factor is on screen with the plot and the table; every sideways scroller has a cue', async () => {
  const { page, el } = await widget(
    '<rope-scaling-lab></rope-scaling-lab>',
    { width: 375, height: 667 },
    { isMobile: true, hasTouch: true, colorScheme: 'dark' },
  );
  // the slider is on screen and nothing covers it (the point at its middle is the slider)
  const factorShown = () =>
    el.evaluate((n) => {
      const s = n.shadowRoot.querySelector('#c-factor').getBoundingClientRect();
      const x = s.left + s.width / 2;
      const y = s.top + s.height / 2;
      return {
        top: Math.round(s.top),
        bottom: Math.round(s.bottom),
        height: innerHeight,
        hit: n.shadowRoot.elementFromPoint(x, y)?.id ?? null,
      };
    });
  for (const [part, block] of [
    ['.summary', 'end'],
    ['.summary', 'start'],
    ['.summary', 'center'],
    ['.plot-wrap', 'start'],
    ['.plot-wrap', 'end'],
  ]) {
    await el.evaluate(
      (n, [p, b]) => n.shadowRoot.querySelector(p).scrollIntoView({ block: b, behavior: 'instant' }),
      [part, block],
    );
    await page.evaluate(() => new Promise(requestAnimationFrame));
    const f = await factorShown();
    assert.ok(
      f.top >= 0 && f.bottom <= f.height && f.hit === 'c-factor',
      `${part} scrolled to its ${block}: the factor slider is at ${f.top}..${f.bottom} px of a ${f.height} px screen (under the point: ${f.hit})`,
    );
  }
  // dragging it changes the table on screen
  const before = (await summaryRows(el)).linear[1];
  await el.locator('#c-factor').fill('8');
  await page.waitForFunction((n) => n.getAttribute('factor') === '8', await el.elementHandle());
  await el.evaluate((n) => n.updateNow());
  assert.notEqual((await summaryRows(el)).linear[1], before);
  // every box that scrolls sideways shows it with the shadows of .table-wrap
  // (the pairs table too, once open), and no caption is cut at the edge
  await el.locator('details.alt summary').click();
  await page.waitForFunction((n) => n.shadowRoot.querySelector('details.alt table'), await el.elementHandle());
  const scrollers = await el.evaluate((n) =>
    [...n.shadowRoot.querySelectorAll('*')]
      .filter((e) => e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== 'visible')
      .map((e) => ({
        what: `${e.localName}.${e.className}`,
        cue: getComputedStyle(e).backgroundImage.includes('radial-gradient'),
      })),
  );
  assert.ok(scrollers.length > 0, 'the pairs table scrolls sideways on a phone');
  for (const s of scrollers) assert.ok(s.cue, `${s.what} scrolls sideways with no cue`);
  const cut = await el.evaluate((n) => {
    const host = n.getBoundingClientRect();
    return [...n.shadowRoot.querySelectorAll('caption, p, h3, .controls')]
      .filter((c) => c.getBoundingClientRect().right > host.right + 1 && !c.closest('details'))
      .map((c) => c.textContent.slice(0, 40));
  });
  assert.deepEqual(cut, [], "text past the widget's right edge");
  const summaryWide = await el.evaluate((n) => {
    const w = n.shadowRoot.querySelector('.summary');
    return w.scrollWidth - w.clientWidth;
  });
  assert.ok(summaryWide <= 1, `the summary table is ${summaryWide} px wider than the widget`);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

// <t5-buckets>: the learner's note beside a control, the error box (at the widget's end) empty.
const note = (el, name) => el.locator(`#note-${name}`).textContent();
const errorBox = (el) => el.locator('p.error[role=alert]').textContent();

test('t5-buckets: a max distance the core refuses is explained beside its box, the last valid one kept, and every control keeps working', async () => {
  const { page, el } = await widget('<t5-buckets bidirectional></t5-buckets>');
  const handle = await el.elementHandle();
  await el.locator('#c-num-buckets').fill('64');
  await page.waitForFunction((n) => n.getAttribute('num-buckets') === '64', handle);
  const box = el.locator('#c-max-distance');
  await box.fill('16');
  await box.press('Enter');
  await page.waitForFunction((n) => n.shadowRoot.querySelector('#note-max-distance').textContent !== '', handle);
  const said = await note(el, 'max-distance');
  assert.match(
    said,
    /^max distance must be more than 16: with 64 buckets, 32 for each direction, offsets 0–15 each have a bucket of their own and the logarithmic buckets start at 16; kept 128$/,
  );
  assert.equal(await box.inputValue(), '128', 'the box shows the max distance in use');
  assert.equal(await el.getAttribute('max-distance'), '128');
  assert.equal(await errorBox(el), '', 'the message went to the end of the widget');
  // beside the box, not 900 px below it
  const gap = await el.evaluate(
    (n) =>
      n.shadowRoot.querySelector('#note-max-distance').getBoundingClientRect().top -
      n.shadowRoot.querySelector('#c-max-distance').getBoundingClientRect().bottom,
  );
  assert.ok(gap < 40, `the note is ${gap} px below the box`);
  // every other control still works: unidirectional, then fewer buckets
  await el.locator('#c-bidirectional').uncheck();
  await page.waitForFunction((n) => n.shadowRoot.textContent.includes('Unidirectional'), handle);
  await el.locator('#c-num-buckets').fill('36');
  await page.waitForFunction((n) => n.shadowRoot.textContent.includes('of the 36 buckets'), handle);
  assert.equal(await note(el, 'max-distance'), '', 'the note outlived the combination it was about');
  // unidirectional: 64 buckets give offsets 0–31 a bucket each; a slider step that the max distance refuses is taken back
  await box.fill('20');
  await box.press('Enter');
  await page.waitForFunction(
    (n) => n.getAttribute('max-distance') === '20' && n.shadowRoot.textContent.includes('|n − m| < 20'),
    handle,
  );
  await el.locator('#c-num-buckets').fill('64');
  await page.waitForFunction((n) => n.shadowRoot.querySelector('#note-num-buckets').textContent !== '', handle);
  assert.match(
    await note(el, 'num-buckets'),
    /^with max distance 20, 64 buckets are too many: offsets 0–31 would each have a bucket of their own, so max distance must be more than 32; kept 36$/,
  );
  assert.equal(await el.getAttribute('num-buckets'), '36');
  assert.equal(await errorBox(el), '');
  // while bidirectional, the slider steps through even numbers only
  await el.locator('#c-bidirectional').check();
  await page.waitForFunction((n) => n.shadowRoot.textContent.includes('Keys at or before'), handle);
  assert.equal(await el.locator('#c-num-buckets').getAttribute('step'), '2');
  // 64 buckets split in two take max distance 20; all of them on one side do not
  await el.locator('#c-num-buckets').fill('64');
  await page.waitForFunction((n) => n.shadowRoot.textContent.includes('of the 64 buckets'), handle);
  await el.locator('#c-bidirectional').click();
  await page.waitForFunction((n) => n.shadowRoot.querySelector('#note-bidirectional').textContent !== '', handle);
  assert.match(
    await note(el, 'bidirectional'),
    /^without bidirectional all 64 buckets serve the keys at or before the query: offsets 0–31 would each have a bucket of their own, so max distance 20 must be more than 32; kept on$/,
  );
  assert.equal(await el.locator('#c-bidirectional').isChecked(), true);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("t5-buckets: a host page's bad combination gets the same note, and the widget draws and keeps working", async () => {
  const { page, el } = await widget('<t5-buckets num-buckets="64" max-distance="16" bidirectional></t5-buckets>');
  const handle = await el.elementHandle();
  await page.waitForFunction((n) => n.shadowRoot.querySelector('#note-max-distance').textContent !== '', handle);
  assert.match(await note(el, 'max-distance'), /^max distance must be more than 16: .*; kept 128$/);
  assert.equal(await el.getAttribute('max-distance'), '128');
  assert.equal(await errorBox(el), '');
  assert.match(await shadowText(el), /of the 64 buckets/);
  // an odd number of buckets cannot be split in two
  await el.evaluate((n) => n.setAttribute('num-buckets', '33'));
  await page.waitForFunction((n) => n.shadowRoot.querySelector('#note-num-buckets').textContent !== '', handle);
  assert.match(
    await note(el, 'num-buckets'),
    /^bidirectional splits the buckets in two halves, so their number must be even; kept 64$/,
  );
  assert.equal(await el.getAttribute('num-buckets'), '64');
  // and the checkbox that would split 33 buckets is taken back the same way
  await el.evaluate((n) => {
    n.removeAttribute('bidirectional');
    n.setAttribute('num-buckets', '33');
  });
  await page.waitForFunction((n) => n.shadowRoot.textContent.includes('of the 33 buckets'), handle);
  // (click, not check: the widget unchecks it again at once)
  await el.locator('#c-bidirectional').click();
  await page.waitForFunction((n) => n.shadowRoot.querySelector('#note-bidirectional').textContent !== '', handle);
  assert.match(
    await note(el, 'bidirectional'),
    /^bidirectional splits the buckets in two halves, so their number must be even, not 33; kept off$/,
  );
  assert.equal(await el.locator('#c-bidirectional').isChecked(), false);
  assert.equal(await errorBox(el), '');
  // still responding
  await el.locator('#c-num-buckets').fill('12');
  await page.waitForFunction((n) => n.shadowRoot.textContent.includes('of the 12 buckets'), handle);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

// Issue 46: with 32 buckets and max distance 128 the last bucket of a side
// starts at 91 (encoder) and 113 (decoder), by the floor of the formula; the
// widget says so instead of "offsets of 128 or more".
test('t5-buckets: the regions line names where the last bucket starts, the cell readout its region', async () => {
  const { page, el } = await widget('<t5-buckets bidirectional></t5-buckets>');
  assert.match(
    await shadowText(el),
    /Logarithmic region: 8 ≤ \|n − m\| < 91\. From 91 on, every offset shares the last bucket of its side \(the logarithm's floor reaches it before max distance 128\)/,
  );
  // a distance in that region, read with the keyboard on the strip plot, says where it starts
  await el.evaluate((n) => n.strip.focus());
  for (let k = 0; k < 10; k++) await page.keyboard.press('Shift+ArrowRight');
  await page.keyboard.press('ArrowRight'); // from 90, the last logarithmic offset, to 91
  assert.match(
    await el.evaluate((n) => n.stripReadout.textContent),
    /^relative distance \d+: bucket 31 \(last bucket \(from distance 91 on\): every farther offset shares it\)$/,
  );
  await el.evaluate((n) => n.removeAttribute('bidirectional'));
  await page.waitForFunction((n) => n.shadowRoot.textContent.includes('From 113 on'), await el.elementHandle());
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
