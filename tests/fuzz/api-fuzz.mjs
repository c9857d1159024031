// A fuzzer for the JS API (web/posenc.js): thousands of calls whose
// arguments are drawn, each on its own, either from the function's valid
// domain or from a pool of hostile values (NaN, ±Infinity, negatives,
// non-integers, sizes past the caps, wrong array lengths and types, freed
// HeapArrays, HeapArrays of the other build, unknown option keys and enum
// strings, getters that throw, ...). Used by tests/js/fuzz.test.mjs (a
// short run in `npm test`) and scripts/test/fuzz.mjs (`npm run fuzz`, as long
// as you like).
//
// The contract checked on every call:
//   - it returns a result of the right shape, or throws an Error whose
//     message is non-empty and names the function ("<fn>: ...");
//   - a call whose arguments were all drawn from the valid domain succeeds;
//   - after every failure, a known-answer call ("canary", one of several)
//     still returns bit for bit what it returned before the run: the module
//     was not left broken;
//   - memory: see `memoryBound` below; tests/js/fuzz.test.mjs checks it.
import { HeapArray, TRAIN_TASKS, TRAIN_ENCODINGS } from '../../web/posenc.js';
import { seededRandom } from '../../web/lib/questions/random.js';

// ------------------------------------------------------------- randomness

// The project's seeded generator: the same sequence on every engine.
export function rng(seed) {
  const next = seededRandom(seed);
  const r = {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: (list) => list[Math.floor(next() * list.length)],
    chance: (p) => next() < p,
    floats: (n, scale = 1) => Float32Array.from({ length: n }, () => (next() * 2 - 1) * scale),
  };
  return r;
}

// ---------------------------------------------------------- hostile values

class FuzzGetterError extends Error {}

const HOSTILE_NUMBERS = [
  NaN,
  Infinity,
  -Infinity,
  -1,
  -0,
  0,
  0.5,
  1.5,
  -7.25,
  2 ** 24 + 1,
  2 ** 31,
  2 ** 32 + 3,
  2 ** 53,
  2 ** 53 + 2,
  1e9,
  1e308,
  -1e9,
  -(2 ** 31),
  Number.MIN_VALUE,
  Number.EPSILON,
  Number.MAX_SAFE_INTEGER,
];

function hostileScalar(r) {
  const kinds = [
    () => r.pick(HOSTILE_NUMBERS),
    () =>
      r.pick(['8', 'abc', '', ' 4 ', '0x10', '1e3', 'NaN', '<img src=x onerror=alert(1)>', 'constructor', '__proto__']),
    () => r.pick([null, undefined, true, false]),
    () => r.pick([{}, [], [8], { valueOf: () => 8 }, { toString: () => '8' }, new Date(0), /8/]),
    () => r.pick([8n, -1n, Symbol('fuzz'), () => 8]),
    () => hostileObject(r),
  ];
  return r.pick(kinds)();
}

// Objects that misbehave when read: a getter that throws, a proxy that
// throws on every trap, a getter that answers differently each time.
function hostileObject(r) {
  const which = r.int(0, 2);
  if (which === 0) {
    return Object.defineProperty({}, 'length', {
      get() {
        throw new FuzzGetterError('fuzz: hostile getter');
      },
    });
  }
  if (which === 1) {
    const trap = () => {
      throw new FuzzGetterError('fuzz: hostile proxy');
    };
    return new Proxy({}, { get: trap, has: trap, ownKeys: trap, getOwnPropertyDescriptor: trap, getPrototypeOf: trap });
  }
  let n = 0;
  return Object.defineProperty({}, 'length', { get: () => (n++ % 2 ? 4 : 1 << 30) });
}

// ----------------------------------------------------- argument factories

