// The compute core's functions by name, for the expressions of an author's
// own exercise (web/lib/questions/own-exercise.js): its answer, slips, computed values
// and conditions may call them, so an answer such as the angle RoPE gives
// pair i at position m is the core's number, never a formula retyped by the
// author. Each is one call of the JavaScript API (web/posenc.js) and returns
// one number; a value the API refuses (a pair past the head, a head count of
// 0) throws its message, which the exercise reports with the field.
//
// A learner's typed answer never gets these: typing rope_angle(...) would
// give the answer away (web/lib/questions/answers.js reads answers without them).
//
// This list is the one place they are named: docs/embedding.md's table of
// them is checked against it (tests/js/own-exercise.test.mjs). Optional
// arguments come last; left out, the API's own default applies (RoPE's base
// 10000, T5's bucket settings as the core defines them).

// a whole number in [min, max], or a RangeError naming the argument
function whole(fn, name, x, min, max) {
  if (!Number.isInteger(x) || x < min || x > max)
    throw new RangeError(`${fn}: ${name} must be a whole number from ${min} to ${max}; got ${x}`);
  return x;
}
const pairOf = (fn, i, d) => whole(fn, 'i', i, 0, Math.floor(d / 2) - 1);
// RoPE's frequencies of a head of size d, kept per core and setting (an
// exercise asks for several pairs of one head, over many draws)
const kept = new WeakMap();
function frequencies(pe, d, base, scaling) {
  let byKey = kept.get(pe);
  if (!byKey) kept.set(pe, (byKey = new Map()));
  const key = JSON.stringify([d, base, scaling]);
  let f = byKey.get(key);
  if (!f) {
    f = pe.ropeInvFreq(d, scaling ? { base, scaling } : { base });
    if (byKey.size >= 64) byKey.clear();
    byKey.set(key, f);
  }
  return f;
}
const scaled = (type, extra) => (pe, i, d, factor, original, base) =>
  frequencies(pe, d, base, { type, factor, ...extra(original) })[pairOf(`${type}_freq`, i, d)];

