// Reliability in real Chromium: a long session of parameter changes with
// bounded memory, hostile postMessage traffic to an embed, and corrupted or
// foreign quiz progress in localStorage.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createStaticServer, listenLocal } from '../../scripts/run/serve.mjs';
import { startServer, launch, newPage, renderAllWidgets } from './harness.mjs';
import { tags } from './widget-tags.mjs';

const CHANGES = 10000;
const WARM_UP = 2000;
// The bounds (docs/api.md, "Limits"), from change WARM_UP to the end, measured
// after a full garbage collection: what the wasm allocator holds besides the
// grow-only scratch area and the widgets' HeapArrays may grow by at most
// 256 KiB, the JS heap by at most 4 MiB; the number of live HeapArrays does
// not grow (a widget keeps its buffers, grown to the largest size it has been
// asked for, and frees them when it leaves the page); the scratch area stays
// under 16 MiB and the wasm heap under 64 MiB; no JS handle stays held by the
// C++ side.
const WASM_ALLOCATED_SLACK = 256 << 10;
const SCRATCH_CAP = 16 << 20;
const JS_HEAP_SLACK = 4 << 20;
const WASM_HEAP_CAP = 64 << 20;

let browser;
let site;

before(async () => {
  browser = await launch();
  site = await startServer();
});
after(async () => {
  await browser?.close();
  site?.server.close();
});

// Runs `count` parameter changes in the page, starting at change `start`:
// each picks a widget instance and one of its numeric, boolean or enum
// parameters and sets a value drawn from a small fixed set per parameter
// (its minimum, its default, a value a quarter of the way up, and now and
// then an invalid one), then waits for the widget's update. Deterministic.
const drive = (page, start, count) => page.evaluate(([s, c]) => globalThis.posencDrive(s, c), [start, count]);

async function installDriver(page) {
  await page.evaluate(() => {
    const instances = [...document.querySelectorAll('*')].filter(
      (el) =>
        el.localName.includes('-') &&
        el.constructor.params &&
        Object.keys(el.constructor.params).length &&
        typeof el.updateNow === 'function',
    );
    const plans = instances.map((el) => {
      const params = Object.entries(el.constructor.params).filter(([, s]) =>
        ['int', 'float', 'bool', 'enum'].includes(s.type),
      );
      return params.map(([name, s]) => {
        if (s.type === 'bool') return { name, values: ['true', 'false'] };
        if (s.type === 'enum') return { name, values: s.options };
        const lo = s.min ?? 0;
        const hi = s.max ?? lo + 100;
        let quarter = lo + (Math.min(hi, lo + 4096) - lo) / 4;
        if (s.type === 'int') quarter = Math.round(quarter);
        if (s.even) quarter -= quarter % 2;
        const values = [String(lo), String(s.default), String(quarter)].filter((v) => v !== 'undefined');
        return { name, values };
      });
    });
    const hash = (i) => {
      let x = Math.imul(i ^ 0x9e3779b9, 0x85ebca6b);
      x ^= x >>> 13;
      x = Math.imul(x, 0xc2b2ae35);
      return (x ^ (x >>> 16)) >>> 0;
    };
    globalThis.posencInstances = instances.length;
    globalThis.posencDrive = async (start, count) => {
      let errors = 0;
      for (let i = start; i < start + count; i++) {
        const h = hash(i);
        const k = h % instances.length;
        const plan = plans[k];
        if (!plan.length) continue;
        const p = plan[(h >>> 8) % plan.length];
        const invalid = (h >>> 20) % 50 === 0;
        const value = invalid ? ['abc', '-3', '1e9', ''][(h >>> 26) % 4] : p.values[(h >>> 14) % p.values.length];
        instances[k].setAttribute(p.name, value);
        await instances[k].updateNow();
        if (instances[k].hasAttribute('data-invalid')) errors++;
      }
      return errors;
    };
  });
  return page.evaluate(() => globalThis.posencInstances);
}

async function memory(page, cdp) {
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = await cdp.send('Runtime.getHeapUsage');
  const wasm = await page.evaluate(async () => {
    const { loadPosenc } = await import('./posenc.js');
    return (await loadPosenc()).memoryStats();
  });
  return { jsHeap: usedSize, ...wasm };
}

