// `npm run bench`: times each case of web/bench/cases.js with our SIMD build,
// our scalar build, plain JavaScript and TensorFlow.js's wasm backend (single
// thread), interleaved in this one process, and prints the medians.
//
//   node scripts/bench/bench.mjs            full run (about 6 minutes on 2 cores)
//   node scripts/bench/bench.mjs --quick    tiny sizes, a few seconds: proves it runs
//   node scripts/bench/bench.mjs --json     also prints, as the last line, { case: { impl: median_ms } }
//   node scripts/bench/bench.mjs --only=softmax,rope
//   node scripts/bench/bench.mjs --no-widgets   without the widget cases (they run in Chromium)
//
// The widget cases (the per-frame update of each widget at its default size)
// need a DOM: they run in headless Chromium (scripts/bench/bench-widgets.mjs), with
// the SIMD and the scalar build; the JSON gets them as "widget <tag>" with the
// medians, the table shows the 95th percentiles too. Then the phone profile:
// each widget again with the CPU throttled 4x (default and largest sizes) and
// at full speed at the largest sizes, and the lesson loaded on Fast 3G with
// the CPU throttled 4x on a 375 px screen (scripts/bench/bench-phone.mjs: first
// paint, total blocking time, core ready, key press to next paint). Last the
// two labs that compute off the page's thread, at 1x and 4x
// (scripts/bench/bench-labs.mjs: a training run in workers and on the page,
// a code exercise's cold Run, warm Run and Check, and what the page's thread
// went through meanwhile).
//
// Progress goes to stderr, the report to stdout. Nothing asserts a time.
import os from 'node:os';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { loadPosenc } from '../../web/posenc.js';
import { cases as allCases } from '../../web/bench/cases.js';
import { runBench, toJson, markdownTable } from '../../web/bench/runner.js';
import { benchWidgets, widgetTable, benchPhoneWidgets, phoneWidgetTable, roundsLine } from './bench-widgets.mjs';
import { benchPhone, phoneTable } from './bench-phone.mjs';
import { benchLabs, labsTable } from './bench-labs.mjs';

const usage = 'usage: node scripts/bench/bench.mjs [--quick] [--json] [--only=id,id] [--no-widgets]';
const args = { quick: false, json: false, only: null, widgets: true };
for (const arg of process.argv.slice(2)) {
  if (arg === '--quick') args.quick = true;
  else if (arg === '--json') args.json = true;
  else if (arg === '--no-widgets') args.widgets = false;
  else if (arg.startsWith('--only=')) args.only = arg.slice('--only='.length).split(',');
  else if (arg === '--help' || arg === '-h') {
    console.log(usage);
    process.exit(0);
  } else {
    console.error(`bench: unknown argument ${arg}\n${usage}`);
    process.exit(2);
  }
}

let cases = allCases;
if (args.only) {
  const unknown = args.only.filter((id) => !allCases.some((c) => c.id === id));
  if (unknown.length) {
    console.error(`bench: unknown case ${unknown.join(', ')} (known: ${allCases.map((c) => c.id).join(', ')})`);
    process.exit(2);
  }
  cases = allCases.filter((c) => args.only.includes(c.id));
  args.widgets = false;
}

