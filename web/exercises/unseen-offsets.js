// 07-extrapolation.md: train on N tokens, test on N' > N. Training only
// ever shows offsets −(N − 1) to N − 1; what share of the (query, key) pairs
// of a test input sit at an offset that no training input had? Counting
// only, no encoding: (N' − N)(N' − N + 1) of the N'² pairs.
import { pick } from '../lib/questions/random.js';
import { quizNumber } from '../lib/questions/quiz-text.js';
import { LAB_OPTIONS } from '../lib/training/train-session.js';

export function generate(pe, random) {
  const trained = pick(random, [8, 12, 16, 20, 24, 32]);
  const times = pick(random, [2, 3, 4]);
  const test = trained * times;
  // pairs with |n - m| >= N in an N' x N' grid: two triangles of (N' - N)(N' - N + 1)/2 each
  const unseen = (test - trained) * (test - trained + 1);
  const share = unseen / (test * test);
  const oneSide = unseen / 2 / (test * test);
  return {
    prompt: `An encoder (no mask) is trained on inputs of exactly ${trained} tokens and tested on inputs of ${test}. Every query attends to every key. In training, which offsets $n - m$ occur? And in a test input, what share of all (query, key) pairs sit at an offset that never occurred in training?`,
    parts: [
      {
        label: 'Largest offset $|n - m|$ seen in training',
        answer: { type: 'integer', value: trained - 1 },
        slips: [
          {
            value: trained,
            message:
              'Positions start at 0, so the last one is one less than the length: the farthest pair is one step closer than that.',
          },
        ],
        solutionValue: String(trained - 1),
      },
      {
        label: 'Share of test pairs at an unseen offset (a fraction, e.g. 0.25)',
        answer: { type: 'number', value: share, tolerance: { abs: 5e-4 } },
        slips: [
          {
            value: oneSide,
            message:
              'That counts one side only: keys far before the query and keys far after it both have unseen offsets.',
          },
          { value: 1 - share, message: 'That is the share of pairs whose offset training did see.' },
          {
            value: (test - trained) / test,
            message:
              'That is the share of positions past the training length; the question is about pairs of positions.',
          },
        ],
        solutionValue: quizNumber(share, 4),
      },
    ],
    hint: `Draw the ${test} × ${test} grid of (query, key) pairs. The pairs with $|n - m| \\le ${trained - 1}$ form a band around the diagonal; count the two triangles outside it.`,
    solution: `- Positions 0 to ${trained - 1} give offsets from $-${trained - 1}$ to ${trained - 1}.
- In a ${test}-token input, the pairs with $|n - m| \\ge ${trained}$ fill two triangles with ${((test - trained) * (test - trained + 1)) / 2} pairs each: ${unseen} of the ${test * test} pairs.
- That is ${quizNumber(share, 4)} of all pairs. A relative encoding meets each of those offsets for the first time; the lab's models, trained on ${LAB_OPTIONS.trainLen.default} digits, met them at ${2 * LAB_OPTIONS.trainLen.default} and ${4 * LAB_OPTIONS.trainLen.default}.`,
  };
}

// what it asks for (tests/js/exercises.test.mjs counts the kinds)
export const asks = 'number';

// section: the one it is written for (dropped with a note if that section leaves the lesson)
export default { generate, asks, section: 'extrapolation' };
