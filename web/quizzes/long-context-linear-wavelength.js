// 06-long-context.md: the wavelength of one RoPE pair after linear position
// interpolation (HF rope_type "linear"), every number from the core.
import { pick, shuffle } from '../lib/random.js';
import { fixed, grouped } from '../lib/pyformat.js';

const fmt = (x) => grouped(fixed(x, 1));

export function generate(pe, random) {
  const dim = pick(random, [64, 128]);
  const base = pick(random, [10000, 500000]);
  const s = pick(random, [2, 4, 8, 16]);
  // not pair 0 (NTK keeps it: same as "unchanged") nor the last (NTK stretches it by s: same as linear)
  const i = 1 + Math.floor(random() * (dim / 2 - 2));
  const wave = (inv) => (2 * Math.PI) / inv[i];
  const before = wave(pe.ropeInvFreq(dim, { base }));
  const after = wave(pe.ropeInvFreq(dim, { base, scaling: { type: 'linear', factor: s } }));
  const ntkBase = base * s ** (dim / (dim - 2));
  const ntk = wave(pe.ropeInvFreq(dim, { base: ntkBase }));
  const options = [
    {
      text: `${fmt(after)} positions`,
      correct: true,
      feedback: `Right. Linear interpolation divides every frequency by s = ${s}, so every wavelength, this one included, becomes ${s} times longer: ${fmt(before)} x ${s} = ${fmt(after)}.`,
    },
    {
      text: `${fmt(before)} positions (unchanged)`,
      correct: false,
      feedback: `Linear interpolation changes every pair, fast or slow. Keeping the fast pairs unchanged is what NTK-aware scaling, YaRN and Llama 3 scaling do; position interpolation divides all positions, hence all frequencies, by s.`,
    },
    {
      text: `${fmt(before / s)} positions`,
      correct: false,
      feedback: `That divides the wavelength by s. Interpolation slows the rotation down (frequency / s), so the wavelength, 2 pi / frequency, grows by s.`,
    },
    {
      text: `${fmt(ntk)} positions`,
      correct: false,
      feedback: `That is what NTK-aware scaling gives (base raised to ${fmt(ntkBase)}): it stretches pair i by s^(2i/(d-2)), which is less than s for every pair but the last. Linear interpolation stretches every pair by the full factor s.`,
    },
  ];
  return {
    question: `A RoPE head of dimension ${dim} with base ${base} is extended by linear position interpolation with factor s = ${s} (Hugging Face rope_type "linear"). Pair ${i} (counting from 0) had a wavelength of ${fmt(before)} positions. What is its wavelength after the scaling?`,
    options: shuffle(random, options),
    explanation: `Position interpolation maps position m to m / s, which is the same as dividing every inverse frequency by s. The wavelength of pair ${i} is 2 pi / frequency, so it becomes s = ${s} times longer: ${fmt(after)} positions. All ${dim / 2} pairs are stretched by the same factor, including the fast ones that only told neighbouring tokens apart.`,
  };
}

export default { generate };