test(`a long session: ${CHANGES} parameter changes across the lesson's widgets keep memory bounded`, async () => {
  const page = await newPage(browser, { viewport: { width: 1280, height: 900 } });
  await page.goto(`${site.url}/index.html`);
  await renderAllWidgets(
    page,
    tags.filter((t) => t !== 'pe-quiz-score'),
  );
  const cdp = await page.context().newCDPSession(page);
  const instances = await installDriver(page);
  assert.ok(instances > 50, `only ${instances} widget instances`);

  const samples = [];
  let invalid = 0;
  invalid += await drive(page, 0, WARM_UP);
  const base = await memory(page, cdp);
  samples.push({ changes: WARM_UP, ...base });
  for (let done = WARM_UP; done < CHANGES; done += 2000) {
    invalid += await drive(page, done, 2000);
    samples.push({ changes: done + 2000, ...(await memory(page, cdp)) });
  }
  const last = samples.at(-1);
  const mib = (b) => `${(b / 2 ** 20).toFixed(2)} MiB`;
  console.log(
    `# long session over ${instances} widget instances (${invalid} changes left a widget showing an invalid-value message):`,
  );
  for (const s of samples) {
    console.log(
      `#   after ${s.changes} changes: JS heap ${mib(s.jsHeap)}, wasm heap ${mib(s.wasmBytes)}, wasm allocated ${mib(s.allocatedBytes)} (scratch ${mib(s.scratchBytes)}, ${s.heapArrays} HeapArrays ${mib(s.heapArrayBytes)}), JS handles held by C++ ${s.jsHandles}`,
    );
  }
  const held = (m) => m.allocatedBytes - m.scratchBytes - m.heapArrayBytes;
  assert.ok(
    held(last) - held(base) <= WASM_ALLOCATED_SLACK,
    `wasm allocations besides the scratch area and HeapArrays grew ${held(base)} -> ${held(last)} bytes`,
  );
  assert.ok(last.heapArrays <= base.heapArrays, `live HeapArrays grew from ${base.heapArrays} to ${last.heapArrays}`);
  assert.ok(
    samples.every((s) => s.scratchBytes <= SCRATCH_CAP),
    'the scratch area went past 16 MiB',
  );
  assert.ok(last.jsHeap - base.jsHeap <= JS_HEAP_SLACK, `JS heap grew ${mib(base.jsHeap)} -> ${mib(last.jsHeap)}`);
  assert.ok(
    samples.every((s) => s.wasmBytes <= WASM_HEAP_CAP),
    'the wasm heap went past 64 MiB',
  );
  assert.ok(
    samples.every((s) => s.jsHandles === 0),
    'JS handles left held by the C++ side',
  );
  // still right after it all
  const row1 = await page.evaluate(async () => {
    const { loadPosenc } = await import('./posenc.js');
    return [...(await loadPosenc()).sinusoidal(2, 4).slice(4)].map((x) => x.toFixed(3));
  });
  assert.deepEqual(row1, ['0.841', '0.540', '0.010', '1.000']);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('hostile postMessage traffic to an embed is ignored or shown as text; valid messages still work', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'posenc-hostile-'));
  const parent = createStaticServer(dir);
  const parentUrl = await listenLocal(parent);
  try {
    const frame = (q) => `${site.url}/embed.html?widget=pe-heatmap&${q}`;
    writeFileSync(
      path.join(dir, 'parent.html'),
      `<!doctype html><meta charset="utf-8"><title>parent</title><link rel="icon" href="data:,">
<iframe id="open" src="${frame('max-len=8&d-model=8')}" width="600" height="400"></iframe>
<iframe id="pinned" src="${frame(`max-len=8&d-model=8&origin=${encodeURIComponent('https://lms.example.org')}`)}" width="600" height="400"></iframe>
<script>window.got = []; addEventListener('message', (e) => window.got.push({ from: e.source === document.getElementById('open').contentWindow ? 'open' : 'pinned', data: e.data }));</script>`,
    );
    const page = await newPage(browser, { viewport: { width: 1300, height: 900 } });
    await page.goto(`${parentUrl}/parent.html`);
    const open = page.frameLocator('#open').locator('pe-heatmap');
    await open.waitFor({ state: 'attached' });
    await page.frameLocator('#open').locator('pe-heatmap[data-ready]').waitFor({ state: 'attached' });
    const payload = '<img src=x onerror="top.pwned=1;window.pwned=1">';
    await page.evaluate((payload) => {
      const w = document.getElementById('open').contentWindow;
      const hostile = [
        null,
        42,
        'posenc:set',
        [1, 2],
        new Date(0),
        new Uint8Array(8),
        { type: 'posenc:set' },
        { type: 'posenc:set', params: 'max-len=9' },
        { type: 'posenc:set', params: ['max-len', '9'] },
        { type: 'posenc:set', params: { 'max-len': { toString: 'x' } } },
        { type: 'posenc:set', params: { [payload]: '4' } },
        { type: 'posenc:set', params: { 'd-model': payload } },
        { type: 'posenc:set', params: { base: 'x'.repeat(1 << 20) } },
        { type: 'posenc:set', params: Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`p${i}`, i])) },
        { type: 'posenc:set', params: { __proto__: { 'max-len': '3' } } },
        { type: 'posenc:get-height', extra: payload },
        { context: 'h5p', action: payload },
        { type: payload },
      ];
      for (const m of hostile) w.postMessage(m, '*');
    }, payload);
    await page.waitForTimeout(300);
    const state = await page
      .frameLocator('#open')
      .locator('pe-heatmap')
      .evaluate((n) => ({
        d: n.getAttribute('d-model'),
        base: n.getAttribute('base'),
        maxLen: n.getAttribute('max-len'),
        error: n.shadowRoot.querySelector('.error')?.textContent ?? '',
        imgs: n.shadowRoot.querySelectorAll('img').length + document.querySelectorAll('img').length,
        pwned: window.pwned ?? null,
      }));
    // the HTML payload became attribute text, refused with a message as text; no element was made
    assert.equal(state.d, payload);
    assert.match(state.error, /d-model must be an even integer/);
    assert.equal(state.imgs, 0);
    assert.equal(state.pwned, null);
    assert.ok(state.base === null || state.base.length <= 500, 'a long value is cut before it reaches the widget');
    assert.equal(state.maxLen, '8', 'inherited or malformed params were applied');
    // a valid message afterwards works
    await page.evaluate(() =>
      document
        .getElementById('open')
        .contentWindow.postMessage({ type: 'posenc:set', params: { 'd-model': 16, base: 500, 'max-len': 12 } }, '*'),
    );
    await page.frameLocator('#open').locator('pe-heatmap:not([data-invalid])').waitFor({ state: 'attached' });
    const fixed = await page
      .frameLocator('#open')
      .locator('pe-heatmap')
      .evaluate((n) => [
        n.getAttribute('d-model'),
        n.getAttribute('max-len'),
        n.shadowRoot.querySelector('.error')?.textContent ?? '',
      ]);
    assert.deepEqual(fixed, ['16', '12', '']);

    // the pinned embed (origin=https://lms.example.org) takes nothing from this parent and tells it nothing
    await page.frameLocator('#pinned').locator('pe-heatmap').waitFor({ state: 'attached' });
    await page.evaluate(() =>
      document
        .getElementById('pinned')
        .contentWindow.postMessage({ type: 'posenc:set', params: { 'd-model': 32 } }, '*'),
    );
    await page.evaluate(() =>
      document.getElementById('pinned').contentWindow.postMessage({ type: 'posenc:get-height' }, '*'),
    );
    await page.waitForTimeout(300);
    assert.equal(
      await page
        .frameLocator('#pinned')
        .locator('pe-heatmap')
        .evaluate((n) => n.getAttribute('d-model')),
      '8',
    );
    const got = await page.evaluate(() => window.got);
    assert.ok(
      got.some((m) => m.from === 'open' && m.data.type === 'posenc:resize'),
      'the open embed reports its height',
    );
    assert.ok(!got.some((m) => m.from === 'pinned'), 'the pinned embed posted to a parent of another origin');
    assert.equal(await page.evaluate(() => window.pwned ?? null), null);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  } finally {
    parent.close();
  }
});

