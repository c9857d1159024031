// The one JavaScript entry point to the compute core. An ES module that runs
// in browsers, workers and Node 20:
//
//   import { loadPosenc } from './posenc.js';
//   const pe = await loadPosenc();                 // SIMD build where supported
//   const table = pe.sinusoidal(128, 64);          // Float32Array (128, 64)
//
// Each build (SIMD, scalar) is instantiated once, lazily, and shared by every
// caller. The .wasm files are found next to this script (not next to the
// page), so the module also works when loaded from another origin.
//
// Data movement: plain arrays are copied into the wasm heap with one bulk
// TypedArray.set into a scratch area that is allocated once and reused (it
// only ever grows), and results come back with one bulk copy. Callers that
// update every frame can skip both copies: `pe.allocate(n)` gives a
// HeapArray living in the wasm heap, accepted wherever an array is, and as
// `out` to receive a result in place.
//
// Errors: every function checks its arguments and throws a TypeError (wrong
// kind of value) or RangeError (value out of range) whose message names the
// argument; the core's own checks come back the same way. After an error the
// module keeps working.

//
// The pieces, in web/core/: load.js (finding and instantiating a build),
// check.js (argument checks, error messages), call.js (one call's arrays
// in and out), rope-scaling.js (RoPE's scaling options), heap.js
// (HeapArray, the scratch area, array arguments), trainer.js (the Trainer
// handle and its options), build-info.js (what a build says about itself:
// caps, defaults, the names of its enumerations). This file is the API over
// them.

import { simdSupported, registerEmbeddedBuild, instantiate, resolveWasmBase } from './core/load.js';
import {
  quote,
  camelCase,
  describe,
  number,
  integer,
  size,
  boolean,
  options,
  oneOf,
  unwrap,
  inputError,
  typeError,
  rangeError,
} from './core/check.js';
import { scalingOption } from './core/rope-scaling.js';
import { HeapArray, Scratch, allocateHeapArray, heapArraysHeld, arg, output, toTyped } from './core/heap.js';
import { Trainer, TRAIN_TASKS, TRAIN_ENCODINGS, createTrainer } from './core/trainer.js';
import { callCore } from './core/call.js';
import { readBuildInfo } from './core/build-info.js';

export { simdSupported, registerEmbeddedBuild };
export { quote, camelCase, HeapArray, Trainer, TRAIN_TASKS, TRAIN_ENCODINGS };

/**
 * The builds of the core: wasm/posenc-<variant>.{js,wasm}. The one list of
 * them: CMakeLists.txt and scripts/build/build.sh read it from here, and
 * core/load.js names each one's files.
 */
export const BUILD_VARIANTS = Object.freeze(['simd', 'scalar', 'train-simd', 'train-scalar']);
const instances = new Map(); // a BUILD_VARIANTS entry (+ wasmBase) -> Promise<Posenc>

/**
 * Loads the compute core. `simd: true|false` forces a build; by default the
 * SIMD build is used where the engine supports it. `trainer: true` loads the
 * larger build that also holds the tiny Transformer trainer
 * (pe.createTrainer); the lesson's training lab loads it in a worker.
 * `wasmBase` (a string or URL, resolved against document.baseURI) loads the
 * builds from a copy of web/wasm/ there instead of the package's own files.
 */
export function loadPosenc({ simd, trainer = false, wasmBase } = {}) {
  if (simd !== undefined && typeof simd !== 'boolean') {
    return Promise.reject(typeError(`loadPosenc: simd must be true, false or omitted, got ${describe(simd)}`));
  }
  if (typeof trainer !== 'boolean') {
    return Promise.reject(typeError(`loadPosenc: trainer must be true or false, got ${describe(trainer)}`));
  }
  let base;
  try {
    base = resolveWasmBase(wasmBase);
  } catch (e) {
    return Promise.reject(e);
  }
  const useSimd = simd === undefined ? simdSupported() : simd;
  if (useSimd && !simdSupported()) {
    return Promise.reject(
      inputError('loadPosenc: this engine does not support WebAssembly SIMD; load with { simd: false }'),
    );
  }
  const variant = `${trainer ? 'train-' : ''}${useSimd ? 'simd' : 'scalar'}`;
  const key = base ? `${variant} ${base.href}` : variant;
  if (!instances.has(key)) {
    const pending = instantiate(variant, base).then((core) => new Posenc(core));
    pending.catch(() => instances.delete(key)); // a failed load may be retried
    instances.set(key, pending);
  }
  return instances.get(key);
}

