// The handle on a tiny Transformer being trained in the wasm heap
// (pe.createTrainer): its steps, evaluations and parameters, each checked,
// and its memory freed on delete() or when it is garbage-collected.
import { describe, integer, size, unwrap } from './check.js';

const trainerState = new WeakMap(); // Trainer -> { handle, deleted }
const deleteOnCollect =
  typeof FinalizationRegistry === 'function' ? new FinalizationRegistry((handle) => handle.delete()) : null;

/**
 * A tiny Transformer being trained in the wasm heap (see pe.createTrainer).
 * Call delete() when done (it is also deleted when garbage-collected).
 */
export class Trainer {
  constructor(token, handle, config) {
    if (token !== trainerState) throw new TypeError('Trainer: create one with pe.createTrainer(options)');
    const state = { handle, deleted: false, stepsAtDelete: 0 };
    trainerState.set(this, state);
    deleteOnCollect?.register(this, handle, state);
    /** The configuration, with every default filled in. */
    this.config = Object.freeze({ ...config });
    Object.freeze(this);
  }

  #state(fn) {
    const s = trainerState.get(this);
    if (s.deleted) throw new TypeError(`${fn}: this trainer has been deleted`);
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

  // the core trainer's evaluate or evaluateLoss, its arguments checked
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
    if (typeof name !== 'string') throw new TypeError(`${fn}: name must be a string, got ${describe(name)}`);
    return unwrap(fn, s.handle.parameter(name));
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

/** Wraps a core TrainerHandle, initialised with `config`, as a Trainer. */
export const wrapTrainer = (handle, config) => new Trainer(trainerState, handle, config);
