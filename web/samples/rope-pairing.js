// RoPE with the two pairings on the same vector, the permutation that maps
// one onto the other, and the score a model gets when its weights are loaded
// under the wrong pairing. As printed by the rope-pairing sample of
// lessons/positional-encoding/04-rope.md.
import { fixed, torchStr } from '../lib/printing/pyformat.js';
import { int } from '../lib/printing/sample-params.js';

const f32 = Math.fround;

// torch's dot product, summed in order in float32.
function dot(a, b) {
  let s = 0;
  for (let i = 0; i < a.length; i++) s = f32(s + f32(a[i] * b[i]));
  return s;
}

export default {
  section: 'rope',
  params: {
    d: int('head dim d', 8, 2, 12, 2),
    m: int('seat m of q', 3, 0, 1000),
    n: int('seat n of k', 1, 0, 1000),
  },
  cases: [
    { d: 10, m: 1000, n: 17 },
    { d: 2, m: 5, n: 0 },
    { d: 12, m: 0, n: 999 },
  ],
  run(pe, p) {
    const { d, m, n } = p;
    const q = Array.from({ length: d }, (_, i) => f32((i + 1) / d));
    const k = q.slice().reverse();
    const perm = [];
    for (let i = 0; i < d; i += 2) perm.push(i);
    for (let i = 1; i < d; i += 2) perm.push(i);
    const permute = (x) => perm.map((i) => x[i]);
    // q at seat m and k at seat n, rotated by the core in one call.
    const rope = (convention, a, b) => {
      const r = pe.ropeApply([...a, ...b], 2, d, { positions: [m, n], convention });
      return [r.subarray(0, d), r.subarray(d)];
    };
    const [qHalf, kHalf] = rope('half', q, k);
    const [qInter, kInter] = rope('interleaved', q, k);
    const [qHalfP, kHalfP] = rope('half', permute(q), permute(k));
    const same = permute(qInter).every((v, i) => v === qHalfP[i]);
    return [
      `half:        ${torchStr(qHalf, [d])}`,
      `interleaved: ${torchStr(qInter, [d])}`,
      `same up to perm: ${same ? 'True' : 'False'}`,
      `score as trained: ${fixed(dot(qInter, kInter), 4)}`,
      `after permuting:  ${fixed(dot(qHalfP, kHalfP), 4)}`,
      `not permuted:     ${fixed(dot(qHalf, kHalf), 4)}`,
      '',
    ].join('\n');
  },
};
