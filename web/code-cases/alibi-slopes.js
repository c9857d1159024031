// Cases of the code exercise alibi-slopes (05-relative-bias.md): ALiBi's
// slope per head (Press et al.'s reference code; pe.alibiSlopes, stored as
// float32). Edge cases: one head, powers of two, and the head counts that
// are not (3, 5, 6, 12), where the rule takes every other slope of the
// next power of two; then counts drawn from the seed.
import { pick } from '../lib/questions/random.js';

function caseOf(pe, n) {
  const expected = Array.from(pe.alibiSlopes(n));
  const c = 2 ** Math.floor(Math.log2(n));
  const slips = {};
  if (c !== n) {
    // the geometric rule for n heads, as if n were a power of two
    slips['no-power-rule'] = Array.from({ length: n }, (_, i) => 2 ** ((-8 * (i + 1)) / n));
    // the first n - c slopes of 2c heads instead of every other one
    slips['first-not-every-other'] = [...expected.slice(0, c), ...Array.from(pe.alibiSlopes(2 * c)).slice(0, n - c)];
  }
  return { args: [n], expected, slips };
}

export function cases(pe, random) {
  const out = [1, 2, 8, 6, 12, 3, 5].map((n) => caseOf(pe, n));
  for (let k = 0; k < 3; k++) out.push(caseOf(pe, pick(random, [7, 10, 16, 20, 24, 32, 40, 48])));
  return out;
}

export default { cases, section: 'relative-bias' };
