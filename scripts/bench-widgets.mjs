// The widget part of `npm run bench`: web/bench-widgets.html in Debian's
// headless Chromium (playwright-core), once with the SIMD build and once with
// the scalar one. Returns { tag: { simd: { median, p95, max }, scalar: {...} } }.
// The phone profile (benchPhoneWidgets) runs the SIMD build again with the
// CPU throttled 4x (Emulation.setCPUThrottlingRate, Lighthouse's mobile
// slowdown) at the default and the largest sizes, and at full speed at the
// largest sizes.
//   node scripts/bench-widgets.mjs [--quick] [--phone-only] [--only=tag,tag] [--rounds=N]   prints the tables alone
// (the phone profile runs PHONE_ROUNDS times, --quick once; each figure is the median of the rounds)
import { pathToFileURL } from 'node:url';
import { createStaticServer } from './serve.mjs';
import { launchChromium } from './chromium.mjs';
import { widgetCases } from '../web/bench/widgets.js';
import { median } from '../web/bench/runner.js';

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

/** The phone profile's runs (SIMD build), as { tag: { cpu4Default, cpu4Largest, cpu1Largest } }. */
export const PHONE_RUNS = [
  { key: 'cpu4Default', cpu: 4, size: 'default' },
  { key: 'cpu4Largest', cpu: 4, size: 'largest' },
  { key: 'cpu1Largest', cpu: 1, size: 'largest' },
];
/** The targets of each run's p95 (ms). */
export const PHONE_TARGETS = { cpu4Default: 16, cpu4Largest: 50, cpu1Largest: 16 };
/** How many times the full benchmark repeats the phone profile (a quick one: once). */
export const PHONE_ROUNDS = 3;

// A throttled p95 moves by up to 2x from one run to the next on this
// 2-core machine (docs/benchmarks.md, "How Chromium slows the CPU"), so the
// profile runs `rounds` times, all of it each time (the rounds interleave
// with whatever else the machine does), and reports per widget and run the
// median of the rounds' figures, with every round's p95 in `p95s`.
export async function benchPhoneWidgets({ quick = false, rounds = quick ? 1 : PHONE_ROUNDS, only = null, onProgress = () => {} } = {}) {
  return withChromium(async (browser, port) => {
    const all = {}; // tag -> key -> [{ median, p95, max, n }] per round
    for (let round = 1; round <= rounds; round++) {
      for (const run of PHONE_RUNS) {
        for (const r of await runPage(browser, port, { simd: true, frames: quick ? 5 : 100, size: run.size, cpu: run.cpu, only })) {
          ((all[r.tag] ??= {})[run.key] ??= []).push(r);
          onProgress(`round ${round}/${rounds}, CPU ${run.cpu}x ${run.size} ${r.tag}: median ${r.median.toFixed(2)} ms, p95 ${r.p95.toFixed(2)} ms`);
        }
      }
    }
    const results = {};
    for (const [tag, byKey] of Object.entries(all)) {
      results[tag] = {};
      for (const [key, rs] of Object.entries(byKey)) {
        results[tag][key] = {
          median: median(rs.map((r) => r.median)),
          p95: median(rs.map((r) => r.p95)),
          p95s: rs.map((r) => r.p95),
          medians: rs.map((r) => r.median),
          max: Math.max(...rs.map((r) => r.max)),
          n: rs[0].n,
        };
      }
    }
    return { results, rounds, browser: browser.version() };
  });
}

/** A Markdown table of the phone profile: p95 per widget and run (the median of the rounds, then each round's), and whether each meets its target. */
export function phoneWidgetTable(results) {
  const f = (x) => (x === undefined ? '-' : x.p95s.length > 1 ? `**${x.p95.toFixed(1)}** (${x.p95s.map((v) => v.toFixed(1)).join(', ')})` : x.p95.toFixed(1));
  const lines = [
    '| widget update (SIMD build), p95 ms | CPU 4x, default size | CPU 4x, largest size | CPU 1x, largest size | targets (16 / 50 / 16 ms) met |',
    '|---|---:|---:|---:|:---:|',
  ];
  for (const [tag, r] of Object.entries(results)) {
    const ok = isReference(tag) ? '- (reference)' : PHONE_RUNS.every((run) => !r[run.key] || r[run.key].p95 <= PHONE_TARGETS[run.key]) ? 'yes' : 'no';
    lines.push(`| \`<${tag}>\` | ${f(r.cpu4Default)} | ${f(r.cpu4Largest)} | ${f(r.cpu1Largest)} | ${ok} |`);
  }
  return lines.join('\n');
}

