// Type declarations for web/posenc.js, the compute core's JavaScript API.
// The names of the core's enumerations are written here as literal types;
// tests/js/core-names.test.mjs holds each list to the core's table.

/** RoPE's pairing of coordinates (cpp/core/rope.h). */
export type RopeConvention = 'half' | 'interleaved';

export type RopeScaling =
  | { type: 'linear'; factor: number }
  | { type: 'dynamic'; factor: number; maxPositions: number; seqLen?: number }
  | {
      type: 'yarn';
      factor: number;
      originalMaxPositions: number;
      betaFast?: number;
      betaSlow?: number;
      /** floor/ceil the correction range (HF's default true; gpt-oss sets false) */
      truncate?: boolean;
      /** the config's attention_factor; else 0.1 ln(factor) + 1, or DeepSeek's mscale ratio */
      attentionFactor?: number;
      mscale?: number;
      mscaleAllDim?: number;
    }
  | { type: 'llama3'; factor: number; originalMaxPositions: number; lowFreqFactor?: number; highFreqFactor?: number }
  | {
      /** LongRoPE (Phi-3): short factors while seqLen <= originalMaxPositions, long beyond; one per pair */
      type: 'longrope';
      shortFactor: ArrayLike<number>;
      longFactor: ArrayLike<number>;
      originalMaxPositions: number;
      /** factor (or maxPositions, for HF's maxPositions / originalMaxPositions) sets the attention factor */
      factor?: number;
      maxPositions?: number;
      seqLen?: number;
      attentionFactor?: number;
    };

/** An array in the wasm heap of one loaded build (see Posenc.allocate). */
export declare class HeapArray {
  private constructor();
  readonly length: number;
  readonly type: 'f32' | 'i32';
  /** A view of the elements; valid until the next call into the module. */
  readonly array: Float32Array | Int32Array;
  set(values: ArrayLike<number>): this;
  toArray(): Float32Array | Int32Array;
  /** Elements [begin, end) sharing this array's memory (no copy); usable while this array is. */
  subarray(begin?: number, end?: number): HeapArray;
  /** Releases the memory (on a subarray: retires only that view). */
  free(): void;
}

export type NumericArray = Float32Array | Float64Array | ArrayLike<number> | HeapArray;
/** Where a result goes: a typed array of the right length, or a HeapArray. */
export type Out<T> = T | HeapArray;

export interface PosencLimits {
  /** Largest output tensor, in elements. */
  readonly maxElements: number;
  /** Largest position (float32 holds every integer up to 2^24). */
  readonly maxPosition: number;
  readonly maxSeqLen: number;
  readonly maxDim: number;
  readonly maxHeads: number;
  readonly maxBuckets: number;
}

