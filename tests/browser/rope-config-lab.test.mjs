// <rope-config-lab> in Chromium: every preset renders with its source and a
// summary; a pasted config is shown, a bad one (malformed JSON, a missing or
// wrongly typed field, an unsupported type, 10 MB, prototype keys) gets a
// message naming the field while the previous picture stays; the plots and
// the table work from the keyboard; the embed URL opens a preset.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, newPage, screenshotPath, SAVE_SCREENSHOTS } from './harness.mjs';
import { ROPE_PRESETS } from '../../web/lib/rope/rope-presets.js';

const site = useSite();

async function lab(markup, viewport = { width: 1000, height: 900 }) {
  const page = await newPage(site.browser, { viewport });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await page.goto(`${site.url}/widgets/dev.html`);
  await page.evaluate(async (m) => {
    await import('/widgets/rope-config-lab.js');
    document.body.insertAdjacentHTML('beforeend', m);
  }, markup);
  await page.waitForSelector('rope-config-lab[data-ready]', { state: 'attached' });
  return { page, el: page.locator('rope-config-lab'), errors };
}

const summary = (el) => el.locator('.summary').innerText();
const paths = (el) =>
  el.evaluate((e) => [...e.shadowRoot.querySelectorAll('svg path')].map((p) => p.getAttribute('d')).join('|'));

