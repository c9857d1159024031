// A learned position table (nn.Embedding) asked for more positions than it
// has rows (lessons/positional-encoding/03-learned.md). The lookup, and its
// "index out of range in self" error, come from the core.
import { torchSize } from '../lib/printing/pyformat.js';
import { int } from '../lib/printing/sample-params.js';

export default {
  section: 'learned',
  params: {
    rows: int('table rows (max_len)', 512, 1, 2048),
    d_model: int('d_model', 64, 8, 768, 8),
    positions: int('positions fed', 600, 1, 4096),
  },
  cases: [
    { rows: 512, d_model: 64, positions: 512 },
    { rows: 512, d_model: 64, positions: 513 },
    { rows: 1024, d_model: 768, positions: 4096 },
    { rows: 1, d_model: 8, positions: 1 },
  ],
  run(pe, p) {
    const { rows, d_model: d, positions } = p;
    const table = new Float32Array(rows * d); // the values do not matter here, only which rows exist
    const ids = Array.from({ length: positions }, (_, i) => i);
    const lines = [`table: ${torchSize([rows, d])} = ${rows * d} parameters`];
    try {
      const out = pe.learnedLookup(table, rows, d, ids);
      lines.push(`lookup: ${torchSize([out.length / d, d])}`);
    } catch (error) {
      if (error.kind !== 'IndexError') throw error; // the core's IndexError, nn.Embedding's
      lines.push(`positions 0..${positions - 1} -> IndexError: index out of range in self`);
      lines.push(`first position without a row: ${rows}`);
      const kept = pe.learnedLookup(table, rows, d, ids.slice(0, rows));
      lines.push(`truncated to the table: ${torchSize([kept.length / d, d])}`);
    }
    return `${lines.join('\n')}\n`;
  },
};