// TensorFlow.js's wasm backend, one thread. tfjs disables its threaded
// build in Node anyway; setThreadsCount(1) also keeps XNNPACK to one thread.
// Its .wasm files are read from the package's dist/ folder (a file path works
// in Node 20). Missing packages (no `npm ci`) leave tfjs out, with a warning.
async function loadTfjs() {
  try {
    const require = createRequire(import.meta.url);
    const tf = await import('@tensorflow/tfjs-core');
    const wasm = await import('@tensorflow/tfjs-backend-wasm');
    const dist =
      path.join(path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm/package.json')), 'dist') + path.sep;
    wasm.setWasmPaths(dist);
    wasm.setThreadsCount(1);
    tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
    if (!(await tf.setBackend('wasm'))) throw new Error('tf.setBackend("wasm") failed');
    await tf.ready();
    const simd = await tf.env().getAsync('WASM_HAS_SIMD_SUPPORT');
    return {
      tf,
      about: `tfjs-core ${tf.version_core}, tfjs-backend-wasm ${wasm.version_wasm} (${simd ? 'SIMD' : 'no SIMD'}, ${wasm.getThreadsCount()} thread)`,
    };
  } catch (err) {
    console.error(`bench: TensorFlow.js not available, tfjs-wasm is left out (${err.message}); run npm ci`);
    return { tf: null, about: 'not available' };
  }
}

function cpuModel() {
  try {
    const line = readFileSync('/proc/cpuinfo', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('model name'));
    if (line) return line.split(':')[1].trim();
  } catch {}
  return os.cpus()[0]?.model ?? 'unknown';
}

const simd = await loadPosenc({ simd: true });
const scalar = await loadPosenc({ simd: false });
const simdTrainer = await loadPosenc({ simd: true, trainer: true });
const scalarTrainer = await loadPosenc({ simd: false, trainer: true });
const { tf, about } = await loadTfjs();

console.log(`# posenc benchmark (${args.quick ? 'quick: tiny sizes, proves it runs, numbers mean nothing' : 'full'})`);
console.log(
  `CPU: ${cpuModel()}, ${os.cpus().length} logical cores; Node ${process.version} (V8 ${process.versions.v8}); ${os.platform()} ${os.release()}`,
);
console.log(`tfjs: ${about}`);
console.log('');

const started = performance.now();
const results = await runBench({
  cases,
  libs: { simd, scalar, tfjs: tf, simdTrainer, scalarTrainer },
  quick: args.quick,
  onProgress: (text) => process.stderr.write(`  ${text}\n`),
  // Let pending I/O (the progress lines) through between samples.
  pause: () => new Promise((resolve) => setImmediate(resolve)),
});
const seconds = (performance.now() - started) / 1000;

console.log(markdownTable(results));
console.log('');
console.log('Medians in ms; "x ÷ simd" = how many times longer x takes than our SIMD build.');
console.log('GFLOP/s count 4*h*n^2*d for attention, also for the causal case. "max abs diff vs js": largest');
console.log('difference from the plain-JS result (masked -Infinity entries agree).');
console.log(
  `Rounds per case: ${results.map((r) => `${r.id} ${r.rounds}`).join(', ')}; ${seconds.toFixed(0)} s in all.`,
);
const json = toJson(results);
if (args.widgets) {
  try {
    const w = await benchWidgets({ quick: args.quick, onProgress: (text) => process.stderr.write(`  ${text}\n`) });
    console.log('');
    console.log(
      `Widgets: each update timed from the attribute change to the end of the redraw and the layout it forces, in headless Chromium ${w.browser}; ${args.quick ? 10 : 100} changes each.`,
    );
    console.log(widgetTable(w.results));
    for (const [tag, r] of Object.entries(w.results))
      json[`widget ${tag}`] = { simd: r.simd.median, scalar: r.scalar.median };
    const phoneWidgets = await benchPhoneWidgets({
      quick: args.quick,
      onProgress: (text) => process.stderr.write(`  ${text}\n`),
    });
    console.log('');
    console.log(
      `Phone profile, widgets: the same updates, SIMD build, ${args.quick ? 5 : 100} changes each; p95 in ms${phoneWidgets.rounds > 1 ? `, the median of ${phoneWidgets.rounds} rounds in bold, then each counted round's` : ''} (load average ${os.loadavg()[0].toFixed(2)}).`,
    );
    console.log(phoneWidgetTable(phoneWidgets.results));
    console.log(`\n${roundsLine(phoneWidgets.roundLog, { quick: args.quick })}`);
    for (const [tag, r] of Object.entries(phoneWidgets.results))
      json[`phone widget ${tag}`] = Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v.p95]));
    const phone = await benchPhone({ quick: args.quick, onProgress: (text) => process.stderr.write(`  ${text}\n`) });
    console.log('');
    console.log(
      `Phone profile, the lesson: Fast 3G, CPU 4x, 375 x 812 at DPR 2 (load average ${os.loadavg()[0].toFixed(2)}).`,
    );
    console.log(phoneTable(phone));
    json['phone lesson'] = phone.median;
    const labs = await benchLabs({ quick: args.quick, onProgress: (text) => process.stderr.write(`  ${text}\n`) });
    console.log('');
    console.log(
      `Labs, SIMD build, the median of ${labs.rounds} round${labs.rounds === 1 ? '' : 's'} (load average ${os.loadavg()[0].toFixed(2)}); the page thread's figures during the training run, and during the cold Run. The 4x throttle slows the page's thread, not the workers.`,
    );
    console.log(labsTable(labs));
    for (const { key, what: _what, ...figures } of labs.rows) json[`lab ${key} ${figures.cpu}x`] = figures;
  } catch (error) {
    console.error(`bench: widget cases skipped: ${error.message}`);
    process.exitCode = 1;
  }
}
if (args.json) console.log(JSON.stringify(json));
