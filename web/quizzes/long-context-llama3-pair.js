// 06-long-context.md: what Llama 3 scaling (HF rope_type "llama3") does to
// one RoPE pair, decided by the core's scaled frequencies. Texts are
// Markdown with $TeX$ (web/lib/quiz-text.js), in the lesson's notation:
// pair i, frequency θ_i, wavelength λ_i, d_head, factor s.
import { pick } from '../lib/random.js';
import { texNumber, quizNumber } from '../lib/quiz-text.js';
import { grouped } from '../lib/pyformat.js';

// a whole number of positions, grouped: inside $…$ (n0) and in prose (g)
const n0 = (x) => texNumber(x, 0);
const g = (x) => grouped(quizNumber(x, 0));

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
  const lambda = `\\lambda_{${i}} = ${n0(wave)}`;
  const text = {
    kept: 'It is left unchanged.',
    divided: `It is divided by $s = ${s}$.`,
    blended: `It is divided by a factor between 1 and $s = ${s}$.`,
    multiplied: `It is multiplied by $s = ${s}$.`,
  };
  const why = {
    kept: `The wavelength, $${lambda}$ positions, is shorter than $${n0(orig)}/4 = ${n0(high)}$: such a pair turned many times within the trained length, so every angle it produces at long range was already seen. Llama 3 scaling keeps it.`,
    divided: `The wavelength, $${lambda}$ positions, is longer than the trained length ${g(orig)}: in training this pair never completed a turn, so Llama 3 scaling interpolates it fully, to $\\theta_{${i}}/${s}$.`,
    blended: `The wavelength, $${lambda}$ positions, lies between $${n0(orig)}/4 = ${n0(high)}$ and ${g(orig)}, so Llama 3 scaling blends the kept and the divided frequency with weight $\\text{smooth} = (${n0(orig)}/\\lambda_{${i}} - 1)/3$; the new wavelength is ${g(newWave)} positions.`,
  };
  const wrong = {
    kept: `Only pairs with a wavelength below $${n0(orig)}/4 = ${n0(high)}$ positions are kept, and this one's is $${lambda}$.`,
    divided: `Only pairs with a wavelength above the trained length, ${g(orig)}, are divided by the full factor $s = ${s}$, and this one's is $${lambda}$.`,
    blended: `The blend applies only to wavelengths between ${g(high)} and ${g(orig)} positions, and this one's is $${lambda}$.`,
    multiplied: 'That would make the pair turn faster. Context extension only slows pairs down or leaves them alone.',
  };
  const options = ['kept', 'divided', 'blended', 'multiplied'].map((r) => ({
    text: text[r],
    correct: r === regime,
    feedback: r === regime ? why[r] : wrong[r],
  }));
  return {
    question: `Llama 3 scaling (factor $s = ${s}$, \`original_max_position_embeddings\` ${g(orig)}, \`low_freq_factor\` 1, \`high_freq_factor\` 4) is applied to a RoPE head with $d_{\\text{head}} = ${dim}$ and base ${g(base)}. Pair $i = ${i}$ has a wavelength of $${lambda}$ positions. What happens to its frequency $\\theta_{${i}}$?`,
    options,
    explanation: `Llama 3 scaling sorts pairs by wavelength. Shorter than $${n0(orig)}/4 = ${n0(high)}$ positions: kept. Longer than ${g(orig)}: frequency divided by $s = ${s}$. In between: a blend whose weight moves smoothly from "kept" to "divided" as the wavelength grows. Pair ${i} ($${lambda}$) ends up with a wavelength of ${g(newWave)} positions.`,
  };
}

export default { generate };
