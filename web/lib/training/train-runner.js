// <train-lab>'s runs, without the element: a TrainRunner starts a run
// (./train-run.js, its state) with the settings it is given, loads the text
// of a text run, splits the encodings over a pool of workers
// (./train-workers.js) or, where no worker can start, trains them all on
// this thread in short slices (./train-session.js's SessionLoop, the same
// loop the workers run), passes Pause and Resume on, collects the parts'
// messages into one set of results and says what happened through events.
// No DOM: the element renders what the runner holds, and a Node test drives
// the runner with the real trainer core.
//
// Events (CustomEvent):
//   change    the run's state or mode changed, or the run was cleared
//   progress  a part advanced; detail { steps, total } (steps per encoding)
//   done      every part finished; detail { results } (runInfo is set)
//   error     the run failed; detail { message }, meant for the learner
import { TrainRun } from './train-run.js';
import { SessionLoop } from './train-session.js';
import { startWorkers } from './train-workers.js';
import { loadCorpus } from './text-task.js';

/** Workers at most (each holds a trainer build and its trainers: a few MB). */
export const MAX_WORKERS = 3;
const WORKER_READY_TIMEOUT_MS = 30000;
const PAGE_SLICE_MS = 12; // work per slice when training on the page (keeps frames coming)
const PROGRESS_MS = 150;

const trainerOnPage = async () => (await import('../../posenc.js')).loadPosenc({ trainer: true });

export class TrainRunner extends EventTarget {
  #stopped = null; // aborts when the current run is stopped, so its start need not wait for workers that are gone
  /**
   * spawn: () => Worker, the element's own new Worker(new URL(...)) call
   * (bundlers see it only there), or null where workers cannot train: then
   * every run trains on this thread. loadTrainer: () => Promise<Posenc> of
   * the trainer build, for that fallback. maxWorkers: a cap on the pool (the
   * measuring script compares 1 and 2), settable before a start.
   */
  constructor({
    spawn = null,
    loadTrainer = trainerOnPage,
    maxWorkers = MAX_WORKERS,
    readyTimeoutMs = WORKER_READY_TIMEOUT_MS,
    sliceMs = PAGE_SLICE_MS,
  } = {}) {
    super();
    this.spawn = spawn;
    this.loadTrainer = loadTrainer;
    this.maxWorkers = maxWorkers;
    this.readyTimeoutMs = readyTimeoutMs;
    this.sliceMs = sliceMs;
    this.run = null; // the run in progress (or finished, or failed); null before Start and after Reset
    this.results = null; // [{ encoding, acc1x, acc2x, acc4x, reason2x?, reason4x?, finalLoss, solved, ... }] once done
    this.runInfo = null; // { mode, workers, simd, loadMs, wallMs, msPerStep } of the last finished run
  }

  /**
   * Starts a fresh run (stopping the one before): settings { task,
   * encodings, steps, seed, lr, trainLen } (train-session.js's checkConfig
   * checks them where they are trained) and, for task text, `corpus` (a URL,
   * '' for the lesson's text). Resolves once the run trains, or has failed
   * or been stopped meanwhile.
   */
  async start({ corpus = '', ...config }) {
    this.#stop();
    // settings that are not a list are refused where they are trained (checkConfig), with the reason
    const encodings = Array.isArray(config.encodings) ? config.encodings : [];
    const n = Math.max(
      1,
      Math.min(globalThis.navigator?.hardwareConcurrency || 2, MAX_WORKERS, encodings.length, this.maxWorkers),
    );
    // each worker gets every n-th encoding; each part reports on its own (on the page: one part)
    const parts = Array.from({ length: n }, (_, k) => ({
      encodings: encodings.filter((_, i) => i % n === k),
      snap: null,
      results: null,
    }));
    const run = new TrainRun({ ...config }, parts, performance.now());
    this.#stopped = new AbortController();
    this.run = run;
    this.results = null;
    this.runInfo = null;
    this.#changed();
    if (config.task === 'text') {
      run.waitingFor = 'text';
      try {
        run.config.text = await loadCorpus(corpus);
      } catch (error) {
        if (this.run === run) this.#fail(run, error.message);
        return;
      }
      if (this.run !== run) return; // started again, or reset, meanwhile
      run.waitingFor = 'trainer';
      this.#changed();
    }
    const ok = this.spawn ? await this.#startWorkers(run).catch(() => false) : false;
    if (this.run !== run) return; // reset (or restarted) while the workers loaded
    if (ok) run.mode = 'workers';
    else {
      for (const w of run.workers) w.terminate();
      run.workers = [];
      await this.#startOnPage(run);
      if (this.run !== run) return;
    }
    if (!run.to('loaded')) return; // failed (or finished) while loading
    run.tStart = performance.now();
    this.#changed();
  }

