// Numbers quoted in lessons/positional-encoding/08-review.md, computed with the core.
import { fixed, grouped } from '../lib/printing/pyformat.js';

export default {
  // wavelength 2*pi / frequency of the last sinusoidal pair, d_model 512
  'review-max-wavelength-512': (pe) => grouped(fixed((2 * Math.PI) / pe.sinusoidalFrequencies(512).at(-1), 0)),
  // ALiBi slopes of the first and the last of 8 heads, as fractions 1/k (they are powers of 1/2)
  'review-alibi-first-8': (pe) => `1/${Math.round(1 / pe.alibiSlopes(8)[0])}`,
  'review-alibi-last-8': (pe) => `1/${Math.round(1 / pe.alibiSlopes(8).at(-1))}`,
};
