// p_(m+delta) = R(-delta theta_i) p_m for the sinusoidal table
// (lessons/positional-encoding/02-sinusoidal.md). The table comes from the
// core; the shift matrix's entries are PE(delta)'s, and applying it is a 2-vector dot product
// per coordinate, done in float32 as torch does it elementwise.
// Ranges: every (d_model, m, delta) in them was checked against PyTorch; wider
// ones hit 4-decimal rounding ties where the core's sin/cos differ from
// torch's in the last bit.
import { torchStr } from '../lib/printing/pyformat.js';
import { int } from '../lib/printing/sample-params.js';

const f32 = Math.fround;
const ROWS = 200; // rows in the Python code

export default {
  section: 'sinusoidal',
  params: {
    d_model: int('d_model', 8, 4, 16, 4),
    m: int('position m', 5, 0, 100),
    delta: int('offset delta', 3, 1, 50),
  },
  cases: [
    { d_model: 16, m: 100, delta: 50 },
    { d_model: 4, m: 0, delta: 1 },
    { d_model: 12, m: 57, delta: 44 },
  ],
  run(pe, p) {
    const { d_model: d, m, delta: k } = p;
    const table = pe.sinusoidal(ROWS, d); // (200, d)
    const at = (pos, j) => table[pos * d + j];
    const s = (i) => at(k, 2 * i); // sin(delta * theta_i)
    const c = (i) => at(k, 2 * i + 1); // cos(delta * theta_i)

    // R[:4, :4]: the first two 2x2 blocks
    const r = [c(0), s(0), 0, 0, -s(0), c(0), 0, 0, 0, 0, c(1), s(1), 0, 0, -s(1), c(1)];
    let out = `shift by ${k}, first two blocks:\n${torchStr(r, [4, 4])}\n`;

    // shift @ PE(u), pair by pair: sin_u * c + cos_u * s, cos_u * c - sin_u * s
    const shift = (u) => {
      const v = new Float32Array(d);
      for (let i = 0; i < d / 2; i++) {
        const sinU = at(u, 2 * i);
        const cosU = at(u, 2 * i + 1);
        v[2 * i] = f32(f32(sinU * c(i)) + f32(cosU * s(i)));
        v[2 * i + 1] = f32(f32(cosU * c(i)) - f32(sinU * s(i)));
      }
      return v;
    };
    const n6 = Math.min(6, d);
    out += `shift @ PE(m), first 6: ${torchStr(shift(m).subarray(0, n6), [n6])}\n`;
    out += `PE(m + delta), first 6: ${torchStr(table.subarray((m + k) * d, (m + k) * d + n6), [n6])}\n`;

    // torch.allclose(pe[:n-k] @ R.T, pe[k:], atol=1e-5): |a - b| <= 1e-5 + 1e-5 * |b|
    let close = true;
    for (let u = 0; u < ROWS - k && close; u++) {
      const v = shift(u);
      for (let j = 0; j < d; j++) {
        const b = at(u + k, j);
        if (!(Math.abs(v[j] - b) <= 1e-5 + 1e-5 * Math.abs(b))) close = false;
      }
    }
    out += `the same matrix maps PE(u) to PE(u + ${k}) for all u < ${ROWS - k}: ${close ? 'True' : 'False'}\n`;
    return out;
  },
};
