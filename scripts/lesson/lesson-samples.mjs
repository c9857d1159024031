// The lesson's live code samples, each with the parameter sets the PyTorch
// golden test runs (the defaults, then each entry of the runner's `cases`),
// and the exact Python source for each set ({{param}} filled in). The RoPE
// samples also carry RANDOM_SETTINGS[id] seeded random settings a learner can
// reach (`random`: values and source each), recorded apart
// (tests/fixtures/samples_random.json) because they are many.
//
//   node scripts/lesson/lesson-samples.mjs      prints them as JSON (read by
//                                        tests/fixtures/make_samples.py)
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import MarkdownIt from 'markdown-it';
import { pyLiteral } from '../../web/lib/printing/pyformat.js';
import { seededRandom } from '../../web/lib/questions/random.js'; // mulberry32: the same settings on every run

/** A {{name}} parameter placeholder in a sample's code. */
export const PLACEHOLDER = /\{\{([a-z_][a-z0-9_]*)\}\}/gi;

/** A sample's default parameter values, { name: default }. */
export const defaultsOf = (params) =>
  Object.fromEntries(Object.entries(params ?? {}).map(([k, spec]) => [k, spec.default]));

/** The sample's code with each placeholder written as a Python literal of its value. */
export const fillPlaceholders = (code, params, values) =>
  code.replace(PLACEHOLDER, (_, n) => pyLiteral(params[n], values[n]));

/** How many random settings each sample is recorded at, beyond its cases. */
export const RANDOM_SETTINGS = { 'rope-seats': 300, 'rope-vs-additive': 300, 'rope-pairing': 300 };
const RANDOM_SEED = 18;
// Each sample its own stream: RANDOM_SEED mixed with the id's characters.
const seedOf = (id) => [...id].reduce((h, ch) => Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0, RANDOM_SEED);

// A value on the control's grid (min + k * step, as a range input gives it,
// rounded to the step's decimals), uniformly.
function onGrid(random, min, max, step) {
  const k = Math.floor(random() * (Math.floor((max - min) / step + 1e-9) + 1));
  const decimals = (String(step).split('.')[1] ?? '').length;
  return Number((min + k * step).toFixed(decimals));
}

/** `count` settings of a runner's params drawn from `seed`: ints, floats and vector components on their grids. */
export function randomSettings(params, count, seed) {
  const random = seededRandom(seed);
  const draw = (spec) => {
    const step = spec.step ?? (spec.type === 'int' ? (spec.even ? 2 : 1) : 0.01);
    if (spec.type === 'int' || spec.type === 'float') return onGrid(random, spec.min, spec.max, step);
    if (spec.type === 'vector')
      return Array.from({ length: spec.length }, () => onGrid(random, spec.min, spec.max, step));
    return spec.default;
  };
  return Array.from({ length: count }, () =>
    Object.fromEntries(Object.entries(params).map(([k, spec]) => [k, draw(spec)])),
  );
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const lessonDir = path.join(root, 'lessons/positional-encoding');

export async function collectSamples() {
  const md = new MarkdownIt();
  const out = [];
  for (const file of readdirSync(lessonDir)
    .filter((f) => /^\d+-.*\.md$/.test(f))
    .sort()) {
    const tokens = md.parse(readFileSync(path.join(lessonDir, file), 'utf8'), {});
    for (const t of tokens) {
      const m = t.type === 'fence' && t.info.trim().match(/^python\s+sample=([a-z0-9-]+)$/);
      if (!m) continue;
      const id = m[1];
      const runner = (await import(pathToFileURL(path.join(root, 'web/samples', `${id}.js`)).href)).default;
      const params = runner.params ?? {};
      const defaults = defaultsOf(params);
      const sets = [defaults, ...(runner.cases ?? []).map((c) => ({ ...defaults, ...c }))];
      const withSource = (values) => ({ values, source: fillPlaceholders(t.content, params, values) });
      const sample = { id, file, template: t.content, cases: sets.map(withSource) };
      if (RANDOM_SETTINGS[id]) sample.random = randomSettings(params, RANDOM_SETTINGS[id], seedOf(id)).map(withSource);
      out.push(sample);
    }
  }
  return out;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.stdout.write(JSON.stringify(await collectSamples()));
}
