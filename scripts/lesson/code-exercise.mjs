// A code exercise's definition (lessons/README.md, "Code exercises"): plain
// data, one YAML file per exercise in <lesson>/code-exercises/; an author's
// own carries the same fields as JSON (web/lib/questions/own-code-exercise.js).
// Read here for scripts/build/build-lesson.mjs; checked by checkCodeExercise,
// which lists every problem rather than stopping at the first.
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import yaml from 'js-yaml';
import { parameterNames } from '../../web/lib/python/code-check.js';
import { readTolerance } from '../../web/lib/questions/own-code-exercise.js';

/** Each field a definition may have: true if required. */
export const CODE_EXERCISE_FIELDS = {
  section: true, // the section it is written for
  imports: false, // lines above the function (import math)
  signature: true, // def name(params):
  docstring: true, // the function's docstring, without quotes
  prompt: true, // what to write (Markdown, $math$)
  tensors: true, // how the lists map to the PyTorch tensors of the lesson
  starter: true, // the function's body the learner starts from
  cases: true, // web/code-cases/<cases>.js: cases(pe, random) -> [{ args, expected, slips }]
  tolerance: true, // { abs, rel } or { exact: true }
  tolerance_why: true, // how the tolerance follows from float32 against float64
  slips: true, // [{ id, message }]: known mistakes, matched by the cases' slip values
  hint: true,
  solution: true, // the worked solution's body
  solution_notes: true, // why it is right
};

/** Every definition in `dir` ({ name: data }); a file that does not parse fails, naming it. */
export function readCodeExercises(dir) {
  const out = {};
  if (!existsSync(dir)) return out;
  for (const f of readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .sort()) {
    try {
      out[f.slice(0, -5)] = yaml.load(readFileSync(path.join(dir, f), 'utf8'));
    } catch (error) {
      throw new Error(`${path.join(path.basename(dir), f)}: YAML does not parse: ${error.message}`);
    }
  }
  return out;
}

/** The problems of one definition (empty when it is sound); `caseModules` by name. */
export function checkCodeExercise(def, caseModules) {
  const problems = [];
  if (def === null || typeof def !== 'object' || Array.isArray(def)) return ['a definition is a mapping of fields'];
  for (const [field, required] of Object.entries(CODE_EXERCISE_FIELDS))
    if (required && (def[field] === undefined || def[field] === '')) problems.push(`${field} is missing`);
  for (const field of Object.keys(def))
    if (!Object.hasOwn(CODE_EXERCISE_FIELDS, field))
      problems.push(`unknown field ${field} (${Object.keys(CODE_EXERCISE_FIELDS).join(', ')})`);
  if (def.signature !== undefined && !/^def [A-Za-z_]\w*\(.*\):$/.test(def.signature))
    problems.push(`signature must be one line "def name(params):", got ${JSON.stringify(def.signature)}`);
  else if (def.signature && !parameterNames(def.signature).length) problems.push('signature has no parameters');
  for (const field of ['docstring', 'starter', 'solution', 'prompt', 'hint'])
    if (def[field] !== undefined && typeof def[field] !== 'string') problems.push(`${field} must be text`);
  if (typeof def.docstring === 'string' && def.docstring.includes('"""')) problems.push('docstring must not hold """');
  // the rule an author's code exercise follows too (own-code-exercise.js)
  if (def.tolerance !== undefined)
    try {
      readTolerance(def.tolerance);
    } catch (error) {
      problems.push(
        `tolerance must be { abs, rel } (non-negative numbers) or { exact: true }, got ${JSON.stringify(def.tolerance)} (${error.message})`,
      );
    }
  if (def.slips !== undefined) {
    if (!Array.isArray(def.slips)) problems.push('slips must be a list of { id, message }');
    else
      for (const s of def.slips)
        if (!s || typeof s.id !== 'string' || !/^[a-z0-9-]+$/.test(s.id) || typeof s.message !== 'string')
          problems.push(`slip ${JSON.stringify(s)} needs an id (lowercase, digits, dashes) and a message`);
  }
  if (def.cases !== undefined && typeof caseModules[def.cases]?.cases !== 'function')
    problems.push(`no case generator web/code-cases/${def.cases}.js exporting cases()`);
  else if (def.cases !== undefined && caseModules[def.cases].section && caseModules[def.cases].section !== def.section)
    problems.push(
      `web/code-cases/${def.cases}.js is written for section ${caseModules[def.cases].section}, not ${def.section}`,
    );
  return problems;
}
