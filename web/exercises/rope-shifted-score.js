// 04-rope.md, the source exercise (positions 1 vs 3 = 101 vs 103): predict
// the RoPE score after both positions move, and after they swap. Every score
// is the core's (rotatedScore: ropeApply, then the float32 sum torch makes);
// the rope-seats sample prints the first two once answered.
import { quizNumber, texVector } from '../lib/questions/quiz-text.js';
import { randomQueryKey, rotatedScore } from '../lib/rope/rotated-pair.js';

export function generate(pe, random) {
  for (;;) {
    const { q, k, theta, scaling } = randomQueryKey(random);
    const m = Math.floor(random() * 10);
    let n = Math.floor(random() * 10);
    if (n === m) n = m + 3;
    const shift = 10 + Math.floor(random() * 990);
    const score = (i, j) => rotatedScore(pe, q, k, i, j, scaling);
    const here = score(m, n);
    const moved = score(m + shift, n + shift);
    const swapped = score(n, m);
    // the swap must matter, or the second part asks nothing
    if (Math.abs(swapped - here) < 0.05) continue;
    const f = (x) => quizNumber(x, 4);
    return {
      prompt: `RoPE with one pair turning $\\theta = ${theta}$ radians per position. The query $q = ${texVector(q)}$ sits at position $m = ${m}$ and the key $k = ${texVector(k)}$ at position $n = ${n}$; their score, the dot product of the turned vectors, is $${f(here)}$.

Predict the score in two other placements.`,
      parts: [
        {
          label: `$q$ at ${m + shift}, $k$ at ${n + shift}:`,
          answer: { type: 'number', value: moved, tolerance: { abs: 6e-4 }, digits: 4 },
          slips: [{ value: score(m + shift, n), message: 'Both vectors moved, so the offset $n - m$ did not change.' }],
          solutionValue: f(moved),
        },
        {
          label: `$q$ at ${n}, $k$ at ${m} (swapped):`,
          answer: { type: 'number', value: swapped, tolerance: { abs: 6e-4 }, digits: 4 },
          slips: [
            {
              value: here,
              message: `The offset is now $${m - n}$, not $${n - m}$: cosine is even, but the phase between $q$ and $k$ is not 0, so the sign matters.`,
            },
            { value: -here, message: 'Swapping flips the sign of the angle, not of the score.' },
          ],
          solutionValue: f(swapped),
        },
      ],
      hint: `The score is $q^\\top R(\\Delta\\theta)\\,k = A\\cos \\Delta\\theta + B\\sin \\Delta\\theta$, with $\\Delta = n - m$, $A = q_0 k_0 + q_1 k_1$ and $B = q_1 k_0 - q_0 k_1$. What is $\\Delta$ in each placement?`,
      solution: `- The score depends on the offset $\\Delta = n - m$ only: $q^\\top R(\\Delta\\theta)\\,k = A\\cos \\Delta\\theta + B\\sin \\Delta\\theta$, with $A = q_0 k_0 + q_1 k_1$ and $B = q_1 k_0 - q_0 k_1$.
- Moved by ${shift}: $\\Delta$ is still $${n - m}$, so the score is $${f(here)}$ again (the core gives $${f(moved)}$ in float32).
- Swapped: $\\Delta = ${m - n}$ flips the sign of the $B\\sin \\Delta\\theta$ term, and the score becomes $${f(swapped)}$. RoPE tells before from after.`,
      reveal: {
        sample: 'rope-seats',
        params: { q, k, theta, m, n, shift },
        caption: 'The source exercise in PyTorch, with your numbers, printed live',
      },
    };
  }
}

// what it asks for (tests/js/exercises.test.mjs counts the kinds)
export const asks = 'prediction';

// section: the one it is written for (dropped with a note if that section leaves the lesson)
export default { generate, asks, section: 'rope' };
