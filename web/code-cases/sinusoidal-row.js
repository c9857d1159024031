// Cases of the code exercise sinusoidal-row (02-sinusoidal.md): one row of
// the tutorial's sinusoidal table, PE[pos, :], as the core computes it in
// float32 (pe.sinusoidalRows: the bits PyTorch prints). Edge cases first:
// position 0, the smallest table, sizes that are not powers of two, another
// base; then positions and sizes drawn from the learner's seed.
import { pick } from '../lib/questions/random.js';

const row = (pe, pos, d, base) => Array.from(pe.sinusoidalRows(pos + 1, d, pos, 1, { base }));

function caseOf(pe, pos, d, base) {
  const expected = row(pe, pos, d, base);
  // i for 2i: the exponent i/d is pair i of a table twice as wide
  const halfExponent = row(pe, pos, 2 * d, base).slice(0, d);
  const swapped = expected.map((_, j) => expected[j ^ 1]);
  const concatenated = [...expected.filter((_, j) => j % 2 === 0), ...expected.filter((_, j) => j % 2 === 1)];
  return {
    args: [pos, d, base],
    expected,
    slips: { 'i-for-2i': halfExponent, 'cos-sin': swapped, concatenated },
  };
}

export function cases(pe, random) {
  const out = [caseOf(pe, 0, 4, 10000), caseOf(pe, 1, 2, 10000), caseOf(pe, 3, 6, 10000), caseOf(pe, 5, 10, 100)];
  for (let k = 0; k < 4; k++)
    out.push(
      caseOf(
        pe,
        2 + Math.floor(random() * 199),
        pick(random, [8, 12, 16, 24, 32, 64]),
        pick(random, [10000, 10000, 500]),
      ),
    );
  return out;
}

export default { cases, section: 'sinusoidal' };
