// ALiBi slopes for n heads and the causal bias of the first and last head, as
// printed by the relative-bias-alibi sample of
// lessons/positional-encoding/05-relative-bias.md.
import { torchStr } from '../lib/printing/pyformat.js';
import { int } from '../lib/printing/sample-params.js';

export default {
  section: 'relative-bias',
  params: {
    n_heads: int('heads', 8, 1, 64),
    seq_len: int('sequence length', 5, 1, 8),
  },
  cases: [
    { n_heads: 12, seq_len: 8 },
    { n_heads: 1, seq_len: 1 },
    { n_heads: 64, seq_len: 3 },
    { n_heads: 20, seq_len: 6 },
  ],
  run(pe, p) {
    const h = p.n_heads;
    const L = p.seq_len;
    const slopes = pe.alibiSlopes(h);
    const bias = pe.alibiBias(h, L, { causal: true });
    // The core writes -m * 0 = -0 on the diagonal, torch's m * 0 is +0: the
    // same number, printed differently, so add +0.
    const head = (i) => Array.from(bias.subarray(i * L * L, (i + 1) * L * L), (v) => v + 0);
    return [torchStr(slopes, [h]), torchStr(head(0), [L, L]), torchStr(head(h - 1), [L, L]), ''].join('\n');
  },
};
