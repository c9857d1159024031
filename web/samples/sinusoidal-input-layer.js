// The Transformer's input layer with the sinusoidal table as a buffer
// (lessons/positional-encoding/02-sinusoidal.md): shapes, the first rows of
// the table (from the core) and what PyTorch reports about the module.
import { torchSize, torchStr } from '../lib/printing/pyformat.js';
import { int } from '../lib/printing/sample-params.js';

const VOCAB = 1000;

export default {
  section: 'sinusoidal',
  params: {
    d_model: int('d_model', 64, 2, 512, 2),
    max_len: int('max_len', 512, 4, 4096, 4),
    seq_len: int('seq_len', 10, 1, 8192),
  },
  cases: [
    { d_model: 4, max_len: 8, seq_len: 10 },
    { d_model: 2, max_len: 4, seq_len: 4 },
    { d_model: 512, max_len: 4096, seq_len: 4096 },
    { d_model: 6, max_len: 4, seq_len: 5 },
  ],
  run(pe, p) {
    const { d_model: d, max_len: maxLen, seq_len: seqLen } = p;
    const table = pe.sinusoidal(maxLen, d);
    const cols = Math.min(4, d);
    const slice = [];
    for (let r = 0; r < 4; r++) for (let j = 0; j < cols; j++) slice.push(table[r * d + j]);
    const lines = [
      `position_table: ${torchSize([maxLen, d])} torch.float32`,
      torchStr(slice, [4, cols]),
      `trainable: {'token_table.weight': ${VOCAB * d}}`,
      `buffers: ['position_table'] | requires_grad: False`,
      // the module's own buffer comes before its submodules' entries
      `saved by state_dict: ['position_table', 'token_table.weight']`,
      // content: (2, seq_len, d) + position_table[:seq_len]: (min(seq_len, max_len), d)
      // broadcasts only when the lengths agree
      seqLen <= maxLen
        ? `output: ${torchSize([2, seqLen, d])}`
        : `RuntimeError: The size of tensor a (${seqLen}) must match the size of tensor b (${maxLen}) at non-singleton dimension 1`,
      `dtype after .double(): torch.float64`,
    ];
    return `${lines.join('\n')}\n`;
  },
};