export interface Posenc {
  /** True when the SIMD build runs. */
  readonly simd: boolean;
  readonly limits: PosencLimits;
  /** An array of `length` elements in this build's heap, usable as input and as `out` without copies. */
  allocate(length: number, type?: 'f32' | 'i32'): HeapArray;
  /** Heap size, bytes allocated and not freed, the scratch area's size, and JS handles held by C++. */
  memoryStats(): {
    wasmBytes: number;
    allocatedBytes: number;
    scratchBytes: number;
    heapArrays: number;
    heapArrayBytes: number;
    jsHandles: number;
  };
  /** True in the build loaded with loadPosenc({ trainer: true }). */
  readonly trainer: boolean;
  /** The defaults the API fills in, from the core: T5's (t5Buckets, attention's t5), and the trainer's in the trainer build. */
  readonly defaults: {
    readonly t5: { readonly numBuckets: number; readonly maxDistance: number; readonly bidirectional: boolean };
    readonly trainer?: Readonly<Required<Omit<TrainerOptions, 'text'>>>;
  };
  /** A tiny Transformer to train (trainer build only; see TrainerOptions for the defaults). */
  createTrainer(options?: TrainerOptions): Trainer;
  /**
   * (maxLen, dModel) row-major; dModel must be even. By default every value is the float32 PyTorch
   * 1.13 prints for the tutorial's code (SLEEF's sin/cos, bit for bit); `fast: true` takes the
   * vectorised sin/cos instead (<= 1.5 ULP, several times faster): for tables that are only drawn.
   */
  sinusoidal(
    maxLen: number,
    dModel: number,
    options?: { base?: number; out?: Out<Float32Array>; fast?: boolean },
  ): Float32Array;
  /**
   * Rows firstRow .. firstRow + count - 1 of the (maxLen, dModel) table: (count, dModel), with the bits
   * the whole table has (exact unless `fast`); cheap, for printing values of a table drawn with `fast: true`.
   */
  sinusoidalRows(
    maxLen: number,
    dModel: number,
    firstRow: number,
    count: number,
    options?: { base?: number; out?: Out<Float32Array>; fast?: boolean },
  ): Float32Array;
  /**
   * (outRows, outCols): the (maxLen, dModel) table's box-averaged picture (as boxDownsample of it),
   * in closed form without the table; within 2^-24 (maxLen - 1) max θ + 1e-6 of the exact means.
   * outRows x dModel (its sin/cos work) may not pass the output cap either.
   */
  sinusoidalPicture(
    maxLen: number,
    dModel: number,
    outRows: number,
    outCols: number,
    options?: { base?: number; out?: Out<Float32Array> },
  ): Float32Array;
  /** (dModel/2) angular frequencies exp(2i * -ln(base)/dModel); wavelength = 2π / frequency. */
  sinusoidalFrequencies(dModel: number, options?: { base?: number }): Float32Array;
  /** (positions.length, dModel); a position outside 0..rows-1 throws "index out of range in self". */
  learnedLookup(
    table: NumericArray,
    rows: number,
    dModel: number,
    positions: ArrayLike<number>,
    options?: { out?: Out<Float32Array> },
  ): Float32Array;
  /** (outRows, outCols): each pixel the mean of the table cells it covers (box filter). */
  boxDownsample(
    table: NumericArray,
    rows: number,
    cols: number,
    outRows: number,
    outCols: number,
    options?: { out?: Out<Float32Array> },
  ): Float32Array;
  /** (dim/2). */
  ropeInvFreq(dim: number, options?: { base?: number; scaling?: RopeScaling | null }): Float32Array;
  /** 0.1 ln(factor) + 1 for YaRN, 1 otherwise. */
  ropeAttentionFactor(scaling: RopeScaling | null): number;
  /**
   * (rows, dim); positions default to 0..rows-1. By default cos and sin are PyTorch 1.13's bits for
   * each row's rotaryDim/2 angles as one tensor (also HF Llama's when rotaryDim/2 is a multiple of 8);
   * `fast: true` takes the vectorised sin/cos (<= 1.5 ULP).
   */
  ropeApply(
    x: NumericArray,
    rows: number,
    dim: number,
    options?: {
      positions?: ArrayLike<number>;
      base?: number;
      convention?: RopeConvention;
      rotaryDim?: number;
      scaling?: RopeScaling | null;
      fast?: boolean;
      out?: Out<Float32Array>;
    },
  ): Float32Array;
  /** (heads). */
  alibiSlopes(heads: number): Float32Array;
  /** (heads, seqLen, seqLen); masked entries are -Infinity. */
  alibiBias(heads: number, seqLen: number, options?: { causal?: boolean; out?: Out<Float32Array> }): Float32Array;
  /** (queryLen, keyLen) bucket of key_pos - query_pos. */
  t5Buckets(
    queryLen: number,
    keyLen: number,
    options?: { bidirectional?: boolean; numBuckets?: number; maxDistance?: number; out?: Out<Int32Array> },
  ): Int32Array;
  /** Stable softmax of each row of x (rows, n). */
  softmax(x: NumericArray, rows: number, n: number, options?: { out?: Out<Float32Array> }): Float32Array;
  /** q, k, v: (heads, seqLen, headDim); bias: (heads, seqLen, seqLen). */
  attention(
    q: NumericArray,
    k: NumericArray,
    v: NumericArray,
    options: {
      heads: number;
      seqLen: number;
      headDim: number;
      causal?: boolean;
      bias?: NumericArray | null;
      scale?: number;
      /** Add ALiBi's -m_h |i - j| on the fly. */
      alibi?: boolean;
      /** Add T5's learned bias table[(bucket(j - i)) * heads + h] on the fly; table: (numBuckets, heads). */
      t5?: { table: NumericArray; numBuckets?: number; maxDistance?: number; bidirectional?: boolean } | null;
      /** false: weights are neither written nor returned (null). */
      returnWeights?: boolean;
      out?: { output?: Out<Float32Array>; weights?: Out<Float32Array> };
    },
  ): { output: Float32Array; weights: Float32Array | null };
}