const isReference = (tag) => !!widgetCases.find((c) => c.tag === tag)?.reference;

/**
 * What the throttled runs did to the reference (a fixed task, web/bench/reference.js),
 * per round: its 1x median, its 4x median and their ratio (the slowdown that
 * round applied), and its 4x p95. '' when the reference did not run.
 */
export function referenceLine(results) {
  const tag = widgetCases.find((c) => c.reference)?.tag;
  const r = results[tag];
  if (!r?.cpu1Largest || !r?.cpu4Default) return '';
  const rounds = r.cpu1Largest.medians.map((m1, i) => {
    const m4 = r.cpu4Default.medians[i];
    return `${m1.toFixed(2)} -> ${m4.toFixed(2)} ms (${(m4 / m1).toFixed(1)}x), p95 ${r.cpu4Default.p95s[i].toFixed(1)}`;
  });
  return `Reference task (\`<${tag}>\`, the same work every update), median at 1x -> median at 4x (the slowdown applied), p95 at 4x, per round: ${rounds.join('; ')}.`;
}

/** A Markdown table: widget, SIMD median / p95, scalar median / p95, p95 under 16 ms? */
export function widgetTable(results) {
  const f = (x) => (x === undefined ? '-' : x.toFixed(2));
  const lines = ['| widget update (default size) | simd median | simd p95 | scalar median | scalar p95 | p95 < 16 ms |', '|---|---:|---:|---:|---:|:---:|'];
  for (const [tag, r] of Object.entries(results)) {
    const ok = isReference(tag) ? '- (reference)' : Math.max(r.simd?.p95 ?? Infinity, r.scalar?.p95 ?? Infinity) < 16 ? 'yes' : 'no';
    lines.push(`| \`<${tag}>\` | ${f(r.simd?.median)} | ${f(r.simd?.p95)} | ${f(r.scalar?.median)} | ${f(r.scalar?.p95)} | ${ok} |`);
  }
  return lines.join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const usage = 'usage: node scripts/bench-widgets.mjs [--quick] [--phone-only] [--only=tag,tag] [--rounds=N]';
  for (const arg of process.argv.slice(2)) {
    if (!['--quick', '--phone-only'].includes(arg) && !/^--(only|rounds)=/.test(arg)) {
      console.error(`bench-widgets: unknown argument ${arg}\n${usage}`);
      process.exit(2);
    }
  }
  const quick = process.argv.includes('--quick');
  const onlyArg = process.argv.find((a) => a.startsWith('--only='));
  const only = onlyArg ? onlyArg.slice(7).split(',') : null;
  const unknownTags = (only ?? []).filter((t) => !widgetCases.some((c) => c.tag === t));
  if (unknownTags.length) {
    console.error(`bench-widgets: no widget case ${unknownTags.join(', ')} (known: ${widgetCases.map((c) => c.tag).join(', ')})`);
    process.exit(2);
  }
  const roundsArg = process.argv.find((a) => a.startsWith('--rounds='));
  const rounds = roundsArg ? Number(roundsArg.slice(9)) : undefined;
  if (rounds !== undefined && !(Number.isInteger(rounds) && rounds >= 1 && rounds <= 20)) {
    console.error(`bench-widgets: --rounds must be a whole number from 1 to 20; got "${roundsArg.slice(9)}"`);
    process.exit(2);
  }
  const onProgress = (t) => process.stderr.write(`  ${t}\n`);
  if (!process.argv.includes('--phone-only')) {
    const { results, browser } = await benchWidgets({ quick, onProgress });
    console.log(`Chromium ${browser}, headless`);
    console.log(widgetTable(results));
    console.log('');
  }
  const phone = await benchPhoneWidgets({ quick, rounds, only, onProgress });
  if (phone.rounds > 1) console.log(`p95 of each: the median of ${phone.rounds} rounds in bold, then each round's.`);
  console.log(phoneWidgetTable(phone.results));
  const reference = referenceLine(phone.results);
  if (reference) console.log(`\n${reference}`);
}
