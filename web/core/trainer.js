// The handle on a tiny Transformer being trained in the wasm heap
// (pe.createTrainer): its steps, evaluations and parameters, each checked,
// and its memory freed on delete() or when it is garbage-collected; and the
// options a trainer is created with, checked.
import { quote, describe, number, integer, size, options, oneOf, unwrap, typeError } from './check.js';

/**
 * The trainer's tasks and positional encodings (pe.createTrainer), for code
 * that needs them before a build has loaded (the training lab's controls).
 * The core's tables (cpp/train) are the lists: a trainer build whose table
 * differs from these refuses to load (build-info.js), and
 * tests/js/core-names.test.mjs holds posenc.d.ts's unions to the same tables.
 */
export const TRAIN_TASKS = Object.freeze(['copy', 'reverse', 'sort', 'shift', 'text']);
export const TRAIN_ENCODINGS = Object.freeze(['none', 'sinusoidal', 'learned', 'rope', 'alibi', 't5']);

/**
 * pe.createTrainer's options (`opts`) checked, with the core's defaults
 * (`defaults.trainer`; `defaults.textVocab` for the text task) for the ones
 * left out: the config the core is given. Throws a TypeError naming `fn`
 * and the option.
 */
function trainerConfig(fn, opts, defaults) {
  const o = options(fn, opts, [
    'task',
    'encoding',
    'layers',
    'dModel',
    'heads',
    'ffn',
    'vocab',
    'trainLen',
    'batch',
    'lr',
    'seed',
    'text',
  ]);
  const c = { ...defaults.trainer };
  for (const [k, v] of Object.entries(o)) if (v !== undefined) c[k] = v;
  oneOf(fn, 'task', c.task, TRAIN_TASKS);
  if (c.task === 'text') {
    if (typeof c.text !== 'string')
      throw typeError(`${fn}: the text task needs text, the corpus (a string), got ${describe(c.text)}`);
    if (o.vocab === undefined) c.vocab = defaults.textVocab;
  } else if (o.text !== undefined) {
    throw typeError(`${fn}: text is the corpus of the text task; task ${quote(c.task)} draws its own sequences`);
  }
  oneOf(fn, 'encoding', c.encoding, TRAIN_ENCODINGS);
  for (const k of ['layers', 'dModel', 'heads', 'ffn', 'vocab', 'trainLen', 'batch']) integer(fn, k, c[k]);
  number(fn, 'lr', c.lr);
  size(fn, 'seed', c.seed, 0, Number.MAX_SAFE_INTEGER);
  return c;
}

const trainerState = new WeakMap(); // Trainer -> { handle, deleted }
const deleteOnCollect =
  typeof FinalizationRegistry === 'function' ? new FinalizationRegistry((handle) => handle.delete()) : null;

/**
 * A tiny Transformer being trained in the wasm heap (see pe.createTrainer).
 * Call delete() when done (it is also deleted when garbage-collected).
 */
export class Trainer {
  constructor(token, handle, config) {
    if (token !== trainerState) throw typeError('Trainer: create one with pe.createTrainer(options)');
    const state = { handle, deleted: false, stepsAtDelete: 0 };
    trainerState.set(this, state);
    deleteOnCollect?.register(this, handle, state);
    /** The configuration, with every default filled in. */
    this.config = Object.freeze({ ...config });
    Object.freeze(this);
  }

