// The widget part of `npm run bench`: web/bench-widgets.html in Debian's
// headless Chromium (playwright-core), once with the SIMD build and once with
// the scalar one. Returns { tag: { simd: { median, p95, max }, scalar: {...} } }.
// The phone profile (benchPhoneWidgets) runs the SIMD build again with the
// CPU throttled 4x (Emulation.setCPUThrottlingRate, Lighthouse's mobile
// slowdown) at the default and the largest sizes, and at full speed at the
// largest sizes.
//   node scripts/bench-widgets.mjs [--quick] [--phone-only] [--only=tag,tag]   prints the tables alone
import { pathToFileURL } from 'node:url';
import { createStaticServer } from './serve.mjs';
import { launchChromium } from './chromium.mjs';

// One run of the benchmark page: [{ tag, median, p95, max, n }].
async function runPage(browser, port, { simd, frames, size = 'default', cpu = 1, only = null }) {
  const page = await browser.newPage({ viewport: { width: 1000, height: 900 } });
  try {
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    const label = `${simd ? 'simd' : 'scalar'}, ${size} sizes, CPU ${cpu}x`;
    // throttled from the first byte: the widgets' code is compiled at the slowed speed too
    if (cpu !== 1) await (await page.context().newCDPSession(page)).send('Emulation.setCPUThrottlingRate', { rate: cpu });
    await page.goto(`http://127.0.0.1:${port}/bench-widgets.html?auto=1&simd=${simd ? 1 : 0}&frames=${frames}&size=${size}${only ? `&only=${only.join(',')}` : ''}`);
    await page.waitForFunction(() => ['done', 'error'].includes(document.body.dataset.state), null, { timeout: 600_000 });
    const results = await page.evaluate(() => window.widgetBenchResults ?? window.widgetBenchError);
    if (!Array.isArray(results)) throw new Error(`widget benchmark failed (${label}): ${results} ${errors.join('; ')}`);
    if (errors.length) throw new Error(`widget benchmark page errors (${label}): ${errors.join('; ')}`);
    for (const r of results) if (r.error) throw new Error(`<${r.tag}> showed an error during the benchmark (${label}): ${r.error}`);
    return results;
  } finally {
    await page.close();
  }
}

async function withChromium(fn) {
  // BENCH_WEB=/path serves another copy of web/ (a before/after comparison)
  const server = createStaticServer(process.env.BENCH_WEB || undefined);
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const browser = await launchChromium();
  try {
    return await fn(browser, server.address().port);
  } finally {
    await browser.close();
    server.close();
  }
}

export async function benchWidgets({ quick = false, onProgress = () => {} } = {}) {
  return withChromium(async (browser, port) => {
    const out = {};
    for (const build of ['simd', 'scalar']) {
      for (const r of await runPage(browser, port, { simd: build === 'simd', frames: quick ? 10 : 100 })) {
        (out[r.tag] ??= {})[build] = { median: r.median, p95: r.p95, max: r.max, n: r.n };
        onProgress(`${build} ${r.tag}: median ${r.median.toFixed(2)} ms, p95 ${r.p95.toFixed(2)} ms`);
      }
    }
    return { results: out, browser: browser.version() };
  });
}

/** The phone profile's runs (SIMD build), as { tag: { cpu4Default, cpu4Largest, cpu1Largest } } of { median, p95, max, n }. */
export const PHONE_RUNS = [
  { key: 'cpu4Default', cpu: 4, size: 'default' },
  { key: 'cpu4Largest', cpu: 4, size: 'largest' },
  { key: 'cpu1Largest', cpu: 1, size: 'largest' },
];
/** The targets of each run's p95 (ms). */
export const PHONE_TARGETS = { cpu4Default: 16, cpu4Largest: 50, cpu1Largest: 16 };

export async function benchPhoneWidgets({ quick = false, only = null, onProgress = () => {} } = {}) {
  return withChromium(async (browser, port) => {
    const out = {};
    for (const run of PHONE_RUNS) {
      for (const r of await runPage(browser, port, { simd: true, frames: quick ? 5 : 100, size: run.size, cpu: run.cpu, only })) {
        (out[r.tag] ??= {})[run.key] = { median: r.median, p95: r.p95, max: r.max, n: r.n };
        onProgress(`CPU ${run.cpu}x ${run.size} ${r.tag}: median ${r.median.toFixed(2)} ms, p95 ${r.p95.toFixed(2)} ms`);
      }
    }
    return { results: out, browser: browser.version() };
  });
}

/** A Markdown table of the phone profile: p95 per widget and run, and whether each meets its target. */
export function phoneWidgetTable(results) {
  const f = (x) => (x === undefined ? '-' : x.p95.toFixed(1));
  const lines = [
    '| widget update (SIMD build), p95 ms | CPU 4x, default size | CPU 4x, largest size | CPU 1x, largest size | targets (16 / 50 / 16 ms) met |',
    '|---|---:|---:|---:|:---:|',
  ];
  for (const [tag, r] of Object.entries(results)) {
    const ok = PHONE_RUNS.every((run) => !r[run.key] || r[run.key].p95 <= PHONE_TARGETS[run.key]) ? 'yes' : 'no';
    lines.push(`| \`<${tag}>\` | ${f(r.cpu4Default)} | ${f(r.cpu4Largest)} | ${f(r.cpu1Largest)} | ${ok} |`);
  }
  return lines.join('\n');
}

/** A Markdown table: widget, SIMD median / p95, scalar median / p95, p95 under 16 ms? */
export function widgetTable(results) {
  const f = (x) => (x === undefined ? '-' : x.toFixed(2));
  const lines = ['| widget update (default size) | simd median | simd p95 | scalar median | scalar p95 | p95 < 16 ms |', '|---|---:|---:|---:|---:|:---:|'];
  for (const [tag, r] of Object.entries(results)) {
    const ok = Math.max(r.simd?.p95 ?? Infinity, r.scalar?.p95 ?? Infinity) < 16 ? 'yes' : 'no';
    lines.push(`| \`<${tag}>\` | ${f(r.simd?.median)} | ${f(r.simd?.p95)} | ${f(r.scalar?.median)} | ${f(r.scalar?.p95)} | ${ok} |`);
  }
  return lines.join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const quick = process.argv.includes('--quick');
  const onProgress = (t) => process.stderr.write(`  ${t}\n`);
  if (!process.argv.includes('--phone-only')) {
    const { results, browser } = await benchWidgets({ quick, onProgress });
    console.log(`Chromium ${browser}, headless`);
    console.log(widgetTable(results));
    console.log('');
  }
  const onlyArg = process.argv.find((a) => a.startsWith('--only='));
  const phone = await benchPhoneWidgets({ quick, only: onlyArg ? onlyArg.slice(7).split(',') : null, onProgress });
  console.log(phoneWidgetTable(phone.results));
}
