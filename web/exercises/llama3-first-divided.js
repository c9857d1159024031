// 08-long-context.md: predict where Llama 3 scaling starts dividing pairs by
// the full factor, then see the long-context-rope-scaling sample's llama3
// column. Decided by the core's scaled frequencies (ropeInvFreq, llama3).
import { pick } from '../lib/random.js';
import { grouped } from '../lib/pyformat.js';

export function generate(pe, random) {
  for (;;) {
    const dim = pick(random, [16, 24, 32]);
    const base = pick(random, [10000, 50000, 500000]);
    const s = pick(random, [4, 8, 16]);
    const trained = pick(random, [2048, 4096, 8192]);
    const scaling = { type: 'llama3', factor: s, originalMaxPositions: trained };
    const plain = pe.ropeInvFreq(dim, { base });
    const scaled = pe.ropeInvFreq(dim, { base, scaling });
    const divided = (i) => Math.abs(plain[i] / scaled[i] - s) < 1e-5 * s;
    const kept = (i) => scaled[i] === plain[i];
    const pairs = dim / 2;
    const first = Array.from({ length: pairs }, (_, i) => i).find(divided);
    const firstBlended = Array.from({ length: pairs }, (_, i) => i).find((i) => !kept(i) && !divided(i));
    // a configuration with no divided pair, or only divided ones, asks nothing
    if (first === undefined || first === 0) continue;
    const g = (x) => grouped(String(x));
    const wave = (i) => g(Math.round((2 * Math.PI) / plain[i]));
    return {
      prompt: `Llama 3 scaling with factor $s = ${s}$, \`original_max_position_embeddings\` $L = ${g(trained)}$, \`low_freq_factor\` 1 and \`high_freq_factor\` 4 is applied to a RoPE head with $d_{\\text{rot}} = ${dim}$ and base ${g(base)}. It keeps the pairs whose wavelength is shorter than $L/4$, divides by $s$ the frequency of every pair whose wavelength is longer than $L$, and blends the ones between.

Which is the first pair (lowest index $i$) divided by the full factor $s$?`,
      parts: [
        {
          label: 'First pair divided by $s$: $i$ =',
          answer: { type: 'integer', value: first },
          slips: [
            ...(firstBlended !== undefined && firstBlended !== first ? [{ value: firstBlended, message: `Pair ${firstBlended} is the first one changed, but its wavelength (${wave(firstBlended)}) is below $L$: it is blended, not divided by the full factor.` }] : []),
            { value: first - 1, message: `Pair ${first - 1}'s wavelength, ${wave(first - 1)} positions, is not longer than $L = ${g(trained)}$.` },
            ...(first + 1 < pairs ? [{ value: first + 1, message: `Pair ${first}'s wavelength, ${wave(first)} positions, is already longer than $L$.` }] : []),
          ],
          solutionValue: String(first),
        },
      ],
      hint: `$\\lambda_i = 2\\pi \\cdot ${g(base)}^{2i/${dim}}$. Find the first $i$ with $\\lambda_i > ${g(trained)}$.`,
      solution: `- Divided by $s$ are the pairs with $\\lambda_i > L = ${g(trained)}$: $2i/${dim} > \\ln(${g(trained)}/2\\pi)/\\ln ${g(base)}$, so $i > ${((dim / 2) * Math.log(trained / (2 * Math.PI)) / Math.log(base)).toFixed(2)}$.
- Pair ${first - 1} has $\\lambda = ${wave(first - 1)}$ and pair ${first} has $\\lambda = ${wave(first)}$: the first divided pair is $i = ${first}$.
- ${firstBlended !== undefined ? `Pairs ${firstBlended} to ${first - 1} (wavelengths between $L/4 = ${g(trained / 4)}$ and $L$) are blended; below ${firstBlended} they are kept.` : `No pair falls between $L/4 = ${g(trained / 4)}$ and $L$ here, so none is blended.`} The sample's \`llama3\` column shows the stretch of each pair: ${s} from pair ${first} on.`,
      reveal: { sample: 'long-context-rope-scaling', params: { dim, base, factor: s, original_max_positions: trained, seq_len: trained * 2 }, caption: 'Every pair under each scaling in PyTorch, printed live (the last column is Llama 3’s stretch)' },
    };
  }
}

// what it asks for (tests/js/exercises.test.mjs counts the kinds)
export const asks = 'prediction';

export default { generate, asks };
