// Cases of the code exercise rope-vector (04-rope.md): RoPE applied to one
// vector at one position, in the half (HF Llama) and the interleaved (GPT-J,
// Meta) layout, as the core computes it in float32 (pe.ropeApply). Edge
// cases: position 0 (nothing turns), one pair, sizes that are not powers of
// two, both layouts on the same vector; then vectors drawn from the seed.
import { pick } from '../lib/questions/random.js';

const apply = (pe, x, pos, layout, base, scaling = null) =>
  Array.from(pe.ropeApply(Float32Array.from(x), 1, x.length, { positions: [pos], base, convention: layout, scaling }));

// the second coordinate of every pair negated: F R(θ) F = R(−θ)
function flipped(x, layout) {
  const half = x.length / 2;
  return x.map((v, j) => ((layout === 'half' ? j >= half : j % 2 === 1) ? -v : v));
}

function caseOf(pe, x, pos, layout, base = 10000) {
  const expected = apply(pe, x, pos, layout, base);
  const other = layout === 'half' ? 'interleaved' : 'half';
  return {
    args: [x, pos, layout, base],
    expected,
    slips: {
      'wrong-pairing': apply(pe, x, pos, other, base),
      clockwise: flipped(apply(pe, flipped(x, layout), pos, layout, base), layout),
      // the angle taken as degrees (math.radians(phi)): every frequency divided by 180/π
      degrees: apply(pe, x, pos, layout, base, { type: 'linear', factor: 180 / Math.PI }),
    },
  };
}

const vector = (random, d) => Array.from({ length: d }, () => Math.round((random() * 2 - 1) * 100) / 100);

export function cases(pe, random) {
  const x6 = vector(random, 6);
  const x8 = vector(random, 8);
  const out = [
    caseOf(pe, [0.5, -1, 0.25, 2], 0, 'half'),
    caseOf(pe, [1, 0], 3, 'half'),
    caseOf(pe, x6, 5, 'half'),
    caseOf(pe, x6, 5, 'interleaved'),
    caseOf(pe, x8, 2 + Math.floor(random() * 60), 'interleaved', 100),
  ];
  for (let k = 0; k < 3; k++) {
    const d = pick(random, [4, 10, 12, 16]);
    out.push(caseOf(pe, vector(random, d), 1 + Math.floor(random() * 99), pick(random, ['half', 'interleaved'])));
  }
  return out;
}

export default { cases, section: 'rope' };
