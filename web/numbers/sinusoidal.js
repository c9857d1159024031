// Numbers quoted in lessons/positional-encoding/02-sinusoidal.md.
import { fixed } from '../lib/pyformat.js';

const wavelengths = (pe, d) => Array.from(pe.sinusoidalFrequencies(d), (w) => (2 * Math.PI) / w);

// |PE(k) - PE(0)| for d = 512: by the rotation structure, the distance at offset k from any t
const distance512 = (pe, k) => {
  const d = 512;
  const table = pe.sinusoidal(k + 1, d);
  let s = 0;
  for (let j = 0; j < d; j++) s += (table[k * d + j] - table[j]) ** 2;
  return fixed(Math.sqrt(s), 2);
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
  'sinusoidal-dist-512-1': (pe) => distance512(pe, 1),
  'sinusoidal-dist-512-10': (pe) => distance512(pe, 10),
  'sinusoidal-dist-512-100': (pe) => distance512(pe, 100),
  'sinusoidal-dist-512-1000': (pe) => distance512(pe, 1000),
};
