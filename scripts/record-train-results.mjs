// Records what the training lab shows, for the lesson's prose: every task x
// encoding trained at the lab's default configuration with the wasm core in
// Node (the same builds and seeds as <train-lab>), then token accuracy at
// 1x, 2x and 4x the training length. Writes
// lessons/positional-encoding/train-results.json, which web/numbers/train-lab.js
// turns into the numbers the ablation section quotes.
//
//   node scripts/record-train-results.mjs [--steps 1500]     (about 6 minutes on 2 cores)
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { loadPosenc, TRAIN_ENCODINGS as ENCODINGS } from '../web/posenc.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'lessons/positional-encoding/train-results.json');
const i = process.argv.indexOf('--steps');
const steps = i > 0 ? Number(process.argv[i + 1]) : 1500;
if (!Number.isInteger(steps) || steps < 100 || steps % 100) throw new Error('--steps must be a multiple of 100');

const TASKS = ['reverse', 'sort', 'shift', 'copy']; // the order the lesson discusses them
const SAMPLES = 256;
const pe = await loadPosenc({ simd: true, trainer: true });
const results = {};
const started = performance.now();
let config = null;
for (const task of TASKS) {
  results[task] = {};
  for (const encoding of ENCODINGS) {
    const t = pe.createTrainer({ task, encoding });
    config ??= { ...t.config, task: undefined, encoding: undefined };
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
    const h = t.lossHistory();
    const tail = h.slice(-50);
    results[task][encoding] = {
      acc1x: at(L).accuracy,
      acc2x: at(2 * L).accuracy,
      acc4x: at(4 * L).accuracy,
      reason: at(2 * L).reason ?? null,
      stepsTo99,
      finalLoss: tail.reduce((a, b) => a + b, 0) / tail.length,
    };
    t.delete();
    const r = results[task][encoding];
    const pct = (x) => (x === null ? '  -  ' : `${(100 * x).toFixed(1).padStart(5)}`);
    console.log(`${task.padEnd(8)} ${encoding.padEnd(11)} 1x ${pct(r.acc1x)}  2x ${pct(r.acc2x)}  4x ${pct(r.acc4x)}  loss ${r.finalLoss.toFixed(3)}  99% at ${r.stepsTo99 ?? 'never'}  (${msPerStep.toFixed(1)} ms/step)`);
  }
}
delete config.task;
delete config.encoding;
writeFileSync(
  out,
  `${JSON.stringify(
    {
      about: 'Written by scripts/record-train-results.mjs: the lab defaults trained in Node with the SIMD trainer build; accuracy on 256 fixed sequences per length.',
      steps,
      samples: SAMPLES,
      config,
      results,
    },
    null,
    1,
  )}\n`,
);
console.log(`wrote ${path.relative(root, out)} in ${((performance.now() - started) / 1000).toFixed(0)} s`);
