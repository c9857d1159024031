// 04-rope.md: RoPE's turn of one pair, as formulas and as numbers. The
// numbers are the core's ropeApply on one pair at position m, with θ set
// exactly through linear scaling (web/lib/rope/rotated-pair.js).
import { pick } from '../lib/questions/random.js';
import { quizNumber, texVector } from '../lib/questions/quiz-text.js';
import { EXACT_THETAS, randomVector } from '../lib/rope/rotated-pair.js';

const NAMES = {
  x0: { tex: 'x_0', aliases: ['x₀', 'x_0'] },
  x1: { tex: 'x_1', aliases: ['x₁', 'x_1'] },
  m: { tex: 'm' },
  theta: { tex: '\\theta', aliases: ['θ', 't'] },
};
const DOMAINS = {
  x0: { min: -2, max: 2 },
  x1: { min: -2, max: 2 },
  m: { min: 0, max: 50, integer: true },
  theta: { min: 0.01, max: 1.5 },
};

export function generate(pe, random) {
  const x = randomVector(random);
  const [theta, factor] = pick(random, EXACT_THETAS);
  const m = 2 + Math.floor(random() * 12);
  const r = pe.ropeApply(x, 1, 2, { positions: [m], scaling: { type: 'linear', factor } });
  const degrees = (deg) => (deg * Math.PI) / 180;
  const c = Math.cos(degrees(m * theta));
  const s = Math.sin(degrees(m * theta));
  return {
    prompt: `RoPE turns each pair $(x_0, x_1)$ of a query or key at position $m$ counter-clockwise by the angle $m\\theta$. Write the turned pair, then compute it for $x = ${texVector(x)}$, $\\theta = ${theta}$ and $m = ${m}$ (type \`theta\` or θ, \`x0\`, \`x1\`, \`m\`, \`cos\`, \`sin\`).`,
    parts: [
      {
        label: "$x_0'$ =",
        answer: { type: 'expression', reference: 'x0*cos(m*theta) - x1*sin(m*theta)', names: NAMES, domains: DOMAINS },
        slips: [
          {
            expression: 'x0*cos(m*theta) + x1*sin(m*theta)',
            message:
              'That turns clockwise, by $-m\\theta$. Counter-clockwise, the first coordinate loses $x_1 \\sin m\\theta$.',
          },
          {
            expression: 'x0*cos(theta) - x1*sin(theta)',
            message: 'That is the turn of position 1. At position $m$ the angle is $m\\theta$.',
          },
          { expression: 'x0*sin(m*theta) + x1*cos(m*theta)', message: "That is the second coordinate, $x_1'$." },
        ],
        solutionValue: 'x0*cos(m*theta) - x1*sin(m*theta)',
      },
      {
        label: "$x_1'$ =",
        answer: { type: 'expression', reference: 'x0*sin(m*theta) + x1*cos(m*theta)', names: NAMES, domains: DOMAINS },
        slips: [
          {
            expression: '-x0*sin(m*theta) + x1*cos(m*theta)',
            message: 'That turns clockwise. Counter-clockwise, the second coordinate gains $x_0 \\sin m\\theta$.',
          },
          {
            expression: 'x0*sin(theta) + x1*cos(theta)',
            message: 'That is the turn of position 1. At position $m$ the angle is $m\\theta$.',
          },
        ],
        solutionValue: 'x0*sin(m*theta) + x1*cos(m*theta)',
      },
      {
        label: `$x_0'$ for $x = ${texVector(x)}$, $\\theta = ${theta}$, $m = ${m}$ (3 decimals) =`,
        answer: { type: 'number', value: r[0], tolerance: { abs: 6e-4 }, digits: 3 },
        slips: [
          {
            value: x[0] * c - x[1] * s,
            message: `Degrees crept in: $m\\theta = ${quizNumber(m * theta, 2)}$ is in radians.`,
          },
          {
            value: x[0] * Math.cos(m * theta) + x[1] * Math.sin(m * theta),
            message: 'That is the clockwise turn; check the sign of the $\\sin$ term.',
          },
        ],
        solutionValue: quizNumber(r[0], 4),
      },
    ],
    hint: 'Write the pair as the complex number $x_0 + \\mathrm{i}x_1$ and multiply by $\\cos m\\theta + \\mathrm{i}\\sin m\\theta$; or apply the turn $R(m\\theta)$ of the sinusoidal section.',
    solution: `- $R(m\\theta)$ applied to $(x_0, x_1)$: $x_0' = x_0 \\cos m\\theta - x_1 \\sin m\\theta$ and $x_1' = x_0 \\sin m\\theta + x_1 \\cos m\\theta$.
- With $m\\theta = ${quizNumber(m * theta, 2)}$ radians: $x_0' = ${quizNumber(r[0], 4)}$ and $x_1' = ${quizNumber(r[1], 4)}$, the values the core's RoPE gives in float32.
- The length stays $\\sqrt{x_0^2 + x_1^2}$: a turn never changes it.`,
  };
}

// what it asks for (tests/js/exercises.test.mjs counts the kinds)
export const asks = 'formula';

// section: the one it is written for (dropped with a note if that section leaves the lesson)
export default { generate, asks, section: 'rope' };
