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
// Errors: every function checks its arguments and throws a TypeError (wrong
// kind of value) or RangeError (value out of range) whose message names the
// argument; the core's own checks come back the same way. After an error the
// module keeps working.

const SCALING_TYPES = ['linear', 'dynamic', 'yarn', 'llama3'];
const CONVENTIONS = ['half', 'interleaved'];

// The smallest module that uses a v128 instruction: validates only where
// WebAssembly SIMD is supported (same probe as wasm-feature-detect).
const SIMD_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253,
  15, 253, 98, 11,
]);

/** True when this engine can run the SIMD build. */
export function simdSupported() {
  try {
    return typeof WebAssembly === 'object' && WebAssembly.validate(SIMD_PROBE);
  } catch {
    return false;
  }
}

const isNode = typeof process === 'object' && !!process.versions && !!process.versions.node;
const instances = new Map(); // 'simd' | 'scalar' -> Promise<Posenc>

/**
 * Loads the compute core. `simd: true|false` forces a build; by default the
 * SIMD build is used where the engine supports it.
 */
export function loadPosenc({ simd } = {}) {
  if (simd !== undefined && typeof simd !== 'boolean') {
    return Promise.reject(new TypeError(`loadPosenc: simd must be true, false or omitted, got ${describe(simd)}`));
  }
  const useSimd = simd === undefined ? simdSupported() : simd;
  if (useSimd && !simdSupported()) {
    return Promise.reject(new Error('loadPosenc: this engine does not support WebAssembly SIMD; load with { simd: false }'));
  }
  const variant = useSimd ? 'simd' : 'scalar';
  if (!instances.has(variant)) {
    const pending = instantiate(variant).then((core) => new Posenc(core));
    pending.catch(() => instances.delete(variant)); // a failed load may be retried
    instances.set(variant, pending);
  }
  return instances.get(variant);
}

async function instantiate(variant) {
  const base = new URL(`./wasm/posenc-${variant}`, import.meta.url);
  const { default: factory } = await import(`${base.href}.js`);
  const options = { locateFile: (file) => new URL(file, base).href };
  if (isNode) {
    // Emscripten 3.1.6's web glue cannot fetch a file: URL in Node; hand it the bytes.
    const { readFile } = await import('node:fs/promises');
    options.wasmBinary = await readFile(new URL(`${base.href}.wasm`));
  }
  return factory(options);
}

// ------------------------------------------------------------ argument checks

function describe(v) {
  if (typeof v === 'string') return `the string ${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)}`;
  if (v === null) return 'null';
  if (Array.isArray(v)) return `an Array of length ${v.length}`;
  if (ArrayBuffer.isView(v)) return `a ${v.constructor.name} of length ${v.length}`;
  if (typeof v === 'object') return 'an object';
  if (typeof v === 'number') return String(v);
  return `${typeof v} ${String(v)}`;
}

function number(fn, name, v) {
  if (typeof v !== 'number') throw new TypeError(`${fn}: ${name} must be a number, got ${describe(v)}`);
  if (!Number.isFinite(v)) throw new RangeError(`${fn}: ${name} must be a finite number, got ${v}`);
  return v;
}

function integer(fn, name, v) {
  number(fn, name, v);
  if (!Number.isInteger(v)) throw new RangeError(`${fn}: ${name} must be an integer, got ${v}`);
  return v;
}

function boolean(fn, name, v) {
  if (typeof v !== 'boolean') throw new TypeError(`${fn}: ${name} must be true or false, got ${describe(v)}`);
  return v;
}

function options(fn, opts, known) {
  if (opts === undefined || opts === null) return {};
  if (typeof opts !== 'object' || Array.isArray(opts) || ArrayBuffer.isView(opts)) {
    throw new TypeError(`${fn}: options must be an object, got ${describe(opts)}`);
  }
  for (const key of Object.keys(opts)) {
    if (!known.includes(key)) {
      throw new TypeError(`${fn}: unknown option '${key}' (known: ${known.join(', ')})`);
    }
  }
  return opts;
}

function numericArray(fn, name, v, Type, length, lengthText) {
  let out;
  if (v instanceof Type) out = v;
  else if (ArrayBuffer.isView(v) && !(v instanceof DataView)) out = Type.from(v);
  else if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      if (typeof v[i] !== 'number') {
        throw new TypeError(`${fn}: ${name}[${i}] must be a number, got ${describe(v[i])}`);
      }
    }
    out = Type.from(v);
  } else {
    throw new TypeError(`${fn}: ${name} must be a Float32Array or an array of numbers, got ${describe(v)}`);
  }
  if (length !== undefined && out.length !== length) {
    throw new RangeError(`${fn}: ${name} must hold ${lengthText} = ${length} values, got ${out.length}`);
  }
  return out;
}

function positionsArray(fn, v, length) {
  const out = numericArray(fn, 'positions', v, Float64Array, length, 'rows');
  for (let i = 0; i < out.length; i++) {
    if (!Number.isInteger(out[i])) {
      throw new RangeError(`${fn}: positions[${i}] must be an integer, got ${out[i]}`);
    }
  }
  return out;
}

