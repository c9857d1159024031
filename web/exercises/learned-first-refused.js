// 03-learned.md: a learned table of R rows, a prompt of P tokens, then
// generation one token at a time: which generated token is the first the
// position lookup refuses? The core's learnedLookup decides which position
// has no row; the learned-overflow sample prints it once answered.
import { grouped } from '../lib/printing/pyformat.js';

export function generate(pe, random) {
  const rows = 64 * (2 + Math.floor(random() * 31)); // 128 .. 2048 rows
  const prompt = Math.floor(rows * (0.3 + 0.6 * random()));
  // the first position the table refuses, found by the core's lookup (nn.Embedding's check)
  const table = new Float32Array(rows * 8);
  let refused = rows - 2;
  for (; ; refused++) {
    try {
      pe.learnedLookup(table, rows, 8, [refused]);
    } catch (error) {
      if (error.kind !== 'IndexError') throw error;
      break;
    }
  }
  // generated token k (from 1) sits at position prompt + k - 1
  const k = refused - prompt + 1;
  const g = (x) => grouped(String(x));
  return {
    prompt: `A GPT-style model keeps its positions in \`nn.Embedding(${rows}, d_model)\`. You give it a prompt of ${g(prompt)} tokens (positions 0 to ${g(prompt - 1)}) and let it generate, one token at a time with a key-value cache, each new token at the next position.

Counting the generated tokens from 1, which one is the first whose position lookup fails?`,
    parts: [
      {
        label: 'Generated token number',
        answer: { type: 'integer', value: k },
        slips: [
          {
            value: k + 1,
            message: `One too late: the table's rows are 0 to ${g(rows - 1)}, so position ${g(rows)} is already missing.`,
          },
          {
            value: rows,
            message: `That counts from the start of the prompt: the first ${g(prompt)} positions are taken by the prompt.`,
          },
          {
            value: rows - prompt,
            message:
              'One too early: that token still gets a row. Count the rows left after the prompt, starting with the position of generated token 1.',
          },
        ],
        solutionValue: String(k),
      },
    ],
    hint: `Which position does generated token 1 get? Then: which is the first position with no row in a table of ${g(rows)} rows?`,
    solution: `- The table has rows 0 to ${g(rows - 1)}; position ${g(rows)} is the first without one, and \`nn.Embedding\` raises an IndexError for it.
- The prompt fills positions 0 to ${g(prompt - 1)}, so generated token $k$ sits at position ${g(prompt)} + k − 1.
- ${g(prompt)} + k − 1 = ${g(rows)} gives k = ${g(rows)} − ${g(prompt)} + 1 = ${g(k)}.`,
    reveal: {
      sample: 'learned-overflow',
      params: { rows, d_model: 64, positions: prompt + k },
      caption: `The lookup for all ${g(prompt + k)} positions, in PyTorch, printed live`,
    },
  };
}

// what it asks for (tests/js/exercises.test.mjs counts the kinds)
export const asks = 'prediction';

// section: the one it is written for (dropped with a note if that section leaves the lesson)
export default { generate, asks, section: 'learned' };
