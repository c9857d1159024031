// Numbers quoted in lessons/positional-encoding/06-long-context.md, computed
// with the core (RoPE frequencies under HF modeling_rope_utils scalings).
import { fixed, grouped } from '../lib/printing/pyformat.js';

const wavelengths = (inv) => Array.from(inv, (f) => (2 * Math.PI) / f);
const count = (arr, pred) => arr.filter(pred).length;

// Pairs of a scaled table, by what the scaling did to them: kept (frequency
// unchanged), divided (by the full factor, up to float32 rounding) or blended.
function regimes(pe, dim, base, scaling) {
  const plain = pe.ropeInvFreq(dim, { base });
  const scaled = pe.ropeInvFreq(dim, { base, scaling });
  const kept = [];
  const divided = [];
  const blended = [];
  for (let i = 0; i < dim / 2; i++) {
    const ratio = plain[i] / scaled[i];
    if (scaled[i] === plain[i]) kept.push(i);
    else if (Math.abs(ratio - scaling.factor) < 1e-5 * scaling.factor) divided.push(i);
    else blended.push(i);
  }
  return { kept, divided, blended };
}
const YARN = { type: 'yarn', factor: 4, originalMaxPositions: 8192 };
const LLAMA3 = { type: 'llama3', factor: 8, originalMaxPositions: 8192 };

export default {
  // dim 128, base 10000 (Llama 2): pairs whose wavelength fits into 4096 positions
  'long-context-pairs-full-turn-4096': (pe) => String(count(wavelengths(pe.ropeInvFreq(128)), (w) => w <= 4096)),
  'long-context-last-wavelength-128': (pe) => grouped(fixed(wavelengths(pe.ropeInvFreq(128)).at(-1), 0)),
  'long-context-last-wavelength-128-linear4': (pe) =>
    grouped(fixed(wavelengths(pe.ropeInvFreq(128, { scaling: { type: 'linear', factor: 4 } })).at(-1), 0)),
  // NTK-aware base for dim 128, s = 4: 10000 * 4^(128/126)
  'long-context-ntk-base-128-4': () => grouped(fixed(10000 * 4 ** (128 / 126), 0)),
  'long-context-yarn-kept': (pe) => String(regimes(pe, 128, 10000, YARN).kept.length),
  'long-context-yarn-blended': (pe) => String(regimes(pe, 128, 10000, YARN).blended.length),
  'long-context-yarn-divided': (pe) => String(regimes(pe, 128, 10000, YARN).divided.length),
  'long-context-yarn-first-divided': (pe) => String(regimes(pe, 128, 10000, YARN).divided[0]),
  'long-context-yarn-factor-4': (pe) => fixed(pe.ropeAttentionFactor(YARN), 4),
  'long-context-yarn-logit-scale-4': (pe) => fixed(pe.ropeAttentionFactor(YARN) ** 2, 3),
  'long-context-llama3-kept': (pe) => String(regimes(pe, 128, 500000, LLAMA3).kept.length),
  'long-context-llama3-blended': (pe) => String(regimes(pe, 128, 500000, LLAMA3).blended.length),
  'long-context-llama3-divided': (pe) => String(regimes(pe, 128, 500000, LLAMA3).divided.length),
  'long-context-llama3-last-wavelength': (pe) =>
    grouped(fixed(wavelengths(pe.ropeInvFreq(128, { base: 500000 })).at(-1), 0)),
  // ALiBi, 8 heads: the bias of the steepest head at distance 20, of the flattest at 1000
  // (written with a typographic minus sign)
  'long-context-alibi-steep-20': (pe) => `\u2212${fixed(pe.alibiSlopes(8)[0] * 20, 0)}`,
  'long-context-alibi-flat-1000': (pe) => `\u2212${fixed(pe.alibiSlopes(8).at(-1) * 1000, 1)}`,
  // one layer's fp16 score matrix at 128k tokens, 32 heads, in GiB
  'long-context-scores-128k-fp16': () => grouped(fixed((32 * 131072 * 131072 * 2) / 2 ** 30, 0)),
  // fp16 KV cache per token, 32 layers, 8 KV heads of 128 (Llama 3 8B), in KiB, and at 128k in GiB
  'long-context-kv-per-token': () => fixed((2 * 32 * 8 * 128 * 2) / 1024, 0),
  'long-context-kv-128k': () => fixed((2 * 32 * 8 * 128 * 2 * 131072) / 2 ** 30, 0),
};
