// The benchmark's cases, shared by the Node runner (scripts/bench/bench.mjs) and the
// page (web/bench/bench.html). Adding a case is adding one entry to `cases`.
//
// A case is
//   id        key in the JSON output (stable: scripts compare runs by it)
//   title     what is measured
//   sizes     { full, quick }: the parameters; `quick` only proves the case runs
//   label(p)  the size as text, for the table
//   flops(p)  floating-point operations of one call, or null where GFLOP/s means nothing
//   inputs(p, random)  the input arrays, built once, outside the timing
//   ours(pe, p, x)     our wasm builds (pe from loadPosenc; called once for `simd`, once for `scalar`)
//   trainer   true: `ours` gets the trainer builds (loadPosenc({ trainer: true }))
//   js(p, x)           the plain-JS implementation (web/bench/plain.js)
//   tfjs(tf, p, x)     @tensorflow/tfjs-backend-wasm, or absent where tfjs has no such operation
// Each of ours/js/tfjs does its untimed preparation (precomputed biases,
// tensors made from the inputs) and returns { run, dispose? }: `run()` is the
// timed call and returns the result as a Float32Array (compared across
// implementations); `dispose()` frees what the preparation made.
//
// tfjs timings include `dataSync()`, which waits for the result and copies it
// into a Float32Array, as our API does when it returns one. Every op runs in
// tf.tidy, so each call frees its intermediates. Ops are called as functions
// (tf.expandDims(x, 1)): tfjs-core alone does not register the chained forms.

import * as plain from './plain.js';

export const IMPLEMENTATIONS = ['simd', 'scalar', 'js', 'tfjs-wasm'];

// Attention counts 4 h n^2 d: Q K^T and W V, 2 h n^2 d each (multiply + add).
// The causal case counts the same full amount, so its GFLOP/s compares with
// the plain case (a causal kernel that skips masked keys does about half).
const attentionFlops = (p) => 4 * p.heads * p.seqLen * p.seqLen * p.headDim;
const attentionLabel = (p) => `h=${p.heads}, n=${p.seqLen}, d=${p.headDim}`;
const qkv = (p, random) => {
  const n = p.heads * p.seqLen * p.headDim;
  return { q: random(n, 1), k: random(n, 1), v: random(n, 1) };
};

// Runs `make` in tf.tidy and returns the result's values; the tensor is freed.
function tfValues(tf, make) {
  const y = tf.tidy(make);
  const values = y.dataSync();
  y.dispose();
  return values;
}

// Our builds, used the fastest way the API offers, as a widget redrawing
// every frame would: the inputs already sit in the module's memory
// (HeapArrays, as tfjs's inputs sit in its memory as tensors) and the result
// is written into a HeapArray and read in place through its view, with no
// copy (tfjs has no such path: dataSync() is how its result reaches JS).
function resident(pe, arrays) {
  const held = Object.fromEntries(Object.entries(arrays).map(([name, a]) => [name, pe.allocate(a.length).set(a)]));
  return { held, free: () => Object.values(held).forEach((h) => h.free()) };
}

function oursResult(pe, length, call) {
  const out = pe.allocate(length);
  return { out, run: () => (call(out), out.array) };
}

// The sizes, label and inputs of the two tables timed twice: the fast path
// and the exact one (PyTorch bit for bit).
const SINUSOIDAL_SHAPE = {
  sizes: { full: { maxLen: 8192, dModel: 512 }, quick: { maxLen: 256, dModel: 64 } },
  label: (p) => `${p.maxLen} x ${p.dModel}`,
  flops: null,
  inputs: () => ({}),
};
const ROPE_SHAPE = {
  sizes: { full: { rows: 4096, dim: 128 }, quick: { rows: 256, dim: 64 } },
  label: (p) => `(${p.rows}, ${p.dim})`,
  flops: null,
  inputs: (p, random) => ({ x: random(p.rows * p.dim, 1) }),
};

// RoPE applied to x (rows, dim), 'half' pairing; `fast` picks the vectorised sin/cos.
const ropeOurs = (options) => (pe, p, x) => {
  const { held, free } = resident(pe, x);
  const { out, run } = oursResult(pe, p.rows * p.dim, (o) =>
    pe.ropeApply(held.x, p.rows, p.dim, { convention: 'half', out: o, ...options }),
  );
  return { run, dispose: () => (free(), out.free()) };
};

// Attention as tfjs computes it: the output only (the weights stay an
// internal intermediate, returnWeights: false). ALiBi is fused: slopes times
// distance are added while the scores are formed, no (h, n, n) bias exists.
function oursAttention(pe, p, x, { alibi = false, causal = false } = {}) {
  const { held, free } = resident(pe, x);
  const options = { heads: p.heads, seqLen: p.seqLen, headDim: p.headDim, causal, alibi, returnWeights: false };
  const { out, run } = oursResult(pe, p.heads * p.seqLen * p.headDim, (o) =>
    pe.attention(held.q, held.k, held.v, { ...options, out: { output: o } }),
  );
  return { run, dispose: () => (free(), out.free()) };
}