test('every preset renders with its source, a summary and no error', async () => {
  const { page, el, errors } = await lab('<rope-config-lab></rope-config-lab>');
  for (const p of ROPE_PRESETS) {
    await el.evaluate((e, id) => e.setAttribute('preset', id), p.id);
    await el.evaluate((e) => e.updateNow());
    assert.match(
      await el.locator('.source').innerText(),
      new RegExp(p.source.slice(0, 20).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')),
    );
    const text = await summary(el);
    assert.match(text, /rotates \d+ pairs/, p.id);
    assert.match(text, /Attention factor: /, p.id);
    assert.equal(await el.locator('.error[role=alert]').last().innerText(), '', p.id);
    if (SAVE_SCREENSHOTS)
      await page.screenshot({ path: screenshotPath(`rope-config-lab-${p.id}.png`), fullPage: true });
  }
  await el.evaluate((e) => e.setAttribute('preset', 'phi-3-mini-128k'));
  await el.evaluate((e) => e.updateNow());
  assert.match(
    await summary(el),
    /14 of 48 pairs would turn through angles never seen in training without scaling; with this longrope scaling none do/,
  );
  assert.match(await summary(el), /Attention factor: 1\.1902/);
  await el.evaluate((e) => e.setAttribute('preset', 'llama-2-7b'));
  await el.evaluate((e) => e.setAttribute('target', '16384'));
  await el.evaluate((e) => e.updateNow());
  assert.match(
    await summary(el),
    /up to max_position_embeddings = 4,096: at 16,384 tokens, \d+ of 64 pairs turn through angles never seen in training \(pairs \d+–63\)/,
  );
  assert.ok((await el.locator('svg circle.new').count()) > 0, 'marked pairs are drawn');
  assert.deepEqual(errors, []);
});

test('a pasted config is shown; bad ones name the field and keep the previous picture', async () => {
  const { el, errors } = await lab('<rope-config-lab preset="llama-3.1-8b"></rope-config-lab>');
  await el.locator('details.paste summary').click();
  const box = el.locator('textarea');
  assert.match(await box.inputValue(), /"rope_type": "llama3"/, 'the preset fills the box');
  const show = el.getByRole('button', { name: 'Show this config' });
  await box.fill(
    JSON.stringify({
      hidden_size: 2048,
      num_attention_heads: 16,
      max_position_embeddings: 4096,
      rope_theta: 10000,
      rope_scaling: { type: 'yarn', factor: 8, original_max_position_embeddings: 4096 },
    }),
  );
  await show.click();
  await el.evaluate((e) => e.updateNow());
  assert.equal(await el.getAttribute('preset'), 'custom');
  assert.match(await summary(el), /Your config rotates 64 pairs/);
  assert.match(await summary(el), /claims 32,768/);
  const picture = await paths(el);
  const text = await summary(el);
  const cases = [
    ['{"hidden_size": 4096,', /the config is not valid JSON/],
    ['{"hidden_size": 4096, "num_attention_heads": 32}', /max_position_embeddings is missing/],
    ['{"head_dim": "128", "max_position_embeddings": 4096}', /head_dim must be a number, got the string "128"/],
    [
      '{"head_dim": 128, "max_position_embeddings": 4096, "rope_scaling": {"rope_type": "mrope"}}',
      /rope_scaling.rope_type "mrope" is not supported here/,
    ],
    [
      '{"head_dim": 128, "max_position_embeddings": 4096, "rope_scaling": {"rope_type": "llama3", "factor": 8}}',
      /rope_scaling.original_max_position_embeddings is missing/,
    ],
    ['{"head_dim": 1e400, "max_position_embeddings": 4096}', /head_dim must be a finite number/],
    ['{"__proto__": {"head_dim": 64}, "max_position_embeddings": 4096}', /head dimension is missing/],
  ];
  for (const [json, message] of cases) {
    await box.fill(json);
    await show.click();
    const alert = await el.locator('.paste .error').innerText();
    assert.match(alert, message);
    assert.match(alert, /The picture still shows the previous config/);
    assert.doesNotMatch(alert, /parseRopeConfig/);
    assert.equal(await paths(el), picture, `${json}: the picture changed`);
    assert.equal(await summary(el), text);
  }
  // 10 MB: refused before parsing, the page stays responsive
  await box.evaluate((t) => {
    t.value = `{"x": "${'a'.repeat(10 * 1024 * 1024)}"}`;
  });
  await show.click();
  assert.match(
    await el.locator('.paste .error').innerText(),
    /characters long; a config\.json of at most 1,048,576 is read/,
  );
  assert.equal(await paths(el), picture);
  assert.deepEqual(errors, []);
});

test('keyboard: the plots read a pair with the arrow keys, the table lists every pair', async () => {
  const { page, el } = await lab('<rope-config-lab preset="qwen2.5-7b-yarn"></rope-config-lab>');
  await el.locator('svg[tabindex="0"]').first().focus();
  await page.keyboard.press('End');
  assert.match(await el.locator('.readout').innerText(), /^pair 63: wavelength .* → .* \(×4\.000\)/);
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowRight');
  assert.match(await el.locator('.readout').innerText(), /^pair 1: /);
  // the pairs table opens from its summary (read once it is open: a closed
  // details has no innerText; once in CI it read '' right after the click)
  const pairs = el.locator('details.alt', { has: page.locator('summary', { hasText: 'Show every pair as a table' }) });
  await pairs.locator('summary').click();
  const opened = await page
    .waitForFunction((d) => d.open, await pairs.elementHandle(), { timeout: 5000 })
    .then(
      () => true,
      () => false,
    );
  assert.ok(opened, 'a click on "Show every pair as a table" did not open it within 5 s');
  assert.equal(await pairs.locator('tbody tr').last().locator('th').innerText(), '63');
  assert.equal(await pairs.locator('tbody tr').count(), 64);
  // the model select is a plain labelled control
  await el.locator('#c-preset').selectOption('phi-3-mini-128k');
  await el.evaluate((e) => e.updateNow());
  assert.match(await summary(el), /Phi-3 mini 128k/);
});

test('embed URL: embed.html?widget=rope-config-lab&preset=... opens that model', async () => {
  const page = await newPage(site.browser, { viewport: { width: 800, height: 900 } });
  await page.goto(`${site.url}/embed.html?widget=rope-config-lab&preset=phi-3-mini-128k&target=65536`);
  await page.waitForSelector('rope-config-lab[data-ready]', { state: 'attached' });
  const el = page.locator('rope-config-lab');
  assert.match(await summary(el), /Phi-3 mini 128k .*claims 131,072/s);
  assert.match(await summary(el), /at 65,536 tokens, 14 of 48 pairs would turn/);
});

test("Llama 3.1: the verdict names the training it assumes, what the factor alone covers, and the model's long training", async () => {
  const { el, errors } = await lab('<rope-config-lab preset="llama-3.1-8b"></rope-config-lab>');
  const text = await summary(el);
  assert.match(
    text,
    /Assuming training saw positions up to rope_scaling\.original_max_position_embeddings = 8,192 with the unscaled frequencies: at 131,072 tokens, 29 of 64 pairs would turn through angles never seen in training without scaling; with this llama3 scaling 29 still do \(pairs 35–63\)\./,
  );
  assert.match(
    text,
    /slowed ×8, so it turns as far at 65,536 tokens \(8 × 8,192\) as at 8,192: the scaling alone covers 65,536 of the 131,072\./,
  );
  assert.match(
    text,
    /Llama 3 paper.*§3\.4\.2: six stages from 8K for the 405B, about 800B tokens; similar recipes for the 8B and 70B/s,
  );
  assert.match(text, /not angles this model never saw/);
  // the training length the verdict assumes is a control of its own
  const trained = el.locator('#c-trained');
  await trained.fill('131072');
  await trained.press('Enter');
  await el.evaluate((e) => e.updateNow());
  assert.match(
    await summary(el),
    /At 131,072 tokens, within the assumed training length of 131,072, no pair turns further than in training\./,
  );
  assert.doesNotMatch(await summary(el), /not angles this model never saw/);
  // a model with no long training of record gets no such line
  await el.evaluate((e) => {
    e.removeAttribute('trained');
    e.setAttribute('preset', 'llama-7b-pi-16x');
    return e.updateNow();
  });
  assert.doesNotMatch(await summary(el), /Llama 3 paper/);
  assert.match(
    await summary(el),
    /slowed ×16, so it turns as far at 32,768 tokens \(16 × 2,048\) as at 2,048: enough for 32,768\./,
  );
  assert.deepEqual(errors, []);
});

// Issue 46: linear scaling by 16 stretched every pair ×16, yet the summary
// said "×1.00 to ×16.00" (its range started from 1, not from the pairs).
test("the summary's stretch range is the table's stretch column, lowest to highest", async () => {
  const { page, el, errors } = await lab('<rope-config-lab preset="llama-7b-pi-16x"></rope-config-lab>');
  const pairs = el.locator('details.alt', { has: page.locator('summary', { hasText: 'Show every pair as a table' }) });
  const stretches = async () => {
    await pairs.evaluate((d) => (d.open = true));
    await el.evaluate((e) => e.updateNow());
    const cells = await pairs.locator('tbody tr td:nth-of-type(4)').allInnerTexts();
    return cells.map((c) => Number(c.replace('×', ''))).filter((x) => Math.abs(x - 1) > 5e-4); // the changed pairs
  };
  const linear = await stretches();
  assert.equal(linear.length, 64);
  assert.ok(
    linear.every((x) => x === 16),
    linear.join(' '),
  );
  assert.match(
    await summary(el),
    /Its linear scaling changes 64 of 64 pairs, stretching wavelengths by ×16\.00 each\./,
  );
  // a scaling that stretches pairs by different factors gives the table's lowest and highest
  await el.evaluate((e) => e.setAttribute('preset', 'llama-3.1-8b'));
  const llama = await stretches();
  const [lo, hi] = [Math.min(...llama), Math.max(...llama)].map((x) => x.toFixed(2));
  assert.match(await summary(el), new RegExp(`stretching wavelengths by ×${lo} to ×${hi}\\.`));
  assert.notEqual(lo, '1.00');
  assert.deepEqual(errors, []);
});
