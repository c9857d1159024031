// Records the lesson's language-modelling comparison ("why RoPE won, at this
// scale"): next-character prediction on web/data/corpus.js (the lesson's own
// text, scripts/record/make-corpus.mjs) with each of the six encodings, at equal size,
// steps and data, once per seed. Each run is web/lib/training/train-session.js's
// TrainSession with <train-lab>'s text settings (TEXT there), so a learner who
// re-runs one seed in the page retraces its recorded curve exactly.
//
// Writes web/data/lm-results.js (a module: <train-lab task="text"> draws the
// recorded curves behind a live run; web/numbers/lm-results.js quotes it):
// per encoding every seed's validation-loss curve and final losses, and per
// point the mean, min and max over the seeds.
//
//   node scripts/record/record-lm-results.mjs [--seeds 1,2,3] [--jobs 2]
//
// (encoding, seed) runs are shared out to --jobs child processes.
import { writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { loadPosenc, TRAIN_ENCODINGS as ENCODINGS } from '../../web/posenc.js';
import { TrainSession, TEXT, MODEL, MULTIPLES } from '../../web/lib/training/train-session.js';
import { runPool, parseSeeds } from './seed-runs.mjs';
import { dataModule } from './data-module.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const out = path.join(root, 'web/data/lm-results.js');

const { values: args } = parseArgs({
  options: {
    seeds: { type: 'string', default: '1,2,3' },
    jobs: { type: 'string', default: String(Math.min(2, availableParallelism())) },
    child: { type: 'boolean', default: false }, // internal: run the jobs the parent sends
  },
});
const { default: text } = await import('../../web/data/corpus.js');
const round = (x) => (x === null ? null : Math.round(x * 1e4) / 1e4);

function runOne(pe, encoding, seed) {
  const config = {
    task: 'text',
    encodings: [encoding],
    steps: TEXT.steps,
    seed,
    lr: TEXT.lr,
    trainLen: TEXT.trainLen,
    text,
  };
  const session = new TrainSession(pe, config);
  const t0 = performance.now();
  while (session.runFor(1e9));
  const ms = performance.now() - t0;
  const [r] = session.results;
  const curve = Array.from(r.val, round);
  session.delete();
  return {
    seed,
    curve,
    loss1x: round(r.loss1x),
    loss2x: round(r.loss2x),
    loss4x: round(r.loss4x),
    acc1x: round(r.acc1x),
    trainLoss: round(r.finalLoss),
    seconds: Math.round(ms / 100) / 10,
  };
}

if (args.child) {
  const pe = await loadPosenc({ simd: true, trainer: true });
  process.on('message', ({ encoding, seed }) => process.send({ encoding, ...runOne(pe, encoding, seed) }));
  process.on('disconnect', () => process.exit(0));
} else {
  const seeds = parseSeeds(args.seeds);
  const queue = seeds.flatMap((seed) => ENCODINGS.map((encoding) => ({ encoding, seed })));
  const jobs = Math.max(1, Math.min(Number(args.jobs) || 1, queue.length));
  const started = performance.now();
  const done = await runPool({
    script: fileURLToPath(import.meta.url),
    args: ['--child'],
    queue,
    jobs,
    onResult: (m) =>
      console.log(
        `${m.encoding.padEnd(11)} seed ${m.seed}  validation loss ${m.curve.map((x) => x.toFixed(2)).join(' ')}  | 1x ${m.loss1x} 2x ${m.loss2x ?? '-'} 4x ${m.loss4x ?? '-'}  (${m.seconds} s)`,
      ),
  });

  // mean, min and max over the seeds (null where a seed has no value: a learned table past its rows)
  const stats = (values) =>
    values.some((v) => v === null)
      ? { mean: null, min: null, max: null }
      : {
          mean: round(values.reduce((a, b) => a + b, 0) / values.length),
          min: Math.min(...values),
          max: Math.max(...values),
        };
  const results = {};
  for (const encoding of ENCODINGS) {
    const runs = seeds.map((seed) => {
      const { encoding: _, ...r } = done.find((d) => d.encoding === encoding && d.seed === seed);
      return r;
    });
    const points = runs[0].curve.length;
    const curve = { mean: [], min: [], max: [] };
    for (let i = 0; i < points; i++) {
      const s = stats(runs.map((r) => r.curve[i]));
      for (const k of ['mean', 'min', 'max']) curve[k].push(s[k]);
    }
    results[encoding] = { seeds: runs, curve };
    for (const k of ['loss1x', 'loss2x', 'loss4x', 'acc1x', 'trainLoss'])
      results[encoding][k] = stats(runs.map((r) => r[k]));
  }
  const ids = text.length; // characters; the core counts code points, about the same for this text
  const recorded = {
    about:
      "Written by scripts/record/record-lm-results.mjs: next-character prediction on web/data/corpus.js (the lesson's own text), trained in Node with the SIMD trainer build through web/lib/training/train-session.js, once per encoding and seed. curve: validation loss (nats per character, on TEXT.evalSamples held-out windows) after every TEXT.evalEvery steps; loss1x/2x/4x at the end on windows of 1, 2 and 4 times the training length (null past a learned table); trainLoss: the mean training loss of the last 50 steps.",
    corpus: { file: 'web/data/corpus.js', sha256: createHash('sha256').update(text).digest('hex'), characters: ids },
    config: {
      ...MODEL,
      ...Object.fromEntries(
        ['batch', 'vocab', 'trainLen', 'steps', 'lr', 'evalEvery', 'evalSamples'].map((k) => [k, TEXT[k]]),
      ),
      multiples: MULTIPLES,
    },
    seeds,
    results,
  };
  writeFileSync(out, dataModule('scripts/record/record-lm-results.mjs', recorded));
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `wrote ${path.relative(root, out)}: ${ENCODINGS.length} encodings x ${seeds.length} seeds, ${jobs} processes, in ${seconds.toFixed(0)} s`,
  );
}
