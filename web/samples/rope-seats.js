// Two 2-number vectors rotated by RoPE at seats m, n and again at m + shift,
// n + shift: the score depends only on the offset. As printed by the
// rope-seats sample of lessons/positional-encoding/04-rope.md.
import { fixed } from '../lib/printing/pyformat.js';
import { linearFactorFor, rotatedScore, shiftedPairParams } from '../lib/rope/rotated-pair.js';

export default {
  section: 'rope',
  params: shiftedPairParams('seat'),
  cases: [
    { q: [0.3, -0.9], k: [-0.7, 1.0], theta: 1.35, m: 7, n: 2, shift: 9973 },
    { theta: 0.05, m: 0, n: 50, shift: 0 },
    { q: [-1.0, 1.0], k: [0.6, 0.4], theta: 0.85, m: 12, n: 12, shift: 4321 },
  ],
  run(pe, p) {
    const scaling = linearFactorFor(pe, p.theta);
    const lines = [];
    for (const [i, j] of [
      [p.m, p.n],
      [p.m + p.shift, p.n + p.shift],
    ]) {
      const score = rotatedScore(pe, p.q, p.k, i, j, scaling);
      lines.push(`Attention Score (Seats ${i} vs ${j}): ${fixed(score, 5)}`);
    }
    return `${lines.join('\n')}\n`;
  },
};