  /** Pauses the run (loading or training); a run paused while loading starts paused. */
  pause() {
    this.#control('pause');
  }

  /** Resumes a paused run. */
  resume() {
    this.#control('resume');
  }

  /** Stops the run, ends its workers and clears it and its results (Reset). */
  reset() {
    this.#stop();
    const had = this.run !== null || this.results !== null;
    this.run = null;
    this.results = null;
    this.runInfo = null;
    if (had) this.#changed();
  }

  /**
   * What the chart and the tables draw, per encoding of `encodings` (the
   * run's own when it has one): { enc, curve (Float32Array: one mean loss
   * per `bucket` steps), bucket, steps, lastLoss, acc1x, val (text: the
   * validation losses), result (once done, else null) }.
   */
  series(encodings) {
    const latest = new Map();
    for (const part of this.run?.parts ?? [])
      for (const r of part.snap?.runs ?? []) latest.set(r.encoding, { ...r, bucket: part.snap.bucket });
    const results = new Map((this.results ?? []).map((r) => [r.encoding, r]));
    return (this.run?.config.encodings ?? encodings).map((enc) => ({
      enc,
      ...(latest.get(enc) ?? {
        curve: new Float32Array(0),
        bucket: 1,
        steps: 0,
        lastLoss: NaN,
        acc1x: null,
        val: null,
      }),
      result: results.get(enc) ?? null,
    }));
  }

  // Resolves true once every worker has loaded the trainer and got its share, false if any cannot.
  #startWorkers(run) {
    const { signal } = this.#stopped;
    return startWorkers(run, this.spawn, (k, msg) => this.#message(run, k, msg), this.readyTimeoutMs, signal);
  }

  // The fallback: one session for every encoding, on this thread, in short slices.
  async #startOnPage(run) {
    run.mode = 'page';
    run.parts = [{ encodings: run.config.encodings, snap: null, results: null }];
    try {
      const pe = await this.loadTrainer();
      if (this.run !== run) return;
      run.simd = pe.simd;
      run.loop = new SessionLoop((msg) => this.#message(run, 0, msg), {
        sliceMs: this.sliceMs,
        progressMs: PROGRESS_MS,
      });
      run.loop.start(pe, run.config);
      if (run.paused) run.loop.pause();
    } catch (error) {
      this.#message(run, 0, { type: 'error', message: `the trainer could not be loaded: ${error.message}` });
    }
  }

  // 'pause' or 'resume' to each worker and to the loop on the page
  #control(type) {
    const run = this.run;
    if (!run?.to(type)) return;
    for (const w of run.workers) w.postMessage({ type });
    run.loop?.[type]();
    this.#changed();
  }

  #stop() {
    const run = this.run;
    if (!run) return;
    this.#stopped.abort();
    this.#release(run);
    run.to('stop');
  }

  // the workers' memory and the page loop's trainers go back at once
  #release(run) {
    for (const w of run.workers) w.terminate();
    run.workers = [];
    run.loop?.reset();
    run.loop = null;
  }

  // A message from part k (a worker, or the loop on the page).
  #message(run, k, msg) {
    if (this.run !== run || typeof msg !== 'object' || msg === null) return;
    const part = run.parts[k];
    if (msg.type === 'progress' || msg.type === 'done') {
      part.snap = msg;
      if (msg.type === 'done') part.results = msg.results;
      this.dispatchEvent(new CustomEvent('progress', { detail: run.steps() }));
      if (run.parts.every((p) => p.results)) this.#finish(run);
    } else if (msg.type === 'error') {
      this.#fail(run, `Training stopped: ${String(msg.message).slice(0, 300)}`);
    }
  }

  #fail(run, message) {
    this.#release(run);
    run.to('fail');
    this.#changed();
    this.dispatchEvent(new CustomEvent('error', { detail: { message } }));
  }

  #finish(run) {
    const byEnc = new Map(run.parts.flatMap((p) => p.results.map((r) => [r.encoding, r])));
    this.results = run.config.encodings.map((e) => byEnc.get(e));
    this.runInfo = {
      mode: run.mode,
      workers: run.mode === 'workers' ? run.parts.length : 0,
      simd: run.simd,
      loadMs: run.tStart - run.t0,
      wallMs: performance.now() - run.tStart,
      msPerStep: run.parts.map((p) => p.snap.msPerStep), // per part (worker): mean time of one training step
    };
    this.#release(run); // done: the workers' memory, and the trainers of the loop on the page, go back
    run.to('finish');
    this.#changed();
    this.dispatchEvent(new CustomEvent('done', { detail: { results: this.results } }));
  }

  #changed() {
    this.dispatchEvent(new CustomEvent('change'));
  }
}
