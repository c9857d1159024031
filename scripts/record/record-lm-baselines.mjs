// Records the baselines of the lesson's language-modelling comparison: what
// a model that reads no position can score on the same corpus and split.
// Uniform (ln 64), then n-gram models of order 1 to 4 fitted to the training
// part and scored on the held-out tenth, in nats per character.
//
// The corpus and its split come from the trainer itself (trainer.corpus():
// the ids of web/data/corpus.js as cpp/train/train_tasks.h's text_tokens
// folds it, and train_end, where the held-out tenth begins), so the n-gram
// models see the characters and the split the validation loss sees.
//
// Scored as the lab scores its models: a window of L ids (L = 1, 2 and 4
// times TEXT.trainLen, the lab's test lengths) starts anywhere in the
// held-out part, and target i of the window (i = 0 .. L - 1) is predicted
// from the i + 1 ids before it in the window, so an n-gram model has n - 1
// of them only from i = n - 2 on (before that, the model of order i + 2).
// Each figure is the mean over every window start and target: the
// expectation of what the lab's TEXT.evalSamples random windows estimate.
//
// Smoothing: interpolated Kneser-Ney (Chen and Goodman 1999, eq. 14), one
// discount per order, D = n1 / (n1 + 2 n2) from that order's count of
// counts (0 where no n-gram was seen once); the lowest order interpolates
// with the uniform distribution over the 64 ids. Nothing is tuned on the
// held-out part.
//
// Writes web/data/lm-baselines.js (a module: <train-lab task="text"> draws
// the baselines as reference lines, web/numbers/lm-results.js quotes them),
// with the corpus's SHA-256 (tests/js/lm-results.test.mjs holds it to the
// corpus and to lm-results.js).
//
//   node scripts/record/record-lm-baselines.mjs
import { writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { loadPosenc } from '../../web/posenc.js';
import { TEXT, MULTIPLES } from '../../web/lib/training/train-session.js';
import { dataModule } from './data-module.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const out = path.join(root, 'web/data/lm-baselines.js');
const { default: text } = await import('../../web/data/corpus.js');

const ORDERS = [1, 2, 3, 4];
const V = TEXT.vocab;

// The corpus as the trainer reads it.
const pe = await loadPosenc({ simd: true, trainer: true });
const trainer = pe.createTrainer({ task: 'text', text, trainLen: TEXT.trainLen, batch: TEXT.batch });
const { ids, trainEnd } = trainer.corpus();
trainer.delete();
const train = ids.subarray(0, trainEnd);
const heldOut = ids.subarray(trainEnd);

// key of an n-gram of ids (each < 64): base-64 digits, oldest first
const key = (seq, end, n) => {
  let k = 0;
  for (let j = end - n; j < end; j++) k = k * V + seq[j];
  return k;
};

/**
 * Interpolated Kneser-Ney of order N over `train`: returns p(seq, end, k),
 * the probability of seq[end] given the k ids before it (k <= N - 1), from
 * the model of order k + 1 (raw counts at the top, continuation counts
 * below it, as in a model of that order).
 */
function kneserNey(N) {
  // raw[n]: count of each n-gram; cont[n]: N1+(. w), how many distinct ids precede it
  const raw = [null];
  const cont = [null];
  for (let n = 1; n <= N; n++) {
    const r = new Map();
    for (let t = n; t <= train.length; t++) {
      const k = key(train, t, n);
      r.set(k, (r.get(k) ?? 0) + 1);
    }
    raw.push(r);
    cont.push(new Map());
  }
  for (let n = 1; n < N; n++) {
    // an (n+1)-gram (a, w...) seen at all adds one to the continuation count of w...
    for (const k of raw[n + 1].keys()) {
      const tail = k % V ** n;
      cont[n].set(tail, (cont[n].get(tail) ?? 0) + 1);
    }
  }
  // per order and kind (raw at the top of a model, continuation below):
  // the discount, the context totals and the number of distinct followers
  const level = (counts, n) => {
    let n1 = 0;
    let n2 = 0;
    const total = new Map(); // context -> sum of counts
    const types = new Map(); // context -> distinct ids after it
    for (const [k, c] of counts) {
      if (c === 1) n1++;
      else if (c === 2) n2++;
      const ctx = Math.floor(k / V);
      total.set(ctx, (total.get(ctx) ?? 0) + c);
      types.set(ctx, (types.get(ctx) ?? 0) + 1);
    }
    return { counts, D: n1 > 0 ? n1 / (n1 + 2 * n2) : 0, total, types, n }; // no singletons: nothing to discount
  };
  const rawLevel = raw.map((c, n) => (n ? level(c, n) : null));
  const contLevel = cont.map((c, n) => (n && n < N ? level(c, n) : null));

  // probability of seq[end] after the n - 1 ids before it, at level n of a model whose top is `top`
  const at = (seq, end, n, top) => {
    const L = n === top ? rawLevel[n] : contLevel[n];
    const lower = n === 1 ? 1 / V : at(seq, end, n - 1, top);
    const ctx = n === 1 ? 0 : key(seq, end, n - 1);
    const total = L.total.get(ctx) ?? 0;
    if (total === 0) return lower;
    const c = L.counts.get(key(seq, end + 1, n)) ?? 0;
    return Math.max(c - L.D, 0) / total + ((L.D * L.types.get(ctx)) / total) * lower;
  };
  return (seq, end, k) => at(seq, end, k + 1, k + 1);
}

// The mean loss over every window of L ids in the held-out part and every target in it.
function windowLoss(prob, order, L) {
  const starts = heldOut.length - L; // as text_batch draws them: s in [0, size - L)
  // nll[k][t]: -ln p(heldOut[t] | the k ids before it), for the k a window can give
  const nll = [];
  for (let k = 0; k < order; k++) {
    const row = new Float64Array(heldOut.length);
    for (let t = k; t < heldOut.length; t++) row[t] = -Math.log(prob(heldOut, t, k));
    nll.push(row);
  }
  let sum = 0;
  for (let s = 0; s < starts; s++) for (let i = 0; i < L; i++) sum += nll[Math.min(order - 1, i + 1)][s + i + 1];
  return sum / (starts * L);
}

const t0 = performance.now();
const lengths = MULTIPLES.map((m) => m * TEXT.trainLen);
const round = (x) => Math.round(x * 1e4) / 1e4;
const baselines = { uniform: lengths.map(() => round(Math.log(V))) };
for (const n of ORDERS) {
  const model = kneserNey(n);
  baselines[`${n}-gram`] = lengths.map((L) => round(windowLoss(model, n, L)));
  console.log(
    `${n}-gram: ${baselines[`${n}-gram`].join(' / ')} nats per character on windows of ${lengths.join(' / ')}`,
  );
}
const recorded = {
  about:
    'Written by scripts/record/record-lm-baselines.mjs: nats per character on the held-out tenth of web/data/corpus.js (split and ids from the trainer, trainer.corpus()), scored over every window of each of `lengths` as the LM lab scores its models (one value per length). uniform: ln 64; n-gram: interpolated Kneser-Ney of order n fitted to the training part (1-gram: letter frequencies; 2-gram: the current character alone).',
  corpus: {
    file: 'web/data/corpus.js',
    sha256: createHash('sha256').update(text).digest('hex'),
    ids: ids.length,
    trainEnd,
  },
  trainLen: TEXT.trainLen,
  lengths,
  baselines,
};
writeFileSync(out, dataModule('scripts/record/record-lm-baselines.mjs', recorded));
console.log(
  `wrote ${path.relative(root, out)}: ${ids.length} ids, held out from ${trainEnd}, in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
);
