// An author's own code exercise, written as JSON inside <pe-code-exercise>
// (read by own-question.js, never run), checked and made into what the
// widget shows for one of the lesson's (its data and a case generator), so
// Run, Check, the first failing case, slips, credit and reporting are the
// lesson's. The cases' arguments are numbers: fixed ones (the edge cases)
// and ones drawn per learner from the learner's seed, as an exercise's
// draws are (own-exercise.js); the expected value of each is an expression
// in which the core's functions are available by name (core-functions.js),
// so what the learner's Python is compared with is the core's float32
// number, never a formula the author retyped.
//
//   {
//     "title": "RoPE's angle for one pair",             required, the same for every learner
//     "prompt": "Write ... $m\\theta_i$ ...",            required (Markdown, $math$); "tensors": optional
//     "imports": "import math",                         optional: lines above the function
//     "signature": "def angle(m, i, d, base):",         required: one line, its parameters are the arguments
//     "docstring": "...", "starter": "...",             required: the docstring, the body the learner starts from
//     "solution": "...",                                required: the worked solution's body
//     "solution_notes": "...", "hint": "...",           optional
//     "cases": [{ "m": 0, "i": 0, "d": 8, "base": 10000 }],   fixed cases, first (optional)
//     "draws": { "d": { "choice": [64, 128] }, "i": { "int": [0, "d/2 - 1"] }, ... },
//     "let": {...}, "require": [...],                   as an exercise's: computed values, conditions
//     "count": 4,                                       drawn cases after the fixed ones (4 when there are draws)
//     "expected": "rope_angle(m, i, d, base)",          required: a number, or a list:
//                 { "list": "d", "item": "k", "value": "sinusoidal(pos, k, d, base)" }
//     "tolerance": { "abs": 1e-6, "rel": 1e-5 },        required, or { "exact": true } for whole numbers
//     "tolerance_why": "...",                           optional: why it covers float32 against float64
//     "slips": [{ "id": "degrees", "expected": "...", "message": "..." }]
//   }                                                   a slip: what a known mistake returns, and its name
//
// Compiled once with the core: every fixed case and TRIALS draws are
// computed, so an expression undefined at some learner's numbers, a list of
// the wrong length, a parameter no case gives is said at once, with its
// field. Only the learner's Python can show whether the solution is right:
// tests run the docs' examples' solutions on real Pyodide.
import { coreFunctions } from './core-functions.js';
import { authorInline, authorBlocks, placeholdersOf, choicesOf } from './author-text.js';
import { checkObject, textField, listField, rendered, fieldError, kindOf } from './own-question.js';
import { expression, newName, readDraw, readCondition, readNamed, evaluate, drawNumbers } from './own-exercise.js';
import { TRIALS, valuesText } from './own-exercise.js';
import { parameterNames } from '../python/code-check.js';
import { seededRandom, deriveSeed } from './random.js';

const FIELDS = [
  'title',
  'prompt',
  'tensors',
  'imports',
  'signature',
  'docstring',
  'starter',
  'solution',
  'solution_notes',
  'hint',
  'cases',
  'draws',
  'let',
  'require',
  'count',
  'expected',
  'tolerance',
  'tolerance_why',
  'slips',
];
const SIGNATURE = /^def [A-Za-z_]\w*\(.*\):$/;
const SLIP_ID = /^[a-z0-9-]{1,40}$/;
const MAX_CASES = 24;
const MAX_LIST = 4096;
const TEXTS = ['prompt', 'tensors', 'hint', 'solution_notes', 'tolerance_why'];

// a number, or a list read as { list, item, value }
function readExpected(value, path, names) {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    checkObject(value, ['list', 'item', 'value'], path);
    const length = expression(value.list, `${path}.list`, names);
    const item = newName(textField(value.item, `${path}.item`), `${path}.item`, names);
    return { length, item, value: expression(value.value, `${path}.value`, [...names, item]) };
  }
  return { value: expression(value, path, names) };
}

function computeExpected(spec, path, values, functions) {
  if (!spec.length) return checkedNumber(evaluate(spec.value, path, values, functions), path, values);
  const n = evaluate(spec.length, `${path}.list`, values, functions);
  if (!Number.isInteger(n) || n < 0 || n > MAX_LIST)
    throw fieldError(
      `${path}.list`,
      `gives ${n} (with ${valuesText(values)}); a list's length is a whole number from 0 to ${MAX_LIST}`,
    );
  return Array.from({ length: n }, (_, k) => {
    const at = { ...values, [spec.item]: k };
    return checkedNumber(evaluate(spec.value, `${path}.value`, at, functions), `${path}.value`, at);
  });
}

