// lessons/positional-encoding/08-long-context.md: what Llama 3 scaling (HF
// rope_type "llama3") does to one RoPE pair, decided by the core's scaled
// frequencies. Texts are Markdown with $TeX$ (web/lib/questions/quiz-text.js), in the
// lesson's notation: pair i, frequency θ_i, wavelength λ_i, d_rot (the scaling
// acts on the rotated part of a head), trained length L, factor s.
import { pick } from '../lib/questions/random.js';
import { texNumber, quizNumber } from '../lib/questions/quiz-text.js';
import { grouped } from '../lib/printing/pyformat.js';

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
  const regime = pick(
    random,
    Object.keys(byRegime).filter((r) => byRegime[r].length > 0),
  );
  const i = pick(random, byRegime[regime]);
  const wave = (2 * Math.PI) / plain[i];
  const newWave = (2 * Math.PI) / scaled[i];
  const high = orig / 4;
  const lambda = `\\lambda_{${i}} = ${n0(wave)}`;
  const theta = `\\theta_{${i}}`;
  const c = `c_{${i}}`;
  // The options name only the divisor c_i (θ'_i = θ_i / c_i) with the factor
  // as the letter s: the four formulas come in two pairs of equal length
  // (c = 1 and c = s, 1 < c < s and c = 1/s), so no option's form or length
  // tells which one is right.
  const text = {
    kept: `$${c} = 1$`,
    divided: `$${c} = s$`,
    blended: `$1 < ${c} < s$`,
    multiplied: `$${c} = 1/s$`,
  };
  const why = {
    kept: `The wavelength, $${lambda}$ positions, is shorter than $L/4 = ${n0(high)}$: such a pair turned many times within the trained length, so every angle it produces at long range was already seen. Llama 3 scaling keeps it: $${c} = 1$.`,
    divided: `The wavelength, $${lambda}$ positions, is longer than the trained length $L = ${n0(orig)}$: in training this pair never completed a turn, so Llama 3 scaling interpolates it fully, to $${theta}/${s}$: $${c} = s$.`,
    blended: `The wavelength, $${lambda}$ positions, lies between $L/4 = ${n0(high)}$ and $L = ${n0(orig)}$, so Llama 3 scaling blends the kept and the divided frequency with weight $\\text{smooth} = (L/\\lambda_{${i}} - 1)/3$: $${c}$ lies between 1 and $s$, and the new wavelength is ${g(newWave)} positions.`,
  };
  const wrong = {
    kept: `Only pairs with a wavelength below $L/4 = ${n0(high)}$ positions are kept, and this one's is $${lambda}$.`,
    divided: `Only pairs with a wavelength above the trained length, $L = ${n0(orig)}$, are divided by the full factor $s = ${s}$, and this one's is $${lambda}$.`,
    blended: `The blend applies only to wavelengths between $L/4 = ${n0(high)}$ and $L = ${n0(orig)}$ positions, and this one's is $${lambda}$.`,
    multiplied: `Dividing by $1/s$ multiplies the frequency by $s$: the pair would turn ${s} times faster. Context extension only slows pairs down or leaves them alone.`,
  };
  const options = ['kept', 'divided', 'blended', 'multiplied'].map((r) => ({
    text: text[r],
    correct: r === regime,
    feedback: r === regime ? why[r] : wrong[r],
  }));
  return {
    question: `Llama 3 scaling (factor $s = ${s}$, trained length $L = ${n0(orig)}$, \`low_freq_factor\` 1, \`high_freq_factor\` 4) is applied to a RoPE head with $d_{\\text{rot}} = ${dim}$ and base ${g(base)}. It divides the frequency of pair $i$ by a factor $c_{i}$: $\\theta'_{i} = \\theta_{i}/c_{i}$. Pair $i = ${i}$ has a wavelength of $${lambda}$ positions. What is $${c}$?`,
    options,
    explanation: `Llama 3 scaling sorts pairs by wavelength. Shorter than $L/4 = ${n0(high)}$ positions: kept. Longer than $L = ${n0(orig)}$: frequency divided by $s = ${s}$. In between: a blend whose weight moves smoothly from "kept" to "divided" as the wavelength grows. Pair ${i} ($${lambda}$) ends up with a wavelength of ${g(newWave)} positions.`,
  };
}

export default { generate };
