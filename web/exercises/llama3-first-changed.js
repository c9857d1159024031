// 08-long-context.md: predict the first pair Llama 3 scaling changes at all
// (its wavelength reaches L/4), then see the long-context-rope-scaling
// sample's llama3 column. Decided by the core's scaled frequencies
// (ropeInvFreq, llama3). (The first pair it divides by the full factor, past
// L, is where rope-unturned-pairs counts from: this one asks the other edge.)
import { pick } from '../lib/questions/random.js';
import { grouped } from '../lib/printing/pyformat.js';

export function generate(pe, random) {
  for (;;) {
    const dim = pick(random, [16, 24, 32]);
    const base = pick(random, [10000, 50000, 500000]);
    const s = pick(random, [4, 8, 16]);
    const trained = pick(random, [2048, 4096, 8192]);
    const scaling = { type: 'llama3', factor: s, originalMaxPositions: trained };
    const plain = pe.ropeInvFreq(dim, { base });
    const scaled = pe.ropeInvFreq(dim, { base, scaling });
    const pairs = dim / 2;
    const index = Array.from({ length: pairs }, (_, i) => i);
    const divided = (i) => Math.abs(plain[i] / scaled[i] - s) < 1e-5 * s;
    const first = index.find((i) => scaled[i] !== plain[i]);
    const firstDivided = index.find(divided);
    // a configuration that changes no pair, or every pair, asks nothing
    if (first === undefined || first === 0) continue;
    const g = (x) => grouped(String(x));
    const wave = (i) => g(Math.round((2 * Math.PI) / plain[i]));
    const blended = firstDivided === undefined ? pairs - first : firstDivided - first;
    return {
      prompt: `Llama 3 scaling with factor $s = ${s}$, \`original_max_position_embeddings\` $L = ${g(trained)}$, \`low_freq_factor\` 1 and \`high_freq_factor\` 4 is applied to a RoPE head with $d_{\\text{rot}} = ${dim}$ and base ${g(base)}. It keeps the pairs whose wavelength is shorter than $L/4$, divides by $s$ the frequency of every pair whose wavelength is longer than $L$, and blends the ones between.

Which is the first pair (lowest index $i$) whose frequency the scaling changes at all?`,
      parts: [
        {
          label: 'First pair changed: $i$ =',
          answer: { type: 'integer', value: first },
          slips: [
            ...(firstDivided !== undefined
              ? [
                  {
                    value: firstDivided,
                    message: `Pair ${firstDivided} is the first divided by the full factor (wavelength past $L$); the blend starts earlier, at $L/4 = ${g(trained / 4)}$.`,
                  },
                ]
              : []),
            {
              value: first - 1,
              message: `Pair ${first - 1}'s wavelength, ${wave(first - 1)} positions, is shorter than $L/4 = ${g(trained / 4)}$: it is kept.`,
            },
            ...(first + 1 < pairs
              ? [
                  {
                    value: first + 1,
                    message:
                      'One pair too late: the pair just before yours already has a wavelength that reaches $L/4$, so it is changed too.',
                  },
                ]
              : []),
          ],
          solutionValue: String(first),
        },
      ],
      hint: `$\\lambda_i = 2\\pi \\cdot ${g(base)}^{2i/${dim}}$. Find the first $i$ whose wavelength is not shorter than $L/4$.`,
      solution: `- The scaling keeps pairs with $\\lambda_i < L/4 = ${g(trained / 4)}$: $2i/${dim} < \\ln(${g(trained / 4)}/2\\pi)/\\ln ${g(base)}$, that is $i < ${(((dim / 2) * Math.log(trained / 4 / (2 * Math.PI))) / Math.log(base)).toFixed(2)}$.
- Pair ${first - 1} has $\\lambda = ${wave(first - 1)}$ and pair ${first} has $\\lambda = ${wave(first)}$: the first pair changed is $i = ${first}$.
- ${firstDivided !== undefined ? `${blended === 1 ? 'It is' : `Pairs ${first} to ${firstDivided - 1} are`} blended; from pair ${firstDivided} on (wavelengths past $L$) every pair is divided by ${s}.` : `Every pair from ${first} on is blended: none has a wavelength past $L$ here.`} The sample's \`llama3\` column shows each pair's stretch: 1 up to pair ${first - 1}.`,
      reveal: {
        sample: 'long-context-rope-scaling',
        params: { dim, base, factor: s, original_max_positions: trained, seq_len: trained * 2 },
        caption: 'Every pair under each scaling in PyTorch, printed live (the last column is Llama 3’s stretch)',
      },
    };
  }
}

// what it asks for (tests/js/exercises.test.mjs counts the kinds)
export const asks = 'prediction';

// section: the one it is written for (dropped with a note if that section leaves the lesson)
export default { generate, asks, section: 'long-context' };