// Each factory returns { valid: bool, value }. `valid` means "drawn from the
// valid domain": the call must then succeed if every argument was.
function ctx(pe, other, r, heapArrays) {
  const P = 0.82; // chance that one argument is drawn from the valid domain
  const valid = (value) => ({ valid: true, value });
  const hostile = (value) => ({ valid: false, value });
  const good = () => r.chance(P);

  const heap = (owner, type, values) => {
    const h = owner.allocate(values.length, type);
    h.set(values);
    heapArrays.push(h);
    return h;
  };

  // An array argument of `length` values of `type`.
  function array(type, length, fill = () => r.floats(length, 3)) {
    if (good()) {
      const values = fill();
      const Type = type === 'f32' ? Float32Array : type === 'i32' ? Int32Array : Float64Array;
      const form = r.int(0, 3);
      if (form === 0) return valid(Type.from(values));
      if (form === 1) return valid(Array.from(values));
      if (form === 2 && type !== 'f64') return valid(heap(pe, type, values));
      return valid(Type.from(values));
    }
    const kinds = [
      () => new Float32Array(Math.max(0, length + r.pick([-1, 1, 7]))),
      () => new Float32Array(0),
      () => Array.from({ length }, (_, i) => (i === length >> 1 ? r.pick(['x', null, undefined, {}, 1n]) : 0)),
      () => new Array(length), // sparse: holes are not numbers
      () => ({ length }),
      () => new DataView(new ArrayBuffer(length * 4)),
      () => new ArrayBuffer(length * 4),
      () => 'x'.repeat(length),
      () => {
        const h = pe.allocate(length, 'f32');
        h.free();
        return h;
      },
      () => (other ? heap(other, 'f32', new Float32Array(length)) : null),
      () => heap(pe, type === 'f32' ? 'i32' : 'f32', new Float32Array(length)),
      () => heap(pe, 'f32', new Float32Array(length + 1)),
      () => hostileScalar(r),
    ];
    return hostile(r.pick(kinds)());
  }

  const sizeArg = (lo, hi) => (good() ? valid(r.int(lo, hi)) : hostile(hostileScalar(r)));
  const numberArg = (draw) => (good() ? valid(draw()) : hostile(hostileScalar(r)));
  const boolArg = () => (good() ? valid(r.chance(0.5)) : hostile(r.pick([0, 1, 'true', null, 'false', {}])));
  const enumArg = (values) =>
    good()
      ? valid(r.pick(values))
      : hostile(r.pick(['', 'HALF', 'Half ', 'constructor', 'toString', '__proto__', 'none', 0, null, {}]));

  // An options object whose fields are given as { key: argFactoryResult };
  // sometimes with an unknown key, or not an object at all.
  function opts(fields) {
    let ok = true;
    const o = {};
    for (const [k, a] of Object.entries(fields)) {
      if (a === undefined) continue;
      ok &&= a.valid;
      o[k] = a.value;
    }
    if (r.chance(0.08)) return hostile({ ...o, [r.pick(['bogus', 'Base', 'max_len', 'constructor'])]: 1 });
    if (r.chance(0.04)) return hostile(r.pick(['opts', 42, [], new Float32Array(2), hostileObject(r)]));
    if (Object.keys(o).length === 0 && r.chance(0.5)) return { valid: ok, value: r.pick([undefined, null, {}]) };
    return { valid: ok, value: o };
  }

  // Drop a field sometimes (the default then applies: still valid).
  const maybe = (a) => (r.chance(0.3) ? undefined : a);

  return { r, array, sizeArg, numberArg, boolArg, enumArg, opts, maybe, valid, hostile, good };
}

