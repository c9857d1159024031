// The training loop of <train-lab>, shared by its worker
// (web/workers/train-worker.js) and its on-page fallback, so both run exactly
// the same schedule:
// - one trainer per encoding, stepped round-robin a few steps at a time so
//   every loss curve grows together (and a pause leaves them comparable);
// - work happens only inside runFor(ms), which returns within about one
//   training step of its budget: the caller decides when to call it again
//   (that is how pause/resume works, and how the page stays responsive);
// - the 1x (train length) accuracy is measured every EVAL_EVERY steps for a
//   live readout and to record when each encoding first reached 99%;
// - at the end every trainer is evaluated at 1x, 2x and 4x the train length.
// The text task (next-character prediction on a corpus) measures the
// validation loss instead: every TEXT.evalEvery steps on TEXT.evalSamples
// held-out windows, which draws its curve, and at 1x, 2x and 4x at the end.
// scripts/record/record-lm-results.mjs records the lesson's runs with this same
// class, so a learner's run of one seed retraces the recorded curve.
//
// Everything posted out of here is plain data (numbers, strings, typed
// arrays), so it crosses postMessage unchanged.

import { TRAIN_ENCODINGS as ENCODINGS, TRAIN_TASKS as TASKS } from '../../posenc.js';

/** Encodings the lab can train, in the order it shows them, and its tasks: the trainer's own lists. */
export { ENCODINGS, TASKS };
/** Each encoding as the lesson names it (the lab's checkboxes, legends and tables; section 07's numbers). */
export const ENCODING_LABELS = Object.freeze({
  none: 'none',
  sinusoidal: 'sinusoidal',
  learned: 'learned',
  rope: 'RoPE',
  alibi: 'ALiBi',
  t5: 'T5 bias',
});

/** The fixed model of the lab: two layers of four heads, small enough to train in a tab (the lesson states the times measured). */
export const MODEL = Object.freeze({ layers: 2, dModel: 64, heads: 4, batch: 32, vocab: 10 });
/**
 * The text task: the same model with the 64-character vocabulary, on batches
 * of 16 windows (16 x 64 = 1,024 characters a step, twice a digit batch's
 * 512), and the settings of the recorded comparison
 * (scripts/record/record-lm-results.mjs), which the lesson's text lab starts with.
 */
export const TEXT = Object.freeze({
  batch: 16,
  vocab: 64,
  evalEvery: 100,
  evalSamples: 64,
  trainLen: 64,
  steps: 1200,
  lr: 3e-3,
});
const MAX_TEXT = 1 << 21; // characters of a corpus a message may carry
/** Test lengths as multiples of the train length. */
export const MULTIPLES = [1, 2, 4];
export const EVAL_SAMPLES = 256;
/** Steps between live 1x evaluations. */
export const EVAL_EVERY = 200;
/** An encoding counts as "solved" at this 1x token accuracy. */
export const SOLVED = 0.99;
const CHUNK = 5; // steps per trainer per turn of the round robin
const FINAL_LOSS_STEPS = 50; // the final loss is the mean of this many last steps

/**
 * What a lab run may be set to, and its defaults: the one table that the
 * lab's controls (train-lab.js's static params), this module's checkConfig
 * (the worker's and the on-page loop's) and the tag table in docs/embedding.md read.
 */
export const LAB_OPTIONS = Object.freeze({
  task: Object.freeze({ options: TASKS, default: 'reverse' }),
  encodings: Object.freeze({ options: ENCODINGS, default: ENCODINGS }),
  steps: Object.freeze({ min: 50, max: 20000, default: 1500 }),
  seed: Object.freeze({ min: 0, max: 1e6, default: 1 }),
  lr: Object.freeze({ min: 1e-4, max: 1e-2, default: 1e-3 }),
  trainLen: Object.freeze({ min: 4, max: 64, default: 16 }),
});

/**
 * Checks a run's configuration (from a message: never trusted) against
 * LAB_OPTIONS and returns a clean copy, or throws an Error saying what is wrong.
 * { task, encodings: string[] (1..6, unique, known), steps, seed, lr, trainLen }
 */