function scalingOption(fn, s, context = {}) {
  if (s === null || s === undefined) return null;
  if (typeof s !== 'object' || Array.isArray(s)) {
    throw new TypeError(`${fn}: scaling must be null or an object like { type: 'linear', factor: 2 }, got ${describe(s)}`);
  }
  if (!SCALING_TYPES.includes(s.type)) {
    throw new TypeError(`${fn}: unknown RoPE scaling type: scaling.type must be one of ${SCALING_TYPES.map((t) => `'${t}'`).join(', ')}, got ${describe(s.type)}`);
  }
  const fields = {
    linear: ['factor'],
    dynamic: ['factor', 'maxPositions', 'seqLen'],
    yarn: ['factor', 'originalMaxPositions', 'betaFast', 'betaSlow'],
    llama3: ['factor', 'originalMaxPositions', 'lowFreqFactor', 'highFreqFactor'],
  }[s.type];
  options(`${fn} (scaling '${s.type}')`, { ...s, type: undefined }, ['type', ...fields]);
  const need = (name) => {
    if (s[name] === undefined) throw new TypeError(`${fn}: scaling '${s.type}' needs ${name}`);
    return s[name];
  };
  const out = {
    type: s.type,
    factor: number(fn, 'scaling.factor', need('factor')),
    maxPositions: 0,
    seqLen: 0,
    originalMaxPositions: 0,
    betaFast: 32,
    betaSlow: 1,
    lowFreqFactor: 1,
    highFreqFactor: 4,
  };
  if (s.type === 'dynamic') {
    out.maxPositions = integer(fn, 'scaling.maxPositions', need('maxPositions'));
    out.seqLen = s.seqLen === undefined ? (context.seqLen ?? out.maxPositions) : integer(fn, 'scaling.seqLen', s.seqLen);
  }
  if (s.type === 'yarn' || s.type === 'llama3') {
    out.originalMaxPositions = integer(fn, 'scaling.originalMaxPositions', need('originalMaxPositions'));
  }
  if (s.type === 'yarn') {
    if (s.betaFast !== undefined) out.betaFast = number(fn, 'scaling.betaFast', s.betaFast);
    if (s.betaSlow !== undefined) out.betaSlow = number(fn, 'scaling.betaSlow', s.betaSlow);
  }
  if (s.type === 'llama3') {
    if (s.lowFreqFactor !== undefined) out.lowFreqFactor = number(fn, 'scaling.lowFreqFactor', s.lowFreqFactor);
    if (s.highFreqFactor !== undefined) out.highFreqFactor = number(fn, 'scaling.highFreqFactor', s.highFreqFactor);
  }
  return out;
}

// Results from the core are either the value or an Error to throw.
function unwrap(fn, result) {
  if (result instanceof Error) {
    result.message = `${fn}: ${result.message}`;
    throw result;
  }
  return result;
}

// ------------------------------------------------------------------ the API

class Posenc {
  #core;

  constructor(core) {
    this.#core = core;
    const info = core.buildInfo();
    /** True when the SIMD build runs. */
    this.simd = info.simd;
    /** The size caps; a request beyond them throws a RangeError. */
    this.limits = Object.freeze({ ...info.limits });
    Object.freeze(this);
  }

