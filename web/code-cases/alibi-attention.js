// Cases of the code exercise alibi-attention (05-relative-bias.md): one
// head of causal attention with ALiBi's bias −m·(i − j), computed by the
// core in float32 (pe.attention with causal: true and that bias; scale
// 1/√d as F.scaled_dot_product_attention). Edge cases: a sequence of one
// (only itself to attend to), a head size that is odd, a slope of 0 (plain
// causal attention); then sizes, vectors and slopes drawn from the seed.
import { pick } from '../lib/questions/random.js';

const matrix = (random, n, d) =>
  Array.from({ length: n }, () => Array.from({ length: d }, () => Math.round((random() * 2 - 1) * 100) / 100));

function attend(pe, q, k, v, slope, { causal = true, sign = -1, scale } = {}) {
  const n = q.length;
  const d = q[0].length;
  // the bias −m·(i − j) for query i and key j (counting: the core adds it)
  const bias = new Float32Array(n * n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) bias[i * n + j] = sign * slope * (i - j);
  const { output } = pe.attention(
    Float32Array.from(q.flat()),
    Float32Array.from(k.flat()),
    Float32Array.from(v.flat()),
    {
      heads: 1,
      seqLen: n,
      headDim: d,
      causal,
      bias,
      returnWeights: false,
      ...(scale === undefined ? {} : { scale }),
    },
  );
  return Array.from({ length: n }, (_, i) => Array.from(output.subarray(i * d, (i + 1) * d)));
}

function caseOf(pe, q, k, v, slope) {
  return {
    args: [q, k, v, slope],
    expected: attend(pe, q, k, v, slope),
    slips: {
      'no-mask': attend(pe, q, k, v, slope, { causal: false }),
      'plus-sign': attend(pe, q, k, v, slope, { sign: 1 }),
      'no-scale': attend(pe, q, k, v, slope, { scale: 1 }),
    },
  };
}

export function cases(pe, random) {
  const slopes = Array.from(pe.alibiSlopes(8));
  const qkv = (n, d) => [matrix(random, n, d), matrix(random, n, d), matrix(random, n, d)];
  const out = [
    caseOf(pe, [[1, 0]], [[0.5, 0.5]], [[2, -1]], 0.5),
    caseOf(pe, ...qkv(3, 2), 0.5),
    caseOf(pe, ...qkv(4, 3), 0.25),
    caseOf(pe, ...qkv(3, 2), 0),
  ];
  for (let k = 0; k < 3; k++)
    out.push(caseOf(pe, ...qkv(2 + Math.floor(random() * 5), pick(random, [2, 3, 4])), pick(random, slopes)));
  return out;
}

export default { cases, section: 'relative-bias' };