export function checkConfig(c) {
  if (typeof c !== 'object' || c === null) throw new Error('config must be an object');
  if (c.task === 'text' && (typeof c.text !== 'string' || c.text.length > MAX_TEXT)) {
    throw new Error(`the text task needs text, the corpus: a string of at most ${MAX_TEXT} characters`);
  }
  const int = (name) => {
    const v = c[name];
    const { min, max } = LAB_OPTIONS[name];
    if (!Number.isInteger(v) || v < min || v > max) throw new Error(`${name} must be an integer from ${min} to ${max}`);
    return v;
  };
  if (!TASKS.includes(c.task)) throw new Error(`task must be one of ${TASKS.join(', ')}`);
  const enc = c.encodings;
  if (
    !Array.isArray(enc) ||
    enc.length < 1 ||
    enc.length > ENCODINGS.length ||
    new Set(enc).size !== enc.length ||
    !enc.every((e) => ENCODINGS.includes(e))
  ) {
    throw new Error(`encodings must be 1 to ${ENCODINGS.length} different names among ${ENCODINGS.join(', ')}`);
  }
  const { min, max } = LAB_OPTIONS.lr;
  if (typeof c.lr !== 'number' || !(c.lr >= min && c.lr <= max))
    throw new Error(`lr must be a number from ${min} to ${max}`);
  const clean = {
    task: c.task,
    encodings: [...enc],
    steps: int('steps'),
    seed: int('seed'),
    lr: c.lr,
    trainLen: int('trainLen'),
  };
  if (c.task === 'text') clean.text = c.text;
  return clean;
}

/** The trainer options of one encoding of a run (createTrainer's). */
export function trainerOptions(config, encoding) {
  const { task, trainLen, seed, lr } = config;
  const model = { layers: MODEL.layers, dModel: MODEL.dModel, heads: MODEL.heads };
  if (task === 'text')
    return { task, encoding, trainLen, seed, lr, ...model, batch: TEXT.batch, vocab: TEXT.vocab, text: config.text };
  return { task, encoding, trainLen, seed, lr, ...model, batch: MODEL.batch, vocab: MODEL.vocab };
}

/** Loss points are means over this many steps (about 10; fewer for short runs, more for long ones so a curve stays under ~400 points). */
export function bucketSize(steps) {
  return Math.max(Math.min(10, Math.ceil(steps / 20)), Math.ceil(steps / 400));
}

export class TrainSession {
  /**
   * pe: a Posenc of the trainer build; config: checkConfig's output (or
   * anything it accepts). Throws if a trainer cannot be made.
   */
  constructor(pe, config) {
    this.config = checkConfig(config);
    const { task, steps } = this.config;
    this.bucket = bucketSize(steps);
    this.runs = [];
    try {
      for (const encoding of this.config.encodings) {
        const trainer = pe.createTrainer(trainerOptions(this.config, encoding));
        this.runs.push({
          encoding,
          trainer,
          // (ceil(steps / bucket)) mean loss of each bucket of steps; `points` are filled
          curve: new Float32Array(Math.ceil(steps / this.bucket)),
          points: 0,
          bucketSum: 0,
          bucketCount: 0,
          recent: new Float32Array(FINAL_LOSS_STEPS), // ring of the last losses
          lastLoss: NaN,
          acc1x: null, // latest live 1x accuracy
          acc1xStep: 0,
          solved: null, // { step, ms }: first live evaluation at >= SOLVED
          // text: the validation loss after every TEXT.evalEvery steps (`valPoints` filled)
          val: task === 'text' ? new Float32Array(Math.floor(steps / TEXT.evalEvery)) : null,
          valPoints: 0,
        });
      }
    } catch (error) {
      this.delete();
      throw error;
    }
    this.turn = 0; // index into runs of the trainer whose turn it is
    this.leftInChunk = CHUNK;
    this.stepMs = 0; // time spent in training steps (not evaluations)
    this.stepsDone = 0; // over all trainers
    this.elapsedMs = 0; // time spent inside runFor (finished slices)
    this.sliceStart = 0;
    // the final evaluations, one after another
    this.finalQueue = null;
    // the evaluation under way ({ run, done(result) }): run a chunk at a time
    // (the core's evaluateMore), so a slice on the page's thread stays short;
    // no trainer steps until it is done, so its numbers are evaluate()'s
    this.job = null;
    this.results = null;
  }

  get total() {
    return this.config.steps * this.runs.length;
  }

  get done() {
    return this.results !== null;
  }

  /** Mean measured time of one training step (ms), or null before the first. */
  get msPerStep() {
    return this.stepsDone ? this.stepMs / this.stepsDone : null;
  }

