// Rows of the sinusoidal table, rounded as np.round(pe[pos].numpy(), 3)
// prints them (lessons/positional-encoding/02-sinusoidal.md).
import { npRound, numpyStr } from '../lib/pyformat.js';

export default {
  // the section it is written for: dropped with a note if that section leaves the lesson
  section: 'sinusoidal',
  params: {
    d_model: { type: 'int', default: 4, min: 2, max: 16, step: 2, label: 'd_model' },
    first_position: { type: 'int', default: 0, min: 0, max: 1000, step: 1, label: 'first position' },
    num_positions: { type: 'int', default: 2, min: 1, max: 6, step: 1, label: 'positions' },
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
