// Numbers quoted in lessons/positional-encoding/01-why-position.md.
import { fixed } from '../lib/printing/pyformat.js';

// Euclidean distance between rows a and b of a (rows, d) table.
const rowDistance = (table, d, a, b) => {
  let s = 0;
  for (let j = 0; j < d; j++) s += (table[a * d + j] - table[b * d + j]) ** 2;
  return Math.sqrt(s);
};

export default {
  // |PE(t+1) - PE(t)| for d = 512, the same at t = 3 and t = 1000 (to the digits shown)
  'why-position-step-512': (pe) => {
    const table = pe.sinusoidal(1002, 512);
    const near = fixed(rowDistance(table, 512, 3, 4), 3);
    const far = fixed(rowDistance(table, 512, 1000, 1001), 3);
    if (near !== far) throw new Error(`why-position-step-512: ${near} at t=3 but ${far} at t=1000`);
    return near;
  },
};