class Posenc {
  #core;
  #scratch;
  #workspace; // the attention kernels' packed panels and scratch rows, reused across calls
  #info; // the build's own report (core/build-info.js): defaults, names, RoPE scaling's schema

  constructor(core) {
    this.#core = core;
    this.#info = readBuildInfo(core);
    this.#scratch = new Scratch(core);
    this.#workspace = new core.AttentionWorkspace();
    /** True when the SIMD build runs. */
    this.simd = this.#info.simd;
    /** True in the build that can train (loadPosenc({ trainer: true })). */
    this.trainer = this.#info.trainer;
    /** The size caps; a request beyond them throws a RangeError. */
    this.limits = this.#info.limits;
    /** The defaults the API fills in, from the core: t5 (T5's), and trainer in the trainer build. */
    this.defaults = Object.freeze({ t5: this.#info.defaults.t5, trainer: this.#info.defaults.trainer });
    Object.freeze(this);
  }

  // A checked scaling option (scalingOption) as the core's RopeScaling: the
  // fields given, the core's defaults for the rest; none for null.
  #scaling(s) {
    const { scaling } = this.#info.defaults;
    return s === null ? scaling : { ...scaling, ...s };
  }

  /** A HeapArray of `length` elements ('f32' by default, or 'i32') in this build's heap. */
  allocate(length, type = 'f32') {
    const fn = 'allocate';
    integer(fn, 'length', length);
    if (length < 0 || length > this.limits.maxElements) {
      throw rangeError(`${fn}: length must be between 0 and ${this.limits.maxElements}, got ${length}`);
    }
    if (type !== 'f32' && type !== 'i32') throw typeError(`${fn}: type must be 'f32' or 'i32', got ${describe(type)}`);
    return allocateHeapArray(this.#core, type, length);
  }

  /**
   * Where this build's memory is: `wasmBytes` is the size of the wasm heap
   * (it only grows, up to 1 GiB), `allocatedBytes` what the allocator has
   * handed out and not taken back (live HeapArrays, the reused scratch area,
   * the attention workspace, trainers), `scratchBytes` the scratch area's
   * share, `heapArrays` and `heapArrayBytes` how many HeapArrays are live and
   * their share, and `jsHandles` the JS values the C++ side holds (Embind
   * handles; 0 between calls unless something leaks).
   */
  memoryStats() {
    const { allocatedBytes } = this.#core.memoryStats();
    const held = heapArraysHeld(this.#core);
    return {
      wasmBytes: this.#core.HEAPU8.buffer.byteLength,
      allocatedBytes,
      scratchBytes: this.#scratch.bytes,
      heapArrays: held.count,
      heapArrayBytes: held.bytes,
      jsHandles: typeof this.#core.count_emval_handles === 'function' ? this.#core.count_emval_handles() : 0,
    };
  }

  // Runs one core function: see callCore (core/call.js).
  #run(fn, inputs, outputs, invoke, opts) {
    return callCore(this.#core, this.#scratch, this.limits.maxElements, fn, inputs, outputs, invoke, opts);
  }

  /**
   * Sinusoidal table (maxLen, dModel), row-major, as the PyTorch tutorial computes it:
   * torch's bits by default; `fast: true` takes the vectorised sin/cos (<= 1.5 ULP, several
   * times faster) for tables that are only drawn.
   */
  sinusoidal(maxLen, dModel, opts) {
    const fn = 'sinusoidal';
    const { base = 10000, out, fast = false } = options(fn, opts, ['base', 'out', 'fast']);
    size(fn, 'maxLen', maxLen, 1, this.limits.maxPosition);
    size(fn, 'dModel', dModel, 2, this.limits.maxDim);
    number(fn, 'base', base);
    boolean(fn, 'fast', fast);
    const n = Math.max(maxLen, 0) * Math.max(dModel, 0);
    const [table] = this.#run(fn, [], [output(fn, 'sinusoidal table', out, 'f32', n, 'maxLen * dModel')], (o) =>
      this.#core.sinusoidal(o, maxLen, dModel, { base, fast }),
    );
    return table;
  }

  /**
   * Rows firstRow .. firstRow+count-1 of the (maxLen, dModel) sinusoidal table: (count, dModel), with
   * the bits the whole table has (exact by default: only the angles those rows share a SLEEF vector
   * with are computed). For printing a few values of a table drawn with `fast: true`.
   */
  sinusoidalRows(maxLen, dModel, firstRow, count, opts) {
    const fn = 'sinusoidalRows';
    const { base = 10000, out, fast = false } = options(fn, opts, ['base', 'out', 'fast']);
    size(fn, 'maxLen', maxLen, 1, this.limits.maxPosition);
    size(fn, 'dModel', dModel, 2, this.limits.maxDim);
    size(fn, 'firstRow', firstRow, 0, maxLen - 1);
    size(fn, 'count', count, 1, maxLen - firstRow);
    number(fn, 'base', base);
    boolean(fn, 'fast', fast);
    const n = count * dModel;
    const [rows] = this.#run(fn, [], [output(fn, 'sinusoidal rows', out, 'f32', n, 'count * dModel')], (o) =>
      this.#core.sinusoidalRows(o, maxLen, dModel, firstRow, count, { base, fast }),
    );
    return rows;
  }

  /**
   * The (maxLen, dModel) sinusoidal table's picture on (outRows, outCols) pixels, each pixel the mean
   * of the cells it covers (as boxDownsample), without making the table: a pixel row's mean over its
   * positions has a closed form, so this costs outRows x dModel/2 sin/cos (outRows x dModel is capped
   * like an output). Within 2^-24 (maxLen - 1) max θ + 1e-6 of the exact means; a pixel row of one
   * position is the table's row.
   */
  sinusoidalPicture(maxLen, dModel, outRows, outCols, opts) {
    const fn = 'sinusoidalPicture';
    const { base = 10000, out } = options(fn, opts, ['base', 'out']);
    const cap = this.limits.maxElements;
    size(fn, 'maxLen', maxLen, 1, this.limits.maxPosition);
    size(fn, 'dModel', dModel, 2, this.limits.maxDim);
    size(fn, 'outRows', outRows, 1, cap);
    size(fn, 'outCols', outCols, 1, cap);
    number(fn, 'base', base);
    const [picture] = this.#run(
      fn,
      [],
      [output(fn, 'sinusoidal picture', out, 'f32', outRows * outCols, 'outRows * outCols')],
      (o) => this.#core.sinusoidalPicture(o, maxLen, dModel, outRows, outCols, { base }),
    );
    return picture;
  }