export const CORE_FUNCTIONS = {
  rope_freq: {
    params: ['i', 'd', 'base'],
    optional: 1,
    about: 'the frequency θ_i of RoPE pair i in a head of size d (base^(-2i/d), in float32 as torch computes it)',
    call: (pe, i, d, base) => frequencies(pe, d, base, null)[pairOf('rope_freq', i, d)],
  },
  rope_angle: {
    params: ['m', 'i', 'd', 'base'],
    optional: 1,
    about: 'the angle m·θ_i RoPE turns pair i by at position m (in float32, as torch multiplies)',
    call: (pe, m, i, d, base) =>
      Math.fround(
        whole('rope_angle', 'm', m, -(2 ** 31), 2 ** 31) * frequencies(pe, d, base, null)[pairOf('rope_angle', i, d)],
      ),
  },
  rope_wavelength: {
    params: ['i', 'd', 'base'],
    optional: 1,
    about: 'the wavelength 2π/θ_i of RoPE pair i, in positions',
    call: (pe, i, d, base) => (2 * Math.PI) / frequencies(pe, d, base, null)[pairOf('rope_wavelength', i, d)],
  },
  linear_freq: {
    params: ['i', 'd', 'factor', 'base'],
    optional: 1,
    about: 'θ_i after linear scaling (position interpolation) by factor',
    call: (pe, i, d, factor, base) => frequencies(pe, d, base, { type: 'linear', factor })[pairOf('linear_freq', i, d)],
  },
  ntk_freq: {
    params: ['i', 'd', 'factor', 'max_positions', 'seq_len', 'base'],
    optional: 1,
    about: 'θ_i under dynamic NTK scaling by factor, for a model trained on max_positions at length seq_len',
    call: (pe, i, d, factor, maxPositions, seqLen, base) =>
      frequencies(pe, d, base, { type: 'dynamic', factor, maxPositions, seqLen })[pairOf('ntk_freq', i, d)],
  },
  yarn_freq: {
    params: ['i', 'd', 'factor', 'original', 'base'],
    optional: 1,
    about: 'θ_i under YaRN scaling by factor of a model trained on original positions',
    call: scaled('yarn', (original) => ({ originalMaxPositions: original })),
  },
  llama3_freq: {
    params: ['i', 'd', 'factor', 'original', 'base'],
    optional: 1,
    about: 'θ_i under Llama 3 scaling by factor of a model trained on original positions',
    call: scaled('llama3', (original) => ({ originalMaxPositions: original })),
  },
  alibi_slope: {
    params: ['j', 'h'],
    about: 'the ALiBi slope α_j of head j (counted from 1) of h heads',
    call: (pe, j, h) => pe.alibiSlopes(h)[whole('alibi_slope', 'j', j, 1, h) - 1],
  },
  t5_bucket: {
    params: ['offset', 'bidirectional', 'num_buckets', 'max_distance'],
    optional: 3,
    about: 'the T5 bucket of the offset n − m of a key from its query (bidirectional 1 or 0)',
    call: (pe, offset, bidirectional, numBuckets, maxDistance) => {
      whole('t5_bucket', 'offset', offset, -(pe.limits.maxSeqLen - 1), pe.limits.maxSeqLen - 1);
      if (bidirectional !== undefined && bidirectional !== 0 && bidirectional !== 1)
        throw new RangeError(`t5_bucket: bidirectional must be 1 or 0; got ${bidirectional}`);
      const opts = { numBuckets, maxDistance };
      if (bidirectional !== undefined) opts.bidirectional = bidirectional === 1;
      // a one-row map gives key - query >= 0, a one-column map <= 0
      return offset >= 0 ? pe.t5Buckets(1, offset + 1, opts)[offset] : pe.t5Buckets(-offset + 1, 1, opts)[-offset];
    },
  },
  sinusoidal: {
    params: ['pos', 'k', 'd', 'base'],
    optional: 1,
    about: 'entry k of the sinusoidal encoding of position pos, d wide',
    call: (pe, pos, k, d, base) => {
      whole('sinusoidal', 'k', k, 0, d - 1);
      return pe.sinusoidalRows(whole('sinusoidal', 'pos', pos, 0, pe.limits.maxPosition - 1) + 1, d, pos, 1, { base })[
        k
      ];
    },
  },
};

// Rounding and bounds, which the typed-answer language leaves out (a learner
// types numbers), for an author's computed values and conditions
export const MATH_FUNCTIONS = {
  floor: { params: ['x'], about: 'x rounded down', call: (pe, x) => Math.floor(x) },
  ceil: { params: ['x'], about: 'x rounded up', call: (pe, x) => Math.ceil(x) },
  round: {
    params: ['x'],
    about: 'x rounded to the nearest whole number (halves away from 0)',
    call: (pe, x) => Math.sign(x) * Math.round(Math.abs(x)),
  },
  min: { params: ['a', 'b'], about: 'the smaller of a and b', call: (pe, a, b) => Math.min(a, b) },
  max: { params: ['a', 'b'], about: 'the larger of a and b', call: (pe, a, b) => Math.max(a, b) },
};

const ALL = { ...CORE_FUNCTIONS, ...MATH_FUNCTIONS };

/** What parseExpression takes as `functions`: { name: { params, optional } }. */
export const FUNCTION_SIGNATURES = Object.fromEntries(
  Object.entries(ALL).map(([name, f]) => [name, { params: f.params, optional: f.optional ?? 0 }]),
);

// made once per core: an exercise's generator asks for them on every draw
const madeFor = new WeakMap();

/** What evaluateExpression takes as `functions`, computed by the core `pe`: { name: (...args) => number }. */
export function coreFunctions(pe) {
  if (!madeFor.has(pe)) madeFor.set(pe, makeFunctions(pe));
  return madeFor.get(pe);
}

function makeFunctions(pe) {
  return Object.fromEntries(
    Object.entries(ALL).map(([name, f]) => [
      name,
      (...args) => {
        const v = f.call(pe, ...args);
        if (typeof v !== 'number') throw new TypeError(`${name} gave no number`);
        return v;
      },
    ]),
  );
}
