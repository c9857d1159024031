// <train-lab> in real Chromium: Start from the keyboard trains in background
// workers, progress events and the progress bar move, Pause really stops the
// steps and Resume continues, the done event brings a table with a number in
// every cell (a learned table shows "—" and the reason past its rows), no
// console errors; with Worker unavailable the same lab trains on the page;
// and in embed.html under a strict CSP it trains in workers with no
// violation and shows, bit for bit, what pe.createTrainer computes in Node.
// Runs are tiny (tens of steps) to keep this fast.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, withServer, newPage, STRICT_CSP } from './harness.mjs';

const site = useSite();

// A page holding only `markup`, with the lab's events recorded on window.trainLog.
async function labPage(markup, { noWorker = false } = {}) {
  const page = await newPage(site.browser, { viewport: { width: 900, height: 900 } });
  if (noWorker) await page.addInitScript(() => delete window.Worker);
  await page.goto(`${site.url}/widgets/dev.html`);
  await page.evaluate(async (markup) => {
    await import('/widgets/train-lab.js');
    window.trainLog = { progress: [], done: null };
    document.body.insertAdjacentHTML('beforeend', markup);
    const el = document.querySelector('train-lab');
    el.addEventListener('train-lab-progress', (e) => window.trainLog.progress.push(e.detail));
    el.addEventListener('train-lab-done', (e) => (window.trainLog.done = e.detail));
  }, markup);
  await page.waitForSelector('train-lab[data-ready]');
  return page;
}

const lab = (page, fn, arg) => page.locator('train-lab').evaluate(fn, arg);
const lastSteps = (page) => page.evaluate(() => window.trainLog.progress.at(-1)?.steps ?? 0);
const button = (page, name) => page.locator('train-lab').getByRole('button', { name, exact: true });

