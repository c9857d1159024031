// Numbers quoted in lessons/positional-encoding/02-sinusoidal.md.
import { fixed } from '../lib/printing/pyformat.js';

const wavelengths = (pe, d) => Array.from(pe.sinusoidalFrequencies(d), (w) => (2 * Math.PI) / w);

// |PE(k) - PE(0)| for d = 512: by the rotation structure, the distance at offset k from any t
const distance512 = (pe, k) => {
  const d = 512;
  const table = pe.sinusoidal(k + 1, d);
  let s = 0;
  for (let j = 0; j < d; j++) s += (table[k * d + j] - table[j]) ** 2;
  return fixed(Math.sqrt(s), 2);
};

// Largest |float32 angle - exact angle| over the pairs of a d = 512 table at position t,
// with the angle computed as PyTorch does: fround(t * omega_i), omega_i the float32
// frequency from the core. Pair 0 contributes nothing (omega_0 = 1, t exact).
const angleError512 = (pe, t) => {
  const d = 512;
  const w = pe.sinusoidalFrequencies(d);
  let worst = { err: 0, pair: 0 };
  for (let i = 0; i < w.length; i++) {
    const err = Math.abs(Math.fround(t * w[i]) - t * 10000 ** ((-2 * i) / d));
    if (err > worst.err) worst = { err, pair: i };
  }
  return worst;
};

export default {
  'sinusoidal-min-wavelength': (pe) => fixed(wavelengths(pe, 512)[0], 2),
  'sinusoidal-mid-wavelength-512': (pe) => fixed(wavelengths(pe, 512)[128], 1),
  'sinusoidal-max-wavelength-512': (pe) => fixed(wavelengths(pe, 512).at(-1), 0),
  'sinusoidal-min-omega-512': (pe) => fixed(pe.sinusoidalFrequencies(512).at(-1), 6),
  // each pair's wavelength over the previous one's: 10000^(2/d)
  'sinusoidal-ratio-512': (pe) => {
    const w = pe.sinusoidalFrequencies(512);
    return fixed(w[0] / w[1], 4);
  },
  // how far (degrees) the slowest pair turns over positions 0..511
  'sinusoidal-slowest-degrees-512': (pe) => fixed((512 * pe.sinusoidalFrequencies(512).at(-1) * 180) / Math.PI, 1),
  // pairs that never complete a turn within 512 training positions
  'sinusoidal-unturned-pairs-512': (pe) => String(wavelengths(pe, 512).filter((l) => l > 512).length),
  'sinusoidal-angle-error-1e4': (pe) => fixed(angleError512(pe, 1e4).err, 4),
  'sinusoidal-angle-error-1e6': (pe) => fixed(angleError512(pe, 1e6).err, 3),
  'sinusoidal-angle-error-pair-1e6': (pe) => String(angleError512(pe, 1e6).pair),
  'sinusoidal-dist-512-1': (pe) => distance512(pe, 1),
  'sinusoidal-dist-512-10': (pe) => distance512(pe, 10),
  'sinusoidal-dist-512-100': (pe) => distance512(pe, 100),
  'sinusoidal-dist-512-1000': (pe) => distance512(pe, 1000),
};