function checkedNumber(x, path, values) {
  if (!Number.isFinite(x))
    throw fieldError(path, `gives ${x} (with ${valuesText(values)}); a case's value is a number`);
  return x;
}

/**
 * A code exercise's tolerance, the lesson's (scripts/lesson/code-exercise.mjs)
 * and an author's: { abs, rel } (each a number from 0, one at least) or
 * { exact: true }. Throws a fieldError naming what is wrong.
 */
export function readTolerance(t) {
  checkObject(t, ['abs', 'rel', 'exact'], 'tolerance');
  if (t.exact !== undefined) {
    if (t.exact !== true || Object.keys(t).length !== 1)
      throw fieldError('tolerance', 'is { "exact": true } alone, or { "abs": x, "rel": y }');
    return { exact: true };
  }
  const out = {};
  for (const k of ['abs', 'rel'])
    if (t[k] !== undefined) {
      if (!(typeof t[k] === 'number' && Number.isFinite(t[k]) && t[k] >= 0))
        throw fieldError(`tolerance.${k}`, `must be a number from 0; got ${kindOf(t[k])}`);
      out[k] = t[k];
    }
  if (!Object.keys(out).length) throw fieldError('tolerance', 'needs "abs" or "rel" (or "exact": true)');
  return out;
}

function readDefinition(definition) {
  const d = checkObject(definition, FIELDS, '');
  const text = (field, required = true) => textField(d[field], field, { required });
  const signature = text('signature').trim();
  if (!SIGNATURE.test(signature))
    throw fieldError('signature', `must be one line "def name(params):"; got ${JSON.stringify(signature)}`);
  const params = parameterNames(signature);
  if (!params.length) throw fieldError('signature', 'has no parameters: the cases are its arguments');
  if (new Set(params).size !== params.length) throw fieldError('signature', 'names a parameter twice');
  const docstring = text('docstring');
  if (docstring.includes('"""')) throw fieldError('docstring', 'must not hold """ (it is written inside them)');
  const spec = {
    signature,
    params,
    imports: text('imports', false) ?? '',
    docstring,
    starter: text('starter'),
    solution: text('solution'),
    texts: { title: text('title'), ...Object.fromEntries(TEXTS.map((f) => [f, text(f, f === 'prompt')])) },
  };
  for (const f of ['title', ...TEXTS])
    if (spec.texts[f] !== null && (placeholdersOf(spec.texts[f]).length || choicesOf(spec.texts[f]).length))
      throw fieldError(
        f,
        "is the same for every learner (each learner's numbers are the cases): it shows no {{values}}",
      );

  const names = [];
  spec.draws = readNamed(d.draws, 'draws', names, readDraw);
  spec.lets = readNamed(d.let, 'let', names, expression);
  spec.require = (d.require === undefined ? [] : listField(d.require, 'require', 0, 20)).map((c, k) =>
    readCondition(c, `require[${k}]`, names),
  );
  // the fixed cases give the parameters; a computed value may use only those there
  spec.fixed = (d.cases === undefined ? [] : listField(d.cases, 'cases', 0, MAX_CASES)).map((c, k) => {
    checkObject(c, params, `cases[${k}]`);
    for (const p of params) {
      if (c[p] === undefined) throw fieldError(`cases[${k}].${p}`, 'is missing: a case gives every parameter');
      if (typeof c[p] !== 'number' || !Number.isFinite(c[p]))
        throw fieldError(`cases[${k}].${p}`, `must be a number; got ${kindOf(c[p])}`);
    }
    return c;
  });
  spec.count = d.count ?? (spec.draws.length ? 4 : 0);
  if (!Number.isInteger(spec.count) || spec.count < 0 || spec.count > MAX_CASES)
    throw fieldError('count', `must be a whole number from 0 to ${MAX_CASES}; got ${kindOf(d.count)}`);
  if (spec.count && !spec.draws.length) throw fieldError('count', 'asks for drawn cases, and there are no draws');
  if (spec.fixed.length + spec.count < 1) throw fieldError('cases', 'there are no cases: give cases, or draws');
  if (spec.fixed.length + spec.count > MAX_CASES)
    throw fieldError(
      'count',
      `makes ${spec.fixed.length + spec.count} cases with the fixed ones; at most ${MAX_CASES}`,
    );
  if (spec.count)
    for (const p of params)
      if (!names.includes(p))
        throw fieldError(
          'draws',
          `give the parameter ${p} (a draw or a computed value named ${p}) for the drawn cases`,
        );

  if (d.expected === undefined) throw fieldError('expected', 'is missing: what the function returns, as an expression');
  // the parameters (a fixed case gives them), the draws and the computed values
  const scope = [...new Set([...params, ...names])];
  spec.expected = readExpected(d.expected, 'expected', scope);
  if (d.tolerance === undefined)
    throw fieldError('tolerance', 'is missing: { "abs": x, "rel": y }, or { "exact": true } for whole numbers');
  spec.tolerance = readTolerance(d.tolerance);
  const ids = [];
  spec.slips = (d.slips === undefined ? [] : listField(d.slips, 'slips', 0, 20)).map((s, k) => {
    const path = `slips[${k}]`;
    checkObject(s, ['id', 'expected', 'message'], path);
    const id = textField(s.id, `${path}.id`);
    if (!SLIP_ID.test(id)) throw fieldError(`${path}.id`, 'is lowercase letters, digits and dashes');
    if (ids.includes(id)) throw fieldError(`${path}.id`, `${id} is named twice`);
    ids.push(id);
    return {
      id,
      expected: readExpected(s.expected, `${path}.expected`, scope),
      message: textField(s.message, `${path}.message`),
    };
  });
  return spec;
}