  /** The divisors exp(2i * -ln(base)/dModel), (dModel/2): the angular frequencies of the pairs. */
  sinusoidalFrequencies(dModel, opts) {
    const fn = 'sinusoidalFrequencies';
    const { base = 10000 } = options(fn, opts, ['base']);
    size(fn, 'dModel', dModel, 2, this.limits.maxDim);
    number(fn, 'base', base);
    const [div] = this.#run(fn, [], [output(fn, 'frequencies', undefined, 'f32', Math.max(dModel >> 1, 0))], (o) =>
      this.#core.sinusoidalDiv(o, dModel, { base }),
    );
    return div;
  }

  /** Rows of a learned table (rows, dModel) at `positions`: (positions.length, dModel). */
  learnedLookup(table, rows, dModel, positions, opts) {
    const fn = 'learnedLookup';
    const { out } = options(fn, opts, ['out']);
    size(fn, 'rows', rows, 1, this.limits.maxPosition);
    size(fn, 'dModel', dModel, 1, this.limits.maxDim);
    const p = toTyped(arg(fn, 'positions', positions, 'f64'));
    const [result] = this.#run(
      fn,
      [
        arg(fn, 'table', table, 'f32', rows * dModel, 'rows * dModel'),
        arg(fn, 'positions', p, 'f64', p.length, 'positions.length'),
      ],
      [output(fn, 'lookup output', out, 'f32', p.length * Math.max(dModel, 0), 'positions.length * dModel')],
      (t, pos, o) => this.#core.learnedLookup(o, t, rows, dModel, pos, p.length),
    );
    return result;
  }

  /**
   * A (rows, cols) table averaged onto (outRows, outCols) pixels, for drawing a
   * table larger than its picture: each pixel is the mean of the cells it covers
   * (box filter, no moiré); with more pixels than cells a cell spans several.
   */
  boxDownsample(table, rows, cols, outRows, outCols, opts) {
    const fn = 'boxDownsample';
    const { out } = options(fn, opts, ['out']);
    const cap = this.limits.maxElements;
    size(fn, 'rows', rows, 1, cap);
    size(fn, 'cols', cols, 1, cap);
    size(fn, 'outRows', outRows, 1, cap);
    size(fn, 'outCols', outCols, 1, cap);
    const [result] = this.#run(
      fn,
      [arg(fn, 'table', table, 'f32', rows * cols, 'rows * cols')],
      [output(fn, 'downsampled picture', out, 'f32', outRows * outCols, 'outRows * outCols')],
      (t, o) => this.#core.boxDownsample(o, t, rows, cols, outRows, outCols),
    );
    return result;
  }

  /** RoPE inverse frequencies (dim/2), after the optional context-extension scaling. */
  ropeInvFreq(dim, opts) {
    const fn = 'ropeInvFreq';
    const { base = 10000, scaling = null } = options(fn, opts, ['base', 'scaling']);
    size(fn, 'dim', dim, 2, this.limits.maxDim);
    number(fn, 'base', base);
    const s = scalingOption(fn, scaling, this.#info.scalingTypes);
    const [inv] = this.#run(fn, [], [output(fn, 'frequencies', undefined, 'f32', Math.max(dim >> 1, 0))], (o) =>
      this.#core.ropeInvFreq(o, dim, { base, scaling: this.#scaling(s) }),
    );
    return inv;
  }

  /** The factor RoPE multiplies cos and sin by: 0.1 ln(factor) + 1 for YaRN, else 1. */
  ropeAttentionFactor(scaling) {
    const fn = 'ropeAttentionFactor';
    const s = scalingOption(fn, scaling, this.#info.scalingTypes);
    return unwrap(fn, this.#core.ropeAttentionFactor(this.#scaling(s)));
  }

  /**
   * Rotates x (rows, dim) by RoPE at `positions` (default 0..rows-1): (rows, dim). cos and sin
   * are torch's bits for each row's angle vector by default; `fast: true` takes the vectorised ones.
   */
  ropeApply(x, rows, dim, opts) {
    const fn = 'ropeApply';
    const o = options(fn, opts, ['positions', 'base', 'convention', 'rotaryDim', 'scaling', 'out', 'fast']);
    size(fn, 'rows', rows, 1, this.limits.maxPosition);
    size(fn, 'dim', dim, 2, this.limits.maxDim);
    const { base = 10000, convention = 'half', rotaryDim = dim, scaling = null, fast = false } = o;
    number(fn, 'base', base);
    boolean(fn, 'fast', fast);
    oneOf(fn, 'convention', convention, this.#info.names.ropeConventions, 'unknown convention: ');
    size(fn, 'rotaryDim', rotaryDim, 2, dim);
    const xArg = arg(fn, 'x', x, 'f32', rows * dim, 'rows * dim');
    if (!(x instanceof HeapArray)) xArg.value = toTyped(xArg); // checks x before positions are made
    let positions;
    if (o.positions === undefined) {
      positions = new Float64Array(Math.max(rows, 0)).map((_, i) => i);
    } else {
      positions = toTyped(arg(fn, 'positions', o.positions, 'f64', rows, 'rows'));
      for (let i = 0; i < positions.length; i++) {
        if (!Number.isInteger(positions[i]))
          throw rangeError(`${fn}: positions[${i}] must be an integer, got ${positions[i]}`);
      }
    }
    let maxPos = 0;
    for (const p of positions) maxPos = Math.max(maxPos, p);
    const s = scalingOption(fn, scaling, this.#info.scalingTypes, { seqLen: maxPos + 1 });
    const [result] = this.#run(
      fn,
      [xArg, arg(fn, 'positions', positions, 'f64', rows, 'rows')],
      [output(fn, 'output', o.out, 'f32', rows * dim, 'rows * dim')],
      (xa, pa, oa) =>
        this.#core.ropeApply(oa, xa, rows, dim, pa, { base, convention, rotaryDim, scaling: this.#scaling(s), fast }),
      { aliasOk: true },
    );
    return result;
  }

  /** ALiBi head slopes (heads), for any head count. */
  alibiSlopes(heads) {
    const fn = 'alibiSlopes';
    size(fn, 'heads', heads, 1, this.limits.maxHeads);
    const [slopes] = this.#run(fn, [], [output(fn, 'slopes', undefined, 'f32', Math.max(heads, 0))], (o) =>
      this.#core.alibiSlopes(o, heads),
    );
    return slopes;
  }

  /** ALiBi bias (heads, seqLen, seqLen): -m_h |i - j|; masked (j > i when causal) = -Infinity. */
  alibiBias(heads, seqLen, opts) {
    const fn = 'alibiBias';
    const { causal = true, out } = options(fn, opts, ['causal', 'out']);
    size(fn, 'heads', heads, 1, this.limits.maxHeads);
    size(fn, 'seqLen', seqLen, 1, this.limits.maxSeqLen);
    boolean(fn, 'causal', causal);
    const n = Math.max(heads, 0) * Math.max(seqLen, 0) ** 2;
    const [bias] = this.#run(fn, [], [output(fn, 'ALiBi bias', out, 'f32', n, 'heads * seqLen * seqLen')], (o) =>
      this.#core.alibiBias(o, heads, seqLen, { causal }),
    );
    return bias;
  }

  /** T5 relative-position buckets (queryLen, keyLen) of key_pos - query_pos. */
  t5Buckets(queryLen, keyLen, opts) {
    const fn = 't5Buckets';
    const t5 = this.defaults.t5;
    const {
      bidirectional = t5.bidirectional,
      numBuckets = t5.numBuckets,
      maxDistance = t5.maxDistance,
      out,
    } = options(fn, opts, ['bidirectional', 'numBuckets', 'maxDistance', 'out']);
    size(fn, 'queryLen', queryLen, 1, this.limits.maxSeqLen);
    size(fn, 'keyLen', keyLen, 1, this.limits.maxSeqLen);
    boolean(fn, 'bidirectional', bidirectional);
    size(fn, 'numBuckets', numBuckets, 2, this.limits.maxBuckets);
    integer(fn, 'maxDistance', maxDistance);
    const n = Math.max(queryLen, 0) * Math.max(keyLen, 0);
    const [buckets] = this.#run(fn, [], [output(fn, 'bucket map', out, 'i32', n, 'queryLen * keyLen')], (o) =>
      this.#core.t5Buckets(o, queryLen, keyLen, { bidirectional, numBuckets, maxDistance }),
    );
    return buckets;
  }

  /** Stable softmax over the last axis of x (rows, n). `out` may be x itself. */
  softmax(x, rows, n, opts) {
    const fn = 'softmax';
    const { out } = options(fn, opts, ['out']);
    size(fn, 'rows', rows, 1, this.limits.maxElements);
    size(fn, 'n', n, 1, this.limits.maxElements);
    const [result] = this.#run(
      fn,
      [arg(fn, 'x', x, 'f32', rows * n, 'rows * n')],
      [output(fn, 'output', out, 'f32', rows * n, 'rows * n')],
      (xa, oa) => this.#core.softmax(oa, xa, rows, n),
      { aliasOk: true },
    );
    return result;
  }

  /**
   * A tiny encoder-only Transformer to train on a synthetic task (copy,
   * reverse, sort or shift digits) with one positional encoding, for the lesson's
   * "train short, test long" lab. Deterministic: the same options give the
   * same weights, batches and losses. Options: task, encoding, layers,
   * dModel, heads, ffn, vocab, trainLen, batch, lr, seed (TrainerOptions in
   * posenc.d.ts); an option left out takes the core's default (TrainerConfig
   * in cpp/train/transformer.h, which also checks the ranges).
   */
  createTrainer(opts) {
    const fn = 'createTrainer';
    if (!this.trainer)
      throw typeError(`${fn}: this build has no trainer; load the one that does with loadPosenc({ trainer: true })`);
    return createTrainer(fn, this.#core, opts, this.#info.defaults);
  }

  /**
   * Scaled dot-product attention over several heads.
   * q, k, v: (heads, seqLen, headDim); bias: (heads, seqLen, seqLen) added to the scaled scores.
   * alibi: true adds ALiBi's -m_h |i - j|; t5: { table: (numBuckets, heads), numBuckets,
   * maxDistance, bidirectional } adds T5's learned bias by bucket: both computed on the fly,
   * without a (heads, seqLen, seqLen) tensor.
   * Returns { output: (heads, seqLen, headDim), weights: (heads, seqLen, seqLen) }
   * (weights is null with returnWeights: false, which saves writing and copying them).
   */
  attention(q, k, v, opts) {
    const fn = 'attention';
    const o = options(fn, opts, [
      'heads',
      'seqLen',
      'headDim',
      'causal',
      'bias',
      'scale',
      'alibi',
      't5',
      'returnWeights',
      'out',
    ]);
    const { heads, seqLen, headDim, causal = false, bias = null, alibi = false, t5 = null, returnWeights = true } = o;
    size(fn, 'heads', heads, 1, this.limits.maxHeads);
    size(fn, 'seqLen', seqLen, 1, this.limits.maxSeqLen);
    size(fn, 'headDim', headDim, 1, this.limits.maxDim);
    boolean(fn, 'causal', causal);
    boolean(fn, 'alibi', alibi);
    boolean(fn, 'returnWeights', returnWeights);
    const scale = o.scale === undefined ? 1 / Math.sqrt(headDim) : number(fn, 'scale', o.scale);
    const outs = options(`${fn} (out)`, o.out, returnWeights ? ['output', 'weights'] : ['output']);
    const n = heads * seqLen * headDim;
    const nn = heads * seqLen * seqLen;
    const text = 'heads * seqLen * headDim';
    const inputs = [arg(fn, 'q', q, 'f32', n, text), arg(fn, 'k', k, 'f32', n, text), arg(fn, 'v', v, 'f32', n, text)];
    if (bias !== null) inputs.push(arg(fn, 'bias', bias, 'f32', nn, 'heads * seqLen * seqLen'));
    let t5Config = null;
    if (t5 !== null) {
      const t = options(`${fn} (t5)`, t5, ['table', 'numBuckets', 'maxDistance', 'bidirectional']);
      t5Config = { ...this.defaults.t5, ...t };
      size(fn, 't5.numBuckets', t5Config.numBuckets, 2, this.limits.maxBuckets);
      integer(fn, 't5.maxDistance', t5Config.maxDistance);
      boolean(fn, 't5.bidirectional', t5Config.bidirectional);
      inputs.push(arg(fn, 't5.table', t.table, 'f32', t5Config.numBuckets * heads, 't5.numBuckets * heads'));
    }
    const outputs = [output(fn, 'output', outs.output, 'f32', n, text)];
    if (returnWeights) outputs.push(output(fn, 'weights', outs.weights, 'f32', nn, 'heads * seqLen * seqLen'));
    const results = this.#run(fn, inputs, outputs, (...addr) => {
      const [qa, ka, va] = addr;
      let next = 3;
      const ba = bias !== null ? addr[next++] : 0;
      const ta = t5Config !== null ? addr[next++] : 0;
      const oa = addr[next++];
      const wa = returnWeights ? addr[next++] : 0;
      const t = t5Config ?? this.defaults.t5;
      const arrays = { out: oa, weights: wa, q: qa, k: ka, v: va };
      const attn = {
        causal,
        bias: ba,
        scale,
        alibi,
        t5Table: ta,
        t5Bidirectional: t.bidirectional,
        t5NumBuckets: t.numBuckets,
        t5MaxDistance: t.maxDistance,
      };
      return this.#core.attention(arrays, heads, seqLen, headDim, attn, this.#workspace);
    });
    return { output: results[0], weights: returnWeights ? results[1] : null };
  }
}
