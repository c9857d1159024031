// The two widgets that compute off the page's thread, in headless Chromium
// (SIMD build), at full speed and with the CPU throttled 4x (the phone
// profile's Emulation.setCPUThrottlingRate, as bench-widgets.mjs):
// - <train-lab>: one run of `steps` steps for three encodings (none,
//   learned, rope; the lab's digit task), in background workers and on the
//   page (Worker removed, the lab's fallback): the run's wall time, and what
//   the page's own thread went through meanwhile: its longest task, its
//   total blocking time (each `longtask` entry's time beyond 50 ms) and the
//   95th percentile of the interval between animation frames.
// - <pe-code-exercise> (sinusoidal-code-row, its worked solution): ms from
//   the press to the result for Run on a fresh page (Pyodide and the
//   learner's code loaded in the worker: the cold start), Run again, and
//   Check (every case compared with the core); and the page thread's longest
//   task and blocking time during the cold Run.
// Each figure is the median over `rounds` rounds (a fresh page each).
// DevTools' CPU throttling slows the page's thread, not its workers: at 4x a
// run in workers trains at the machine's speed, and its row says what a
// phone's page thread would feel meanwhile, not how long a phone trains.
//   node scripts/bench/bench-labs.mjs [--quick] [--rounds=N]   prints the table alone
import { pathToFileURL } from 'node:url';
import { createStaticServer } from '../run/serve.mjs';
import { launchChromium } from '../run/chromium.mjs';
import { median } from '../../web/bench/runner.js';

const ENCODINGS = 'none,learned,rope';
const EXERCISE = 'sinusoidal-code-row';

// The page's thread, watched from before the first byte: long tasks and
// animation frames, and window.__threadBetween(t0, t1) to read them.
function watchThread() {
  window.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__longTasks.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: 'longtask', buffered: true });
  window.__frames = [];
  const frame = (t) => {
    window.__frames.push(t);
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  // What the thread went through between t0 and t1 (page clock, ms).
  window.__threadBetween = (t0, t1) => {
    const tasks = window.__longTasks.filter((e) => e.start + e.duration > t0 && e.start < t1);
    const frames = window.__frames.filter((t) => t >= t0 && t <= t1);
    const gaps = frames.slice(1).map((t, i) => t - frames[i]);
    gaps.sort((a, b) => a - b);
    return {
      longest: Math.max(0, ...tasks.map((e) => e.duration)),
      blocking: tasks.reduce((s, e) => s + Math.max(0, e.duration - 50), 0),
      frameP95: gaps.length ? gaps[Math.min(gaps.length - 1, Math.floor(0.95 * gaps.length))] : null,
    };
  };
}

