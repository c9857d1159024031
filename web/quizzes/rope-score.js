// Generated quiz: the RoPE score of a 2-number query and key at two seats.
// Every number comes from the core (ropeApply via the rope-seats helpers).
import { fixed, pyList, pyRepr } from '../lib/pyformat.js';
import { EXACT_THETAS, randomVector, rotatedScore } from '../samples/rope-seats.js';
import { pick, shuffle } from '../lib/random.js';

const f32 = Math.fround;

export function generate(pe, random) {
  for (;;) {
    const q = randomVector(random);
    const k = randomVector(random);
    const [theta, factor] = pick(random, EXACT_THETAS);
    const scaling = { type: 'linear', factor };
    const m = Math.floor(random() * 10);
    let n = Math.floor(random() * 10);
    if (n === m) n = (m + 3) % 10;
    const score = (i, j) => rotatedScore(pe, q, k, i, j, scaling);
    const right = fixed(score(m, n), 3);
    const plain = fixed(f32(f32(f32(q[0]) * f32(k[0])) + f32(f32(q[1]) * f32(k[1]))), 3);
    const swapped = fixed(score(n, m), 3);
    const summed = fixed(score(0, m + n), 3);
    const texts = [right, plain, swapped, summed];
    if (new Set(texts).size !== texts.length) continue;
    const offset = n - m;
    const angle = offset * theta;
    const side = offset > 0 ? `${offset} seats after q` : `${-offset} seats before q`;
    const example = offset > 0 ? `q at seat 0 and k at seat ${offset}` : `q at seat ${-offset} and k at seat 0`;
    const options = shuffle(random, [
      {
        text: right,
        correct: true,
        feedback: `Right. Only the offset n - m = ${offset} matters: the relative angle is ${offset} x ${theta} = ${angle} radians, and the score is q · R(${angle}) k.`,
      },
      {
        text: plain,
        feedback: `That is q · k with no rotation at all, the score RoPE gives at offset 0. Here k sits ${side}, which turns it by ${angle} radians relative to q.`,
      },
      {
        text: swapped,
        feedback: `That is the score with the seats exchanged (q at seat ${n}, k at seat ${m}), offset ${-offset} instead of ${offset}. RoPE tells the two directions apart, so the sign matters.`,
      },
      {
        text: summed,
        feedback: `That uses the angle (m + n) x theta = ${(m + n) * theta} radians. The rotations of q and k partly cancel: what remains is (n - m) x theta.`,
      },
    ]);
    return {
      question: `RoPE with a single pair: query q = ${pyList(q)} at seat m = ${m}, key k = ${pyList(k)} at seat n = ${n}, and theta = ${pyRepr(theta)} radians per seat. What is the attention score (the dot product of the rotated q and k), to 3 decimals?`,
      options,
      explanation: `Rotating q by m x theta and k by n x theta gives (R(m) q) · (R(n) k) = q · R(n - m) k: only the offset ${offset} survives, an angle of ${angle} radians. The score is ${right}, the same as for ${example}, or for any other placement with n - m = ${offset}.`,
    };
  }
}
