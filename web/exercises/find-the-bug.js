// 09-ablation.md: find the bug in a short PyTorch snippet, by line number,
// and type the value the fixed line must use. Two families of the silent
// bugs the section lists, with fresh numbers and line numbers per learner:
//   cache   a new token rotated at the wrong RoPE position during cached
//           generation (the fix: the cache length)
//   slice   a (max_len, 1, d) table written for sequence-first input, sliced
//           by x.size(0) on batch-first input (the fix: seq_len rows)
// Once answered, the sample that shows the bug's effect runs live.
import { pick } from '../lib/questions/random.js';

function cacheBug(random) {
  const past = 3 + Math.floor(random() * 6); // the review-kv-cache-offset sample shows 1..8
  const wrong = pick(random, [0, past - 1, past + 1]);
  const lines = [
    'import torch',
    ...(random() < 0.5 ? ['', 'torch.manual_seed(0)'] : []),
    '',
    `past = ${past}                          # tokens already in the KV cache`,
    'd = 8                              # head dim',
    'inv_freq = 1.0 / (10000.0 ** (torch.arange(0, d, 2).float() / d))',
    '',
    'def rope(x, pos):                  # x: (n, d); half pairing, as HF Llama',
    '    angle = torch.cat((pos.float()[:, None] * inv_freq,) * 2, dim=-1)',
    '    x1, x2 = x[:, : d // 2], x[:, d // 2 :]',
    '    return x * angle.cos() + torch.cat((-x2, x1), dim=-1) * angle.sin()',
    '',
    'k_cache = rope(torch.randn(past, d), torch.arange(past))',
    'q_new, k_new = torch.randn(1, d), torch.randn(1, d)',
    `pos_new = torch.tensor([${wrong === past - 1 ? 'past - 1' : wrong === past + 1 ? 'past + 1' : '0'}])`,
    'k_cache = torch.cat((k_cache, rope(k_new, pos_new)))',
    'weights = torch.softmax(rope(q_new, pos_new) @ k_cache.T / d ** 0.5, dim=-1)',
  ];
  const line = lines.findIndex((l) => l.startsWith('pos_new')) + 1;
  return {
    lines,
    line,
    value: past,
    valueLabel: 'The position the new token must be rotated at',
    wrongValue: wrong,
    valueSlips: [
      {
        value: past + 1,
        message:
          'One too far: rotated there, the new token looks as if another token had come between the cache and it.',
      },
      { value: past - 1, message: `Position ${past - 1} is the last cached token's.` },
      {
        value: 0,
        message:
          'Position 0 is taken by the first cached token: a new token rotated there looks as if it came before every cached one.',
      },
    ],
    lineSlips: [
      {
        value: lines.findIndex((l) => l.startsWith('k_cache = rope')) + 1,
        message: `That line rotates the cached keys at 0 to ${past - 1}, as they were when they were new: right.`,
      },
      ...['k_cache = torch.cat', 'weights = '].map((start) => ({
        value: lines.findIndex((l) => l.startsWith(start)) + 1,
        message: 'That line only uses pos_new; the wrong position is set where pos_new is made.',
      })),
    ],
    explain: `The cache holds keys rotated at positions 0 to ${past - 1}, so the new token is at position ${past} (\`pos_new = torch.tensor([past])\`). Rotated at ${wrong} instead, its offset to every cached key is off by ${Math.abs(past - wrong)}, and no error says so.`,
    reveal: {
      sample: 'review-kv-cache-offset',
      params: { past_len: past, head_dim: 8 },
      caption: 'The same check in PyTorch: a cached step against a full pass, printed live',
    },
  };
}

function sliceBug(random) {
  const batch = pick(random, [2, 4, 8]);
  const seq = pick(random, [10, 12, 16, 20, 24, 33]);
  const lines = [
    'import math',
    'import torch',
    '',
    `batch, seq_len, d = ${batch}, ${seq}, 16`,
    'position = torch.arange(512).float()[:, None]',
    'inv_freq = torch.exp(torch.arange(0, d, 2).float() * (-math.log(10000.0) / d))',
    ...(random() < 0.5 ? ['# a table written for (seq_len, batch, d) input'] : []),
    'pe = torch.zeros(512, 1, d)',
    'pe[:, 0, 0::2] = torch.sin(position * inv_freq)',
    'pe[:, 0, 1::2] = torch.cos(position * inv_freq)',
    '',
    'x = torch.randn(batch, seq_len, d)   # batch first',
    'x = x + pe[: x.size(0)]',
    'print(x.shape)',
  ];
  const line = lines.findIndex((l) => l.startsWith('x = x + pe')) + 1;
  return {
    lines,
    line,
    value: seq,
    valueLabel: 'How many rows of the table the fixed line must add',
    wrongValue: batch,
    valueSlips: [
      {
        value: batch,
        message: `That is what the buggy line takes: \`x.size(0)\` is the batch, ${batch}, so each sequence gets one row and all its tokens share it.`,
      },
      {
        value: 512,
        message: 'The whole table would not broadcast against the input; the input has only seq_len positions.',
      },
      { value: 1, message: 'One row gives every position the same vector, which carries no order at all.' },
    ],
    lineSlips: [
      {
        value: lines.findIndex((l) => l.startsWith('pe = torch.zeros')) + 1,
        message: 'The table itself is fine for sequence-first input; the bug is where it meets batch-first input.',
      },
      {
        value: lines.findIndex((l) => l.startsWith('x = torch.randn')) + 1,
        message: 'Batch-first input is fine (and common); the line that adds the table must follow it.',
      },
    ],
    explain: `\`x\` is (batch, seq_len, d) = (${batch}, ${seq}, 16), so \`x.size(0)\` is the batch: \`pe[: x.size(0)]\` takes ${batch} rows, shape (${batch}, 1, 16), and broadcasting adds row $b$ to every token of sequence $b$. Nothing fails, and no token learns where it is. The fix takes seq_len = ${seq} rows and puts them on the sequence axis: \`x = x + pe[: x.size(1)].transpose(0, 1)\`.`,
    reveal: {
      sample: 'ablation-permutation-test',
      params: { variant: 'seq-first table', d_model: 8 },
      caption: 'The same bug in the permutation test, in PyTorch, printed live',
    },
  };
}

export function generate(pe, random) {
  const bug = (random() < 0.5 ? cacheBug : sliceBug)(random);
  const code = bug.lines.join('\n');
  return {
    prompt: `This code runs without an error, but one line makes the positions silently wrong. Find the line, and the value its fixed version must use.`,
    code,
    parts: [
      {
        label: 'Line number of the bug',
        answer: { type: 'integer', value: bug.line },
        slips: bug.lineSlips,
        solutionValue: String(bug.line),
      },
      {
        label: bug.valueLabel,
        answer: { type: 'integer', value: bug.value },
        slips: bug.valueSlips.filter((s) => s.value !== bug.value),
        solutionValue: String(bug.value),
      },
    ],
    hint: 'Follow one token: which position does the code give it, and which should it have? Check each shape against what the comments say the data is.',
    solution: `- The bug is on line ${bug.line}.
- ${bug.explain}`,
    reveal: bug.reveal,
  };
}

// what it asks for (tests/js/exercises.test.mjs counts the kinds)
export const asks = 'bug';

// section: the one it is written for (dropped with a note if that section leaves the lesson)
export default { generate, asks, section: 'ablation' };
