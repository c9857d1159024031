// Rows of the sinusoidal table, rounded as np.round(pe[pos].numpy(), 3)
// prints them (lessons/positional-encoding/02-sinusoidal.md).
import { npRound, numpyStr } from '../lib/printing/pyformat.js';
import { int } from '../lib/printing/sample-params.js';

export default {
  section: 'sinusoidal',
  params: {
    d_model: int('d_model', 4, 2, 16, 2),
    first_position: int('first position', 0, 0, 1000),
    num_positions: int('positions', 2, 1, 6),
  },
  cases: [
    { d_model: 16, first_position: 98, num_positions: 3 },
    { d_model: 2, first_position: 0, num_positions: 6 },
    { d_model: 10, first_position: 1000, num_positions: 6 },
  ],
  run(pe, p) {
    const d = p.d_model;
    const maxLen = p.first_position + p.num_positions;
    const table = pe.sinusoidal(maxLen, d); // (max_len, d_model)
    let out = '';
    for (let m = p.first_position; m < maxLen; m++) {
      const row = npRound(table.subarray(m * d, (m + 1) * d), 3);
      out += `position ${m}: ${numpyStr(row)}\n`;
    }
    return out;
  },
};
