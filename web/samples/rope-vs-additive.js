// The same shift applied to both positions: an added (sin, cos) vector
// changes the score, a turn by the same angle does not. As printed by the
// rope-vs-additive sample of lessons/positional-encoding/04-rope.md, with the
// θ of the rope-offset-check plot beside it, so the two show the same
// numbers. Each position's cos and sin come from the core's RoPE of one pair
// (ropeApply, with θ set exactly by linear scaling:
// web/lib/rope/rotated-pair.js): the same 0-d tensor sin/cos the Python
// takes, bit for bit.
import { fixed } from '../lib/printing/pyformat.js';
import { linearFactorFor, rotatedScore, shiftedPairParams } from '../lib/rope/rotated-pair.js';

const f32 = Math.fround;

export default {
  section: 'rope',
  params: shiftedPairParams('position'),
  cases: [
    { q: [-0.8, 0.6], k: [0.2, -1.0], theta: 1.35, m: 40, n: 3, shift: 10000 },
    { theta: 1, m: 0, n: 0, shift: 1 },
  ],
  run(pe, p) {
    const { m, n, shift } = p;
    const scaling = linearFactorFor(pe, p.theta);
    const q = p.q.map(f32);
    const k = p.k.map(f32);
    // turning (1, 0) by pos·θ gives (cos, sin) as float32, exactly
    const sinCos = (pos) => {
      const [c, s] = pe.ropeApply([1, 0], 1, 2, { positions: [pos], scaling });
      return [s, c];
    };
    // torch's .sum() starts from +0, so a -0 total prints as 0.00000
    const dot2 = (a, b) => f32(f32(a[0] * b[0]) + f32(a[1] * b[1])) + 0;
    const lines = [];
    for (const [i, j] of [
      [m, n],
      [m + shift, n + shift],
    ]) {
      const pi = sinCos(i);
      const pj = sinCos(j);
      const added = dot2([f32(q[0] + pi[0]), f32(q[1] + pi[1])], [f32(k[0] + pj[0]), f32(k[1] + pj[1])]);
      const rotated = rotatedScore(pe, q, k, i, j, scaling);
      lines.push(`positions ${i} vs ${j}: added ${fixed(added, 5)}, rotated ${fixed(rotated, 5)}`);
    }
    return `${lines.join('\n')}\n`;
  },
};
