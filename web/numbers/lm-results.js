// Numbers of the language-modelling comparison quoted in
// lessons/positional-encoding/07-extrapolation.md ("A small language
// model"). Recorded by `node scripts/record/record-lm-results.mjs` into
// web/data/lm-results.js (the same data <train-lab task="text"> draws behind
// a live run); tests/js/lm-results.test.mjs checks its seeds and its corpus.
//
//   lm-<encoding>-<1x|2x|4x>       validation loss at the end on windows of 1, 2, 4 x lm-len characters,
//                                  mean with the range over the seeds, "1.449 (1.441–1.457)" ("—" past a learned table)
//   lm-<encoding>-at-<step>        the validation loss after <step> steps, the same way
//   lm-<encoding>-<1x|2x|4x>-range the lowest to the highest seed
//   lm-rope-first-lead-end         the last checkpoint up to which RoPE's loss was the lowest of the six in every seed
//   lm-<encoding>-4x-rise-<min|max> how much the loss at 4x exceeded the loss at 1x, the least and the most over the seeds
//   lm-<list>-4x-rise-min          the least rise of any seed of any of the encodings in <list> (joined by '-')
//   lm-seeds, lm-seed-count, lm-steps, lm-len, lm-2x-len, lm-4x-len, lm-batch, lm-chars, lm-val-chars,
//   lm-eval-every, lm-eval-samples, lm-chance (ln 64), lm-lr
//   lm-base-<uniform|1gram|2gram|3gram|4gram>-<1x|2x|4x>  the baselines (web/data/lm-baselines.js, from
//                                  scripts/record/record-lm-baselines.mjs) on windows of 1, 2, 4 x lm-len, "2.602"
//   lm-lowest-two                  the two encodings with the lowest final 1x loss in every seed ("T5 bias and RoPE");
//                                  throws if no two are lowest in every seed
//   lm-gap-<encoding>              paired by seed: its final 1x loss minus the lower of those two in the same seed,
//                                  the least to the most over the seeds, "0.05–0.08" (the seeds share data and initialisation)
//   lm-gap-max                     the largest such gap of any encoding but none
//   lm-below-rope-4x               the encodings whose 4x loss was below RoPE's in every seed ("ALiBi, T5 bias and none")
//   lm-none-gain-2gram             of the no-encoding model's gain over a uniform guess (mean final 1x loss),
//                                  the share the 2-gram baseline already has, in %
import LM from '../data/lm-results.js';
import BASELINES from '../data/lm-baselines.js';
import { ENCODING_LABELS } from '../lib/training/train-session.js';

const { results, config, seeds, corpus } = LM;
if (BASELINES.corpus.sha256 !== corpus.sha256)
  throw new Error(
    'lm-baselines.js and lm-results.js were recorded on different corpora: run scripts/record/record-lm-baselines.mjs',
  );
const LABELS = ENCODING_LABELS;
const ENCODINGS = Object.keys(results);
const f3 = (x) => x.toFixed(3);
const list = (xs) => (xs.length < 2 ? xs.join('') : `${xs.slice(0, -1).join(', ')} and ${xs.at(-1)}`);
const cell = (s) =>
  s.mean === null ? '—' : f3(s.min) === f3(s.max) ? f3(s.mean) : `${f3(s.mean)} (${f3(s.min)}–${f3(s.max)})`;
const range = (s) => (s.mean === null ? '—' : f3(s.min) === f3(s.max) ? f3(s.min) : `${f3(s.min)}–${f3(s.max)}`);

// The checkpoints (1-based index k: after k * evalEvery steps) at which RoPE
// had the lowest validation loss of all six encodings in every seed.
const ropeLeads = (k) =>
  seeds.every((_, i) =>
    ENCODINGS.every((e) => e === 'rope' || results.rope.seeds[i].curve[k] < results[e].seeds[i].curve[k]),
  );
let firstLeadEnd = 0;
while (firstLeadEnd < results.rope.curve.mean.length && ropeLeads(firstLeadEnd)) firstLeadEnd++;

