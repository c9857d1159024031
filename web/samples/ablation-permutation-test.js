// The permutation test of 07-ablation.md: shuffle two words and check whether
// one attention head's weights and outputs merely permute, for a correct
// sinusoidal encoding and for four ways of losing it. Encoding and attention
// come from the core; the rest is indexing.
import { fixed } from '../lib/printing/pyformat.js';
import { choice, int } from '../lib/printing/sample-params.js';

const f32 = Math.fround;
const WORDS = ['the', 'cat', 'sat', 'on', 'the', 'mat'];
const PERM = [0, 5, 2, 3, 4, 1];
const VOCAB = [...new Set(WORDS)].sort();

// torch.allclose(a, b, rtol=1e-5, atol=atol)
const allclose = (a, b, atol) => a.every((x, i) => Math.abs(x - b[i]) <= atol + 1e-5 * Math.abs(b[i]));
const py = (b) => (b ? 'True' : 'False');

export default {
  section: 'ablation',
  params: {
    variant: choice('variant', [
      'correct',
      'no encoding',
      'positions all zero',
      'seq-first table',
      'added after attention',
    ]),
    d_model: int('d_model', 8, 4, 16, 2),
  },
  cases: [
    { variant: 'no encoding' },
    { variant: 'positions all zero', d_model: 6 },
    { variant: 'seq-first table', d_model: 16 },
    { variant: 'added after attention', d_model: 4 },
  ],
  run(pe, p) {
    const { variant, d_model: d } = p;
    const n = WORDS.length;
    const table = pe.sinusoidal(n, d); // rows: positions 0..n-1
    // row t of the encoding each variant actually uses
    const peRow = (t) => (variant === 'positions all zero' || variant === 'seq-first table' ? 0 : t);
    const layer = (ws) => {
      const x = new Float32Array(n * d);
      for (let t = 0; t < n; t++) {
        const id = VOCAB.indexOf(ws[t]);
        for (let j = 0; j < d; j++) {
          const e = (((id * 5 + j * 3) % 7) - 3) / 4; // exact in float32
          const added = variant !== 'no encoding' && variant !== 'added after attention';
          x[t * d + j] = added ? f32(e + table[peRow(t) * d + j]) : e;
        }
      }
      const { output, weights } = pe.attention(x, x, x, { heads: 1, seqLen: n, headDim: d });
      if (variant === 'added after attention') for (let i = 0; i < n * d; i++) output[i] = f32(output[i] + table[i]);
      return { w: weights, out: output };
    };
    const a = layer(WORDS);
    const b = layer(PERM.map((i) => WORDS[i]));
    // w[perm][:, perm] and out[perm]
    const wPerm = new Float32Array(n * n);
    const outPerm = new Float32Array(n * d);
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) wPerm[i * n + j] = a.w[PERM[i] * n + PERM[j]];
      for (let j = 0; j < d; j++) outPerm[i * d + j] = a.out[PERM[i] * d + j];
    }
    let change = 0;
    for (let i = 0; i < n * n; i++) change = Math.max(change, Math.abs(f32(b.w[i] - wPerm[i])));
    return (
      `variant: ${variant}\n` +
      `attention weights just permuted: ${py(allclose(b.w, wPerm, 1e-6))}\n` +
      `outputs just permuted:           ${py(allclose(b.out, outPerm, 1e-6))}\n` +
      `largest weight change: ${fixed(change, 4)}\n`
    );
  },
};
