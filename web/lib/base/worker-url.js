// The URL a spawn() function (a widget's literal new Worker(new URL(...))
// call, which bundlers must see in the widget's own file) would start, read
// without starting a worker: for the train lab's check that a bundler followed
// its worker; and startWorker(spawn), which starts it, or where the page may
// not start a worker from that URL, a blob: worker that imports it (the train
// lab's and the Python runner's workers).

/**
 * The URL spawn() would start, read without starting a worker (the global
 * Worker stands in for one synchronous call); null where there is no Worker
 * or spawn() throws.
 */
export function workerUrl(spawn) {
  const RealWorker = globalThis.Worker;
  if (typeof RealWorker !== 'function') return null;
  let url = null;
  globalThis.Worker = function StandIn(u) {
    url = String(u);
  };
  try {
    spawn();
  } catch {
    url = null;
  } finally {
    globalThis.Worker = RealWorker;
  }
  return url;
}

/**
 * The worker spawn() starts. Where the page may not start a worker from its
 * URL (an opaque origin: a frame sandboxed without allow-same-origin; a
 * module loaded from another origin, as an author's page loading widgets.js
 * from the course's site), a classic blob: worker that import()s the
 * worker's module by that URL instead (a module blob worker fails there,
 * with no message, in Chromium 156; a classic one's import() works). It
 * needs the worker's server to allow CORS (`npm start`'s does) and, under a
 * Content-Security-Policy, worker-src blob:. If that import fails, the
 * worker's first message is { type: 'error', message }. Throws where no
 * worker can start at all.
 */
export function startWorker(spawn) {
  try {
    return spawn();
  } catch (error) {
    const url = workerUrl(spawn);
    if (!url || !/^https?:/.test(new URL(url, globalThis.location?.href).protocol)) throw error;
    const blob = new Blob(
      [
        `import(${JSON.stringify(url)}).catch((e) => postMessage({ type: 'error', message: 'the worker could not load: ' + e }));`,
      ],
      { type: 'text/javascript' },
    );
    return new Worker(URL.createObjectURL(blob));
  }
}