function scalingArg(c, { dim }) {
  const { r, valid, hostile, good } = c;
  if (r.chance(0.35)) return valid(r.pick([null, undefined]));
  const type = good() ? r.pick(['linear', 'dynamic', 'yarn', 'llama3']) : r.pick(['ntk', 'Linear', '', null, 7]);
  const s = { type };
  let ok = typeof type === 'string' && ['linear', 'dynamic', 'yarn', 'llama3'].includes(type);
  const field = (k, a) => {
    ok &&= a.valid;
    s[k] = a.value;
  };
  if (type === 'dynamic') {
    field(
      'factor',
      c.numberArg(() => 1 + r.int(0, 30) / 4),
    );
    field('maxPositions', c.sizeArg(1, 4096));
    if (r.chance(0.6)) field('seqLen', c.sizeArg(1, 16384));
  } else if (type === 'yarn') {
    field(
      'factor',
      c.numberArg(() => 1 + r.int(0, 30) / 4),
    );
    field('originalMaxPositions', c.sizeArg(1, 8192));
    if (r.chance(0.5)) {
      const fast = 4 + r.int(0, 60);
      field(
        'betaFast',
        c.numberArg(() => fast),
      );
      field(
        'betaSlow',
        c.numberArg(() => r.int(1, 3)),
      );
    }
  } else if (type === 'llama3') {
    field(
      'factor',
      c.numberArg(() => 1 + r.int(0, 30) / 2),
    );
    field('originalMaxPositions', c.sizeArg(1, 8192));
    if (r.chance(0.5)) {
      const low = 1 + r.int(0, 3);
      field(
        'lowFreqFactor',
        c.numberArg(() => low),
      );
      field(
        'highFreqFactor',
        c.numberArg(() => low + 1 + r.int(0, 6)),
      );
    }
  } else {
    field(
      'factor',
      c.numberArg(() => 0.25 + r.int(0, 60) / 4),
    );
  }
  return { valid: ok, value: s };
}

// ----------------------------------------------------------- the targets