test('corrupted or foreign quiz progress in localStorage is discarded and the page works', async () => {
  // a quiz and the score on the widgets' development page: the same progress
  // code as the lesson's, at a fraction of the lesson's load time per reload
  const page = await newPage(browser, { viewport: { width: 1280, height: 900 } });
  const quizId = 'sinusoidal-fastest-pair';
  const open = async () => {
    await page.evaluate(async (id) => {
      await Promise.all([import('/widgets/pe-quiz.js'), import('/widgets/pe-quiz-score.js')]);
      const { registerLessonLoader } = await import('/lib/lesson/lesson-registry.js');
      registerLessonLoader(() => import('/gen/lesson-data.js'));
      document.body.insertAdjacentHTML('beforeend', `<pe-quiz quiz="${id}"></pe-quiz><pe-quiz-score></pe-quiz-score>`);
    }, quizId);
    await renderAllWidgets(page, ['pe-quiz', 'pe-quiz-score']);
  };
  await page.goto(`${site.url}/widgets/dev.html`);
  const key = await page.evaluate(async () => (await import('/lib/reporting/progress.js')).progressKey);
  const options = await page.evaluate(
    async (id) => (await import('/gen/lesson-data.js')).quizzes[id].options.length,
    quizId,
  );
  const corrupt = [
    '{',
    'null',
    '[]',
    '"text"',
    '42',
    '{"__proto__": {"correct": true}}',
    JSON.stringify({ [quizId]: { correct: 'yes', solutionShown: false, attempts: 1, response: [0] } }),
    JSON.stringify({ [quizId]: { correct: true, solutionShown: false, attempts: -1, response: [0] } }),
    JSON.stringify({ [quizId]: { correct: true, solutionShown: false, attempts: 1, response: [options + 5] } }),
    JSON.stringify({ [quizId]: { correct: true, solutionShown: false, attempts: 1, response: Array(5000).fill(0) } }),
    JSON.stringify({
      '<img src=x onerror=window.pwned=1>': { correct: true, solutionShown: false, attempts: 1, response: [0] },
    }),
    JSON.stringify({ 'not-a-quiz': { correct: true, solutionShown: true, attempts: 3, response: [1] } }),
    'x'.repeat(1 << 20),
  ];
  for (const value of corrupt) {
    await page.evaluate(([k, v]) => localStorage.setItem(k, v), [key, value]);
    await page.reload();
    await open();
    const quiz = page.locator(`pe-quiz[quiz="${quizId}"]`);
    const state = await quiz.evaluate((n) => ({
      checked: [...n.shadowRoot.querySelectorAll('input')].filter((i) => i.checked).length,
      inputs: n.shadowRoot.querySelectorAll('input').length,
      error: n.shadowRoot.querySelector('.error')?.textContent ?? '',
    }));
    assert.equal(state.inputs, options, `after ${value.slice(0, 60)}`);
    assert.equal(state.error, '', `after ${value.slice(0, 60)}`);
    assert.equal(await page.evaluate(() => window.pwned ?? null), null);
    // the quiz still answers and stores a clean entry
    await quiz.locator('input').first().check();
    await quiz.getByRole('button', { name: 'Check' }).click();
    const stored = await page.evaluate((k) => JSON.parse(localStorage.getItem(k)), key);
    assert.equal(typeof stored[quizId].correct, 'boolean', `after ${value.slice(0, 60)}`);
    assert.ok(!('not-a-quiz' in stored) || typeof stored['not-a-quiz'].correct === 'boolean');
    assert.ok(!Object.keys(stored).some((id) => id.includes('<')), 'a foreign key survived');
  }
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('progress of quizzes the lesson no longer has is removed on load and not counted', async () => {
  const page = await newPage(browser, { viewport: { width: 1280, height: 900 } });
  await page.goto(`${site.url}/index.html`);
  const key = await page.evaluate(async () => (await import('./lib/reporting/progress.js')).progressKey);
  const { quizId, total } = await page.evaluate(async () => {
    const { quizzes, questionIds } = await import('./gen/lesson-data.js');
    return { quizId: Object.keys(quizzes).find((id) => !quizzes[id].generator), total: questionIds.length };
  });
  const entry = { correct: true, solutionShown: false, attempts: 1, response: [0] };
  const stored = { [quizId]: entry, 'a-quiz-that-was-removed': entry, 'renamed-since': { ...entry, attempts: 4 } };
  await page.evaluate(([k, v]) => localStorage.setItem(k, v), [key, JSON.stringify(stored)]);
  await page.reload();
  await renderAllWidgets(page, ['pe-quiz-score']);
  const score = await page.locator('pe-quiz-score').evaluate((n) => n.shadowRoot.querySelector('.text').textContent);
  assert.equal(score, `Score: 1 of ${total} points (1 of ${total} questions answered)`);
  // kept, in today's shape: an entry from before credit existed reads as credit 1, no misses
  assert.deepEqual(await page.evaluate((k) => JSON.parse(localStorage.getItem(k)), key), {
    [quizId]: { ...entry, credit: 1, misses: 0 },
  });
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
