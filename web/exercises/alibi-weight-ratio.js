// 05-relative-bias.md: how strongly one ALiBi head prefers the newest key
// over one Δ tokens back, with equal content scores: e^{α_j Δ}. The slope is
// the core's (alibiSlopes, the paper's geometric sequence).
import { pick } from '../lib/random.js';
import { quizNumber } from '../lib/quiz-text.js';

const sig4 = (x) => Number(x.toPrecision(4)).toString();

export function generate(pe, random) {
  for (;;) {
    const heads = pick(random, [4, 8, 16]);
    const j = 1 + Math.floor(random() * heads);
    const delta = 2 + Math.floor(random() * 40);
    const slopes = pe.alibiSlopes(heads);
    const alpha = slopes[j - 1];
    const ratio = Math.exp(alpha * delta);
    // a ratio near 1 or astronomically large teaches little
    if (ratio < 1.5 || ratio > 1e5) continue;
    return {
      prompt: `A causal ALiBi model with $h = ${heads}$ heads. In head $j = ${j}$, a query sees the newest key (offset 0) and a key ${delta} tokens back (offset $-${delta}$), and their content scores $q^\\top k/\\sqrt{d_{\\text{head}}}$ are equal. How many times more attention weight does the newest key get?`,
      parts: [
        {
          label: 'Weight of the newest key ÷ weight of the older one =',
          answer: { type: 'number', value: ratio, tolerance: { rel: 2e-3 } },
          slips: [
            {
              value: 1 / ratio,
              message: 'That is the older key over the newest one. The older key is the one turned down.',
            },
            {
              value: alpha * delta,
              message:
                'That is the difference of the two biases. The softmax exponentiates: a bias $b$ multiplies a weight by $e^{b}$.',
            },
            {
              value: Math.exp(slopes[Math.min(j, heads - 1)] * delta),
              message: `That is head ${j + 1}'s slope: head $j$ has $\\alpha_j = 2^{-8j/h}$ with $j$ counted from 1.`,
            },
            {
              value: Math.exp(2 ** ((-8 * (j - 1)) / heads) * delta),
              message: `The slopes start at $2^{-8/h}$ for head 1, not at 1: head $j$ has $\\alpha_j = 2^{-8j/h}$.`,
            },
          ],
          solutionValue: sig4(ratio),
        },
      ],
      hint: `First the slope $\\alpha_j = 2^{-8j/h}$. The key ${delta} tokens back has a bias $\\alpha_j \\cdot ${delta}$ lower than the newest key's; what does the softmax do to a score that is lower by some amount?`,
      solution: `- Head $j = ${j}$ of $h = ${heads}$: $\\alpha_{${j}} = 2^{-8 \\cdot ${j}/${heads}} = ${quizNumber(alpha, 6)}$.
- The older key's score is lower by $\\alpha_{${j}} \\cdot ${delta} = ${quizNumber(alpha * delta, 4)}$; everything else is equal.
- The softmax divides both weights by the same sum, so their ratio is $e^{${quizNumber(alpha * delta, 4)}} = ${sig4(ratio)}$.
- The weight falls by a factor $e$ every $1/\\alpha_j = ${quizNumber(1 / alpha, 2)}$ tokens in this head.`,
    };
  }
}

// what it asks for (tests/js/exercises.test.mjs counts the kinds)
export const asks = 'number';

// section: the one it is written for (dropped with a note if that section leaves the lesson)
export default { generate, asks, section: 'relative-bias' };