  /** Sinusoidal table (maxLen, dModel), row-major, as the PyTorch tutorial computes it. */
  sinusoidal(maxLen, dModel, opts) {
    const fn = 'sinusoidal';
    const { base = 10000 } = options(fn, opts, ['base']);
    integer(fn, 'maxLen', maxLen);
    integer(fn, 'dModel', dModel);
    number(fn, 'base', base);
    return unwrap(fn, this.#core.sinusoidal(maxLen, dModel, base));
  }

  /** The divisors exp(2i * -ln(base)/dModel), (dModel/2): the angular frequencies of the pairs. */
  sinusoidalFrequencies(dModel, opts) {
    const fn = 'sinusoidalFrequencies';
    const { base = 10000 } = options(fn, opts, ['base']);
    integer(fn, 'dModel', dModel);
    number(fn, 'base', base);
    return unwrap(fn, this.#core.sinusoidalDiv(dModel, base));
  }

  /** Rows of a learned table (rows, dModel) at `positions`: (positions.length, dModel). */
  learnedLookup(table, rows, dModel, positions) {
    const fn = 'learnedLookup';
    integer(fn, 'rows', rows);
    integer(fn, 'dModel', dModel);
    const t = numericArray(fn, 'table', table, Float32Array, rows * dModel, 'rows * dModel');
    const p = numericArray(fn, 'positions', positions, Float64Array);
    return unwrap(fn, this.#core.learnedLookup(t, rows, dModel, p));
  }

  /** RoPE inverse frequencies (dim/2), after the optional context-extension scaling. */
  ropeInvFreq(dim, opts) {
    const fn = 'ropeInvFreq';
    const { base = 10000, scaling = null } = options(fn, opts, ['base', 'scaling']);
    integer(fn, 'dim', dim);
    number(fn, 'base', base);
    return unwrap(fn, this.#core.ropeInvFreq(dim, base, scalingOption(fn, scaling)));
  }

  /** The factor RoPE multiplies cos and sin by: 0.1 ln(factor) + 1 for YaRN, else 1. */
  ropeAttentionFactor(scaling) {
    const fn = 'ropeAttentionFactor';
    return unwrap(fn, this.#core.ropeAttentionFactor(scalingOption(fn, scaling)));
  }

  /** Rotates x (rows, dim) by RoPE at `positions` (default 0..rows-1): (rows, dim). */
  ropeApply(x, rows, dim, opts) {
    const fn = 'ropeApply';
    const o = options(fn, opts, ['positions', 'base', 'convention', 'rotaryDim', 'scaling']);
    integer(fn, 'rows', rows);
    integer(fn, 'dim', dim);
    const { base = 10000, convention = 'half', rotaryDim = dim, scaling = null } = o;
    number(fn, 'base', base);
    if (!CONVENTIONS.includes(convention)) {
      throw new TypeError(`${fn}: unknown convention: convention must be 'half' or 'interleaved', got ${describe(convention)}`);
    }
    integer(fn, 'rotaryDim', rotaryDim);
    const data = numericArray(fn, 'x', x, Float32Array, rows * dim, 'rows * dim');
    let positions;
    if (o.positions === undefined) {
      positions = new Float64Array(Math.max(rows, 0)).map((_, i) => i);
    } else {
      positions = positionsArray(fn, o.positions, rows);
    }
    let maxPos = 0;
    for (const p of positions) maxPos = Math.max(maxPos, p);
    const s = scalingOption(fn, scaling, { seqLen: maxPos + 1 });
    return unwrap(fn, this.#core.ropeApply(data, rows, dim, positions, base, convention, rotaryDim, s));
  }

  /** ALiBi head slopes (heads), for any head count. */
  alibiSlopes(heads) {
    const fn = 'alibiSlopes';
    integer(fn, 'heads', heads);
    return unwrap(fn, this.#core.alibiSlopes(heads));
  }

  /** ALiBi bias (heads, seqLen, seqLen): -m_h |i - j|; masked (j > i when causal) = -Infinity. */
  alibiBias(heads, seqLen, opts) {
    const fn = 'alibiBias';
    const { causal = true } = options(fn, opts, ['causal']);
    integer(fn, 'heads', heads);
    integer(fn, 'seqLen', seqLen);
    boolean(fn, 'causal', causal);
    return unwrap(fn, this.#core.alibiBias(heads, seqLen, causal));
  }

  /** T5 relative-position buckets (queryLen, keyLen) of key_pos - query_pos. */
  t5Buckets(queryLen, keyLen, opts) {
    const fn = 't5Buckets';
    const { bidirectional = true, numBuckets = 32, maxDistance = 128 } = options(fn, opts, [
      'bidirectional',
      'numBuckets',
      'maxDistance',
    ]);
    integer(fn, 'queryLen', queryLen);
    integer(fn, 'keyLen', keyLen);
    boolean(fn, 'bidirectional', bidirectional);
    integer(fn, 'numBuckets', numBuckets);
    integer(fn, 'maxDistance', maxDistance);
    return unwrap(fn, this.#core.t5Buckets(queryLen, keyLen, bidirectional, numBuckets, maxDistance));
  }

  /** Stable softmax over the last axis of x (rows, n). */
  softmax(x, rows, n) {
    const fn = 'softmax';
    integer(fn, 'rows', rows);
    integer(fn, 'n', n);
    const data = numericArray(fn, 'x', x, Float32Array, rows * n, 'rows * n');
    return unwrap(fn, this.#core.softmax(data, rows, n));
  }

  /**
   * Scaled dot-product attention over several heads.
   * q, k, v: (heads, seqLen, headDim); bias: (heads, seqLen, seqLen) added to the scaled scores.
   * Returns { output: (heads, seqLen, headDim), weights: (heads, seqLen, seqLen) }.
   */
  attention(q, k, v, opts) {
    const fn = 'attention';
    const o = options(fn, opts, ['heads', 'seqLen', 'headDim', 'causal', 'bias', 'scale']);
    const { heads, seqLen, headDim, causal = false, bias = null } = o;
    integer(fn, 'heads', heads);
    integer(fn, 'seqLen', seqLen);
    integer(fn, 'headDim', headDim);
    boolean(fn, 'causal', causal);
    const scale = o.scale === undefined ? 1 / Math.sqrt(headDim) : number(fn, 'scale', o.scale);
    const n = heads * seqLen * headDim;
    const text = 'heads * seqLen * headDim';
    const qa = numericArray(fn, 'q', q, Float32Array, n, text);
    const ka = numericArray(fn, 'k', k, Float32Array, n, text);
    const va = numericArray(fn, 'v', v, Float32Array, n, text);
    const b = bias === null ? null : numericArray(fn, 'bias', bias, Float32Array, heads * seqLen * seqLen, 'heads * seqLen * seqLen');
    return unwrap(fn, this.#core.attention(qa, ka, va, heads, seqLen, headDim, causal, b, scale));
  }
}
