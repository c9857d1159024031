// The lesson on a phone profile, the load part of `npm run bench`: Debian's
// headless Chromium with Lighthouse's mobile slowdowns (the network as
// DevTools' "Fast 3G" preset: 562.5 ms latency, 1.44 Mbit/s down, 675 kbit/s
// up; the CPU throttled 4x) and a 375 x 812 screen at 2 device pixels per
// CSS pixel. Per run it reports:
// - fcp: first contentful paint (the text, before any script runs);
// - ready: when the compute core has loaded (the page says which build runs);
// - tbt: total blocking time, Lighthouse's way: every long task (over 50 ms,
//   PerformanceObserver 'longtask') from first paint until the page is quiet
//   (3 s without a long task after the core is ready) counts its time beyond
//   50 ms;
// - keys: then a learner drives sliders with the keyboard (ArrowRight and
//   ArrowLeft, 250 ms apart and the first 250 ms after the focus, on the
//   first heatmap's d_model, the barcode's d_model and the ALiBi sequence
//   length) and the Event Timing API
//   (PerformanceObserver 'event', durationThreshold 16) gives, per key press,
//   the time from the press to the next paint after its handlers and the
//   widget's redraw. A press without an entry took under 16 ms; it counts as 16.
//   node scripts/bench/bench-phone.mjs [--quick] [--runs=N]   prints the table alone
import { pathToFileURL } from 'node:url';
import { createStaticServer } from '../run/serve.mjs';
import { launchChromium } from '../run/chromium.mjs';

const FAST_3G = {
  offline: false,
  latency: 562.5,
  downloadThroughput: (1.6e6 / 8) * 0.9,
  uploadThroughput: (750e3 / 8) * 0.9,
};
const CPU_SLOWDOWN = 4;
const QUIET_MS = 3000;
// the sliders the keyboard drives: [tag, index among that tag, control id]
const SLIDERS = [
  ['pe-heatmap', 0, 'c-d-model'],
  ['pe-wave-barcode', 0, 'c-d-model'],
  ['alibi-bias', 0, 'c-seq-len'],
];

// Runs in the page before any of its scripts: records paints, long tasks,
// event timings and the moment the core reports its build.
function observe() {
  const perf = (window.__phonePerf = { fcp: null, longTasks: [], events: [], ready: null });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (e.name === 'first-contentful-paint') perf.fcp = e.startTime;
  }).observe({ type: 'paint', buffered: true });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) perf.longTasks.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: 'longtask', buffered: true });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries())
      if (e.interactionId) perf.events.push({ name: e.name, id: e.interactionId, duration: e.duration });
  }).observe({ type: 'event', durationThreshold: 16, buffered: true });
  document.addEventListener('DOMContentLoaded', () => {
    const info = document.getElementById('build-info');
    if (!info) return;
    new MutationObserver(() => {
      if (perf.ready === null && /^Running now/.test(info.textContent)) perf.ready = performance.now();
    }).observe(info, { childList: true, characterData: true, subtree: true });
  });
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)];
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];

