// The benchmark page: runs web/bench/cases.js in this tab, as scripts/bench/bench.mjs
// does in Node, and shows the table. TensorFlow.js comes from node_modules,
// served under /vendor/ by scripts/run/serve.mjs; without it, tfjs-wasm is left out.
//
// ?quick=1 ticks "Quick"; ?auto=1 runs on load (for headless runs). When a run
// ends, <body data-state> is "done" (or "error") and window.benchResults holds
// the JSON object.
import { loadPosenc, simdSupported } from '../posenc.js';
import { cases } from './cases.js';
import { runBench, tableRows, toJson } from './runner.js';

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
$('quick').checked = params.get('quick') === '1';

function loadScript(src) {
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = src;
    script.onload = resolve;
    script.onerror = () => reject(new Error(`could not load ${src}`));
    document.head.append(script);
  });
}

// TensorFlow.js's UMD bundles (global `tf`, `tf.wasm`), wasm backend on one
// thread: the threaded build needs cross-origin isolation, which this server
// does not set, but say so anyway.
async function loadTfjs() {
  try {
    await loadScript('../vendor/tfjs-core/dist/tf-core.min.js');
    await loadScript('../vendor/tfjs-backend-wasm/dist/tf-backend-wasm.min.js');
    const tf = globalThis.tf;
    tf.wasm.setWasmPaths(new URL('../vendor/tfjs-backend-wasm/dist/', location.href).href);
    tf.wasm.setThreadsCount(1);
    tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
    if (!(await tf.setBackend('wasm'))) throw new Error('tf.setBackend("wasm") failed');
    const simd = await tf.env().getAsync('WASM_HAS_SIMD_SUPPORT');
    return {
      tf,
      about: `tfjs ${tf.version_core} wasm (${simd ? 'SIMD' : 'no SIMD'}, ${tf.wasm.getThreadsCount()} thread)`,
    };
  } catch (err) {
    return {
      tf: null,
      about: `tfjs not available (${err.message}; run npm ci and serve with node scripts/run/serve.mjs)`,
    };
  }
}

function showError(err) {
  $('error').hidden = false;
  $('error').textContent = String(err?.message ?? err);
  document.body.dataset.state = 'error';
}

function row(cells, tag) {
  const tr = document.createElement('tr');
  for (const text of cells) {
    const cell = document.createElement(tag);
    cell.textContent = text;
    tr.append(cell);
  }
  return tr;
}

let libs;
try {
  if (!simdSupported()) throw new Error('this browser has no WebAssembly SIMD: the simd column needs it');
  const [simd, scalar, tfjs, simdTrainer, scalarTrainer] = await Promise.all([
    loadPosenc({ simd: true }),
    loadPosenc({ simd: false }),
    loadTfjs(),
    loadPosenc({ simd: true, trainer: true }),
    loadPosenc({ simd: false, trainer: true }),
  ]);
  libs = { simd, scalar, tfjs: tfjs.tf, simdTrainer, scalarTrainer };
  $('engine').textContent = `${navigator.userAgent}; ${navigator.hardwareConcurrency} logical cores; ${tfjs.about}`;
  $('status').textContent = 'ready';
  $('run').disabled = false;
} catch (err) {
  $('status').textContent = 'could not load';
  showError(err);
}

async function run() {
  $('run').disabled = true;
  $('error').hidden = true;
  document.body.dataset.state = 'running';
  const quick = $('quick').checked;
  const results = [];
  const head = $('results').tHead;
  const body = $('results').tBodies[0];
  head.replaceChildren(row(tableRows([])[0], 'th'));
  body.replaceChildren();
  $('json').textContent = '';
  const started = performance.now();
  try {
    await runBench({
      cases,
      libs,
      quick,
      onProgress: (text) => ($('status').textContent = text),
      onResult: (result) => {
        results.push(result);
        body.append(row(tableRows([result])[1], 'td'));
      },
      pause: () => new Promise((resolve) => setTimeout(resolve, 0)),
    });
    const json = toJson(results);
    window.benchResults = json;
    $('json').textContent = JSON.stringify(json, null, 2);
    $('status').textContent =
      `done in ${((performance.now() - started) / 1000).toFixed(0)} s (${quick ? 'quick' : 'full'} run)`;
    document.body.dataset.state = 'done';
  } catch (err) {
    $('status').textContent = 'failed';
    showError(err);
  } finally {
    $('run').disabled = false;
  }
}

$('controls').addEventListener('submit', (event) => {
  event.preventDefault();
  run();
});
if (libs && params.get('auto') === '1') run();
