// Runs <train-lab> headless in Chromium and prints its results as a markdown
// table: token accuracy at 1x/2x/4x the train length and the final loss per
// encoding, the wall time, the time per step, and when each encoding first
// reached 99% at 1x (from the lab's evaluations every 200 steps).
//   node scripts/record/train-lab-run.mjs [--task reverse] [--steps 1500] [--encodings none,rope]
//        [--workers N] [--seed 1] [--no-worker] [--shot out.png]
// --workers caps the pool (to compare 1 and 2 workers); --no-worker measures
// the on-page fallback. --lr and --train-len set the lab's attributes (the
// lesson's text lab: --task text --steps 1200 --lr 0.003 --train-len 64);
// --throttle N slows the page's CPU N times through the DevTools protocol
// (Emulation.setCPUThrottlingRate): a stand-in for a slower device, not a
// measurement of one. It reaches the page's main thread only, not its
// workers (a worker's busy loop ran as fast at rate 4 as at 1; the page's
// took 4.5 times as long), so pair it with --no-worker.
import { parseArgs } from 'node:util';
import { createStaticServer } from '../run/serve.mjs';
import { launchChromium } from '../run/chromium.mjs';

const { values: args } = parseArgs({
  options: {
    task: { type: 'string', default: 'reverse' },
    steps: { type: 'string', default: '1500' },
    encodings: { type: 'string', default: 'none,sinusoidal,learned,rope,alibi,t5' },
    seed: { type: 'string', default: '1' },
    workers: { type: 'string', default: '3' },
    lr: { type: 'string' },
    'train-len': { type: 'string' },
    throttle: { type: 'string', default: '1' },
    'no-worker': { type: 'boolean', default: false },
    shot: { type: 'string' },
  },
});

const server = createStaticServer();
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: 1000, height: 1100 } });
  const errors = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(String(e)));
  if (args['no-worker']) await page.addInitScript(() => delete window.Worker);
  if (Number(args.throttle) > 1 && !args['no-worker'])
    console.warn('--throttle slows the page, not its workers: add --no-worker to throttle the training');
  if (Number(args.throttle) > 1) {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: Number(args.throttle) });
  }
  await page.goto(`http://127.0.0.1:${server.address().port}/widgets/dev.html`);
  const out = await page.evaluate(
    async ({ task, steps, encodings, seed, workers, lr, trainLen }) => {
      await import('/widgets/train-lab.js');
      const el = document.createElement('train-lab');
      for (const [k, v] of Object.entries({ task, steps, encodings, seed, lr, 'train-len': trainLen }))
        if (v !== undefined) el.setAttribute(k, v);
      document.body.append(el);
      el.maxWorkers = Number(workers);
      await new Promise((r) =>
        el.hasAttribute('data-ready') ? r() : el.addEventListener('pe-update', r, { once: true }),
      );
      const invalid = el.shadowRoot.querySelector('.error').textContent;
      if (invalid) throw new Error(invalid);
      const done = new Promise((r) =>
        el.addEventListener('train-lab-done', (e) => r(e.detail.results), { once: true }),
      );
      const t0 = performance.now();
      el.shadowRoot.querySelector('button.primary').click();
      const results = await done;
      return {
        results,
        runInfo: el.runInfo,
        totalMs: performance.now() - t0,
        mode: el.shadowRoot.querySelector('.mode').textContent,
      };
    },
    { ...args, workers: args.workers, trainLen: args['train-len'] },
  );
  if (args.shot) {
    await page.waitForTimeout(200);
    await page.locator('train-lab').screenshot({ path: args.shot });
  }
  const pct = (x) => (x === null ? '—' : (100 * x).toFixed(1));
  const L = Number(args['train-len'] ?? 16);
  const { runInfo } = out;
  console.log(
    `task ${args.task}, ${args.steps} steps per encoding, seed ${args.seed}${Number(args.throttle) > 1 ? `, CPU throttled ${args.throttle}x` : ''}; ${out.mode} (SIMD: ${runInfo.simd})\n`,
  );
  if (args.task === 'text') {
    // the validation loss (nats per character) at 1, 2, 4 x the training length
    const f = (x) => (x === null ? '—' : x.toFixed(4));
    console.log(`| encoding | ${L} (1x) | ${2 * L} (2x) | ${4 * L} (4x) |`);
    console.log('|---|---:|---:|---:|');
    for (const r of out.results) console.log(`| ${r.encoding} | ${f(r.loss1x)} | ${f(r.loss2x)} | ${f(r.loss4x)} |`);
  } else {
    console.log(`| encoding | ${L} (1x) | ${2 * L} (2x) | ${4 * L} (4x) | final loss | 1x ≥ 99% at |`);
    console.log('|---|---:|---:|---:|---:|---|');
  }
  for (const r of args.task === 'text' ? [] : out.results) {
    const solved = r.solved ? `step ${r.solved.step} (${(r.solved.ms / 1000).toFixed(1)} s)` : 'never';
    const why = r.acc2x === null ? ` (${r.reason2x?.match(/has \d+ rows/)?.[0] ?? 'n/a'})` : '';
    console.log(
      `| ${r.encoding} | ${pct(r.acc1x)} | ${pct(r.acc2x)}${why} | ${pct(r.acc4x)} | ${r.finalLoss.toFixed(3)} | ${solved} |`,
    );
  }
  const totalSteps = Number(args.steps) * out.results.length;
  console.log(
    `\nwall time ${(runInfo.wallMs / 1000).toFixed(1)} s (+ ${(runInfo.loadMs / 1000).toFixed(1)} s loading the trainer), ${out.results.length} encodings x ${args.steps} steps`,
  );
  console.log(
    `ms per step, per worker: ${runInfo.msPerStep.map((x) => x.toFixed(1)).join(', ')}; effective (wall / all steps, incl. evaluations): ${(runInfo.wallMs / totalSteps).toFixed(1)}`,
  );
  console.log(
    '("1x ≥ 99% at": the first of the evaluations every 200 steps at or above 99%, with the training time of that worker until then)',
  );
  if (errors.length) console.log(`\nconsole errors:\n${errors.join('\n')}`);
} finally {
  await browser.close();
  server.close();
}
