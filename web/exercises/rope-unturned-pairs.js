// 08-long-context.md: how many of a RoPE head's pairs never complete a turn
// within the training length, so that longer offsets take them to angles
// training never showed. Counted over the core's frequencies (ropeInvFreq).
import { pick } from '../lib/questions/random.js';
import { grouped } from '../lib/printing/pyformat.js';

export function generate(pe, random) {
  const dim = pick(random, [32, 64, 128]);
  const base = pick(random, [10000, 500000, 1000000]);
  const trained = pick(random, [512, 2048, 4096, 8192, 32768]);
  const inv = pe.ropeInvFreq(dim, { base });
  const pairs = dim / 2;
  const wavelengths = Array.from(inv, (f) => (2 * Math.PI) / f);
  const unturned = wavelengths.filter((w) => w > trained).length;
  const firstUnturned = pairs - unturned;
  const g = (x) => grouped(String(x));
  return {
    prompt: `A RoPE head rotates $d_{\\text{rot}} = ${dim}$ coordinates with base ${g(base)} and was trained on inputs of $L = ${g(trained)}$ tokens. How many of its ${pairs} pairs have a wavelength $\\lambda_i$ longer than $L$, so that in training they never completed a turn?`,
    parts: [
      {
        label: 'Pairs with $\\lambda_i > L$',
        answer: { type: 'integer', value: unturned },
        slips: [
          {
            value: pairs - unturned,
            message: 'That counts the pairs that do complete a turn within $L$: the fast ones.',
          },
          {
            value: unturned + 1,
            message: 'One too many: check the pair at the boundary, whose wavelength is just below $L$.',
          },
          {
            value: unturned - 1,
            message: 'One too few: check the pair at the boundary, whose wavelength is just above $L$.',
          },
        ].filter((s) => s.value >= 0 && s.value <= pairs),
        solutionValue: String(unturned),
      },
    ],
    hint: '$\\lambda_i = 2\\pi \\cdot \\text{base}^{2i/d_{\\text{rot}}}$ grows with $i$. Solve $\\lambda_i > L$ for $i$, then count the pairs from there to the last one, $i = d_{\\text{rot}}/2 - 1$.',
    solution: `- $\\lambda_i > L$ when $2i/d_{\\text{rot}} > \\ln(L/2\\pi)/\\ln(\\text{base})$, that is $i > ${(((dim / 2) * Math.log(trained / (2 * Math.PI))) / Math.log(base)).toFixed(2)}$.
- The first such pair is $i = ${firstUnturned}$ (wavelength about ${g(Math.round(wavelengths[firstUnturned] ?? 0))} positions${firstUnturned > 0 ? `; pair ${firstUnturned - 1}'s is about ${g(Math.round(wavelengths[firstUnturned - 1]))}` : ''}).
- Pairs ${firstUnturned} to ${pairs - 1}: ${unturned} of the ${pairs}. These are the pairs that an offset longer than $L$ turns past anything training showed, and the ones every context-extension method slows down.`,
  };
}

// what it asks for (tests/js/exercises.test.mjs counts the kinds)
export const asks = 'number';

// section: the one it is written for (dropped with a note if that section leaves the lesson)
export default { generate, asks, section: 'long-context' };