  /**
   * Works for about `ms` milliseconds (at least one step or one chunk of an
   * evaluation);
   * returns true while there is work left.
   */
  runFor(ms) {
    if (this.done) return false;
    const start = performance.now();
    this.sliceStart = start;
    const deadline = start + ms;
    do {
      if (this.job) this.#evalChunk();
      else if (this.stepsDone < this.total) this.#trainOne();
      else this.#finalOne();
    } while (!this.done && performance.now() < deadline);
    this.elapsedMs += performance.now() - start;
    return !this.done;
  }

  // One step of the trainer whose turn it is, then pass the turn on after CHUNK steps.
  #trainOne() {
    const steps = this.config.steps;
    let run = this.runs[this.turn];
    // a trainer that has finished gives its turns away
    while (run.trainer.steps >= steps) {
      this.#nextTurn();
      run = this.runs[this.turn];
    }
    const t0 = performance.now();
    const loss = run.trainer.step(1);
    this.stepMs += performance.now() - t0;
    this.stepsDone++;
    const n = run.trainer.steps;
    run.lastLoss = loss;
    run.recent[(n - 1) % FINAL_LOSS_STEPS] = loss;
    run.bucketSum += loss;
    run.bucketCount++;
    if (run.bucketCount === this.bucket || n === steps) {
      run.curve[run.points++] = run.bucketSum / run.bucketCount;
      run.bucketSum = 0;
      run.bucketCount = 0;
    }
    if (--this.leftInChunk === 0 || n === steps) this.#nextTurn();
    if (run.val) {
      if (n % TEXT.evalEvery === 0)
        this.#evaluate(run, this.config.trainLen, TEXT.evalSamples, (r) => (run.val[run.valPoints++] = r.loss));
    } else if (n % EVAL_EVERY === 0 && n < steps) this.#liveEval(run);
  }

  // Starts an evaluation of `run`'s trainer (the core checks it here: a
  // learned table past its rows throws now); `done(result)` gets its
  // { accuracy, loss } once the last chunk has run.
  #evaluate(run, length, samples, done) {
    run.trainer.evaluateStart(length, samples);
    this.job = { run, done };
  }

  #evalChunk() {
    const job = this.job;
    if (!job.run.trainer.evaluateMore(1)) return;
    this.job = null;
    job.done(job.run.trainer.evaluateResult());
  }

  #nextTurn() {
    this.turn = (this.turn + 1) % this.runs.length;
    this.leftInChunk = CHUNK;
  }

  #liveEval(run) {
    this.#evaluate(run, this.config.trainLen, EVAL_SAMPLES, ({ accuracy }) => this.#noteAcc1x(run, accuracy));
  }

  // The latest 1x accuracy of `run` (live or final), and when it first reached SOLVED.
  #noteAcc1x(run, accuracy) {
    run.acc1x = accuracy;
    run.acc1xStep = run.trainer.steps;
    if (run.solved === null && accuracy >= SOLVED) {
      // elapsedMs grows at the end of runFor: add the time of the current slice so far
      run.solved = { step: run.trainer.steps, ms: this.elapsedMs + (performance.now() - this.sliceStart) };
    }
  }

  // Starts the next final evaluation (a run at one length).
  #finalOne() {
    const L = this.config.trainLen;
    if (!this.finalQueue) {
      this.finalQueue = [];
      this.finalAcc = this.runs.map(() => ({}));
      this.runs.forEach((run, i) => MULTIPLES.forEach((m) => this.finalQueue.push([i, m])));
    }
    const [i, m] = this.finalQueue.shift();
    const run = this.runs[i];
    try {
      // text: the validation loss and accuracy on held-out windows of m L characters
      this.#evaluate(run, m * L, run.val ? TEXT.evalSamples : EVAL_SAMPLES, (r) => this.#finalDone(i, m, r));
    } catch (error) {
      // a learned table past its rows: no number, the reason instead
      if (!(error instanceof RangeError)) throw error;
      this.#finalDone(i, m, null, error.detail ?? error.message); // the core's message, without "trainer.evaluateStart: "
    }
  }

  // A final evaluation's result (null and the reason where the core refused
  // the length); the last one fills `results`.
  #finalDone(i, m, result, reason) {
    const run = this.runs[i];
    const key = `acc${m}x`;
    this.finalAcc[i][key] = result ? result.accuracy : null;
    if (run.val) this.finalAcc[i][`loss${m}x`] = result ? result.loss : null;
    if (!result) this.finalAcc[i][`reason${m}x`] = reason;
    if (m === 1) this.#noteAcc1x(run, this.finalAcc[i][key]);
    if (this.finalQueue.length === 0) {
      this.results = this.runs.map((r, j) => ({
        encoding: r.encoding,
        acc1x: this.finalAcc[j].acc1x ?? null,
        acc2x: this.finalAcc[j].acc2x ?? null,
        acc4x: this.finalAcc[j].acc4x ?? null,
        ...(this.finalAcc[j].reason2x ? { reason2x: this.finalAcc[j].reason2x } : {}),
        ...(this.finalAcc[j].reason4x ? { reason4x: this.finalAcc[j].reason4x } : {}),
        finalLoss: finalLoss(r, this.config.steps),
        solved: r.solved,
        ...(r.val
          ? {
              loss1x: this.finalAcc[j].loss1x ?? null,
              loss2x: this.finalAcc[j].loss2x ?? null,
              loss4x: this.finalAcc[j].loss4x ?? null,
              val: r.val.slice(),
            }
          : {}),
      }));
    }
  }

  /**
   * A snapshot for the page: { steps, total, msPerStep, elapsedMs, evaluating,
   * runs: [{ encoding, steps, curve: Float32Array(points) (copy), lastLoss, acc1x, acc1xStep, solved }] }.
   */
  snapshot() {
    return {
      steps: this.stepsDone,
      total: this.total,
      bucket: this.bucket,
      msPerStep: this.msPerStep,
      elapsedMs: this.elapsedMs,
      evaluating: this.stepsDone >= this.total && !this.done,
      runs: this.runs.map((r) => ({
        encoding: r.encoding,
        steps: r.trainer.steps,
        curve: r.curve.slice(0, r.points),
        lastLoss: r.lastLoss,
        acc1x: r.acc1x,
        acc1xStep: r.acc1xStep,
        solved: r.solved,
        ...(r.val ? { val: r.val.slice(0, r.valPoints) } : {}),
      })),
    };
  }

  /** Frees every trainer (safe to call twice). */
  delete() {
    for (const r of this.runs) r.trainer.delete();
    this.runs = [];
  }
}

