// Runs the benchmark cases (web/bench/cases.js) in one process, interleaved:
// every round times each implementation once, round-robin, starting with a
// different one each round, so a burst of machine noise hits all of them
// alike. Reports the median per implementation. Shared by the Node runner
// (scripts/bench/bench.mjs) and the page (web/bench/bench-page.js).
//
// Nothing here asserts a time: a benchmark is not a test.

import { IMPLEMENTATIONS } from './cases.js';
import { seededRandom } from '../lib/questions/random.js';

// Full runs: each timed sample lasts at least MIN_SAMPLE_MS (fast calls are
// repeated inside it), and a case gets as many rounds as fit in its budget,
// between MIN_ROUNDS and MAX_ROUNDS. Quick runs only prove that everything runs.
const FULL = { minSampleMs: 30, budgetMs: 25000, minRounds: 7, maxRounds: 21 };
const QUICK = { minSampleMs: 0, budgetMs: 0, minRounds: 3, maxRounds: 3 };

/** Deterministic uniform numbers in [-scale, scale) (mulberry32), so every run sees the same inputs. */
export function makeRandom(seed = 0x5eed) {
  const next = seededRandom(seed);
  return (n, scale) => {
    const out = new Float32Array(n);
    for (let i = 0; i < n; i++) out[i] = (2 * next() - 1) * scale;
    return out;
  };
}

export function median(values) {
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

function maxAbsDiff(a, b) {
  if (a.length !== b.length) return Infinity;
  let max = 0;
  for (let i = 0; i < a.length; i++) {
    // Equal infinities (masked entries) and NaN against NaN agree; anything else is measured.
    if (a[i] === b[i] || (Number.isNaN(a[i]) && Number.isNaN(b[i]))) continue;
    const d = Math.abs(a[i] - b[i]);
    max = Math.max(max, Number.isNaN(d) ? Infinity : d);
  }
  return max;
}

// The implementations a case runs with, each prepared: [{ name, run, dispose }].
function prepare(c, libs, p, x) {
  const out = [];
  for (const name of IMPLEMENTATIONS) {
    let made = null;
    const ours = c.trainer ? libs[`${name}Trainer`] : libs[name];
    if (name === 'simd' || name === 'scalar') made = ours ? c.ours(ours, p, x) : null;
    else if (name === 'js') made = c.js ? c.js(p, x) : null;
    else if (name === 'tfjs-wasm' && libs.tfjs && c.tfjs) made = c.tfjs(libs.tfjs, p, x);
    if (made) out.push({ name, run: made.run, dispose: made.dispose ?? (() => {}) });
  }
  return out;
}

/**
 * Runs `cases` with `libs` = { simd, scalar, tfjs, simdTrainer, scalarTrainer }
 * (Posenc, Posenc, the tf namespace, the trainer builds; any may be null). `onProgress(text)` hears what runs,
 * `onResult(result)` each case as it ends; `pause()` is awaited between
 * samples (the page uses it to repaint).
 * Returns one result per case:
 *   { id, title, label, flops, params, median: { impl: ms }, samples: { impl: [ms] },
 *     reps: { impl: n }, rounds, maxDiff: { impl: max |impl - js| } }
 */
export async function runBench({
  cases,
  libs,
  quick = false,
  onProgress = () => {},
  onResult = () => {},
  pause = async () => {},
}) {
  const plan = quick ? QUICK : FULL;
  const results = [];
  for (const c of cases) {
    const p = c.sizes[quick ? 'quick' : 'full'];
    const x = c.inputs(p, makeRandom()); // the same inputs whichever cases run
    const impls = prepare(c, libs, p, x);

    // Warm-up: one untimed-for-the-result call each (compiles, fills caches,
    // sizes the repetitions) whose output is held against the plain-JS one.
    onProgress(`${c.id}: warming up ${impls.map((i) => i.name).join(', ')}`);
    const firstMs = {};
    const maxDiff = {};
    let reference = null;
    for (const impl of [...impls].sort((a, b) => (b.name === 'js') - (a.name === 'js'))) {
      const t0 = performance.now();
      const y = impl.run();
      firstMs[impl.name] = performance.now() - t0;
      if (impl.name === 'js') reference = y;
      else if (reference) maxDiff[impl.name] = maxAbsDiff(y, reference);
      await pause();
    }
    reference = null;

    const reps = {};
    let roundMs = 0;
    for (const impl of impls) {
      reps[impl.name] = Math.max(1, Math.ceil(plan.minSampleMs / Math.max(firstMs[impl.name], 0.01)));
      roundMs += reps[impl.name] * firstMs[impl.name];
    }
    let rounds = Math.floor(plan.budgetMs / Math.max(roundMs, 1));
    rounds = Math.min(plan.maxRounds, Math.max(plan.minRounds, rounds));
    if (rounds % 2 === 0) rounds += 1; // an odd count: the median is a measured sample

    const samples = Object.fromEntries(impls.map((i) => [i.name, []]));
    for (let r = 0; r < rounds; r++) {
      onProgress(`${c.id}: round ${r + 1} of ${rounds}`);
      for (let j = 0; j < impls.length; j++) {
        const impl = impls[(r + j) % impls.length];
        const n = reps[impl.name];
        const t0 = performance.now();
        for (let i = 0; i < n; i++) impl.run();
        samples[impl.name].push((performance.now() - t0) / n);
        await pause();
      }
    }
    for (const impl of impls) impl.dispose();

    const med = {};
    for (const name of IMPLEMENTATIONS) med[name] = samples[name] ? median(samples[name]) : null;
    const result = {
      id: c.id,
      title: c.title,
      label: c.label(p),
      params: p,
      flops: c.flops ? c.flops(p) : null,
      median: med,
      samples,
      reps,
      rounds,
      maxDiff,
    };
    results.push(result);
    onResult(result);
  }
  return results;
}

/** { case: { simd, scalar, js, 'tfjs-wasm' } } of medians in ms (null where not run). */
export function toJson(results) {
  return Object.fromEntries(results.map((r) => [r.id, { ...r.median }]));
}

const fmtMs = (ms) => (ms === null ? '-' : ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2));
// '-' where a time is missing or too small to divide by (a coarse clock can read 0).
const fmtRatio = (a, b) =>
  a === null || b === null || !(a > 0 && b > 0) ? '-' : `${(a / b).toFixed(a / b >= 10 ? 0 : 1)}x`;
