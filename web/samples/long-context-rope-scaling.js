// Stretch of every RoPE wavelength under the context-extension scalings,
// as lessons/positional-encoding/06-long-context.md prints it with PyTorch
// (Hugging Face modeling_rope_utils semantics, all frequencies from the core).
import { exponential, fixed } from '../lib/printing/pyformat.js';
import { float, int } from '../lib/printing/sample-params.js';

const f32 = Math.fround;

export default {
  section: 'long-context',
  params: {
    dim: int('rotary dim', 16, 4, 32, 2),
    base: int('base', 10000, 1000, 1000000, 1000),
    factor: float('factor s', 4, 1, 16, 0.5),
    original_max_positions: int('trained length', 8192, 1024, 131072, 1024),
    seq_len: int('current length (dynamic)', 16384, 1024, 262144, 1024),
  },
  cases: [
    { dim: 32, base: 500000, factor: 8, original_max_positions: 8192, seq_len: 65536 },
    { dim: 4, base: 1000, factor: 1, original_max_positions: 1024, seq_len: 1024 },
    { dim: 24, base: 10000, factor: 2.5, original_max_positions: 4096, seq_len: 2048 },
  ],
  run(pe, p) {
    const { dim, base, factor } = p;
    const orig = p.original_max_positions;
    const inv = (scaling) => pe.ropeInvFreq(dim, { base, scaling });
    const def = inv(null);
    const columns = [
      inv({ type: 'linear', factor }),
      // Static NTK-aware scaling, base * s^(dim/(dim-2)): HF's "dynamic" with
      // factor 1 at length L over trained length M raises the base by exactly
      // (L/M)^(dim/(dim-2)), so L/M = 2s/2 gives s (s is a multiple of 0.5).
      inv({ type: 'dynamic', factor: 1, maxPositions: 2, seqLen: Math.round(2 * factor) }),
      inv({ type: 'dynamic', factor, maxPositions: orig, seqLen: p.seq_len }),
      inv({ type: 'yarn', factor, originalMaxPositions: orig }),
      inv({ type: 'llama3', factor, originalMaxPositions: orig }),
    ];
    const twoPi = f32(2 * Math.PI);
    const lines = ['pair   inv_freq  wavelength  linear     ntk dynamic    yarn  llama3'];
    for (let i = 0; i < dim / 2; i++) {
      // wavelen = 2*pi / inv_freq: torch's reciprocal, then the product, in float32
      const wavelen = f32(f32(1 / def[i]) * twoPi);
      const stretch = columns.map((c) => fixed(f32(def[i] / c[i]), 3).padStart(8)).join('');
      lines.push(
        `${String(i).padStart(4)} ${exponential(def[i], 3).padStart(10)} ${fixed(wavelen, 1).padStart(11)}${stretch}`,
      );
    }
    const mscale = pe.ropeAttentionFactor({ type: 'yarn', factor, originalMaxPositions: orig });
    lines.push(`YaRN attention factor 0.1*ln(s)+1 = ${fixed(mscale, 4)}`);
    return `${lines.join('\n')}\n`;
  },
};
