// "Which pair has a wavelength of about X positions?" for a random d_model
// (lessons/positional-encoding/02-sinusoidal.md). Wavelengths 2*pi/omega_i
// from the core's frequencies.
import { pick, shuffle } from '../lib/random.js';
import { fixed } from '../lib/pyformat.js';

export function generate(pe, random) {
  const d = pick(random, [64, 128, 256, 512, 1024]);
  const pairs = d / 2;
  const omega = pe.sinusoidalFrequencies(d);
  const wavelength = (i) => (2 * Math.PI) / omega[i];
  const fmt = (x) => fixed(x, 1);

  // the answer: not one of the two ends, and not the middle pair (its mirror would be itself)
  let target;
  do target = 1 + Math.floor(random() * (pairs - 2));
  while (target === pairs - 1 - target);
  // distractors: the pair at the mirrored index (counting from the wrong end) and pairs
  // far enough away that their wavelengths differ by at least a factor of 2
  const gap = Math.ceil((pairs * Math.log(2)) / Math.log(10000)) + 1;
  const candidates = new Set([pairs - 1 - target]);
  const others = shuffle(random, [target - 2 * gap, target - gap, target + gap, target + 2 * gap, 0, pairs - 1]);
  for (const i of others) {
    if (candidates.size >= 3) break;
    if (i >= 0 && i < pairs && i !== target && Math.abs(i - target) >= gap) candidates.add(i);
  }
  const distractors = [...candidates].filter((i) => Math.abs(i - target) >= gap).slice(0, 3);

  const lambda = wavelength(target);
  const describe = (i) => `omega_${i} = ${omega[i].toPrecision(4)} rad per position, wavelength ${fmt(wavelength(i))} positions`;
  const options = [
    {
      text: `Pair ${target} (coordinates ${2 * target} and ${2 * target + 1})`,
      correct: true,
      feedback: `Right: ${describe(target)}.`,
    },
    ...distractors.map((i) => {
      const speed = wavelength(i) < lambda ? 'too fast (shorter wavelength)' : 'too slow (longer wavelength)';
      const mirror =
        i === pairs - 1 - target
          ? ' This is the answer counted from the wrong end: the first pairs are the fastest, the last the slowest.'
          : '';
      return {
        text: `Pair ${i} (coordinates ${2 * i} and ${2 * i + 1})`,
        correct: false,
        feedback: `${describe(i)}: ${speed}.${mirror}`,
      };
    }),
  ];

  const solved = (pairs * Math.log(lambda / (2 * Math.PI))) / Math.log(10000);
  return {
    question:
      `A sinusoidal table has d_model = ${d} and base 10000. ` +
      `Which pair of coordinates has a wavelength of about ${fmt(lambda)} positions, ` +
      `that is, its (sin, cos) point turns once every ${fmt(lambda)} positions?`,
    options: shuffle(random, options),
    explanation:
      `Pair i turns at omega_i = 10000^(-2i/d) radians per position, so its wavelength is ` +
      `2*pi*10000^(2i/d): ${fmt(wavelength(0))} positions for pair 0, growing by the same factor ` +
      `at every pair up to ${fmt(wavelength(pairs - 1))} for pair ${pairs - 1}. ` +
      `Solving 2*pi*10000^(2i/${d}) = ${fmt(lambda)} gives i = (${d}/2) * ln(${fmt(lambda)} / (2*pi)) / ln(10000) = ${fixed(solved, 2)}, ` +
      `so pair ${target} (coordinates ${2 * target} and ${2 * target + 1}).`,
  };
}

export default { generate };