async function oneRun(browser, url, { presses }) {
  const context = await browser.newContext({
    viewport: { width: 375, height: 812 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
  });
  try {
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.addInitScript(observe);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await cdp.send('Network.emulateNetworkConditions', FAST_3G);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
    await page.goto(url, { waitUntil: 'commit', timeout: 120_000 });
    // polled every half second: a poll is a tiny task, never a long one
    await page.waitForFunction(() => window.__phonePerf?.ready !== null && window.__phonePerf?.fcp !== null, null, {
      timeout: 120_000,
      polling: 500,
    });
    await page.waitForFunction(
      (quiet) => {
        const p = window.__phonePerf;
        const last = Math.max(p.ready, ...p.longTasks.map((t) => t.start + t.duration));
        return performance.now() - last >= quiet;
      },
      QUIET_MS,
      { timeout: 120_000, polling: 500 },
    );
    const load = await page.evaluate(() => {
      const p = window.__phonePerf;
      // Lighthouse counts the part of a long task after first paint
      let tbt = 0;
      for (const t of p.longTasks) {
        const end = t.start + t.duration;
        if (end <= p.fcp) continue;
        const blocking = end - Math.max(t.start, p.fcp) - 50;
        if (blocking > 0) tbt += blocking;
      }
      const longest = Math.max(0, ...p.longTasks.map((t) => t.duration));
      return { fcp: p.fcp, ready: p.ready, tbt, longTasks: p.longTasks.length, longest };
    });
    // the keyboard
    const eventsBefore = await page.evaluate(() => window.__phonePerf.events.length);
    let pressed = 0;
    for (const [tag, index, id] of SLIDERS) {
      const el = page.locator(tag).nth(index);
      await el.evaluate((node) => node.scrollIntoView({ block: 'center', behavior: 'instant' }));
      await page.waitForFunction((node) => node.hasAttribute('data-ready'), await el.elementHandle(), {
        timeout: 60_000,
        polling: 250,
      });
      await page.waitForTimeout(1000);
      await el.evaluate((node, controlId) => node.shadowRoot.getElementById(controlId).focus(), id);
      // the first press as far from the focus as each press from the one before
      // (pressed at once, it waited for the frame that draws the focus ring)
      await page.waitForTimeout(250);
      for (let i = 0; i < presses; i++) {
        await page.keyboard.press(i % 2 ? 'ArrowLeft' : 'ArrowRight');
        pressed += 1;
        await page.waitForTimeout(250);
      }
    }
    await page.waitForTimeout(500);
    const events = await page.evaluate((from) => window.__phonePerf.events.slice(from), eventsBefore);
    const byInteraction = new Map();
    for (const e of events) byInteraction.set(e.id, Math.max(byInteraction.get(e.id) ?? 0, e.duration));
    // a press that left no entry took under 16 ms
    const keys = [...byInteraction.values(), ...Array(Math.max(0, pressed - byInteraction.size)).fill(16)].sort(
      (a, b) => a - b,
    );
    if (errors.length) throw new Error(`lesson errors on the phone profile: ${errors.join('; ')}`);
    return {
      ...load,
      keyP95: percentile(keys, 0.95),
      keyMax: keys.at(-1),
      presses: pressed,
      keyEntries: byInteraction.size,
    };
  } finally {
    await context.close();
  }
}

/** Runs the lesson `runs` times on the phone profile; returns { runs: [...], median: {...} }. */
export async function benchPhone({ quick = false, runs = quick ? 1 : 3, onProgress = () => {} } = {}) {
  // BENCH_WEB=/path serves another copy of web/ (a before/after comparison)
  const server = createStaticServer(process.env.BENCH_WEB || undefined);
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const browser = await launchChromium();
  try {
    const url = `http://127.0.0.1:${server.address().port}/index.html`;
    const out = [];
    for (let i = 0; i < runs; i++) {
      const r = await oneRun(browser, url, { presses: quick ? 4 : 20 });
      onProgress(
        `phone load ${i + 1}/${runs}: FCP ${r.fcp.toFixed(0)} ms, TBT ${r.tbt.toFixed(0)} ms (${r.longTasks} long tasks, longest ${r.longest.toFixed(0)} ms), core ready ${r.ready.toFixed(0)} ms, key to paint p95 ${r.keyP95} ms`,
      );
      out.push(r);
    }
    const keys = ['fcp', 'tbt', 'ready', 'longTasks', 'longest', 'keyP95', 'keyMax'];
    return {
      runs: out,
      median: Object.fromEntries(keys.map((k) => [k, median(out.map((r) => r[k]))])),
      browser: browser.version(),
    };
  } finally {
    await browser.close();
    server.close();
  }
}

/** A Markdown table of the phone-profile lesson: medians of the runs, and each run. */
export function phoneTable({ runs, median: m }) {
  const row = (label, r) =>
    `| ${label} | ${r.fcp.toFixed(0)} | ${r.tbt.toFixed(0)} | ${r.longTasks} | ${r.longest.toFixed(0)} | ${r.ready.toFixed(0)} | ${r.keyP95.toFixed(0)} |`;
  return [
    '| lesson on the phone profile | first paint (FCP) ms | total blocking time ms | long tasks | longest task ms | core ready ms | key press to paint p95 ms |',
    '|---|---:|---:|---:|---:|---:|---:|',
    row(`median of ${runs.length}`, m),
    ...(runs.length > 1 ? runs.map((r, i) => row(`run ${i + 1}`, r)) : []),
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const quick = process.argv.includes('--quick');
  const runsArg = process.argv.find((a) => a.startsWith('--runs='));
  const result = await benchPhone({
    quick,
    runs: runsArg ? Number(runsArg.slice(7)) : undefined,
    onProgress: (t) => process.stderr.write(`  ${t}\n`),
  });
  console.log(`Chromium ${result.browser}, headless; Fast 3G, CPU 4x, 375 x 812 at DPR 2`);
  console.log(phoneTable(result));
}
