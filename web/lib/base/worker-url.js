// The URL a spawn() function (a widget's literal new Worker(new URL(...))
// call, which bundlers must see in the widget's own file) would start, read
// without starting a worker: for the train lab's check that a bundler followed
// its worker, and for the Python runner's blob fallback in a sandboxed frame.

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
