// The lesson's live code samples, each with the parameter sets the PyTorch
// golden test runs (the defaults, then each entry of the runner's `cases`),
// and the exact Python source for each set ({{param}} filled in).
//
//   node scripts/lesson-samples.mjs      prints them as JSON (read by
//                                        tests/fixtures/make_samples.py)
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import MarkdownIt from 'markdown-it';
import { pyLiteral } from '../web/lib/pyformat.js';

/** A {{name}} parameter placeholder in a sample's code. */
export const PLACEHOLDER = /\{\{([a-z_][a-z0-9_]*)\}\}/gi;

/** A sample's default parameter values, { name: default }. */
export const defaultsOf = (params) => Object.fromEntries(Object.entries(params ?? {}).map(([k, spec]) => [k, spec.default]));

/** The sample's code with each placeholder written as a Python literal of its value. */
export const fillPlaceholders = (code, params, values) => code.replace(PLACEHOLDER, (_, n) => pyLiteral(params[n], values[n]));

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const lessonDir = path.join(root, 'lessons/positional-encoding');

export async function collectSamples() {
  const md = new MarkdownIt();
  const out = [];
  for (const file of readdirSync(lessonDir).filter((f) => /^\d+-.*\.md$/.test(f)).sort()) {
    const tokens = md.parse(readFileSync(path.join(lessonDir, file), 'utf8'), {});
    for (const t of tokens) {
      const m = t.type === 'fence' && t.info.trim().match(/^python\s+sample=([a-z0-9-]+)$/);
      if (!m) continue;
      const id = m[1];
      const runner = (await import(pathToFileURL(path.join(root, 'web/samples', `${id}.js`)).href)).default;
      const params = runner.params ?? {};
      const defaults = defaultsOf(params);
      const sets = [defaults, ...(runner.cases ?? []).map((c) => ({ ...defaults, ...c }))];
      out.push({
        id,
        file,
        cases: sets.map((values) => ({
          values,
          source: fillPlaceholders(t.content, params, values),
        })),
      });
    }
  }
  return out;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.stdout.write(JSON.stringify(await collectSamples()));
}
