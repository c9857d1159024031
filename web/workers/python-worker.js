// <pe-code-exercise>'s module worker: Python (Pyodide, from web/pyodide/,
// copied there from the npm package by scripts/build/build-python.mjs) running a
// learner's code off the page's thread. The page (web/lib/python/python-runner.js)
// starts it on the first Run and ends it (terminate) when a run passes its
// time limit; the next run starts a fresh one.
//
// In:  { type: 'run', id, code, call: { name, cases: [[arg, ...], ...] } | null, maxOutput }
// Out: { type: 'status', text } while Python loads, then { type: 'ready', ms },
//      { type: 'done', id, result } per run (result: the JSON text _pe_run
//      returns, see DRIVER), { type: 'error', message } if Python cannot start.
//
// What the learner's code can reach: only this worker's Python. A worker
// has no DOM and no localStorage; once Python has loaded, this file takes
// away what a worker could still reach (the network, IndexedDB, the Cache
// API, OPFS through navigator.storage, other workers, BroadcastChannel), and
// the driver removes Pyodide's bridges to JavaScript (`js`, `pyodide_js`,
// `pyodide.ffi`, `_pyodide_core`) from Python, so `import js` says so in a
// clear ImportError. docs/embedding.md ("Python in the page") says the same.
// The page judges: this worker only runs the code and returns plain values
// (numbers, lists), which the page compares with the core's.
import { DRIVER } from '../lib/python/python-driver.js';

const post = (message) => self.postMessage(message);

// What a worker can reach that the learner's code must not: taken away once
// Python is loaded (Pyodide fetched its files with fetch before this).
const TAKEN_AWAY = [
  'fetch',
  'XMLHttpRequest',
  'WebSocket',
  'WebTransport',
  'EventSource',
  'indexedDB',
  'caches',
  'importScripts',
  'BroadcastChannel',
  'Worker',
  'SharedWorker',
  'navigator',
  'Request',
];

const PYODIDE_DIR = '../pyodide/';
let pyodide = null;
let runPy = null;
const started = performance.now();

async function start() {
  post({ type: 'status', text: 'Downloading Python (Pyodide, about 14 MB; only the first time)…' });
  // Pyodide is a prebuilt folder beside this file (web/pyodide/), not for a
  // site's bundler to follow: its URL is made, not written literally
  const indexURL = new URL(PYODIDE_DIR, import.meta.url).href;
  const { loadPyodide } = await import(/* webpackIgnore: true */ /* @vite-ignore */ `${indexURL}pyodide.mjs`);
  const loading = loadPyodide({ indexURL, stdout: () => {}, stderr: () => {} });
  const tick = setInterval(
    () =>
      post({
        type: 'status',
        text: `Starting Python… ${((performance.now() - started) / 1000).toFixed(0)} s`,
      }),
    1000,
  );
  try {
    pyodide = await loading;
  } finally {
    clearInterval(tick);
  }
  pyodide.runPython(DRIVER);
  runPy = pyodide.globals.get('_pe_run');
  for (const name of TAKEN_AWAY) {
    try {
      Object.defineProperty(self, name, { value: undefined, configurable: false, writable: false });
    } catch {
      // not on this engine
    }
  }
  post({ type: 'ready', ms: performance.now() - started, memoryBytes: pyodide._module.HEAP8.length });
}

const ready = start().catch((error) => {
  post({ type: 'error', message: `Python could not start: ${error?.message ?? error}` });
  throw error;
});

self.addEventListener('message', async (event) => {
  const msg = event.data;
  if (msg === null || typeof msg !== 'object' || msg.type !== 'run') {
    post({ type: 'error', message: 'unknown message' });
    return;
  }
  try {
    await ready;
  } catch {
    return;
  }
  const code = String(msg.code ?? '');
  const name = msg.call?.name ? String(msg.call.name) : '';
  const cases = JSON.stringify(msg.call?.cases ?? []);
  const maxOutput = Number.isInteger(msg.maxOutput) ? msg.maxOutput : 20000;
  let result;
  const t0 = performance.now();
  try {
    result = runPy(code, name, cases, maxOutput);
  } catch (error) {
    // the driver catches the learner's exceptions; this is Python itself failing (memory)
    result = JSON.stringify({ returns: [], error: { kind: 'crash', traceback: String(error?.message ?? error) } });
  }
  post({
    type: 'done',
    id: msg.id,
    result,
    ms: performance.now() - t0,
    memoryBytes: pyodide._module.HEAP8.length,
  });
});
