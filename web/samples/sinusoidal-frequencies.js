// Frequency (theta_i) and wavelength of a selection of sinusoidal pairs
// (lessons/positional-encoding/02-sinusoidal.md), frequencies from the core.
import { fixed } from '../lib/printing/pyformat.js';
import { int } from '../lib/printing/sample-params.js';

export default {
  section: 'sinusoidal',
  params: {
    d_model: int('d_model', 512, 2, 2048, 2),
  },
  cases: [{ d_model: 8 }, { d_model: 2 }, { d_model: 100 }, { d_model: 2048 }],
  run(pe, p) {
    const d = p.d_model;
    const pairs = d / 2;
    const step = Math.max(1, Math.floor(pairs / 8));
    const theta = pe.sinusoidalFrequencies(d); // (d/2) float32, as torch.exp computes them
    const shown = new Set();
    for (let i = 0; i < pairs; i += step) shown.add(i);
    shown.add(pairs - 1);
    const pad = (n, w) => String(n).padStart(w);
    let out = `d_model = ${d}: ${pairs} pairs\n`;
    for (const i of [...shown].sort((a, b) => a - b)) {
      const w = theta[i]; // .item(): the float32 value as a Python float
      out +=
        `pair ${pad(i, 3)} (dims ${pad(2 * i, 3)},${pad(2 * i + 1, 3)}): theta = ${fixed(w, 6)} rad/position, ` +
        `wavelength = ${fixed((2 * Math.PI) / w, 1).padStart(9)} positions\n`;
    }
    return out;
  },
};