test('trains in workers from the keyboard: progress, pause, resume, results', async () => {
  const page = await labPage('<train-lab steps="60" encodings="none,learned,rope"></train-lab>');
  // nothing runs before the learner asks
  assert.equal(await button(page, 'Start').isEnabled(), true);
  assert.equal(await button(page, 'Pause').isDisabled(), true);
  assert.equal(await page.evaluate(() => window.trainLog.progress.length), 0);

  await button(page, 'Start').focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => window.trainLog.progress.some((p) => p.steps > 0), null, { timeout: 20000 });
  const detail = await page.evaluate(() => window.trainLog.progress.at(-1));
  assert.equal(detail.total, 60);
  assert.match(
    await lab(page, (el) => el.shadowRoot.querySelector('.mode').textContent),
    /training in \d background workers?/i,
  );
  assert.ok(
    (await lab(page, (el) => el.shadowRoot.querySelector('progress').value)) > 0,
    'the progress bar did not move',
  );

  // Start handed the keyboard focus to Pause; Space presses it
  assert.equal(await lab(page, (el) => el.shadowRoot.activeElement?.textContent), 'Pause');
  await page.keyboard.press('Space');
  await page.waitForTimeout(300); // a slice in flight may still report
  const atPause = await lastSteps(page);
  await page.waitForTimeout(500);
  assert.equal(await lastSteps(page), atPause, 'steps went on after Pause');
  assert.ok(atPause < 60, 'the run ended before it could be paused');
  assert.equal(await page.evaluate(() => window.trainLog.done), null);

  assert.equal(await lab(page, (el) => el.shadowRoot.activeElement?.textContent), 'Resume');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => window.trainLog.done, null, { timeout: 30000 });
  assert.ok((await lastSteps(page)) >= atPause);

  const { results } = await page.evaluate(() => window.trainLog.done);
  assert.deepEqual(
    results.map((r) => r.encoding),
    ['none', 'learned', 'rope'],
  );
  for (const r of results) {
    assert.ok(r.acc1x >= 0 && r.acc1x <= 1 && Number.isFinite(r.finalLoss), JSON.stringify(r));
    if (r.encoding === 'learned') {
      assert.equal(r.acc2x, null);
      assert.equal(r.acc4x, null);
      assert.match(r.reason2x, /rows/);
    } else assert.ok(r.acc2x >= 0 && r.acc4x >= 0, JSON.stringify(r));
  }
  assert.deepEqual(await lab(page, (el) => el.results.map((r) => r.encoding)), ['none', 'learned', 'rope']);

  const table = await lab(page, (el) =>
    [...el.shadowRoot.querySelectorAll('.results tbody tr')].map((tr) =>
      [...tr.cells].map((c) => ({ text: c.textContent, title: c.querySelector('[title]')?.title ?? '' })),
    ),
  );
  assert.equal(table.length, 3);
  for (const row of table) {
    const numbers = row.slice(1).filter((c) => /^\d+(\.\d+)?$/.test(c.text));
    if (row[0].text === 'learned') {
      assert.equal(numbers.length, 2, 'learned: loss and 1x');
      for (const c of row.slice(3)) {
        assert.match(c.text, /^—/);
        assert.match(c.title, /no row past 15/);
      }
    } else assert.equal(numbers.length, 4, `${row[0].text}: ${row.map((c) => c.text)}`);
  }
  assert.match(await lab(page, (el) => el.shadowRoot.querySelector('.note').textContent), /no row past 15/);
  assert.equal(await lab(page, (el) => el.runInfo.mode), 'workers');
  // done: the mode line no longer says it is training (issue 46), the progress line says done
  const mode = await lab(page, (el) => el.shadowRoot.querySelector('.mode').textContent);
  assert.doesNotMatch(mode, /training in/i);
  assert.match(mode, /^Trained in \d background workers?\.$/);
  assert.match(await lab(page, (el) => el.shadowRoot.querySelector('.prog-text').textContent), /^done: 60 steps/);

  // the loss chart's keyboard path: End puts the cursor on the last point and
  // the readout says every encoding's loss there; the curves' table has the same numbers
  const readout = () => lab(page, (el) => el.shadowRoot.querySelector('.readout').textContent);
  await lab(page, (el) => (window.resultsTable = el.shadowRoot.querySelector('.results table')));
  await lab(page, (el) => el.shadowRoot.querySelector('canvas').focus());
  await page.keyboard.press('End');
  await page.waitForFunction(
    () => document.querySelector('train-lab').shadowRoot.querySelector('.readout').textContent,
  );
  const last = await readout();
  const m = last.match(/^steps (\d+)–60, mean loss: none (\d\.\d{3}), learned (\d\.\d{3}), RoPE (\d\.\d{3})$/);
  assert.ok(m, last);
  await page.keyboard.press('ArrowLeft');
  await page.waitForFunction(
    (was) => document.querySelector('train-lab').shadowRoot.querySelector('.readout').textContent !== was,
    last,
  );
  assert.match(await readout(), new RegExp(`^steps \\d+–${Number(m[1]) - 1}, mean loss: `));
  await page.keyboard.press('Escape');
  await page.waitForFunction(
    () => !document.querySelector('train-lab').shadowRoot.querySelector('.readout').textContent,
  );
  await page.locator('train-lab').getByText('Show the loss curves as a table').click();
  // the table is built on the toggle event, after the click
  await page.waitForFunction(
    () => document.querySelector('train-lab').shadowRoot.querySelectorAll('details.alt tbody tr').length > 0,
  );
  const curveRows = await lab(page, (el) =>
    [...el.shadowRoot.querySelectorAll('details.alt tbody tr')].map((tr) => [...tr.cells].map((c) => c.textContent)),
  );
  assert.deepEqual(curveRows.at(-1), [`${m[1]}–60`, m[2], m[3], m[4]]);
  // the results table was patched by each update, not built again
  assert.equal(await lab(page, (el) => el.shadowRoot.querySelector('.results table') === window.resultsTable), true);

  // a new setting after the run: the lab is ready again, nothing starts by itself
  await lab(page, (el) => el.setAttribute('task', 'copy'));
  await page.waitForTimeout(200);
  assert.equal(await button(page, 'Start').isEnabled(), true);
  assert.equal(await lab(page, (el) => el.results), null);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('without Worker the same lab trains on the page', async () => {
  const page = await labPage('<train-lab steps="50" encodings="rope"></train-lab>', { noWorker: true });
  await button(page, 'Start').click();
  await page.waitForFunction(() => window.trainLog.done, null, { timeout: 30000 });
  assert.match(await lab(page, (el) => el.shadowRoot.querySelector('.mode').textContent), /on the page/);
  assert.equal(await lab(page, (el) => el.runInfo.mode), 'page');
  const [r] = await lab(page, (el) => el.results);
  assert.equal(r.encoding, 'rope');
  assert.ok(r.acc1x >= 0 && r.acc4x >= 0 && Number.isFinite(r.finalLoss));
  // moved within the page (a course page's tabs do this): it comes back ready, no error, and its
  // chart follows a new width again (its size observer was released on leaving and started again)
  await lab(page, (el) => {
    const home = el.parentNode;
    el.remove();
    home.append(el);
  });
  await page.locator('train-lab').evaluate((el) => (el.style.width = '500px'));
  await page.waitForFunction(() => {
    const el = document.querySelector('train-lab');
    const wrap = el.shadowRoot.querySelector('.chart-wrap');
    const drawn = el.shadowRoot.querySelector('canvas').width / devicePixelRatio; // the backing store's width
    return wrap.clientWidth <= 500 && Math.abs(drawn - wrap.clientWidth) < 2;
  });
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('in an embed under a strict CSP the lab trains in workers, and shows exactly what the core computes', async () => {
  await withServer({ headers: { 'Content-Security-Policy': STRICT_CSP } }, async (strict) => {
    const page = await newPage(site.browser, { viewport: { width: 900, height: 1000 } });
    page.violations = [];
    await page.exposeFunction('reportViolation', (v) => page.violations.push(v));
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) =>
        window.reportViolation(`${e.violatedDirective}: ${e.blockedURI}`),
      );
    });
    await page.goto(`${strict.url}/embed.html?widget=train-lab&task=shift&encodings=rope,learned&steps=100`);
    await page.waitForSelector('train-lab[data-ready]');
    await page.evaluate(() => {
      window.trainDone = null;
      document.querySelector('train-lab').addEventListener('train-lab-done', (e) => (window.trainDone = e.detail));
    });
    await button(page, 'Start').click();
    await page.waitForFunction(() => window.trainDone, null, { timeout: 60000 });
    assert.equal(await lab(page, (el) => el.runInfo.mode), 'workers');
    const shown = await page.evaluate(() => window.trainDone.results);

    // the same training through the JS API, in this process: the same numbers, bit for bit
    const { loadPosenc } = await import('../../web/posenc.js');
    const pe = await loadPosenc({ simd: true, trainer: true });
    for (const encoding of ['rope', 'learned']) {
      const t = pe.createTrainer({ task: 'shift', encoding });
      t.step(100);
      const r = shown.find((x) => x.encoding === encoding);
      assert.equal(r.acc1x, t.evaluate(16, 256), encoding);
      if (encoding === 'rope') {
        assert.equal(r.acc2x, t.evaluate(32, 256));
        assert.equal(r.acc4x, t.evaluate(64, 256));
      } else assert.equal(r.acc2x, null);
      t.delete();
    }
    assert.deepEqual(page.violations, []);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
});

