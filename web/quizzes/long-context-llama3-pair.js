// 06-long-context.md: what Llama 3 scaling (HF rope_type "llama3") does to
// one RoPE pair, decided by the core's scaled frequencies.
import { pick } from '../lib/random.js';
import { fixed, grouped } from '../lib/pyformat.js';

const fmt = (x) => grouped(fixed(x, 0));

export function generate(pe, random) {
  // pass 1: a configuration and the regime of each of its pairs
  const dim = pick(random, [64, 128]);
  const base = pick(random, [10000, 500000]);
  const orig = pick(random, [4096, 8192]);
  const s = pick(random, [4, 8, 16]);
  const scaling = { type: 'llama3', factor: s, originalMaxPositions: orig };
  const plain = pe.ropeInvFreq(dim, { base });
  const scaled = pe.ropeInvFreq(dim, { base, scaling });
  const regimeOf = (i) => {
    if (scaled[i] === plain[i]) return 'kept';
    return Math.abs(plain[i] / scaled[i] - s) < 1e-5 * s ? 'divided' : 'blended';
  };
  const byRegime = { kept: [], divided: [], blended: [] };
  for (let i = 0; i < dim / 2; i++) byRegime[regimeOf(i)].push(i);

  // pass 2: a pair from a randomly chosen regime that this configuration has
  const regime = pick(random, Object.keys(byRegime).filter((r) => byRegime[r].length > 0));
  const i = pick(random, byRegime[regime]);
  const wave = (2 * Math.PI) / plain[i];
  const newWave = (2 * Math.PI) / scaled[i];
  const high = orig / 4;
  const text = {
    kept: 'It is left unchanged.',
    divided: `It is divided by ${s}.`,
    blended: `It is divided by a factor between 1 and ${s}.`,
    multiplied: `It is multiplied by ${s}.`,
  };
  const why = {
    kept: `The wavelength, ${fmt(wave)} positions, is shorter than ${orig} / 4 = ${fmt(high)}: such a pair turned many times within the trained length, so every angle it produces at long range was already seen. Llama 3 scaling keeps it.`,
    divided: `The wavelength, ${fmt(wave)} positions, is longer than the trained length ${orig}: in training this pair never completed a turn, so Llama 3 scaling interpolates it fully (frequency / ${s}).`,
    blended: `The wavelength, ${fmt(wave)} positions, lies between ${orig} / 4 = ${fmt(high)} and ${orig}, so Llama 3 scaling blends the kept and the divided frequency with smooth = (${orig} / wavelength - 1) / 3; the new wavelength is ${fmt(newWave)}.`,
  };
  const wrong = {
    kept: `Only pairs with a wavelength below ${orig} / 4 = ${fmt(high)} positions are kept, and this one's is ${fmt(wave)}.`,
    divided: `Only pairs with a wavelength above the trained length, ${orig}, are divided by the full factor ${s}, and this one's is ${fmt(wave)}.`,
    blended: `The blend applies only to wavelengths between ${fmt(high)} and ${orig} positions, and this one's is ${fmt(wave)}.`,
    multiplied: 'That would make the pair rotate faster. Context extension only slows pairs down or leaves them alone.',
  };
  const options = ['kept', 'divided', 'blended', 'multiplied'].map((r) => ({
    text: text[r],
    correct: r === regime,
    feedback: r === regime ? `Right. ${why[r]}` : `No. ${wrong[r]}`,
  }));
  return {
    question: `Llama 3 scaling (factor ${s}, original_max_position_embeddings ${orig}, low_freq_factor 1, high_freq_factor 4) is applied to a RoPE head of dimension ${dim} with base ${base}. Pair ${i} has a wavelength of ${fmt(wave)} positions. What happens to its frequency?`,
    options,
    explanation: `Llama 3 scaling sorts pairs by wavelength. Shorter than ${orig} / 4 = ${fmt(high)} positions: kept. Longer than ${orig}: frequency divided by ${s}. In between: a blend whose weight moves smoothly from "kept" to "divided" as the wavelength grows. Pair ${i} (wavelength ${fmt(wave)}) ends up with a wavelength of ${fmt(newWave)} positions.`,
  };
}

export default { generate };