// Each target draws its arguments and says how long each returned array
// must be. `call(pe, args)` runs it.
const TARGETS = {
  sinusoidal(c) {
    const maxLen = c.sizeArg(1, 300);
    const dModel = c.numberArg(() => 2 * c.r.int(1, 40));
    const base = c.maybe(c.numberArg(() => c.r.pick([10000, 500, 2, 1e6])));
    const o = c.opts({ base });
    return {
      args: [maxLen, dModel, o],
      call: (pe, [a, b, x]) => pe.sinusoidal(a, b, x),
      shape: ([a, b]) => [a * b],
    };
  },
  sinusoidalPicture(c) {
    const maxLen = c.sizeArg(1, 5000);
    const dModel = c.numberArg(() => 2 * c.r.int(1, 40));
    const sizeArg = (n) => (c.good() ? c.valid(n) : c.hostile(hostileScalar(c.r)));
    const o = c.opts({ base: c.maybe(c.numberArg(() => c.r.pick([10000, 500, 2, 0.5]))) });
    return {
      args: [maxLen, dModel, sizeArg(c.r.int(1, 60)), sizeArg(c.r.int(1, 60)), o],
      call: (pe, [a, b, y, x, p]) => pe.sinusoidalPicture(a, b, y, x, p),
      shape: ([, , y, x]) => [y * x],
    };
  },
  sinusoidalFrequencies(c) {
    const dModel = c.numberArg(() => 2 * c.r.int(1, 300));
    const o = c.opts({ base: c.maybe(c.numberArg(() => c.r.pick([10000, 3]))) });
    return { args: [dModel, o], call: (pe, [a, x]) => pe.sinusoidalFrequencies(a, x), shape: ([a]) => [a / 2] };
  },
  learnedLookup(c) {
    const rows = c.r.int(1, 40);
    const d = c.r.int(1, 24);
    const n = c.r.int(0, 30);
    const rowsArg = c.good() ? c.valid(rows) : c.hostile(hostileScalar(c.r));
    const dArg = c.good() ? c.valid(d) : c.hostile(hostileScalar(c.r));
    const table = c.array('f32', rows * d);
    const positions = c.array('f64', n, () => Float64Array.from({ length: n }, () => c.r.int(0, rows - 1)));
    // Positions past the table are a valid call that must fail (IndexError).
    let pos = positions;
    if (positions.valid && c.r.chance(0.1))
      pos = c.hostile(
        Float64Array.from({ length: n + 1 }, (_, i) => (i === n ? c.r.pick([rows, -1, 0.5, NaN, 1e20]) : 0)),
      );
    return {
      args: [table, rowsArg, dArg, pos, c.opts({})],
      call: (pe, [t, a, b, p, x]) => pe.learnedLookup(t, a, b, p, x),
      shape: ([, , b, p]) => [p.length * b],
    };
  },
  boxDownsample(c) {
    const rows = c.r.int(1, 40);
    const cols = c.r.int(1, 40);
    const sizeArg = (n) => (c.good() ? c.valid(n) : c.hostile(hostileScalar(c.r)));
    const args = [
      c.array('f32', rows * cols),
      sizeArg(rows),
      sizeArg(cols),
      sizeArg(c.r.int(1, 50)),
      sizeArg(c.r.int(1, 50)),
      c.opts({}),
    ];
    return {
      args,
      call: (pe, [t, a, b, y, x, o]) => pe.boxDownsample(t, a, b, y, x, o),
      shape: ([, , , y, x]) => [y * x],
    };
  },
  ropeInvFreq(c) {
    const dim = c.numberArg(() => 2 * c.r.int(2, 80)); // dynamic scaling needs dim >= 4
    const scaling = scalingArg(c, {});
    const o = c.opts({ base: c.maybe(c.numberArg(() => c.r.pick([10000, 500000, 1.5]))), scaling });
    return { args: [dim, o], call: (pe, [a, x]) => pe.ropeInvFreq(a, x), shape: ([a]) => [a / 2] };
  },
  ropeAttentionFactor(c) {
    const s = scalingArg(c, {});
    return { args: [s], call: (pe, [s]) => pe.ropeAttentionFactor(s), shape: () => 'number' };
  },
  ropeApply(c) {
    const rows = c.r.int(1, 24);
    const dim = 2 * c.r.int(2, 40);
    const rotary = 2 * c.r.int(2, dim / 2); // dynamic scaling needs >= 4
    const rowsArg = c.good() ? c.valid(rows) : c.hostile(hostileScalar(c.r));
    const dimArg = c.good() ? c.valid(dim) : c.hostile(hostileScalar(c.r));
    const x = c.array('f32', rows * dim);
    const positions = c.maybe(
      c.array('f64', rows, () => Float64Array.from({ length: rows }, () => c.r.int(0, 1 << 20))),
    );
    const o = c.opts({
      positions,
      base: c.maybe(c.numberArg(() => c.r.pick([10000, 500000]))),
      convention: c.maybe(c.enumArg(['half', 'interleaved'])),
      rotaryDim: c.maybe(c.numberArg(() => rotary)),
      scaling: c.maybe(scalingArg(c, {})),
    });
    return {
      args: [x, rowsArg, dimArg, o],
      call: (pe, [a, b, d, x]) => pe.ropeApply(a, b, d, x),
      shape: ([, b, d]) => [b * d],
    };
  },
  alibiSlopes(c) {
    const heads = c.sizeArg(1, 80);
    return { args: [heads], call: (pe, [h]) => pe.alibiSlopes(h), shape: ([h]) => [h] };
  },
  alibiBias(c) {
    const heads = c.sizeArg(1, 12);
    const seq = c.sizeArg(1, 40);
    const o = c.opts({ causal: c.maybe(c.boolArg()) });
    return { args: [heads, seq, o], call: (pe, [h, s, x]) => pe.alibiBias(h, s, x), shape: ([h, s]) => [h * s * s] };
  },
  t5Buckets(c) {
    const q = c.sizeArg(1, 50);
    const k = c.sizeArg(1, 50);
    const nb = 2 * c.r.int(2, 32);
    const numBuckets = c.maybe(c.numberArg(() => nb));
    const buckets = numBuckets === undefined ? 32 : nb; // the default when left out
    const o = c.opts({
      bidirectional: c.maybe(c.boolArg()),
      numBuckets,
      maxDistance: c.maybe(c.numberArg(() => c.r.int(buckets, 300))), // must pass maxExact (at most buckets / 2)
    });
    return { args: [q, k, o], call: (pe, [a, b, x]) => pe.t5Buckets(a, b, x), shape: ([a, b]) => [a * b] };
  },
  softmax(c) {
    const rows = c.r.int(1, 12);
    const n = c.r.int(1, 70);
    const fill = () => {
      const v = c.r.floats(rows * n, 20);
      if (c.r.chance(0.2)) v[c.r.int(0, v.length - 1)] = c.r.pick([-Infinity, Infinity, NaN, 1e38]);
      return v;
    };
    const x = c.array('f32', rows * n, fill);
    const rowsArg = c.good() ? c.valid(rows) : c.hostile(hostileScalar(c.r));
    const nArg = c.good() ? c.valid(n) : c.hostile(hostileScalar(c.r));
    return {
      args: [x, rowsArg, nArg, c.opts({})],
      call: (pe, [a, b, d, x]) => pe.softmax(a, b, d, x),
      shape: ([, b, d]) => [b * d],
    };
  },
  attention(c) {
    const heads = c.r.int(1, 4);
    const seq = c.r.int(1, 24);
    const hd = c.r.int(1, 20);
    const n = heads * seq * hd;
    const q = c.array('f32', n);
    const k = c.array('f32', n);
    const v = c.array('f32', n);
    const nb = 2 * c.r.int(2, 16);
    const fields = {
      heads: c.good() ? c.valid(heads) : c.hostile(hostileScalar(c.r)),
      seqLen: c.good() ? c.valid(seq) : c.hostile(hostileScalar(c.r)),
      headDim: c.good() ? c.valid(hd) : c.hostile(hostileScalar(c.r)),
      causal: c.maybe(c.boolArg()),
      alibi: c.maybe(c.boolArg()),
      scale: c.maybe(c.numberArg(() => c.r.pick([0, 1, 0.125, 2, 1e-3]))),
      returnWeights: c.maybe(c.boolArg()),
    };
    if (c.r.chance(0.3)) {
      fields.bias = c.array('f32', heads * seq * seq, () => {
        const b = c.r.floats(heads * seq * seq, 2);
        for (let i = 0; i < b.length; i += 3) if (c.r.chance(0.2)) b[i] = -Infinity;
        return b;
      });
    }
    if (c.r.chance(0.3)) {
      const table = c.array('f32', nb * heads);
      const t5 = { table: table.value, numBuckets: nb, maxDistance: c.r.int(nb, 200), bidirectional: c.r.chance(0.5) };
      fields.t5 = { valid: table.valid, value: t5 };
      if (c.r.chance(0.15)) fields.t5 = c.hostile({ ...t5, numBuckets: c.r.pick([1, 0, 5000, NaN, '32']) });
    }
    const o = c.opts(fields);
    return {
      args: [q, k, v, o],
      call: (pe, [a, b, d, x]) => pe.attention(a, b, d, x),
      shape: (_, result) => {
        const { heads: h, seqLen: s, headDim: e, returnWeights = true } = o.value;
        return { output: h * s * e, weights: returnWeights ? h * s * s : null, result };
      },
    };
  },
  // The trainer build only: a tiny model, a step or two, an evaluation, and
  // calls on a deleted trainer. Every trainer made is deleted.
  createTrainer(c) {
    const heads = c.r.pick([1, 2]);
    const o = c.opts({
      task: c.maybe(c.enumArg(TRAIN_TASKS.filter((t) => t !== 'text'))), // text needs a corpus
      encoding: c.maybe(c.enumArg(TRAIN_ENCODINGS)),
      layers: c.numberArg(() => c.r.int(1, 2)),
      dModel: c.numberArg(() => heads * 2 * c.r.int(2, 4)), // >= 4
      heads: c.valid(heads),
      vocab: c.maybe(c.numberArg(() => c.r.int(2, 12))),
      trainLen: c.numberArg(() => c.r.int(2, 8)),
      batch: c.numberArg(() => c.r.int(1, 4)),
      lr: c.maybe(c.numberArg(() => c.r.pick([1e-3, 3e-3, 0.1]))),
      seed: c.maybe(c.numberArg(() => c.r.int(0, 1000))),
    });
    const steps = c.sizeArg(1, 3);
    const length = c.sizeArg(1, 24);
    const samples = c.sizeArg(1, 8);
    return {
      args: [o, steps, length, samples],
      call: (pe, [opts, n, len, k]) => {
        const t = pe.createTrainer(opts);
        try {
          const loss = t.step(n);
          if (!Number.isFinite(loss)) throw new Error(`createTrainer: step returned ${loss}`);
          let acc = 0;
          try {
            acc = t.evaluate(len, k);
          } catch (e) {
            // past a learned table's rows: the one error a valid evaluate may give
            if (!(e instanceof RangeError && /learned position table/.test(e.message) && len > t.config.trainLen))
              throw e;
          }
          if (!(acc >= 0 && acc <= 1)) throw new Error(`createTrainer: accuracy ${acc}`);
          if (t.lossHistory().length !== t.steps) throw new Error('createTrainer: history and steps disagree');
          return 1;
        } finally {
          t.delete();
          try {
            t.step(1);
            throw new Error('createTrainer: a deleted trainer still steps');
          } catch (e) {
            if (!/has been deleted/.test(e.message)) throw e;
          }
        }
      },
      shape: () => 'number',
    };
  },
  allocate(c) {
    const length = c.sizeArg(0, 5000);
    const type = c.maybe(c.enumArg(['f32', 'i32']));
    return {
      args: [length, type ?? c.valid(undefined)],
      call: (pe, [n, t], made) => {
        const h = pe.allocate(n, t);
        made.push(h);
        if (c.r.chance(0.5)) h.set(new Float32Array(n));
        if (c.r.chance(0.3)) h.free();
        if (c.r.chance(0.1)) h.free(); // twice: allowed
        return h;
      },
      shape: ([n]) => 'heap',
    };
  },
};