const fmtGflops = (flops, ms) => (flops === null || ms === null || !(ms > 0) ? '-' : (flops / (ms * 1e6)).toFixed(1));
const fmtDiff = (d) => (d === undefined ? '-' : d === 0 ? '0' : d.toExponential(1));

/**
 * The report as rows of cells, header first: medians, GFLOP/s where the
 * case counts flops, how many times slower each other implementation is
 * than `simd`, and the largest difference from the plain-JS result.
 */
export function tableRows(results) {
  const others = IMPLEMENTATIONS.filter((n) => n !== 'simd');
  const header = [
    'case',
    'size',
    ...IMPLEMENTATIONS.map((n) => `${n} ms`),
    'GFLOP/s simd / scalar / js / tfjs',
    ...others.map((n) => `${n} ÷ simd`),
    'max abs diff vs js: simd / scalar / tfjs',
  ];
  const rows = results.map((r) => [
    r.id,
    r.label,
    ...IMPLEMENTATIONS.map((n) => fmtMs(r.median[n])),
    r.flops === null ? '-' : IMPLEMENTATIONS.map((n) => fmtGflops(r.flops, r.median[n])).join(' / '),
    ...others.map((n) => fmtRatio(r.median[n], r.median.simd)),
    ['simd', 'scalar', 'tfjs-wasm'].map((n) => fmtDiff(r.maxDiff[n])).join(' / '),
  ]);
  return [header, ...rows];
}

/** The same rows as a Markdown table (for the terminal and docs/benchmarks.md). */
export function markdownTable(results) {
  const rows = tableRows(results);
  const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => row[i].length)));
  const line = (row) => `| ${row.map((cell, i) => cell.padEnd(widths[i])).join(' | ')} |`;
  return [line(rows[0]), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.slice(1).map(line)].join('\n');
}