function finalLoss(run, steps) {
  const n = Math.min(FINAL_LOSS_STEPS, steps);
  let s = 0;
  for (let k = 0; k < n; k++) s += run.recent[k];
  return s / n;
}

/**
 * Drives a TrainSession in time slices and reports through `post`, the same
 * messages from a worker or from the page:
 *   { type: 'progress', ...snapshot } about every `progressMs`,
 *   { type: 'done', results, ...snapshot }, { type: 'error', message }.
 * `sliceMs`: work per slice; between slices the loop yields (setTimeout 0),
 * so a pause message (or the page's own work) is handled promptly.
 */
export class SessionLoop {
  constructor(post, { sliceMs = 50, progressMs = 150 } = {}) {
    this.post = post;
    this.sliceMs = sliceMs;
    this.progressMs = progressMs;
    this.session = null;
    this.running = false;
    this.timer = 0;
    this.lastPost = 0;
  }

  start(pe, config) {
    this.reset();
    try {
      this.session = new TrainSession(pe, config);
    } catch (error) {
      this.post({ type: 'error', message: error.message });
      return;
    }
    this.lastPost = performance.now();
    this.resume();
  }

  pause() {
    this.running = false;
    clearTimeout(this.timer);
    this.timer = 0;
    // the exact step count at the pause, so the page shows where it stopped
    if (this.session && !this.session.done) this.post({ type: 'progress', paused: true, ...this.session.snapshot() });
  }

  resume() {
    if (!this.session || this.session.done || this.running) return;
    this.running = true;
    this.#schedule();
  }

  reset() {
    this.running = false;
    clearTimeout(this.timer);
    this.timer = 0;
    this.session?.delete();
    this.session = null;
  }

  #schedule() {
    this.timer = setTimeout(() => this.#tick(), 0);
  }

  #tick() {
    this.timer = 0;
    const s = this.session;
    if (!this.running || !s) return;
    let more;
    try {
      more = s.runFor(this.sliceMs);
    } catch (error) {
      this.running = false;
      this.post({ type: 'error', message: error.message });
      return;
    }
    if (!more) {
      this.running = false;
      this.post({ type: 'done', results: s.results, ...s.snapshot() });
      return;
    }
    const now = performance.now();
    if (now - this.lastPost >= this.progressMs) {
      this.lastPost = now;
      this.post({ type: 'progress', ...s.snapshot() });
    }
    this.#schedule();
  }
}