async function newPage(browser, cpu, { noWorker = false } = {}) {
  const page = await browser.newPage({ viewport: { width: 1000, height: 900 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.errors = errors;
  if (cpu !== 1) await (await page.context().newCDPSession(page)).send('Emulation.setCPUThrottlingRate', { rate: cpu });
  await page.addInitScript(watchThread);
  if (noWorker) await page.addInitScript(() => delete window.Worker);
  return page;
}

async function trainRun(browser, url, { cpu, steps, noWorker }) {
  const page = await newPage(browser, cpu, { noWorker });
  try {
    await page.goto(`${url}/widgets/dev.html`);
    await page.evaluate(
      async ([steps, encodings]) => {
        await import('/widgets/train-lab.js');
        document.body.insertAdjacentHTML(
          'beforeend',
          `<train-lab steps="${steps}" encodings="${encodings}"></train-lab>`,
        );
      },
      [steps, ENCODINGS],
    );
    await page.waitForSelector('train-lab[data-ready]');
    const figures = await page.evaluate(async () => {
      const el = document.querySelector('train-lab');
      const done = Promise.race([
        new Promise((resolve) => el.addEventListener('train-lab-done', (e) => resolve(e.detail))),
        new Promise((_, reject) =>
          setTimeout(() => reject(new Error('train-lab: no train-lab-done within 300 s')), 300_000),
        ),
      ]);
      const start = [...el.shadowRoot.querySelectorAll('button')].find((b) => b.textContent === 'Start');
      const t0 = performance.now();
      start.click();
      const detail = await done;
      const t1 = performance.now();
      const thread = window.__threadBetween(t0, t1);
      return {
        wallMs: t1 - t0,
        mode: el.runInfo?.mode ?? null,
        workers: el.runInfo?.workers ?? 0,
        ...thread,
        detail: !!detail,
      };
    });
    if (page.errors.length) throw new Error(`train-lab: ${page.errors.join('; ')}`);
    const wanted = noWorker ? 'page' : 'workers';
    if (figures.mode !== wanted) throw new Error(`train-lab trained in ${figures.mode}, not ${wanted}`);
    return figures;
  } finally {
    await page.context().close();
  }
}

async function codeRun(browser, url, { cpu }) {
  const page = await newPage(browser, cpu);
  try {
    await page.goto(`${url}/embed.html?widget=pe-code-exercise&exercise=${EXERCISE}`);
    await page.waitForSelector('pe-code-exercise[data-ready]');
    const figures = await page.evaluate(async (id) => {
      const data = (await import('/gen/lesson-data.js')).codeExercises[id];
      const { composeCode } = await import('/lib/python/code-check.js');
      const el = document.querySelector('pe-code-exercise');
      // the editor arrives a moment after the widget
      for (let i = 0; i < 200 && !el.shadowRoot.querySelector('.cm-editor'); i++)
        await new Promise((r) => setTimeout(r, 50));
      el.setCode(composeCode(data, data.solution));
      const press = async (name) => {
        const button = [...el.shadowRoot.querySelectorAll('button')].find((b) => b.textContent === name);
        const t0 = performance.now();
        button.click();
        await el.pending;
        return [t0, performance.now()];
      };
      const [c0, c1] = await press('Run');
      const cold = { ms: c1 - c0, ...window.__threadBetween(c0, c1) };
      const [w0, w1] = await press('Run');
      const [k0, k1] = await press('Check');
      return {
        cold,
        warmMs: w1 - w0,
        checkMs: k1 - k0,
        result: el.shadowRoot.querySelector('.result').textContent,
      };
    }, EXERCISE);
    if (page.errors.length) throw new Error(`pe-code-exercise: ${page.errors.join('; ')}`);
    if (!/^Correct/.test(figures.result))
      throw new Error(`pe-code-exercise: the worked solution was not judged right: ${figures.result}`);
    return figures;
  } finally {
    await page.context().close();
  }
}

/**
 * Runs both labs `rounds` times at CPU 1x and 4x (quick: one round at 1x,
 * a 50-step run): { browser, rows: [{ what, cpu, ...medians }] }.
 */
export async function benchLabs({ quick = false, rounds = quick ? 1 : 3, onProgress = () => {} } = {}) {
  const server = createStaticServer(process.env.BENCH_WEB || undefined);
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${server.address().port}`;
  const browser = await launchChromium();
  const steps = quick ? 50 : 300; // 50: the fewest the lab takes
  const rows = [];
  try {
    for (const cpu of quick ? [1] : [1, 4]) {
      for (const noWorker of [false, true]) {
        const runs = [];
        for (let r = 0; r < rounds; r++) {
          onProgress(`train-lab, ${noWorker ? 'on the page' : 'in workers'}, CPU ${cpu}x, round ${r + 1}`);
          runs.push(await trainRun(browser, url, { cpu, steps, noWorker }));
        }
        rows.push({
          key: noWorker ? 'train-lab on the page' : 'train-lab in workers',
          what: `<train-lab> ${steps} steps x 3 encodings, ${noWorker ? 'on the page' : `in ${runs[0].workers} workers`}`,
          cpu,
          wallS: median(runs.map((x) => x.wallMs)) / 1000,
          longest: median(runs.map((x) => x.longest)),
          blocking: median(runs.map((x) => x.blocking)),
          frameP95: median(runs.map((x) => x.frameP95 ?? NaN)),
        });
      }
      const runs = [];
      for (let r = 0; r < rounds; r++) {
        onProgress(`pe-code-exercise, CPU ${cpu}x, round ${r + 1}`);
        runs.push(await codeRun(browser, url, { cpu }));
      }
      rows.push({
        key: 'pe-code-exercise',
        what: `<pe-code-exercise> ${EXERCISE}`,
        cpu,
        coldS: median(runs.map((x) => x.cold.ms)) / 1000,
        warmMs: median(runs.map((x) => x.warmMs)),
        checkMs: median(runs.map((x) => x.checkMs)),
        longest: median(runs.map((x) => x.cold.longest)),
        blocking: median(runs.map((x) => x.cold.blocking)),
        frameP95: median(runs.map((x) => x.cold.frameP95 ?? NaN)),
      });
    }
    return { browser: browser.version(), steps, rounds, rows };
  } finally {
    await browser.close();
    server.close();
  }
}

const f0 = (x) => (Number.isFinite(x) ? x.toFixed(0) : '-');
const f1 = (x) => (Number.isFinite(x) ? x.toFixed(1) : '-');
const f2 = (x) => (Number.isFinite(x) ? x.toFixed(2) : '-');

/** The figures as a Markdown table. */
export function labsTable({ rows }) {
  const out = [
    '| lab | CPU | time (s) | page thread: longest task (ms) | total blocking (ms) | frame interval p95 (ms) |',
    '|---|---:|---|---:|---:|---:|',
  ];
  for (const r of rows) {
    const time =
      r.wallS !== undefined
        ? `run ${f1(r.wallS)}`
        : `Run cold ${f2(r.coldS)}; Run warm ${f0(r.warmMs)} ms; Check ${f0(r.checkMs)} ms`;
    out.push(`| ${r.what} | ${r.cpu}x | ${time} | ${f1(r.longest)} | ${f1(r.blocking)} | ${f1(r.frameP95)} |`);
  }
  return out.join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const quick = process.argv.includes('--quick');
  const roundsArg = process.argv.find((a) => a.startsWith('--rounds='));
  const rounds = roundsArg ? Number(roundsArg.slice('--rounds='.length)) : undefined;
  if (rounds !== undefined && !(Number.isInteger(rounds) && rounds > 0)) {
    console.error('usage: node scripts/bench/bench-labs.mjs [--quick] [--rounds=N]');
    process.exit(2);
  }
  const r = await benchLabs({ quick, rounds, onProgress: (t) => process.stderr.write(`  ${t}\n`) });
  console.log(
    `Labs in headless Chromium ${r.browser}, SIMD build; the median of ${r.rounds} round${r.rounds === 1 ? '' : 's'}, a fresh page each; the page thread's figures during the training run, and during the cold Run.`,
  );
  console.log(labsTable(r));
}
