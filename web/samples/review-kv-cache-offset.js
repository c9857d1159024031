// 08-review.md: a new token's RoPE position during cached generation, offset
// by the cache length or (the bug) restarted at 0, against a full pass.
// Rotations (ropeApply) and attention weights (attention) come from the core.
import { fixed, pyList } from '../lib/printing/pyformat.js';
import { int } from '../lib/printing/sample-params.js';

const py = (b) => (b ? 'True' : 'False');
// torch.allclose(a, b, rtol=1e-5, atol=atol)
const allclose = (a, b, atol) => a.every((x, i) => Math.abs(x - b[i]) <= atol + 1e-5 * Math.abs(b[i]));
// [round(w, 3) for w in ...]: Python rounds the exact value half to even
const rounded = (ws) => pyList(Array.from(ws, (w) => Number(fixed(w, 3))));

export default {
  section: 'ablation',
  params: {
    past_len: int('tokens in the cache', 4, 1, 8),
    head_dim: int('head dim', 8, 4, 16, 2),
  },
  cases: [
    { past_len: 1, head_dim: 4 },
    { past_len: 8, head_dim: 16 },
    { past_len: 3, head_dim: 6 },
  ],
  run(pe, p) {
    const { past_len: past, head_dim: d } = p;
    const n = past + 1;
    const q = new Float32Array(n * d);
    const k = new Float32Array(n * d);
    for (let t = 0; t < n; t++) {
      for (let j = 0; j < d; j++) {
        const g = t * 3 + j;
        q[t * d + j] = (((g * 5) % 9) - 4) / 4; // exact in float32
        k[t * d + j] = (((g * 7) % 9) - 4) / 4;
      }
    }
    // weights of the last token (rotated at positions[n-1]) over all n keys
    const lastRow = (positions) => {
      const qr = pe.ropeApply(q, n, d, { positions });
      const kr = pe.ropeApply(k, n, d, { positions });
      const { weights } = pe.attention(qr, kr, kr, { heads: 1, seqLen: n, headDim: d });
      return weights.slice((n - 1) * n);
    };
    const cached = Array.from({ length: past }, (_, t) => t);
    const full = lastRow([...cached, past]);
    const lines = [];
    for (const [label, pos] of [
      ['offset by cache length', past],
      ['position restarted at 0', 0],
    ]) {
      const step = lastRow([...cached, pos]);
      lines.push(`${label}: matches full pass: ${py(allclose(step, full, 1e-6))}`);
      lines.push(`  weights: ${rounded(step)}`);
    }
    lines.push(`full pass weights:   ${rounded(full)}`);
    return `${lines.join('\n')}\n`;
  },
};
