// The same shift applied to both seats: an added sinusoidal vector changes the
// score, a rotation by the same angle does not. As printed by the
// rope-vs-additive sample of lessons/positional-encoding/04-rope.md. Both
// come from one sinusoidal table computed by the core (torch's bits).
import { fixed } from '../lib/pyformat.js';

const f32 = Math.fround;

export default {
  params: {
    q: { type: 'vector', default: [1.0, 0.5], length: 2, min: -1, max: 1, step: 0.1, label: 'q' },
    k: { type: 'vector', default: [0.8, 0.2], length: 2, min: -1, max: 1, step: 0.1, label: 'k' },
    m: { type: 'int', default: 1, min: 0, max: 50, step: 1, label: 'seat m of q' },
    n: { type: 'int', default: 3, min: 0, max: 50, step: 1, label: 'seat n of k' },
    shift: { type: 'int', default: 100, min: 0, max: 10000, step: 1, label: 'shift' },
  },
  cases: [
    { q: [-0.8, 0.6], k: [0.2, -1.0], m: 40, n: 3, shift: 10000 },
    { m: 0, n: 0, shift: 1 },
  ],
  run(pe, p) {
    const { m, n, shift } = p;
    const q = p.q.map(f32);
    const k = p.k.map(f32);
    // d_model = 2: one (sin, cos) pair at 1 radian per seat.
    const table = pe.sinusoidal(Math.max(m, n) + shift + 1, 2);
    const row = (seat) => [table[2 * seat], table[2 * seat + 1]];
    // torch's .sum() starts from +0, so a -0 total prints as 0.0000.
    const dot2 = (a, b) => f32(f32(a[0] * b[0]) + f32(a[1] * b[1])) + 0;
    const lines = [];
    for (const [i, j] of [[m, n], [m + shift, n + shift]]) {
      const pi = row(i);
      const pj = row(j);
      const added = dot2([f32(q[0] + pi[0]), f32(q[1] + pi[1])], [f32(k[0] + pj[0]), f32(k[1] + pj[1])]);
      // rotated(x, seat): s, c = table[seat], as the Python takes them. Not
      // ropeApply: torch computes these sines over the whole table, so a
      // seat's value depends on its 8-lane group there (cpp/core/sleef.h).
      const turn = (x, [s, c]) => [f32(f32(x[0] * c) - f32(x[1] * s)), f32(f32(x[0] * s) + f32(x[1] * c))];
      const rotated = dot2(turn(q, pi), turn(k, pj));
      lines.push(`seats ${i} vs ${j}: added ${fixed(added, 4)}, rotated ${fixed(rotated, 4)}`);
    }
    return `${lines.join('\n')}\n`;
  },
};