test('task text: trains a language model on the lesson text, retraces the recorded seed, and explains a missing corpus', async () => {
  const { default: LM } = await import('../../web/data/lm-results.js');
  const { TEXT } = await import('../../web/lib/training/train-session.js');
  const seed = LM.seeds[0];
  const page = await labPage(
    `<train-lab task="text" steps="${TEXT.evalEvery}" lr="${TEXT.lr}" train-len="${TEXT.trainLen}" seed="${seed}" encodings="rope"></train-lab>`,
  );
  // before any run: the recorded column is in the table, the recorded runs in the chart's label
  const caption = await lab(page, (el) => el.shadowRoot.querySelector('.results caption').textContent);
  assert.match(caption, /Validation loss \(nats per character; a uniform guess: 4\.16\)/);
  assert.match(
    await lab(page, (el) => el.shadowRoot.querySelector('canvas').getAttribute('aria-label')),
    /Shaded: the recorded runs, seeds/,
  );
  await button(page, 'Start').click();
  await page.waitForFunction(() => window.trainLog.done, null, { timeout: 60000 });
  const [r] = (await page.evaluate(() => window.trainLog.done)).results;
  assert.equal(r.encoding, 'rope');
  // the same numbers as the recorded run of this seed (and as Node), to 1e-4
  assert.ok(
    Math.abs(r.val[0] - LM.results.rope.seeds[0].curve[0]) < 1e-4,
    `${r.val[0]} vs ${LM.results.rope.seeds[0].curve[0]}`,
  );
  for (const m of ['1x', '2x', '4x']) assert.ok(r[`loss${m}`] > 0 && r[`loss${m}`] < 5, JSON.stringify(r));
  const cells = await lab(page, (el) =>
    [...el.shadowRoot.querySelectorAll('.results tbody tr[data-encoding] td')].map((c) => c.textContent),
  );
  assert.equal(cells.length, 4); // 1x, 2x, 4x, recorded
  assert.equal(cells[0], r.loss1x.toFixed(3));
  assert.match(cells[3], /^\d\.\d{3} \(\d\.\d{3}–\d\.\d{3}\)$/);
  // the n-gram baselines of the lesson's text: reference rows after the encodings, lines in the chart (issue 46)
  const { default: BASE } = await import('../../web/data/lm-baselines.js');
  const reference = await lab(page, (el) =>
    [...el.shadowRoot.querySelectorAll('.results tbody tr.reference')].map((tr) =>
      [...tr.cells].map((c) => c.textContent),
    ),
  );
  assert.deepEqual(
    reference.map((row) => row[0].split(' ')[0]),
    ['1-gram', '2-gram', '3-gram', '4-gram'],
  );
  assert.deepEqual(
    reference[3].slice(1, 4),
    BASE.baselines['4-gram'].map((x) => x.toFixed(3)),
  );
  assert.match(
    await lab(page, (el) => el.shadowRoot.querySelector('canvas').getAttribute('aria-label')),
    new RegExp(
      `Dashed: n-gram baselines, 1-gram ${BASE.baselines['1-gram'][0].toFixed(2)}, .*4-gram ${BASE.baselines['4-gram'][0].toFixed(2)}\\.`,
    ),
  );

  // a corpus that is not there: a clear message, and the lab starts again once it is fixed
  await lab(page, (el) => el.setAttribute('corpus', '/no/such/corpus.txt'));
  await button(page, 'Start').click();
  await page.waitForFunction(() =>
    /could not be loaded from .*no\/such\/corpus\.txt: HTTP 404/.test(
      document.querySelector('train-lab').shadowRoot.querySelector('.error').textContent,
    ),
  );
  await page.evaluate(() => (window.trainLog.done = null));
  await lab(page, (el) => el.removeAttribute('corpus'));
  await button(page, 'Start').click();
  await page.waitForFunction(() => window.trainLog.done, null, { timeout: 60000 });
  await page.close();
});
