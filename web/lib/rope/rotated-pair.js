// RoPE on one 2-number pair, the lesson's "seats": a query at seat m and a
// key at seat n, each turned by the core (ropeApply) by seat x theta, and
// their score. The core's RoPE on one pair turns by position x inv_freq, and
// inv_freq is 1 on a pair whatever the base, so a chosen theta is set through
// linear scaling (factor 1/theta), exactly in float32 where such a factor
// exists. Used by the rope-seats and rope-vs-additive samples, the
// rope-offset-check widget, the rope-same-offset quiz, the rope-rotated-pair
// and rope-shifted-score exercises and the section's numbers.
import { pick } from '../questions/random.js';
import { float, int, vector } from '../printing/sample-params.js';

const f32 = Math.fround;

// The Python code turns a pair by f32(seat) * f32(theta). The core's RoPE on
// dim 2 has inv_freq 1 whatever the base; linear scaling by F makes it
// f32(1 / f32(F)). 1/theta rounded to float32 is sometimes one step off, so
// its float32 neighbours are tried too, each checked by the core itself.
// Returns { scaling, used (the theta the core will use), exact }; without an
// exact factor, scaling is 1/theta and used is one float32 step from theta.
export function thetaScaling(pe, theta) {
  const target = f32(theta);
  const bits = new Float32Array([1 / theta]);
  const word = new Uint32Array(bits.buffer);
  const start = word[0];
  for (const step of [0, 1, -1, 2, -2, 3, -3]) {
    word[0] = start + step;
    const scaling = { type: 'linear', factor: bits[0] };
    if (pe.ropeInvFreq(2, { scaling })[0] === target) return { scaling, used: target, exact: true };
  }
  const scaling = { type: 'linear', factor: 1 / theta };
  return { scaling, used: pe.ropeInvFreq(2, { scaling })[0], exact: false };
}

// The samples' thetas (0.05 grid up to 1.5) all have an exact factor.
export function linearFactorFor(pe, theta) {
  const { scaling, exact } = thetaScaling(pe, theta);
  if (!exact) throw new RangeError(`no linear factor gives theta = ${theta} in float32`);
  return scaling;
}

// For the generated quizzes: thetas whose factor 1/theta is exact in float32,
// and a random nonzero 2-vector with components in tenths from -1 to 1.
export const EXACT_THETAS = [
  [0.25, 4],
  [0.5, 2],
  [1, 1],
];

export function randomVector(random) {
  const component = () => Math.round(random() * 20 - 10) / 10;
  for (;;) {
    const v = [component(), component()];
    if (v[0] !== 0 || v[1] !== 0) return v;
  }
}

// A query, a key and a θ with its exact linear scaling, drawn in this order
// (the RoPE quiz and exercise draw their positions after it).
export function randomQueryKey(random) {
  const q = randomVector(random);
  const k = randomVector(random);
  const [theta, factor] = pick(random, EXACT_THETAS);
  return { q, k, theta, scaling: { type: 'linear', factor } };
}

// Score of q at seat i and k at seat j, both rotated by the core; the 2-term
// sum in float32 as torch's .sum() does it (from +0, so never -0).
export function rotatedScore(pe, q, k, i, j, scaling) {
  const r = pe.ropeApply([...q, ...k], 2, 2, { positions: [i, j], scaling });
  return f32(f32(r[0] * r[2]) + f32(r[1] * r[3])) + 0;
}

// The controls of the rope-seats and rope-vs-additive samples, which show the
// same numbers: q and k, θ (all on the 0.05 grid linearFactorFor covers), seats m
// and n, and the shift added to both. `seat` is what m and n are called.
export const shiftedPairParams = (seat) => ({
  q: vector('q', [1.0, 0.5], -1, 1, 0.1),
  k: vector('k', [0.8, 0.2], -1, 1, 0.1),
  theta: float(`theta (radians per ${seat})`, 0.5, 0.05, 1.5, 0.05),
  m: int(`${seat} m of q`, 1, 0, 50),
  n: int(`${seat} n of k`, 3, 0, 50),
  shift: int('shift', 100, 0, 10000),
});
