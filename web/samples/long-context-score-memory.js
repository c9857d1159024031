// Memory of the attention score matrix, of the KV cache, and the attention
// FLOPs per layer at growing lengths (06-long-context.md). Only shape
// arithmetic: exact integers in doubles, as in Python.
import { fixed } from '../lib/printing/pyformat.js';
import { int } from '../lib/printing/sample-params.js';

export default {
  section: 'long-context',
  params: {
    heads: int('query heads', 32, 1, 128),
    head_dim: int('head dim', 128, 16, 256, 16),
    layers: int('layers', 32, 1, 128),
    kv_heads: int('KV heads', 8, 1, 128),
  },
  cases: [
    { heads: 12, head_dim: 64, layers: 12, kv_heads: 12 },
    { heads: 128, head_dim: 256, layers: 128, kv_heads: 1 },
  ],
  run(pe, p) {
    const { heads, head_dim: headDim, layers, kv_heads: kvHeads } = p;
    const GiB = 2 ** 30;
    const lines = [
      `scores: (1, ${heads}, 256, 256) ${heads * 256 * 256 * 4} bytes`,
      '      n   scores fp32   scores fp16  KV cache fp16  TFLOP/layer',
    ];
    for (const n of [2048, 8192, 32768, 131072]) {
      const scores = heads * n * n;
      const kv = 2 * layers * kvHeads * n * headDim * 2;
      const flops = 2 * 2 * heads * n * n * headDim;
      lines.push(
        `${String(n).padStart(7)} ${fixed((scores * 4) / GiB, 2).padStart(9)} GiB ${fixed((scores * 2) / GiB, 2).padStart(9)} GiB ` +
          `${fixed(kv / GiB, 2).padStart(10)} GiB ${fixed(flops / 1e12, 2).padStart(12)}`,
      );
    }
    return `${lines.join('\n')}\n`;
  },
};
