// 02-sinusoidal.md: the wavelength of pair i, as a formula and as a number.
// The number is 2π over the frequency the core computes in float32
// (sinusoidalFrequencies, the tutorial's exp(2i · −ln(base)/d)).
import { pick } from '../lib/questions/random.js';
import { quizNumber, texNumber } from '../lib/questions/quiz-text.js';
import { grouped } from '../lib/printing/pyformat.js';

const NAMES = { i: { tex: 'i' }, d: { tex: 'd' }, base: { tex: '\\text{base}' } };
const DOMAINS = {
  i: { min: 0, max: 60, integer: true },
  d: { min: 128, max: 512, even: true, integer: true },
  base: { min: 100, max: 100000 },
};

// four significant figures, as a learner would type them
const sig4 = (x) => Number(x.toPrecision(4)).toString();

export function generate(pe, random) {
  const d = pick(random, [16, 32, 64, 128]);
  const i = 1 + Math.floor(random() * (d / 2 - 1));
  const theta = pe.sinusoidalFrequencies(d)[i];
  const wavelength = (2 * Math.PI) / theta;
  return {
    prompt: `A sinusoidal table of width $d$ gives pair $i$ the frequency $\\theta_i = \\text{base}^{-2i/d}$ radians per position. Its wavelength $\\lambda_i$ is the number of positions the pair takes for one full turn.`,
    parts: [
      {
        label: '$\\lambda_i$ =',
        answer: { type: 'expression', reference: '2*pi*base^(2*i/d)', names: NAMES, domains: DOMAINS },
        slips: [
          {
            expression: 'base^(2*i/d)',
            message: 'That is $1/\\theta_i$, positions per radian. A full turn is $2\\pi$ radians.',
          },
          {
            expression: '2*pi*base^(i/d)',
            message: 'Pair $i$ holds coordinates $2i$ and $2i + 1$, and its exponent is $2i/d$, not $i/d$.',
          },
          {
            expression: '2*pi*base^(-2*i/d)',
            message:
              'That is $2\\pi\\theta_i$. The wavelength is $2\\pi$ divided by the frequency, so the exponent changes sign.',
          },
          {
            expression: 'base^(-2*i/d)',
            message: 'That is the frequency $\\theta_i$ itself, in radians per position.',
          },
        ],
        solutionValue: '2*pi*base^(2*i/d)',
      },
      {
        label: `$\\lambda_{${i}}$ for $d = ${d}$ and base 10000 (4 significant figures) =`,
        answer: { type: 'number', value: wavelength, tolerance: { rel: 1e-3 }, unit: 'positions' },
        slips: [
          {
            value: wavelength / (2 * Math.PI),
            message: 'That is positions per radian; multiply by $2\\pi$ for a full turn.',
          },
          { value: 2 * Math.PI * 10000 ** (i / d), message: `The exponent is $2i/d = ${2 * i}/${d}$, not $i/d$.` },
          {
            value: 360 * 10000 ** ((2 * i) / d),
            message: 'Degrees crept in: a turn is $2\\pi$ radians, and $\\theta_i$ is in radians.',
          },
        ],
        solutionValue: sig4(wavelength),
      },
    ],
    hint: 'How many radians is one full turn? The pair gains $\\theta_i$ radians per position.',
    solution: `- One turn is $2\\pi$ radians and the pair gains $\\theta_i = \\text{base}^{-2i/d}$ per position, so $\\lambda_i = 2\\pi/\\theta_i = 2\\pi \\cdot \\text{base}^{2i/d}$.
- With $d = ${d}$, base 10000 and $i = ${i}$: $2\\pi \\cdot 10000^{${2 * i}/${d}} \\approx ${texNumber(wavelength, 1)}$ positions (${grouped(quizNumber(wavelength, 1))} from the float32 frequency the code computes).
- Pair 0 always has $\\lambda_0 = 2\\pi$; each later pair's wavelength is $\\text{base}^{2/d}$ times the one before.`,
  };
}

// what it asks for (tests/js/exercises.test.mjs counts the kinds)
export const asks = 'formula';

// section: the one it is written for (dropped with a note if that section leaves the lesson)
export default { generate, asks, section: 'sinusoidal' };