// tfjs attention, batched over heads:
//   S = matMul(q, k, transposeB) * scale (+ bias), W = softmax(S), O = matMul(W, v)
// With `bias` (ALiBi with the causal mask folded in as -Infinity, one
// materialised (h, n, n) tensor built outside the timing) this is ALiBi-causal
// attention; tfjs computes every score, masked or not.
function tfjsAttention(tf, p, x, bias = null) {
  const shape = [p.heads, p.seqLen, p.headDim];
  const q = tf.tensor(x.q, shape);
  const k = tf.tensor(x.k, shape);
  const v = tf.tensor(x.v, shape);
  const b = bias === null ? null : tf.tensor(bias, [p.heads, p.seqLen, p.seqLen]);
  const scale = 1 / Math.sqrt(p.headDim);
  return {
    run: () =>
      tfValues(tf, () => {
        let s = tf.mul(tf.matMul(q, k, false, true), scale);
        if (b !== null) s = tf.add(s, b);
        return tf.matMul(tf.softmax(s), v);
      }),
    dispose: () => tf.dispose([q, k, v, ...(b === null ? [] : [b])]),
  };
}

export const cases = [
  {
    id: 'sinusoidal',
    title: 'Sinusoidal position table',
    ...SINUSOIDAL_SHAPE,
    ours: (pe, p) => {
      // the fast path (vectorised sin/cos), as a table drawn as a picture uses it
      const { out, run } = oursResult(pe, p.maxLen * p.dModel, (o) =>
        pe.sinusoidal(p.maxLen, p.dModel, { out: o, fast: true }),
      );
      return { run, dispose: () => out.free() };
    },
    js: (p) => ({ run: () => plain.sinusoidal(p.maxLen, p.dModel) }),
    // tfjs, as the PyTorch tutorial writes it:
    //   angles = range(maxLen)[:, None] * exp(range(0, d, 2) * -ln(10000)/d)[None, :]
    //   PE = stack([sin(angles), cos(angles)], -1).reshape(maxLen, d)   (sin even, cos odd columns)
    tfjs: (tf, p) => ({
      run: () =>
        tfValues(tf, () => {
          const position = tf.expandDims(tf.range(0, p.maxLen, 1, 'float32'), 1);
          const div = tf.exp(tf.mul(tf.range(0, p.dModel, 2, 'float32'), -Math.log(10000) / p.dModel));
          const angles = tf.mul(position, tf.expandDims(div, 0));
          return tf.reshape(tf.stack([tf.sin(angles), tf.cos(angles)], 2), [p.maxLen, p.dModel]);
        }),
    }),
  },
  {
    id: 'rope',
    title: "RoPE applied to x, 'half' pairing, angles computed",
    ...ROPE_SHAPE,
    ours: ropeOurs({ fast: true }),
    js: (p, x) => ({ run: () => plain.ropeApplyHalf(x.x, p.rows, p.dim) }),
    // tfjs, as Hugging Face's Llama writes it (frequencies and angles computed in the timing, like ours):
    //   inv_freq = 1 / 10000^(range(0, dim, 2) / dim); freqs = positions[:, None] * inv_freq[None, :]
    //   emb = concat([freqs, freqs], -1); rotate_half(x) = concat([-x2, x1], -1)
    //   out = x * cos(emb) + rotate_half(x) * sin(emb)
    tfjs: (tf, p, x) => {
      const t = tf.tensor(x.x, [p.rows, p.dim]);
      const half = p.dim / 2;
      return {
        run: () =>
          tfValues(tf, () => {
            const invFreq = tf.div(1, tf.pow(10000, tf.div(tf.range(0, p.dim, 2, 'float32'), p.dim)));
            const freqs = tf.mul(tf.expandDims(tf.range(0, p.rows, 1, 'float32'), 1), tf.expandDims(invFreq, 0));
            const emb = tf.concat([freqs, freqs], -1);
            const x1 = tf.slice(t, [0, 0], [p.rows, half]);
            const x2 = tf.slice(t, [0, half], [p.rows, half]);
            const rotated = tf.concat([tf.neg(x2), x1], -1);
            return tf.add(tf.mul(t, tf.cos(emb)), tf.mul(rotated, tf.sin(emb)));
          }),
        dispose: () => t.dispose(),
      };
    },
  },
  {
    // The same table with torch's bits (the default path, for printed
    // values): SLEEF's sin/cos one lane at a time with emulated FMAs, against
    // the fast path above and plain JS Math.sin/cos. tfjs has no such path.
    id: 'sinusoidal-exact',
    title: 'Sinusoidal position table, exact (PyTorch bit for bit)',
    ...SINUSOIDAL_SHAPE,
    ours: (pe, p) => {
      const { out, run } = oursResult(pe, p.maxLen * p.dModel, (o) => pe.sinusoidal(p.maxLen, p.dModel, { out: o }));
      return { run, dispose: () => out.free() };
    },
    js: (p) => ({ run: () => plain.sinusoidal(p.maxLen, p.dModel) }),
  },
  {
    id: 'rope-exact',
    title: "RoPE applied to x, 'half' pairing, exact cos/sin (PyTorch bit for bit)",
    ...ROPE_SHAPE,
    ours: ropeOurs({}),
    js: (p, x) => ({ run: () => plain.ropeApplyHalf(x.x, p.rows, p.dim) }),
  },
  {
    id: 'attention-alibi-causal',
    title: 'ALiBi-biased causal attention',
    sizes: { full: { heads: 8, seqLen: 1024, headDim: 64 }, quick: { heads: 2, seqLen: 128, headDim: 32 } },
    label: attentionLabel,
    flops: attentionFlops,
    inputs: qkv,
    ours: (pe, p, x) => oursAttention(pe, p, x, { alibi: true, causal: true }),
    // The obvious JS: the same precomputed bias, causal rows loop over keys 0..i.
    js: (p, x) => {
      const bias = plain.alibiBiasCausal(p.heads, p.seqLen);
      const options = { heads: p.heads, seqLen: p.seqLen, headDim: p.headDim, causal: true, bias };
      return { run: () => plain.attention(x.q, x.k, x.v, options) };
    },
    tfjs: (tf, p, x) => tfjsAttention(tf, p, x, plain.alibiBiasCausal(p.heads, p.seqLen)),
  },
  {
    id: 'attention',
    title: 'Scaled dot-product attention',
    sizes: { full: { heads: 8, seqLen: 1024, headDim: 64 }, quick: { heads: 2, seqLen: 128, headDim: 32 } },
    label: attentionLabel,
    flops: attentionFlops,
    inputs: qkv,
    ours: oursAttention,
    js: (p, x) => {
      const options = { heads: p.heads, seqLen: p.seqLen, headDim: p.headDim };
      return { run: () => plain.attention(x.q, x.k, x.v, options) };
    },
    tfjs: (tf, p, x) => tfjsAttention(tf, p, x),
  },
  {
    // The target: under 10 ms per step in the SIMD build at the
    // default configuration. Peers: our scalar build (no JS or tfjs twin of
    // the model exists). Each run() is one step on a fresh batch; the
    // returned loss differs between the builds only by float rounding.
    id: 'train-step',
    title: 'One training step of the tiny Transformer (forward, backward, clip, Adam), reverse task, RoPE',
    trainer: true,
    sizes: {
      full: { layers: 2, dModel: 64, heads: 4, trainLen: 16, batch: 32 },
      quick: { layers: 1, dModel: 16, heads: 2, trainLen: 8, batch: 4 },
    },
    label: (p) => `${p.layers} layers, d=${p.dModel}, h=${p.heads}, L=${p.trainLen}, batch ${p.batch}`,
    // Matrix products only: forward 2 flops per multiply-add, backward twice
    // the forward (6 in all) over the weights (4 d^2 attention, 2 * 4 d^2
    // feed-forward, d * vocab output) and the scores (4 L^2 d per sequence).
    flops: (p) =>
      6 * p.batch * p.trainLen * (p.layers * 12 * p.dModel * p.dModel + 10 * p.dModel) +
      3 * 4 * p.batch * p.layers * p.trainLen * p.trainLen * p.dModel,
    inputs: () => ({}),
    ours: (pe, p) => {
      const t = pe.createTrainer({ task: 'reverse', encoding: 'rope', ...p });
      return { run: () => Float32Array.of(t.step(1)), dispose: () => t.delete() };
    },
  },
  {
    id: 'softmax',
    title: 'Softmax over the last axis',
    sizes: { full: { batch: 8, rows: 1024, n: 1024 }, quick: { batch: 2, rows: 64, n: 128 } },
    label: (p) => `${p.batch} x ${p.rows} x ${p.n}`,
    flops: null,
    // Logits in [-20, 20): large enough that a softmax without the max subtraction would lose digits.
    inputs: (p, random) => ({ x: random(p.batch * p.rows * p.n, 20) }),
    ours: (pe, p, x) => {
      const { held, free } = resident(pe, x);
      const rows = p.batch * p.rows;
      const { out, run } = oursResult(pe, rows * p.n, (o) => pe.softmax(held.x, rows, p.n, { out: o }));
      return { run, dispose: () => (free(), out.free()) };
    },
    js: (p, x) => ({ run: () => plain.softmax(x.x, p.batch * p.rows, p.n) }),
    // tfjs: tf.softmax(x) over the last axis of the (batch, rows, n) tensor.
    tfjs: (tf, p, x) => {
      const t = tf.tensor(x.x, [p.batch, p.rows, p.n]);
      return { run: () => tfValues(tf, () => tf.softmax(t)), dispose: () => t.dispose() };
    },
  },
];