  #state(fn) {
    const s = trainerState.get(this);
    if (s.deleted) throw typeError(`${fn}: this trainer has been deleted`);
    return s;
  }

  /** Training steps taken so far (the core's count; after delete(), the count it had). */
  get steps() {
    const s = trainerState.get(this);
    return s.deleted ? s.stepsAtDelete : unwrap('trainer.steps', s.handle.steps());
  }

  /** Runs `n` training steps (1..100000; one fresh batch each); returns the last loss. */
  step(n = 1) {
    const fn = 'trainer.step';
    const s = this.#state(fn);
    size(fn, 'n', n, 1, 100000);
    return unwrap(fn, s.handle.step(n));
  }

  /**
   * Token accuracy (0..1) on `samples` fresh sequences of `length` tokens,
   * the same sequences on every call. A learned table asked for a length
   * past its rows throws a RangeError that says why.
   */
  evaluate(length, samples = 256) {
    return this.#evaluated('evaluate', length, samples);
  }

  /**
   * The mean cross-entropy per token (nats) on the same sequences as
   * evaluate(length, samples): for the text task, the validation loss on the
   * held-out tenth of the corpus.
   */
  evaluateLoss(length, samples = 256) {
    return this.#evaluated('evaluateLoss', length, samples);
  }

  /**
   * The same evaluation a few chunks at a time, so a page's thread can yield
   * between them: evaluateStart(length, samples) checks the request as
   * evaluate() does and begins; evaluateMore(chunks) runs up to `chunks`
   * (1..4096) chunks of at most a training batch's rows and returns true
   * once done; evaluateResult() then gives { accuracy, loss }, exactly what
   * evaluate() and evaluateLoss() give. A step, or another evaluation,
   * abandons one in progress.
   */
  evaluateStart(length, samples = 256) {
    this.#evaluated('evaluateStart', length, samples);
  }

  evaluateMore(chunks = 1) {
    const fn = 'trainer.evaluateMore';
    const s = this.#state(fn);
    size(fn, 'chunks', chunks, 1, 4096);
    return unwrap(fn, s.handle.evaluateMore(chunks));
  }

  evaluateResult() {
    const fn = 'trainer.evaluateResult';
    return unwrap(fn, this.#state(fn).handle.evaluateResult());
  }

  // the core trainer's evaluate, evaluateLoss or evaluateStart, its arguments checked
  #evaluated(method, length, samples) {
    const fn = `trainer.${method}`;
    const s = this.#state(fn);
    integer(fn, 'length', length);
    integer(fn, 'samples', samples);
    return unwrap(fn, s.handle[method](length, samples));
  }

  /**
   * A copy of one parameter tensor (a Float32Array, row-major) by its name in
   * the core's list (cpp/train/transformer.h), e.g. 't5_table' (32, heads) or
   * 'pos_emb' (trainLen, dModel).
   */
  parameter(name) {
    const fn = 'trainer.parameter';
    const s = this.#state(fn);
    if (typeof name !== 'string') throw typeError(`${fn}: name must be a string, got ${describe(name)}`);
    return unwrap(fn, s.handle.parameter(name));
  }

  /**
   * The text task's corpus as the trainer reads it: `ids` (an Int32Array,
   * one of the 64 character ids per character) and `trainEnd`, where the
   * held-out tenth begins; empty ids for the other tasks. A baseline scored
   * on ids[trainEnd..] sees the split the validation loss sees.
   */
  corpus() {
    const fn = 'trainer.corpus';
    return unwrap(fn, this.#state(fn).handle.corpus());
  }

  /** One loss per step taken, oldest first (a copy). */
  lossHistory() {
    const fn = 'trainer.lossHistory';
    return unwrap(fn, this.#state(fn).handle.history()).slice();
  }

  /** Frees the trainer's memory; it cannot be used afterwards. Safe to call twice. */
  delete() {
    const s = trainerState.get(this);
    if (s.deleted) return;
    s.stepsAtDelete = this.steps;
    s.deleted = true;
    deleteOnCollect?.unregister(s);
    s.handle.delete();
  }
}

/**
 * pe.createTrainer: a Trainer on a new TrainerHandle of `core` (a trainer
 * build), for `opts` checked and completed with the core's `defaults`
 * (buildInfo().defaults).
 */
export function createTrainer(fn, core, opts, defaults) {
  const config = trainerConfig(fn, opts, defaults);
  const handle = new core.TrainerHandle();
  let trainer = null;
  try {
    unwrap(fn, handle.init({ ...config, text: config.text ?? '' }));
    trainer = new Trainer(trainerState, handle, config);
  } finally {
    // a refused config (an Error value) or an init that threw: nobody else holds the handle
    if (!trainer) handle.delete();
  }
  return trainer;
}
