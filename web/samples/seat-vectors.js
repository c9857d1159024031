// Rows of the sinusoidal table, rounded as np.round(pe[pos].numpy(), 3)
// prints them (lessons/positional-encoding/02-sinusoidal.md).
import { npRound, numpyStr } from '../lib/pyformat.js';

export default {
  params: {
    d_model: { type: 'int', default: 4, min: 2, max: 16, step: 2, label: 'd_model' },
    first_seat: { type: 'int', default: 0, min: 0, max: 1000, step: 1, label: 'first seat' },
    num_seats: { type: 'int', default: 2, min: 1, max: 6, step: 1, label: 'seats' },
  },
  cases: [
    { d_model: 16, first_seat: 98, num_seats: 3 },
    { d_model: 2, first_seat: 0, num_seats: 6 },
    { d_model: 10, first_seat: 1000, num_seats: 6 },
  ],
  run(pe, p) {
    const d = p.d_model;
    const maxLen = p.first_seat + p.num_seats;
    const table = pe.sinusoidal(maxLen, d); // (max_len, d_model)
    let out = '';
    for (let seat = p.first_seat; seat < maxLen; seat++) {
      const row = npRound(table.subarray(seat * d, (seat + 1) * d), 3);
      out += `Seat #${seat} Wave Vector: ${numpyStr(row)}\n`;
    }
    return out;
  },
};
