// 01-why-position.md: how a causal mask alone tells a decoder where it is.
// A start token whose value carries a 1, averaged evenly over the m + 1
// tokens a query at position m sees, gives 1/(m + 1): a position signal with
// no encoding. The numbers come from the core's attention (causal, all
// scores equal).
import { quizNumber } from '../lib/questions/quiz-text.js';

// output coordinate of the query at position `m` (one head, width 1, q = k = 0, v = [1, 0, 0, ...])
function averagedStart(pe, m) {
  const n = m + 1;
  const zeros = new Float32Array(n);
  const v = new Float32Array(n);
  v[0] = 1;
  const { output } = pe.attention(zeros, zeros, v, { heads: 1, seqLen: n, headDim: 1, causal: true });
  return output[m];
}

export function generate(pe, random) {
  const m = 20 + Math.floor(random() * 180);
  const value = averagedStart(pe, m);
  return {
    prompt: `A causal decoder with no positional encoding. Its first token is a start token whose value vector has a 1 in its first coordinate; every other token's value has 0 there. One head has learned to give every key it can see the same score.

What is the first coordinate of this head's output for the query at position $m$ (positions count from 0)? Then put in a number.`,
    parts: [
      {
        label: 'Output at position $m$ =',
        answer: {
          type: 'expression',
          reference: '1/(m+1)',
          names: { m: { tex: 'm' } },
          domains: { m: { min: 0, max: 1000, integer: true } },
        },
        slips: [
          {
            expression: '1/m',
            message: 'The query at position $m$ sees positions 0 to $m$: that is $m + 1$ tokens, not $m$.',
          },
          {
            expression: 'm+1',
            message: 'That is how many tokens it sees. Equal scores share the weight 1 among them.',
          },
          { expression: '1', message: 'Only the start token carries the 1, and it gets only its share of the weight.' },
        ],
        solutionValue: '1/(m+1)',
      },
      {
        label: `Output at position ${m} (to 4 significant figures) =`,
        answer: { type: 'number', value, tolerance: { rel: 5e-4 } },
        slips: [{ value: 1 / m, message: `Position ${m} sees ${m + 1} tokens, positions 0 to ${m}.` }],
        solutionValue: quizNumber(value, 6),
      },
    ],
    hint: 'Equal scores make the softmax spread the weight evenly over the keys the mask lets through. How many keys does the query at position $m$ see, and which of them carries the 1?',
    solution: `- The causal mask lets the query at position $m$ see positions $0, \\dots, m$: $m + 1$ keys.
- Equal scores give each the weight $1/(m + 1)$.
- Only the start token's value has a 1 in the first coordinate, so the output there is $1/(m + 1)$: ${quizNumber(value, 6)} at position ${m}.
- The output shrinks with $m$, so later layers can read an estimate of the position from it: the mask alone carries order.`,
  };
}

// what it asks for (tests/js/exercises.test.mjs counts the kinds)
export const asks = 'formula';

// section: the one it is written for (dropped with a note if that section leaves the lesson)
export default { generate, asks, section: 'why-position' };
