// Self-attention on "the dog bit the man" and a shuffle of it, with and
// without sinusoidal positions (lessons/positional-encoding/01-why-position.md).
// Attention and the position table come from the core.
import { torchStr } from '../lib/printing/pyformat.js';
import { choice } from '../lib/printing/sample-params.js';

const EMB = {
  the: [0.2, 0.1, -0.3, 0.4],
  dog: [0.9, -0.5, 0.3, 0.1],
  bit: [-0.4, 0.8, 0.6, -0.2],
  man: [0.5, 0.3, -0.7, 0.6],
};
const D = 4;
const A = 'the dog bit the man'.split(' ');

export default {
  section: 'why-position',
  params: {
    encoding: choice('encoding', ['none', 'sinusoidal']),
    shuffled: choice('sentence B', [
      'the man bit the dog',
      'man the dog bit the',
      'bit the man the dog',
      'dog bit the man the',
      'the dog bit the man',
    ]),
  },
  cases: [
    { encoding: 'sinusoidal' },
    { encoding: 'none', shuffled: 'man the dog bit the' },
    { encoding: 'sinusoidal', shuffled: 'dog bit the man the' },
    { encoding: 'sinusoidal', shuffled: 'the dog bit the man' },
  ],
  run(pe, p) {
    const B = p.shuffled.split(' ');
    const n = A.length;
    const table = p.encoding === 'sinusoidal' ? pe.sinusoidal(n, D) : null;
    const embed = (words) => {
      const x = new Float32Array(n * D);
      words.forEach((w, i) => {
        for (let j = 0; j < D; j++)
          x[i * D + j] = table ? Math.fround(Math.fround(EMB[w][j]) + table[i * D + j]) : EMB[w][j];
      });
      return x;
    };
    // Q = K = V = x, one head, scale 1/sqrt(4)
    const attend = (x) => pe.attention(x, x, x, { heads: 1, seqLen: n, headDim: D, returnWeights: false }).output;
    const outA = attend(embed(A));
    const outB = attend(embed(B));
    // perm[i] = the first unused index of A holding B's i-th word
    const free = [...A.keys()];
    const perm = B.map(
      (w) =>
        free.splice(
          free.findIndex((j) => A[j] === w),
          1,
        )[0],
    );
    // torch.allclose(out_b, out_a[perm]): |a - b| <= 1e-8 + 1e-5 * |b|
    let close = true;
    perm.forEach((j, i) => {
      for (let c = 0; c < D; c++) {
        const b = outA[j * D + c];
        if (!(Math.abs(outB[i * D + c] - b) <= 1e-8 + 1e-5 * Math.abs(b))) close = false;
      }
    });
    const row = (out, i) => torchStr(out.subarray(i * D, (i + 1) * D), [D]);
    return [
      `A: ${A.join(' ')}`,
      `B: ${B.join(' ')}`,
      `'dog' in A: ${row(outA, A.indexOf('dog'))}`,
      `'dog' in B: ${row(outB, B.indexOf('dog'))}`,
      `B's outputs are A's, reordered: ${close ? 'True' : 'False'}`,
      '',
    ].join('\n');
  },
};