// Known-answer calls: computed once before the run, then repeated after
// every failure; they must come out bit for bit the same.
const CANARIES = [
  (pe) => pe.sinusoidal(16, 8),
  (pe) =>
    pe.ropeApply(
      Float32Array.from({ length: 24 }, (_, i) => Math.sin(i)),
      3,
      8,
      { scaling: { type: 'yarn', factor: 4, originalMaxPositions: 64 } },
    ),
  (pe) =>
    pe.softmax(
      Float32Array.from({ length: 12 }, (_, i) => i - 6),
      2,
      6,
    ),
  (pe) => pe.t5Buckets(5, 7),
  (pe) => {
    const x = Float32Array.from({ length: 2 * 5 * 4 }, (_, i) => Math.cos(i));
    const { output, weights } = pe.attention(x, x, x, { heads: 2, seqLen: 5, headDim: 4, alibi: true, causal: true });
    return Float32Array.from([...output, ...weights]);
  },
];

const sameBits = (a, b) => {
  if (typeof a === 'number') return Object.is(a, b);
  if (a.length !== b.length) return false;
  const x = new Uint32Array(a.buffer, a.byteOffset, a.length);
  const y = new Uint32Array(b.buffer, b.byteOffset, b.length);
  return x.every((v, i) => v === y[i]);
};

