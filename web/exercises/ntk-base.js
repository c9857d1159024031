// 08-long-context.md: NTK-aware scaling's new base, derived from what it
// must do (pair 0 kept, the last pair slowed by exactly s), then one pair's
// slowdown with numbers. The slowdown is the core's: ropeInvFreq with the
// plain base over ropeInvFreq with HF's NTK base (dynamic NTK at the length
// where its factor is s, as the long-context-rope-scaling sample does).
import { pick } from '../lib/questions/random.js';
import { quizNumber } from '../lib/questions/quiz-text.js';

const NAMES = { base: { tex: '\\text{base}' }, s: { tex: 's' }, d: { tex: 'd' } };
const DOMAINS = {
  base: { min: 1000, max: 1000000 },
  s: { min: 1.5, max: 32 },
  d: { min: 16, max: 256, even: true, integer: true },
};

export function generate(pe, random) {
  const dim = pick(random, [32, 64, 128]);
  const s = pick(random, [2, 4, 8]);
  const base = pick(random, [10000, 500000]);
  const i = 1 + Math.floor(random() * (dim / 2 - 2));
  const plain = pe.ropeInvFreq(dim, { base });
  // HF dynamic NTK with factor 1 at seq_len = 2s from max_positions 2 uses s exactly
  const ntk = pe.ropeInvFreq(dim, { base, scaling: { type: 'dynamic', factor: 1, maxPositions: 2, seqLen: 2 * s } });
  const slowdown = plain[i] / ntk[i];
  return {
    prompt: `NTK-aware scaling keeps RoPE's formula $\\theta_i = \\text{base}'^{-2i/d}$ (here $d = d_{\\text{rot}}$) but replaces the base by a larger $\\text{base}'$, chosen so that pair 0 keeps its frequency and the last pair, $i = d/2 - 1$, is slowed by exactly the factor $s$.`,
    parts: [
      {
        label: "$\\text{base}'$ =",
        answer: { type: 'expression', reference: 'base*s^(d/(d-2))', names: NAMES, domains: DOMAINS },
        slips: [
          {
            expression: 'base*s',
            message:
              "With $\\text{base}' = \\text{base} \\cdot s$ the last pair is slowed by $s^{(d-2)/d}$, a little less than $s$: its exponent is $2i/d = (d - 2)/d$, not 1.",
          },
          {
            expression: 'base*s^((d-2)/d)',
            message:
              "The exponent is upside down: solve $(\\text{base}'/\\text{base})^{(d-2)/d} = s$ for $\\text{base}'$.",
          },
          {
            expression: 'base^s',
            message:
              "Scaling acts on the base by a factor, not a power: the frequency ratio is $(\\text{base}'/\\text{base})^{2i/d}$.",
          },
        ],
        solutionValue: 'base*s^(d/(d-2))',
      },
      {
        label: `By what factor is pair $i = ${i}$ slowed, for $d = ${dim}$, $s = ${s}$? (4 significant figures)`,
        answer: { type: 'number', value: slowdown, tolerance: { rel: 1e-3 } },
        slips: [
          { value: s, message: `Only the last pair is slowed by the whole factor $s$; pair $i$ by $s^{2i/(d-2)}$.` },
          {
            value: s ** ((2 * i) / dim),
            message: `That uses $\\text{base}' = \\text{base} \\cdot s$. With the exponent $d/(d-2)$ the slowdown is $s^{2i/(d-2)}$.`,
          },
          {
            value: 1 / slowdown,
            message: 'That is the new frequency over the old one; the question asks how much slower.',
          },
        ],
        solutionValue: Number(slowdown.toPrecision(5)).toString(),
      },
    ],
    hint: "Pair $i$'s frequency changes by the factor $(\\text{base}'/\\text{base})^{-2i/d}$. Pair 0 is kept whatever $\\text{base}'$ is; what must $(\\text{base}'/\\text{base})^{-2(d/2-1)/d}$ be?",
    solution: `- The last pair has exponent $2(d/2 - 1)/d = (d - 2)/d$, so it is slowed by $(\\text{base}'/\\text{base})^{(d-2)/d}$.
- Setting that to $s$: $\\text{base}'/\\text{base} = s^{d/(d-2)}$, so $\\text{base}' = \\text{base} \\cdot s^{d/(d-2)}$ (Hugging Face's \`base * factor ** (dim / (dim - 2))\`).
- Pair $i$ is then slowed by $(\\text{base}'/\\text{base})^{2i/d} = s^{2i/(d-2)}$: for $i = ${i}$, $d = ${dim}$, $s = ${s}$ that is $${s}^{${2 * i}/${dim - 2}} = ${quizNumber(slowdown, 4)}$.`,
  };
}

// what it asks for (tests/js/exercises.test.mjs counts the kinds)
export const asks = 'formula';

// section: the one it is written for (dropped with a note if that section leaves the lesson)
export default { generate, asks, section: 'long-context' };