const numbers = {
  'lm-seeds': () => list(seeds),
  'lm-seed-count': () => String(seeds.length),
  'lm-steps': () => config.steps.toLocaleString('en-US'),
  'lm-len': () => String(config.trainLen),
  'lm-2x-len': () => String(2 * config.trainLen),
  'lm-4x-len': () => String(4 * config.trainLen),
  'lm-batch': () => String(config.batch),
  'lm-lr': () => String(config.lr),
  'lm-chars': () => corpus.characters.toLocaleString('en-US'),
  'lm-val-chars': () => Math.floor(corpus.characters / 10).toLocaleString('en-US'),
  'lm-eval-every': () => String(config.evalEvery),
  'lm-eval-samples': () => String(config.evalSamples),
  'lm-chance': () => Math.log(config.vocab).toFixed(2),
  // the RoPE model's parameters, by cpp/train/transformer.h's list: embeddings, per layer
  // two LayerNorms, four d x d projections and the d -> ffn -> d block (ffn = 4d), the final
  // LayerNorm and the output layer; rounded to thousands
  'lm-params': () => {
    const { dModel: d, layers, vocab: V } = config;
    const ffn = 4 * d;
    const perLayer = 2 * 2 * d + 4 * (d * d + d) + (d * ffn + ffn) + (ffn * d + d);
    const n = V * d + layers * perLayer + 2 * d + d * V + V;
    return (Math.round(n / 1000) * 1000).toLocaleString('en-US');
  },
  'lm-rope-first-lead-end': () => {
    if (firstLeadEnd === 0)
      throw new Error('RoPE did not lead at the first checkpoint in every seed: the prose claims it did');
    return (firstLeadEnd * config.evalEvery).toLocaleString('en-US');
  },
};
const rises = (e) => results[e].seeds.map((r) => r.loss4x - r.loss1x);
for (const e of ENCODINGS) {
  if (results[e].loss4x.mean !== null) {
    numbers[`lm-${e}-4x-rise-min`] = () => Math.min(...rises(e)).toFixed(2);
    numbers[`lm-${e}-4x-rise-max`] = () => Math.max(...rises(e)).toFixed(2);
  }
  for (const m of ['1x', '2x', '4x']) {
    numbers[`lm-${e}-${m}`] = () => cell(results[e][`loss${m}`]);
    numbers[`lm-${e}-${m}-range`] = () => range(results[e][`loss${m}`]);
  }
  results[e].curve.mean.forEach((_, k) => {
    const at = (k + 1) * config.evalEvery;
    numbers[`lm-${e}-at-${at}`] = () =>
      cell({ mean: results[e].curve.mean[k], min: results[e].curve.min[k], max: results[e].curve.max[k] });
  });
}

// the baselines, by length
for (const [name, values] of Object.entries(BASELINES.baselines))
  ['1x', '2x', '4x'].forEach((m, k) => {
    numbers[`lm-base-${name.replace('-', '')}-${m}`] = () => f3(values[k]);
  });

// The two encodings lowest at the end in every seed, and each other encoding's gap to the
// lower of them in the same seed (paired: the seeds share batches and initial weights).
const final = (e, i) => results[e].seeds[i].loss1x;
const byLoss = (i) => [...ENCODINGS].sort((a, b) => final(a, i) - final(b, i));
const lowestTwo = byLoss(0).slice(0, 2);
const twoHold = seeds.every((_, i) => new Set([...byLoss(i).slice(0, 2), ...lowestTwo]).size === 2);
const gaps = (e) => seeds.map((_, i) => final(e, i) - Math.min(...lowestTwo.map((b) => final(b, i))));
const f2 = (x) => x.toFixed(2);
const span = (xs) =>
  f2(Math.min(...xs)) === f2(Math.max(...xs)) ? f2(xs[0]) : `${f2(Math.min(...xs))}–${f2(Math.max(...xs))}`;
numbers['lm-lowest-two'] = () => {
  if (!twoHold) throw new Error('no two encodings had the lowest final loss in every seed: the prose claims two did');
  return list(lowestTwo.map((e) => LABELS[e]).sort());
};
for (const e of ENCODINGS) numbers[`lm-gap-${e}`] = () => span(gaps(e));
numbers['lm-gap-max'] = () => f2(Math.max(...ENCODINGS.filter((e) => e !== 'none').flatMap(gaps)));
numbers['lm-below-rope-4x'] = () =>
  list(
    ENCODINGS.filter(
      (e) =>
        results[e].loss4x.mean !== null &&
        seeds.every((_, i) => results[e].seeds[i].loss4x < results.rope.seeds[i].loss4x),
    ).map((e) => LABELS[e]),
  );
numbers['lm-none-gain-2gram'] = () => {
  const [uniform, bigram] = [BASELINES.baselines.uniform[0], BASELINES.baselines['2-gram'][0]];
  return ((100 * (uniform - bigram)) / (uniform - results.none.loss1x.mean)).toFixed(0);
};

numbers['lm-rope-t5-sinusoidal-4x-rise-min'] = () =>
  Math.min(...['rope', 't5', 'sinusoidal'].flatMap(rises)).toFixed(2);

export default numbers;