/** The trainer's tasks and positional encodings, in the core's order. */
export const TRAIN_TASKS: readonly ['copy', 'reverse', 'sort', 'shift', 'text'];
export const TRAIN_ENCODINGS: readonly ['none', 'sinusoidal', 'learned', 'rope', 'alibi', 't5'];
export type TrainTask = (typeof TRAIN_TASKS)[number];
export type TrainEncoding = (typeof TRAIN_ENCODINGS)[number];

/** A tiny Transformer being trained (pe.createTrainer; only in the trainer build). */
export class Trainer {
  private constructor();
  /** The configuration with every default filled in. */
  readonly config: Readonly<Required<Omit<TrainerOptions, 'text'>> & Pick<TrainerOptions, 'text'>>;
  /** Training steps taken so far. */
  readonly steps: number;
  /** Runs n (1..100000) steps, one fresh batch each; returns the last loss. */
  step(n?: number): number;
  /** Token accuracy (0..1) on `samples` (default 256) fixed sequences of `length`; a learned table past its rows throws a RangeError. */
  evaluate(length: number, samples?: number): number;
  /** Mean cross-entropy per token (nats) on the same sequences; for task 'text', the validation loss. */
  evaluateLoss(length: number, samples?: number): number;
  /** Begins the same evaluation, to run a few chunks at a time (evaluateMore); checks its arguments as evaluate() does. */
  evaluateStart(length: number, samples?: number): void;
  /** Runs up to `chunks` (1..4096, default 1) chunks of at most a training batch's rows; true once the evaluation is done. */
  evaluateMore(chunks?: number): boolean;
  /** What evaluate() and evaluateLoss() give for the finished evaluation; a step or another evaluation abandons it. */
  evaluateResult(): { accuracy: number; loss: number };
  /** A copy of one parameter by its core name, e.g. 't5_table' (32, heads) or 'pos_emb' (trainLen, dModel). */
  parameter(name: string): Float32Array;
  /** Task 'text': the corpus as ids (one of 64 per character) and trainEnd, where the held-out tenth begins; empty ids otherwise. */
  corpus(): { ids: Int32Array; trainEnd: number };
  /** One loss per step, oldest first (a copy). */
  lossHistory(): Float32Array;
  /** Frees the trainer (safe to call twice). */
  delete(): void;
}

export interface TrainerOptions {
  task?: TrainTask;
  encoding?: TrainEncoding;
  layers?: number;
  dModel?: number;
  heads?: number;
  /** 0: 4 * dModel */
  ffn?: number;
  vocab?: number;
  trainLen?: number;
  batch?: number;
  lr?: number;
  seed?: number;
  /** task 'text' only: the corpus (next-character prediction, causal; vocab 64 by default and required) */
  text?: string;
}

/**
 * Loads (once) and returns the core; SIMD build where supported unless `simd` says otherwise.
 * `wasmBase`: a folder (resolved against document.baseURI) holding a copy of web/wasm/ to load
 * the builds from instead of the package's own files.
 */
export function loadPosenc(options?: { simd?: boolean; trainer?: boolean; wasmBase?: string | URL }): Promise<Posenc>;
/** True when this engine can run the SIMD build. */
export function simdSupported(): boolean;
/**
 * Makes a build available without fetching web/wasm/: `factory` is the default export of
 * wasm/posenc-<variant>.js, `wasmBinary` the bytes of its .wasm (used by the single-file export).
 */
/** The builds of the core, wasm/posenc-<variant>.{js,wasm}. */
export const BUILD_VARIANTS: readonly ['simd', 'scalar', 'train-simd', 'train-scalar'];
export type BuildVariant = (typeof BUILD_VARIANTS)[number];
export function registerEmbeddedBuild(
  variant: BuildVariant,
  factory: (options: object) => Promise<unknown>,
  wasmBinary: Uint8Array,
): void;

/** A text as the messages quote it: in double quotes, cut at 40 characters. */
export function quote(text: string): string;
/** d_model or d-model as JavaScript spells it: dModel. */
export function camelCase(name: string): string;

/**
 * Every error the API throws on purpose (its checks and the core's) carries
 * `kind`. Errors the core reports carry data besides the message: `names`, the
 * argument names the message mentions in the core's (snake_case) spelling,
 * `values`, the numbers the rule was about (the value first, then any
 * bounds), and `detail`, the message without the function's name.
 */
export interface PosencErrorData {
  /** The core's error class: 'RangeError', 'TypeError', or 'IndexError' (thrown as a RangeError). */
  kind: 'RangeError' | 'TypeError' | 'IndexError';
  names: string[];
  values: number[];
  detail: string;
}
