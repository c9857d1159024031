// Numbers quoted in lessons/positional-encoding/07-ablation.md, computed with the core.
import { exponential } from '../lib/printing/pyformat.js';

// 4e-04 -> '4 \\times 10^{-4}' (KaTeX, inside $...$ in the prose)
const tex = (x) => {
  const [m, e] = exponential(x, 0).split('e');
  return `${m} \\times 10^{${Number(e)}}`;
};

// The shift test for RoPE in float32: the score of a query at position 3 and
// a key at position 10, minus the score of the same vectors at 3 + shift and
// 10 + shift. Exactly 0 in real arithmetic; float32 angles make it drift.
function shiftDrift(pe, shift) {
  const dim = 128;
  const q = Array.from({ length: dim }, (_, j) => Math.sin(0.7 * j + 1));
  const k = Array.from({ length: dim }, (_, j) => Math.cos(1.3 * j));
  const score = (m, n) => {
    const qr = pe.ropeApply(q, 1, dim, { positions: [m] });
    const kr = pe.ropeApply(k, 1, dim, { positions: [n] });
    let s = 0;
    for (let j = 0; j < dim; j++) s += qr[j] * kr[j];
    return s;
  };
  return Math.abs(score(3 + shift, 10 + shift) - score(3, 10));
}

export default {
  'ablation-shift-drift-100': (pe) => tex(shiftDrift(pe, 100)),
  'ablation-shift-drift-100000': (pe) => tex(shiftDrift(pe, 100000)),
  // |q| |k| of the vectors above, to put the drift in proportion
  'ablation-shift-score-scale': () => {
    const n = (f) => Math.sqrt(Array.from({ length: 128 }, (_, j) => f(j) ** 2).reduce((a, b) => a + b));
    return String(Math.round(n((j) => Math.sin(0.7 * j + 1)) * n((j) => Math.cos(1.3 * j))));
  },
};
