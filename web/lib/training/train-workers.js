// <train-lab>'s pool of training workers (web/workers/train-worker.js): one
// worker per part of a run, each started with its share of the encodings
// once every one says it can train. The widget passes `spawn`, its own
// new Worker(new URL(...), ...) call: that literal must stay in the widget's
// file, where bundlers see it and build the worker (see train-lab.js).
import { startWorker } from '../base/worker-url.js';

export { workerUrl } from '../base/worker-url.js';

/**
 * Starts a worker for each of run.parts (pushed to run.workers); resolves
 * true once every worker has loaded the trainer and got its share (no part
 * starts before all can, so a run never trains in workers it then drops for
 * the page), false if any cannot (none within `timeoutMs`, spawn() throws,
 * an error or a first message other than 'ready') or `signal` aborts (the run was stopped: its
 * workers, ended, will never say ready). After 'ready', part k's messages go
 * to onMessage(k, msg), and a worker's error as an 'error' message.
 */
export function startWorkers(run, spawn, onMessage, timeoutMs, signal = null) {
  return new Promise((resolve) => {
    let ready = 0;
    let settled = false;
    const settle = (ok) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(ok);
    };
    const timer = setTimeout(() => settle(false), timeoutMs);
    if (signal?.aborted) return settle(false);
    signal?.addEventListener('abort', () => settle(false), { once: true });
    for (const k of run.parts.keys()) {
      let worker;
      try {
        // from another origin or an opaque one (a sandboxed frame): a blob worker importing it
        worker = startWorker(spawn);
      } catch {
        settle(false); // a file:// page, no Worker at all
        return;
      }
      run.workers.push(worker);
      let isReady = false;
      worker.addEventListener('error', (event) => {
        event.preventDefault?.();
        // before every worker is ready the run can still train on the page
        if (!settled) settle(false);
        else onMessage(k, { type: 'error', message: 'the training worker stopped' });
      });
      worker.addEventListener('message', (event) => {
        const msg = event.data;
        if (!isReady) {
          // the first message says whether this worker can train at all
          if (msg?.type !== 'ready') return settle(false);
          isReady = true;
          run.simd = msg.simd;
          // every part starts once all can: until then the run may still fall back to the page
          if (++ready === run.parts.length && !settled) {
            for (const [j, w] of run.workers.entries()) {
              w.postMessage({ type: 'start', config: { ...run.config, encodings: run.parts[j].encodings } });
              if (run.paused) w.postMessage({ type: 'pause' });
            }
            settle(true);
          }
          return;
        }
        onMessage(k, msg);
      });
    }
  });
}
