// Records what the training lab shows, for the lesson's prose: every task x
// encoding x seed trained at the lab's default configuration with the wasm
// core in Node (the same builds as <train-lab>, whose seed setting gives each
// seed's run), then token accuracy at 1x, 2x and 4x the training length.
// Writes lessons/positional-encoding/train-results.json, which
// web/numbers/train-lab.js turns into the numbers section 07 quotes: each
// cell as its mean and range over the seeds, so that no claim rests on one run.
//
//   node scripts/record-train-results.mjs [--seeds 1,2,3] [--steps 1500] [--jobs 2] [--tasks reverse,sort,shift,copy] [--out file]
//
// The (task, seed) runs are shared out to --jobs child processes (one core
// each: the trainer is single-threaded): seeds 1,2,3 took 661 s with 2 processes
// on 2 cores, about 7 minutes of CPU per seed.
import { writeFileSync } from 'node:fs';
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { loadPosenc, TRAIN_ENCODINGS as ENCODINGS } from '../web/posenc.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ALL_TASKS = ['reverse', 'sort', 'shift', 'copy']; // the order the lesson discusses them
const SAMPLES = 256;
const MEASURES = ['acc1x', 'acc2x', 'acc4x', 'stepsTo99', 'finalLoss'];

const { values: args } = parseArgs({
  options: {
    seeds: { type: 'string', default: '1,2,3' },
    steps: { type: 'string', default: '1500' },
    jobs: { type: 'string', default: String(Math.min(2, availableParallelism())) },
    tasks: { type: 'string', default: ALL_TASKS.join(',') },
    out: { type: 'string', default: path.join(root, 'lessons/positional-encoding/train-results.json') },
    child: { type: 'boolean', default: false }, // internal: run the jobs the parent sends
  },
});
const steps = Number(args.steps);
if (!Number.isInteger(steps) || steps < 100 || steps % 100) throw new Error('--steps must be a multiple of 100');

// One task at one seed, every encoding: the measures per encoding, and the config.
function trainOne(pe, task, seed) {
  const byEncoding = {};
  let config = null;
  for (const encoding of ENCODINGS) {
    const t = pe.createTrainer({ task, encoding, seed });
    config ??= { ...t.config };
    const L = t.config.trainLen;
    let stepsTo99 = null;
    const t0 = performance.now();
    for (let s = 0; s < steps; s += 100) {
      t.step(100);
      if (stepsTo99 === null && t.evaluate(L, SAMPLES) >= 0.99) stepsTo99 = s + 100;
    }
    const msPerStep = (performance.now() - t0) / steps;
    const at = (n) => {
      try {
        return { accuracy: t.evaluate(n, SAMPLES) };
      } catch (e) {
        return { accuracy: null, reason: e.message };
      }
    };
    const tail = t.lossHistory().slice(-50);
    byEncoding[encoding] = {
      acc1x: at(L).accuracy,
      acc2x: at(2 * L).accuracy,
      acc4x: at(4 * L).accuracy,
      reason: at(2 * L).reason ?? null,
      stepsTo99,
      finalLoss: tail.reduce((a, b) => a + b, 0) / tail.length,
      msPerStep,
    };
    t.delete();
  }
  return { byEncoding, config };
}

if (args.child) {
  const pe = await loadPosenc({ simd: true, trainer: true });
  process.on('message', ({ task, seed }) => {
    const r = trainOne(pe, task, seed);
    process.send({ task, seed, ...r });
  });
  process.on('disconnect', () => process.exit(0));
} else {
  const seeds = args.seeds.split(',').map(Number);
  if (!seeds.length || seeds.some((s) => !Number.isInteger(s) || s < 0) || new Set(seeds).size !== seeds.length) {
    throw new Error('--seeds must be distinct non-negative integers, e.g. 1,2,3');
  }
  const tasks = args.tasks.split(',');
  for (const t of tasks) if (!ALL_TASKS.includes(t)) throw new Error(`--tasks: unknown task ${t}`);
  const jobs = Math.max(1, Math.min(Number(args.jobs) || 1, tasks.length * seeds.length));
  const started = performance.now();

  // Jobs of one (task, seed) each, handed to whichever child is free.
  const queue = seeds.flatMap((seed) => tasks.map((task) => ({ task, seed })));
  const done = [];
  const pct = (x) => (x === null ? '  -  ' : `${(100 * x).toFixed(1).padStart(5)}`);
  await Promise.all(
    Array.from({ length: jobs }, () => {
      const child = fork(fileURLToPath(import.meta.url), ['--child', '--steps', String(steps)]);
      return new Promise((resolve, reject) => {
        const next = () => {
          const job = queue.shift();
          if (job) child.send(job);
          else child.disconnect();
        };
        child.on('message', (m) => {
          done.push(m);
          for (const [encoding, r] of Object.entries(m.byEncoding)) {
            console.log(
              `${m.task.padEnd(8)} ${encoding.padEnd(11)} seed ${m.seed}  1x ${pct(r.acc1x)}  2x ${pct(r.acc2x)}  4x ${pct(r.acc4x)}  loss ${r.finalLoss.toFixed(3)}  99% at ${r.stepsTo99 ?? 'never'}  (${r.msPerStep.toFixed(1)} ms/step)`,
            );
          }
          next();
        });
        child.on('error', reject);
        child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`a training process exited with ${code}`))));
        next();
      });
    }),
  );

  // Per cell: every seed's values (in the order of `seeds`), then the mean,
  // lowest and highest of each measure over the seeds. stepsTo99 is null for a
  // seed that never reached 99%, and its mean is null unless every seed did.
  const stats = (values) => {
    if (values.some((v) => v === null)) {
      const reached = values.filter((v) => v !== null);
      return { mean: null, min: reached.length ? Math.min(...reached) : null, max: null };
    }
    return { mean: values.reduce((a, b) => a + b, 0) / values.length, min: Math.min(...values), max: Math.max(...values) };
  };
  const results = {};
  let config = null;
  for (const task of tasks) {
    results[task] = {};
    for (const encoding of ENCODINGS) {
      const runs = seeds.map((seed) => {
        const m = done.find((d) => d.task === task && d.seed === seed);
        config ??= m.config;
        const { msPerStep, ...r } = m.byEncoding[encoding];
        return { seed, ...r };
      });
      const cell = { reason: runs[0].reason, seeds: runs.map(({ reason, ...r }) => r) };
      for (const k of MEASURES) cell[k] = stats(runs.map((r) => r[k]));
      results[task][encoding] = cell;
    }
  }
  delete config.task;
  delete config.encoding;
  delete config.seed;
  const seconds = (performance.now() - started) / 1000;
  writeFileSync(
    args.out,
    `${JSON.stringify(
      {
        about:
          'Written by scripts/record-train-results.mjs: the lab defaults trained in Node with the SIMD trainer build, once per seed; accuracy on 256 fixed sequences per length. Per cell: every seed\'s values under "seeds", and the mean, min and max of each measure over them (stepsTo99: null where a seed never reached 99%; its mean and max are then null, its min the fastest seed that did).',
        steps,
        samples: SAMPLES,
        seeds,
        config,
        results,
      },
      null,
      1,
    )}\n`,
  );
  console.log(`wrote ${path.relative(root, args.out)}: ${tasks.length} tasks x ${ENCODINGS.length} encodings x ${seeds.length} seeds, ${jobs} processes, in ${seconds.toFixed(0)} s`);
}
