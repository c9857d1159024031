// One Python worker for the page (web/workers/python-worker.js), shared by
// every <pe-code-exercise> on it: started on the first Run, kept warm for the
// next, ended (terminate) when a run passes its time limit or Python breaks,
// so the next run starts a fresh one.
//
// The widget passes `spawn`, its own new Worker(new URL(...), { type:
// 'module' }) call (that literal stays in the widget's file, where bundlers
// see it, as train-lab's does). Where a page cannot start a worker from a
// URL (a sandboxed iframe without allow-same-origin has an opaque origin, and
// a worker must come from the page's own origin), the runner starts it from
// a blob: worker that imports the worker by its URL (CORS; `npm start`'s
// server allows it; a strict CSP must then allow worker-src blob:): see
// docs/embedding.md, "Python in the page".

import { startWorker } from '../base/worker-url.js';
/** How long one run (the learner's code and all its cases) may take. */
export const RUN_LIMIT_MS = 5000;
/** How long Python may take to start (downloading ~14 MB on a slow line included). */
export const START_LIMIT_MS = 180_000;
/** How much print() output a run keeps. */
export const MAX_OUTPUT = 20_000;

// One-file builds (the export, dist/posenc-widgets.js) define POSENC_ONE_FILE
// (scripts/export/export.mjs's ESBUILD_OPTIONS): they carry no Python runtime.
/* global POSENC_ONE_FILE */
const ONE_FILE = typeof POSENC_ONE_FILE !== 'undefined';

/** Why Python cannot run on this page, or null when it can (as far as can be told before trying). */
export function pythonUnavailable(loc = globalThis.location) {
  if (ONE_FILE)
    return 'Running code needs the online lesson: this copy of the lesson is a single file, without the Python runtime (about 14 MB).';
  if (typeof Worker !== 'function') return 'Running code needs a browser with Web Workers.';
  if (loc?.protocol === 'file:')
    return 'Running code needs the online lesson: a page opened from disk cannot start the Python worker.';
  return null;
}

/** A readable Error with a `kind` (pe-element shows such errors to the learner). */
function runError(kind, message) {
  return Object.assign(new Error(message), { kind });
}

let worker = null;
let readyPromise = null;
let nextId = 1;
const statusListeners = new Set();
/** Figures of the current worker: { startMs, memoryBytes } (the tests and the docs read them). */
export const runnerStats = { startMs: null, memoryBytes: null, starts: 0 };

// the worker, or a blob: worker importing it where the page may not start it
// from its URL (../base/worker-url.js; in a sandboxed frame, say)
function startPythonWorker(spawn) {
  try {
    return startWorker(spawn);
  } catch {
    throw runError('python-unavailable', 'This page cannot start the Python worker.');
  }
}

/** Ends the worker (a run that passed its limit, a broken Python): the next run starts afresh. */
export function stopPython() {
  worker?.terminate();
  worker = null;
  readyPromise = null;
}

/** Starts Python if it is not started: resolves once it is ready; onStatus(text) hears the progress. */
export function startPython(spawn, onStatus = () => {}) {
  statusListeners.add(onStatus);
  if (readyPromise) return readyPromise.finally(() => statusListeners.delete(onStatus));
  const why = pythonUnavailable();
  if (why) return Promise.reject(runError('python-unavailable', why));
  const t0 = performance.now();
  const w = startPythonWorker(spawn);
  worker = w;
  runnerStats.starts += 1;
  readyPromise = new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stopPython();
      reject(runError('python-timeout', `Python did not start within ${START_LIMIT_MS / 1000} s.`));
    }, START_LIMIT_MS);
    const onMessage = (event) => {
      const m = event.data;
      if (m?.type === 'status') for (const f of statusListeners) f(String(m.text));
      else if (m?.type === 'ready') {
        clearTimeout(timer);
        w.removeEventListener('message', onMessage);
        runnerStats.startMs = performance.now() - t0;
        runnerStats.memoryBytes = m.memoryBytes;
        resolve();
      } else if (m?.type === 'error') {
        clearTimeout(timer);
        stopPython();
        reject(runError('python-unavailable', String(m.message)));
      }
    };
    w.addEventListener('message', onMessage);
    w.addEventListener('error', (event) => {
      event.preventDefault?.();
      clearTimeout(timer);
      if (worker === w) stopPython();
      reject(runError('python-unavailable', 'The Python worker could not be started on this page.'));
    });
  });
  const p = readyPromise;
  p.catch(() => {}).finally(() => statusListeners.delete(onStatus));
  return p;
}

/**
 * Runs `code` (and, with `call`, the function call.name on each of
 * call.cases, a list of argument lists) in the worker. Resolves to
 * { returns, error, stdout, stdoutChars, ms } (see python-worker.js), or
 * { timedOut: true, limitMs } when it passed the limit (the worker is then
 * ended). Rejects with a kind'ed Error only when Python cannot start.
 */
export async function runPython(spawn, { code, call = null }, { onStatus, limitMs = RUN_LIMIT_MS } = {}) {
  await startPython(spawn, onStatus);
  const w = worker;
  const id = nextId++;
  return new Promise((resolve) => {
    const done = (value) => {
      clearTimeout(timer);
      w.removeEventListener('message', onMessage);
      resolve(value);
    };
    const timer = setTimeout(() => {
      // a loop that never ends: the worker cannot be interrupted, only ended
      stopPython();
      done({ timedOut: true, limitMs });
    }, limitMs);
    const onMessage = (event) => {
      const m = event.data;
      if (m?.type !== 'done' || m.id !== id) return;
      runnerStats.memoryBytes = m.memoryBytes;
      let result;
      try {
        result = JSON.parse(m.result);
      } catch {
        result = { returns: [], error: { kind: 'crash', traceback: 'Python returned something unreadable.' } };
      }
      // Python itself broke (out of memory): a fresh worker next time
      if (result.error?.kind === 'crash') stopPython();
      done({ ...result, ms: m.ms });
    };
    w.addEventListener('message', onMessage);
    w.postMessage({ type: 'run', id, code, call, maxOutput: MAX_OUTPUT });
  });
}