function checkShape(fn, target, args, result) {
  const want = target.shape(args, result);
  if (want === 'number') {
    if (typeof result !== 'number' || !Number.isFinite(result))
      throw new Error(`${fn} returned ${result}, not a finite number`);
    return;
  }
  if (want === 'heap') {
    if (!(result instanceof HeapArray)) throw new Error(`${fn} did not return a HeapArray`);
    return;
  }
  if (Array.isArray(want)) {
    const n = want[0];
    const len = result instanceof HeapArray ? result.length : result?.length;
    if (len !== n) throw new Error(`${fn} returned ${len} values, expected ${n}`);
    return;
  }
  // attention
  if (!result || result.output?.length !== want.output)
    throw new Error(`${fn} output has ${result?.output?.length} values, expected ${want.output}`);
  if (want.weights === null ? result.weights !== null : result.weights?.length !== want.weights) {
    throw new Error(`${fn} weights have ${result.weights?.length} values, expected ${want.weights}`);
  }
}

/**
 * Runs `calls` fuzzed calls against `pe` (a loaded build); `other` (the
 * other build, optional) supplies foreign HeapArrays. Returns counts; throws
 * an Error describing the first broken contract.
 */
export function fuzzApi(pe, { calls, seed = 1, other = null, targets = defaultTargets(pe), extraTargets = {} } = {}) {
  const all = { ...TARGETS, ...extraTargets };
  const names = targets.concat(Object.keys(extraTargets).filter((k) => !targets.includes(k)));
  const r = rng(seed);
  const canaryRefs = CANARIES.map((f) => f(pe));
  const heapArrays = [];
  const stats = { calls: 0, returned: 0, threw: 0, validCalls: 0, canaryChecks: 0, byFunction: {}, errorKinds: {} };
  for (let i = 0; i < calls; i++) {
    const fn = r.pick(names);
    const c = ctx(pe, other, r, heapArrays);
    const target = all[fn](c);
    const allValid = target.args.every((a) => a.valid);
    const args = target.args.map((a) => a.value);
    const made = [];
    const where = `call #${i} (seed ${seed}) ${fn}`;
    let result;
    let error = null;
    try {
      result = target.call(pe, args, made);
    } catch (e) {
      error = e;
    }
    heapArrays.push(...made);
    stats.calls++;
    const s = (stats.byFunction[fn] ??= { calls: 0, threw: 0 });
    s.calls++;
    if (allValid) stats.validCalls++;
    if (error === null) {
      stats.returned++;
      checkShape(`${where}:`, target, args, result);
      if (result instanceof HeapArray && !made.includes(result)) heapArrays.push(result);
      continue;
    }
    stats.threw++;
    s.threw++;
    if (!(error instanceof Error)) throw new Error(`${where} threw a non-Error: ${String(error)}`);
    if (error instanceof WebAssembly.RuntimeError) throw new Error(`${where} aborted the module: ${error.message}`);
    if (allValid) throw new Error(`${where}: a call with valid arguments threw: ${error.message}`);
    if (!(error instanceof FuzzGetterError)) {
      const names = fn === 'createTrainer' ? ['createTrainer:', 'trainer.'] : [`${fn}:`];
      if (typeof error.message !== 'string' || !names.some((n) => error.message.startsWith(n))) {
        throw new Error(`${where}: the error message does not name the function: ${JSON.stringify(error.message)}`);
      }
      // a check's error, not a slip of the API's own code: it carries kind (inputError), as the core's do
      if (![error.constructor.name, 'IndexError'].includes(error.kind)) {
        throw new Error(`${where}: the error carries no kind (${error.constructor.name}: ${error.message})`);
      }
      stats.errorKinds[error.constructor.name] = (stats.errorKinds[error.constructor.name] ?? 0) + 1;
    }
    const k = stats.threw % CANARIES.length;
    const again = CANARIES[k](pe);
    stats.canaryChecks++;
    if (!sameBits(canaryRefs[k], again))
      throw new Error(`${where}: after its error, known-answer call ${k} came out different`);
  }
  for (const h of heapArrays) h.free();
  return stats;
}

// Every target the build can run (createTrainer needs the trainer build).
function defaultTargets(pe) {
  return Object.keys(TARGETS).filter((t) => t !== 'createTrainer' || pe.trainer);
}

export const FUZZ_TARGETS = Object.keys(TARGETS);
