// A widget a newcomer tripped on. <rope-scaling-lab>: a pair whose
// frequency differs from the unscaled one only by float32 rounding is not
// counted as changed (factor 1, every method); dynamic NTK's larger stretch
// is explained beside the table with the core's numbers; on a 375 px phone
// the factor stays on screen with the plot and the table it changes, and
// every box that scrolls sideways shows it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, newPage } from './harness.mjs';

const site = useSite();

// One widget alone on the development page, rendered (options: more of the
// browser context's, such as isMobile).
async function widget(markup, viewport = { width: 1000, height: 900 }, options = {}) {
  const page = await newPage(site.browser, { viewport, ...options });
  const tag = markup.match(/<([a-z0-9-]+)/)[1];
  await page.goto(`${site.url}/widgets/dev.html`);
  await page.evaluate(async ([m, t]) => {
    await import(`/widgets/${t}.js`);
    document.body.insertAdjacentHTML('beforeend', m);
  }, [markup, tag]);
  await page.waitForSelector(`${tag}[data-ready]`, { state: 'attached' });
  return { page, el: page.locator(tag) };
}

// The summary table of <rope-scaling-lab>: { method: [cells] }.
const summaryRows = (el) => el.evaluate((n) => Object.fromEntries(
  [...n.shadowRoot.querySelectorAll('.summary tbody tr')].map((tr) => [tr.cells[0].textContent, [...tr.cells].slice(1).map((c) => c.textContent)])));
const set = (el, attrs) => el.evaluate((n, a) => {
  for (const [k, v] of Object.entries(a)) n.setAttribute(k, v);
  return n.updateNow();
}, attrs);

test('rope-scaling-lab at factor 1: no method changes a pair beyond float32 rounding, and the table says so', async () => {
  const { page, el } = await widget('<rope-scaling-lab factor="1" seq-len="8192"></rope-scaling-lab>');
  for (const [dim, base, orig] of [[128, 10000, 8192], [128, 500000, 8192], [64, 10000, 2048], [96, 1000000, 32768], [512, 10000, 2048]]) {
    await set(el, { dim, base, 'original-max-positions': orig, 'seq-len': orig });
    const rows = await summaryRows(el);
    assert.deepEqual(Object.keys(rows), ['none', 'linear', 'dynamic NTK', 'YaRN', 'Llama 3']);
    for (const [method, cells] of Object.entries(rows)) {
      assert.equal(cells[2], `0/${dim / 2}`, `dim ${dim}, base ${base}, L ${orig}: ${method} changes ${cells[2]} pairs at factor 1`);
    }
  }
  // the case of the report: YaRN's ramp blend differs from the unscaled
  // frequency by a rounding step; the widget says it counts it as unchanged
  await set(el, { dim: 128, base: 10000, 'original-max-positions': 8192, 'seq-len': 8192 });
  assert.match(await el.locator('.rounding').textContent(), /^Equal to the unscaled frequency up to float32 rounding, so counted as unchanged: YaRN 1 pair\./);
  // a real change is still one: factor 1.5 changes every pair under linear
  await set(el, { factor: '1.5' });
  assert.equal((await summaryRows(el)).linear[2], '64/64');
  assert.equal(await el.locator('.rounding').textContent(), '');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('rope-scaling-lab: dynamic NTK\'s longer stretch is explained beside the table, with the numbers the core computed', async () => {
  const { page, el } = await widget('<rope-scaling-lab></rope-scaling-lab>');
  const rows = await summaryRows(el);
  assert.equal(rows['dynamic NTK'][1], '707,332');
  assert.equal(rows.linear[1], '217,641');
  const why = el.locator('.summary + .dynamic-note');
  assert.match(await why.textContent(), /longest λ is 13× the unscaled one, not 4×: at the current length ℓ = 32,768 Hugging Face uses the factor sℓ\/L − \(s − 1\) = 4 · 32,768\/8,192 − 3 = 13, which is s² − s \+ 1 at ℓ = sL/);
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
  const { page, el } = await widget('<rope-scaling-lab></rope-scaling-lab>', { width: 375, height: 667 }, { isMobile: true, hasTouch: true, colorScheme: 'dark' });
  // the slider is on screen and nothing covers it (the point at its middle is the slider)
  const factorShown = () => el.evaluate((n) => {
    const s = n.shadowRoot.querySelector('#c-factor').getBoundingClientRect();
    const x = s.left + s.width / 2;
    const y = s.top + s.height / 2;
    return { top: Math.round(s.top), bottom: Math.round(s.bottom), height: innerHeight, hit: n.shadowRoot.elementFromPoint(x, y)?.id ?? null };
  });
  for (const [part, block] of [['.summary', 'end'], ['.summary', 'start'], ['.summary', 'center'], ['.plot-wrap', 'start'], ['.plot-wrap', 'end']]) {
    await el.evaluate((n, [p, b]) => n.shadowRoot.querySelector(p).scrollIntoView({ block: b, behavior: 'instant' }), [part, block]);
    await page.evaluate(() => new Promise(requestAnimationFrame));
    const f = await factorShown();
    assert.ok(f.top >= 0 && f.bottom <= f.height && f.hit === 'c-factor', `${part} scrolled to its ${block}: the factor slider is at ${f.top}..${f.bottom} px of a ${f.height} px screen (under the point: ${f.hit})`);
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
  const scrollers = await el.evaluate((n) => [...n.shadowRoot.querySelectorAll('*')]
    .filter((e) => e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== 'visible')
    .map((e) => ({ what: `${e.localName}.${e.className}`, cue: getComputedStyle(e).backgroundImage.includes('radial-gradient') })));
  assert.ok(scrollers.length > 0, 'the pairs table scrolls sideways on a phone');
  for (const s of scrollers) assert.ok(s.cue, `${s.what} scrolls sideways with no cue`);
  const cut = await el.evaluate((n) => {
    const host = n.getBoundingClientRect();
    return [...n.shadowRoot.querySelectorAll('caption, p, h3, .controls')].filter((c) => c.getBoundingClientRect().right > host.right + 1 && !c.closest('details')).map((c) => c.textContent.slice(0, 40));
  });
  assert.deepEqual(cut, [], 'text past the widget\'s right edge');
  const summaryWide = await el.evaluate((n) => { const w = n.shadowRoot.querySelector('.summary'); return w.scrollWidth - w.clientWidth; });
  assert.ok(summaryWide <= 1, `the summary table is ${summaryWide} px wider than the widget`);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
