// Cases of the code exercise llama3-inv-freq (08-long-context.md): the
// inverse frequencies of RoPE after Llama 3's scaling, HF's
// _compute_llama3_parameters as the core computes it in float32
// (pe.ropeInvFreq with scaling llama3). Edge cases: Meta's defaults for a
// head of 128, a small head whose pairs fall in all three bands, a head
// size that is not a power of two; then sizes and factors drawn from the
// seed. A draw with a wavelength within 1e-4 of a band edge is skipped: there
// float32 and float64 may fall on different sides.
import { pick } from '../lib/questions/random.js';

const SPEC = (factor, low, high, original) => ({
  type: 'llama3',
  factor,
  lowFreqFactor: low,
  highFreqFactor: high,
  originalMaxPositions: original,
});

function nearEdge(pe, dim, base, [factor, low, high, original]) {
  const inv = pe.ropeInvFreq(dim, { base });
  const edges = [original / low, original / high];
  return Array.from(inv).some((f) => edges.some((e) => Math.abs((2 * Math.PI) / f / e - 1) < 1e-4));
}

function caseOf(pe, dim, base, params) {
  const [factor, low, high, original] = params;
  const expected = Array.from(pe.ropeInvFreq(dim, { base, scaling: SPEC(factor, low, high, original) }));
  return {
    args: [dim, base, factor, low, high, original],
    expected,
    slips: {
      linear: Array.from(pe.ropeInvFreq(dim, { base, scaling: { type: 'linear', factor } })),
      unscaled: Array.from(pe.ropeInvFreq(dim, { base })),
    },
  };
}

export function cases(pe, random) {
  const out = [
    caseOf(pe, 128, 500000, [8, 1, 4, 8192]),
    caseOf(pe, 16, 500000, [8, 1, 4, 8192]),
    caseOf(pe, 24, 10000, [4, 1, 4, 2048]),
  ];
  while (out.length < 6) {
    const dim = pick(random, [32, 64, 96, 128]);
    const base = pick(random, [10000, 500000]);
    const params = [
      pick(random, [2, 4, 8, 16]),
      pick(random, [1, 2]),
      pick(random, [4, 8]),
      pick(random, [2048, 4096, 8192]),
    ];
    if (!nearEdge(pe, dim, base, params)) out.push(caseOf(pe, dim, base, params));
  }
  return out;
}

export default { cases, section: 'long-context' };