// the computed values (let) of a fixed case, from the parameters it gives
function withLets(spec, values, functions) {
  const v = { ...values };
  for (const item of spec.lets) v[item.name] = evaluate(item, `let.${item.name}`, v, functions);
  return v;
}

// one case from its values (parameters, draws, computed values): the
// arguments, the expected value, what each slip returns; `where` names a
// fixed case in what an author is told
function caseOf(spec, v, functions, where = null) {
  try {
    const slips = {};
    for (const [k, s] of spec.slips.entries())
      slips[s.id] = computeExpected(s.expected, `slips[${k}].expected`, v, functions);
    return {
      args: spec.params.map((p) => v[p]),
      expected: computeExpected(spec.expected, 'expected', v, functions),
      slips,
    };
  } catch (error) {
    if (where && error.field !== undefined) error.message = `${error.message} in ${where}`;
    throw error;
  }
}

function makeGenerator(spec) {
  return {
    cases(pe, random) {
      const functions = coreFunctions(pe);
      const out = spec.fixed.map((c, k) => caseOf(spec, withLets(spec, c, functions), functions, `cases[${k}]`));
      // a drawn case: the learner's numbers (draws, let, require), then its values from them
      for (let n = 0; n < spec.count; n++) out.push(caseOf(spec, drawNumbers(spec, random, functions), functions));
      return out;
    },
  };
}

/**
 * Checks a code exercise's definition and makes what <pe-code-exercise>
 * shows: { data (the fields and HTML a lesson's code exercise has),
 * titleText, generator: { cases(pe, random) } }. `pe` is the core (every
 * fixed case and TRIALS draws are computed with it). Throws a fieldError
 * naming the field.
 */
export function compileCodeExercise(definition, { pe }) {
  const spec = readDefinition(definition);
  const block = (f) => (spec.texts[f] === null ? '' : rendered(authorBlocks, spec.texts[f], f));
  const data = {
    title: rendered(authorInline, spec.texts.title, 'title'),
    imports: spec.imports,
    signature: spec.signature,
    docstring: spec.docstring,
    starter: spec.starter,
    solution: spec.solution,
    tolerance: spec.tolerance,
    html: {
      prompt: block('prompt'),
      tensors: block('tensors'),
      tolerance: block('tolerance_why'),
      hint: block('hint'),
      notes: block('solution_notes'),
    },
    slips: spec.slips.map((s, k) => ({ id: s.id, html: rendered(authorInline, s.message, `slips[${k}].message`) })),
  };
  const generator = makeGenerator(spec);
  for (let k = 0; k < TRIALS; k++) generator.cases(pe, seededRandom(deriveSeed(0x5eed, `trial ${k}`)));
  return { data, titleText: spec.texts.title, generator };
}
