// Numbers of the training lab quoted in lessons/positional-encoding/07-extrapolation.md.
// Training 24 models takes minutes, too long for every build of the page, so
// they come from a recorded run of the same core, builds and seeds as
// <train-lab>: lessons/positional-encoding/train-results.json, written by
// `node scripts/record-train-results.mjs`.
//
//   train-<task>-<encoding>-<1x|2x|4x>   token accuracy in %, one decimal ("—" past a learned table)
//   train-<task>-<encoding>-to99         steps until 1x accuracy first reached 99% ("—" if never)
//   train-steps, train-len, train-<2x|4x>-len, train-2x-last, train-d-model, train-layers, train-heads, train-batch
//   train-rope-pairs, train-rope-unturned-pairs   pairs per RoPE head, and those with a wavelength above train-len
import { readFileSync } from 'node:fs';

const recorded = JSON.parse(readFileSync(new URL('../../lessons/positional-encoding/train-results.json', import.meta.url), 'utf8'));
const { results, config, steps } = recorded;

const numbers = {
  'train-steps': () => steps.toLocaleString('en-US'),
  'train-len': () => String(config.trainLen),
  'train-2x-len': () => String(2 * config.trainLen),
  'train-4x-len': () => String(4 * config.trainLen),
  'train-2x-last': () => String(2 * config.trainLen - 1), // the last position at twice the length
  'train-d-model': () => String(config.dModel),
  'train-layers': () => String(config.layers),
  'train-heads': () => String(config.heads),
  'train-batch': () => String(config.batch),
  // RoPE in the trainer: one head of dModel / heads coordinates, base 10000 (cpp/train/transformer.h)
  'train-rope-pairs': () => String(config.dModel / config.heads / 2),
  'train-rope-unturned-pairs': (pe) =>
    String(Array.from(pe.ropeInvFreq(config.dModel / config.heads), (f) => (2 * Math.PI) / f).filter((w) => w > config.trainLen).length),
};
for (const [task, byEncoding] of Object.entries(results)) {
  for (const [encoding, r] of Object.entries(byEncoding)) {
    for (const m of ['1x', '2x', '4x']) {
      const v = r[`acc${m}`];
      numbers[`train-${task}-${encoding}-${m}`] = () => (v === null ? '—' : (100 * v).toFixed(1));
    }
    numbers[`train-${task}-${encoding}-to99`] = () => (r.stepsTo99 === null ? '—' : r.stepsTo99.toLocaleString('en-US'));
  }
}

export default numbers;
