// An author's own exercise (web/lib/questions/own-question.js reads it from the
// element's JSON or markup), checked and made into a generator like those of
// web/exercises/ ({ generate(pe, random) }: the same prompt, parts, hint,
// solution and reveal), so <pe-exercise> shows, judges, scores and reports it
// exactly as it does the lesson's. Numbers are drawn per learner from the
// learner's seed; answers are expressions in web/lib/questions/expression.js's
// language, computed with the core's functions by name (core-functions.js).
//
//   {
//     "title": "The angle RoPE gives one pair",          required: what it asks, in a few words
//     "draws": {                                          the learner's numbers, drawn in this order
//       "d": { "choice": [64, 128] },                     one of these
//       "i": { "int": [0, "d/2 - 1"] },                   a whole number from low to high (step: 1 unless given)
//       "m": { "int": [10, 500] },
//       "b": { "range": [0.5, 2], "digits": 1 }           a number from low to high, rounded to digits (2 unless given)
//     },                                                  bounds may be expressions of the draws before
//     "let": { "theta": "rope_angle(m, i, d)" },          computed values, in order, for the texts and answers
//     "require": ["theta >= 1"],                          conditions the draw must meet (drawn again until it does)
//     "prompt": "A head of size $d = {{d}}$ ...",         required; {{name}} shows a value, {{name:3}} with 3 decimals
//     "answer": "theta",                                  required (or "parts"): an expression
//     "type": "number",                                   number (default) or integer (exactly this whole number)
//     "tolerance": { "rel": 0.001 },                      or { "abs": 0.005 }; default: answers.js's
//     "unit": "radians", "digits": 3, "label": "$m\\theta_i$ =",
//     "slips": [{ "answer": "theta * 180 / pi", "message": "That is in degrees ..." }],
//     "parts": [{ "answer": ..., "type", "tolerance", "unit", "digits", "label", "slips" }, ...],
//     "hint": "...",                                      optional
//     "solution": "... $= {{theta:4}}$",                  required: the worked solution
//     "asks": "number",                                   number (default), prediction or bug
//     "reveal": { "sample": "relative-bias-t5", "params": { "num_buckets": "n" }, "caption": "..." }
//   }                                                     reveal: a live sample of the registered lesson
//
// Everything is checked when the exercise is compiled, and the exercise is
// drawn 24 times then, so what would go wrong for some learner (a formula
// undefined at some numbers, a condition never met, an answer its own
// solution would not match) is said at once, with its field, to the author.
import { parseExpression, evaluateExpression } from './expression.js';
import { FUNCTION_SIGNATURES, coreFunctions } from './core-functions.js';
import { authorInline, authorBlocks, placeholdersOf, choicesOf, fillPlaceholders, shownNumber } from './author-text.js';
import { checkObject, textField, listField, rendered, fieldError, kindOf } from './own-question.js';
import { judgePart, drawExercise } from './answers.js';
import { seededRandom, deriveSeed } from './random.js';
import { quizNumber } from './quiz-text.js';

const FIELDS = [
  'title',
  'draws',
  'let',
  'require',
  'prompt',
  'answer',
  'type',
  'tolerance',
  'unit',
  'digits',
  'label',
  'slips',
  'parts',
  'hint',
  'solution',
  'asks',
  'reveal',
];
const PART_FIELDS = ['answer', 'type', 'tolerance', 'unit', 'digits', 'label', 'slips'];
const DRAW_KINDS = ['int', 'choice', 'range'];
const ASKS = ['number', 'prediction', 'bug'];
const NAME = /^[A-Za-z][A-Za-z0-9_]{0,31}$/;
const COMPARISON = /(<=|>=|==|!=|<|>)/;
/** Draws tried to meet `require` before the exercise gives up (and the trials say so). */
export const MAX_TRIES = 200;
/** Draws tried when the exercise is compiled. */
export const TRIALS = 24;
const MAX_PARTS = 8;

// ------------------------------------------------------------------ reading the definition

// an expression field (a string, or a number written as one), parsed over `names`
export function expression(value, path, names) {
  const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
  if (typeof text !== 'string' || !text.trim())
    throw fieldError(path, `must be an expression (text such as "2*pi*m"); got ${kindOf(value)}`);
  const r = parseExpression(text, {
    names: Object.fromEntries(names.map((n) => [n, {}])),
    functions: FUNCTION_SIGNATURES,
    maxLength: 1000,
  });
  if (!r.ok) throw fieldError(path, `${JSON.stringify(text)} does not read: ${r.message}`);
  return { text, expr: r.expr };
}

// a name of a draw or a computed value
export function newName(name, path, taken) {
  if (!NAME.test(name)) throw fieldError(path, 'is not a name: a letter, then letters, digits or _');
  if (name === 'pi' || name === 'e' || Object.hasOwn(FUNCTION_SIGNATURES, name))
    throw fieldError(
      path,
      `${name} is the ${name === 'pi' || name === 'e' ? 'constant' : 'core function'} ${name}; choose another name`,
    );
  if (taken.includes(name)) throw fieldError(path, `${name} is named twice`);
  return name;
}

export function readDraw(spec, path, names) {
  checkObject(spec, [...DRAW_KINDS, 'step', 'digits'], path);
  const kinds = DRAW_KINDS.filter((k) => spec[k] !== undefined);
  if (kinds.length !== 1)
    throw fieldError(
      path,
      `needs exactly one of int, choice or range; got ${kinds.length ? kinds.join(' and ') : 'none'}`,
    );
  const kind = kinds[0];
  if (kind === 'choice') {
    const list = listField(spec.choice, `${path}.choice`, 1, 1000);
    list.forEach((v, k) => {
      if (typeof v !== 'number' || !Number.isFinite(v))
        throw fieldError(`${path}.choice[${k}]`, `must be a number; got ${kindOf(v)}`);
    });
    if (spec.step !== undefined || spec.digits !== undefined)
      throw fieldError(path, 'a choice takes no step or digits');
    return { kind, list };
  }
  const bounds = listField(spec[kind], `${path}.${kind}`, 2, 2).map((b, k) =>
    expression(b, `${path}.${kind}[${k}]`, names),
  );
  const draw = { kind, bounds };
  if (kind === 'int') {
    if (spec.digits !== undefined) throw fieldError(`${path}.digits`, 'is for a range; an int is whole');
    draw.step = spec.step ?? 1;
    if (!Number.isInteger(draw.step) || draw.step < 1)
      throw fieldError(`${path}.step`, `must be a whole number from 1; got ${kindOf(spec.step)}`);
  } else {
    if (spec.step !== undefined) throw fieldError(`${path}.step`, 'is for an int');
    draw.digits = spec.digits ?? 2;
    if (!Number.isInteger(draw.digits) || draw.digits < 0 || draw.digits > 6)
      throw fieldError(`${path}.digits`, `must be a whole number from 0 to 6; got ${kindOf(spec.digits)}`);
  }
  return draw;
}

export function readCondition(text, path, names) {
  if (typeof text !== 'string')
    throw fieldError(path, `must be a condition such as "ratio >= 1.5"; got ${kindOf(text)}`);
  const pieces = text.split(COMPARISON);
  if (pieces.length < 3)
    throw fieldError(
      path,
      `${JSON.stringify(text)} compares nothing: write a condition such as "ratio >= 1.5" or "1 <= x < 10"`,
    );
  if (pieces.some((piece, k) => k % 2 === 0 && !piece.trim()))
    throw fieldError(
      path,
      `${JSON.stringify(text)} is not a condition: each comparison needs a side on its left and right`,
    );
  const sides = pieces.filter((_, k) => k % 2 === 0).map((side) => expression(side.trim(), path, names));
  const ops = pieces.filter((_, k) => k % 2 === 1);
  return { text, sides, ops };
}

// a field's path inside `path` ('' at the top: a single-part exercise's own fields)
const at = (path, key) => (path ? `${path}.${key}` : key);

function readPart(p, path, names) {
  checkObject(p, PART_FIELDS, path);
  const part = { answer: expression(p.answer, at(path, 'answer'), names) };
  part.type = p.type ?? 'number';
  if (part.type !== 'number' && part.type !== 'integer')
    throw fieldError(at(path, 'type'), `must be number or integer; got ${kindOf(p.type)}`);
  if (p.tolerance !== undefined) {
    checkObject(p.tolerance, ['rel', 'abs'], at(path, 'tolerance'));
    const keys = Object.keys(p.tolerance);
    const v = p.tolerance[keys[0]];
    if (keys.length !== 1 || !(typeof v === 'number' && Number.isFinite(v) && v >= 0))
      throw fieldError(at(path, 'tolerance'), 'must be { "rel": x } or { "abs": x } with one number x from 0');
    if (part.type === 'integer')
      throw fieldError(at(path, 'tolerance'), 'an integer answer is exact: it takes no tolerance');
    part.tolerance = { [keys[0]]: v };
  }
  if (p.digits !== undefined) {
    if (!Number.isInteger(p.digits) || p.digits < 0 || p.digits > 10)
      throw fieldError(at(path, 'digits'), `must be a whole number from 0 to 10; got ${kindOf(p.digits)}`);
    part.digits = p.digits;
  }
  part.unit = textField(p.unit, at(path, 'unit'), { required: false });
  part.label = textField(p.label, at(path, 'label'), { required: false });
  part.slips = (p.slips === undefined ? [] : listField(p.slips, at(path, 'slips'), 0, 20)).map((s, k) => {
    const where = at(path, `slips[${k}]`);
    checkObject(s, ['answer', 'message', 'when'], where);
    return {
      answer: expression(s.answer, `${where}.answer`, names),
      message: textField(s.message, `${where}.message`),
      // a slip that only some numbers make (a key after the query, not before)
      when: s.when === undefined ? null : readCondition(s.when, `${where}.when`, names),
    };
  });
  return part;
}

// every {{name}} in a text names a draw or a computed value, and every
// {{condition ? a | b}} reads (its condition kept in `conditions`, by its text)
function checkPlaceholders(text, path, names, conditions) {
  if (text === null) return;
  for (const condition of choicesOf(text))
    if (!conditions.has(condition)) conditions.set(condition, readCondition(condition, path, names));
  for (const name of placeholdersOf(text))
    if (!names.includes(name))
      throw fieldError(path, `{{${name}}} names no draw or computed value (there are ${names.join(', ') || 'none'})`);
}

// The entries of a block of named values (draws, let), in order: each name
// new, each value read by `read` with the names before it in scope.
export function readNamed(block, field, names, read) {
  if (block === undefined) return [];
  checkObject(block, Object.keys(block), field);
  return Object.entries(block).map(([name, value]) => {
    const path = `${field}.${name}`;
    const entry = { name: newName(name, path, names), ...read(value, path, names) };
    names.push(name);
    return entry;
  });
}

function readDefinition(definition, samples) {
  const d = checkObject(definition, FIELDS, '');
  const names = []; // the names defined so far: each entry may use those before it
  const draws = readNamed(d.draws, 'draws', names, readDraw);
  const lets = readNamed(d.let, 'let', names, expression);
  const require = (d.require === undefined ? [] : listField(d.require, 'require', 0, 20)).map((c, k) =>
    readCondition(c, `require[${k}]`, names),
  );
  const single = PART_FIELDS.filter((f) => d[f] !== undefined);
  let parts;
  if (d.parts !== undefined) {
    if (single.length) throw fieldError(single[0], 'belongs in each of "parts" when there are parts');
    parts = listField(d.parts, 'parts', 1, MAX_PARTS).map((p, k) => readPart(p, `parts[${k}]`, names));
  } else {
    if (d.answer === undefined) throw fieldError('answer', 'is missing (or give "parts")');
    const own = Object.fromEntries(single.map((f) => [f, d[f]]));
    parts = [readPart(own, '', names)];
  }
  const conditions = new Map();
  const texts = {
    title: textField(d.title, 'title'),
    prompt: textField(d.prompt, 'prompt'),
    hint: textField(d.hint, 'hint', { required: false }),
    solution: textField(d.solution, 'solution'),
  };
  checkPlaceholders(texts.prompt, 'prompt', names, conditions);
  checkPlaceholders(texts.hint, 'hint', names, conditions);
  checkPlaceholders(texts.solution, 'solution', names, conditions);
  if (placeholdersOf(texts.title).length)
    throw fieldError('title', 'is the same for every learner: it shows no {{values}}');
  parts.forEach((p, k) => {
    const path = d.parts !== undefined ? `parts[${k}]` : '';
    checkPlaceholders(p.label, `${path ? `${path}.` : ''}label`, names, conditions);
    p.slips.forEach((s, j) =>
      checkPlaceholders(s.message, `${path ? `${path}.` : ''}slips[${j}].message`, names, conditions),
    );
  });
  const asks = d.asks ?? 'number';
  if (!ASKS.includes(asks)) throw fieldError('asks', `must be one of ${ASKS.join(', ')}; got ${kindOf(d.asks)}`);
  let reveal = null;
  if (d.reveal !== undefined) {
    checkObject(d.reveal, ['sample', 'params', 'caption'], 'reveal');
    const sample = textField(d.reveal.sample, 'reveal.sample');
    if (samples && !Object.hasOwn(samples, sample))
      throw fieldError('reveal.sample', `the registered lesson has no sample "${sample}"`);
    if (!samples) throw fieldError('reveal.sample', 'shows a sample of the lesson, and this page registers none');
    const params =
      d.reveal.params === undefined ? {} : checkObject(d.reveal.params, Object.keys(d.reveal.params), 'reveal.params');
    reveal = {
      sample,
      params: Object.entries(params).map(([k, v]) => ({ name: k, ...expression(v, `reveal.params.${k}`, names) })),
      caption: textField(d.reveal.caption, 'reveal.caption', { required: false }),
    };
    checkPlaceholders(reveal.caption, 'reveal.caption', names, conditions);
  }
  return { draws, lets, require, parts, texts, asks, reveal, conditions, single: d.parts === undefined };
}

// ------------------------------------------------------------------ drawing

export const valuesText = (values) =>
  Object.entries(values)
    .map(([k, v]) => `${k} = ${shownNumber(v)}`)
    .join(', ');

export function evaluate(item, path, values, functions) {
  const r = evaluateExpression(item.expr, values, { functions, subject: JSON.stringify(item.text) });
  if (!r.ok)
    throw fieldError(
      path,
      `${r.message.replace(/\.$/, '')}${Object.keys(values).length ? ` (with ${valuesText(values)})` : ''}`,
    );
  return r.value;
}

function drawValue(draw, path, random, values, functions) {
  if (draw.kind === 'choice') return draw.list[Math.floor(random() * draw.list.length)];
  const [lo, hi] = draw.bounds.map((b, k) => evaluate(b, `${path}.${draw.kind}[${k}]`, values, functions));
  if (!(lo <= hi))
    throw fieldError(
      `${path}.${draw.kind}`,
      `low ${shownNumber(lo)} is above high ${shownNumber(hi)}${Object.keys(values).length ? ` (with ${valuesText(values)})` : ''}`,
    );
  if (draw.kind === 'range') {
    const scale = 10 ** draw.digits;
    return Math.round((lo + (hi - lo) * random()) * scale) / scale;
  }
  const first = Math.ceil(lo / draw.step);
  const last = Math.floor(hi / draw.step);
  if (first > last)
    throw fieldError(
      `${path}.int`,
      `holds no whole number${draw.step > 1 ? ` in steps of ${draw.step}` : ''} from ${shownNumber(lo)} to ${shownNumber(hi)}`,
    );
  return draw.step * (first + Math.floor(random() * (last - first + 1)));
}

const compare = {
  '<=': (a, b) => a <= b,
  '>=': (a, b) => a >= b,
  '<': (a, b) => a < b,
  '>': (a, b) => a > b,
  '==': (a, b) => a === b,
  '!=': (a, b) => a !== b,
};

function meets(condition, path, values, functions) {
  const v = condition.sides.map((s) => evaluate(s, path, values, functions));
  return condition.ops.every((op, k) => compare[op](v[k], v[k + 1]));
}

// what Show solution prints: an integer as it is; a number to its digits
// (which the trials then hold to the tolerance: a learner told "3 decimal
// places" must be right with 3), else the shortest text it judges right
function solutionText(answer) {
  if (answer.type === 'integer') return String(answer.value);
  if (answer.digits !== undefined) return quizNumber(answer.value, answer.digits);
  const random = seededRandom(1);
  for (let p = 4; p <= 17; p++) {
    const text = String(Number(answer.value.toPrecision(p)));
    if (judgePart({ answer }, text, random).right) return text;
  }
  return String(answer.value);
}

/**
 * One learner's numbers: `spec`'s draws, then its computed values (let),
 * drawn again until every `require` holds (MAX_TRIES at most, then a
 * fieldError naming require). -> { name: value } of the draws and lets.
 */
export function drawNumbers(spec, random, functions) {
  for (let tries = 0; tries < MAX_TRIES; tries++) {
    const v = {};
    for (const draw of spec.draws) v[draw.name] = drawValue(draw, `draws.${draw.name}`, random, v, functions);
    for (const item of spec.lets) v[item.name] = evaluate(item, `let.${item.name}`, v, functions);
    if (spec.require.every((c, k) => meets(c, `require[${k}]`, v, functions))) return v;
  }
  throw fieldError(
    'require',
    `no draw of ${MAX_TRIES} met ${spec.require.map((c) => JSON.stringify(c.text)).join(' and ')}`,
  );
}

function makeGenerator(spec) {
  return {
    asks: spec.asks,
    generate(pe, random) {
      const functions = coreFunctions(pe);
      const values = drawNumbers(spec, random, functions);
      const holds = (condition) => meets(spec.conditions.get(condition), 'text', values, functions);
      const fill = (text) => (text === null ? null : fillPlaceholders(text, values, holds));
      const parts = spec.parts.map((p, k) => {
        const path = spec.single ? '' : `parts[${k}].`;
        const value = evaluate(p.answer, `${path}answer`, values, functions);
        if (p.type === 'integer' && !Number.isInteger(value))
          throw fieldError(
            `${path}answer`,
            `gives ${shownNumber(value)} (with ${valuesText(values)}), not a whole number; an integer answer must be one`,
          );
        const answer = { type: p.type, value };
        if (p.tolerance) answer.tolerance = p.tolerance;
        if (p.unit !== null) answer.unit = p.unit;
        if (p.digits !== undefined) answer.digits = p.digits;
        return {
          label: fill(p.label) ?? undefined,
          answer,
          slips: p.slips.flatMap((s, j) =>
            !s.when || meets(s.when, `${path}slips[${j}].when`, values, functions)
              ? [
                  {
                    value: evaluate(s.answer, `${path}slips[${j}].answer`, values, functions),
                    message: fill(s.message),
                  },
                ]
              : [],
          ),
          solutionValue: solutionText(answer),
        };
      });
      const x = {
        markdown: true,
        prompt: fill(spec.texts.prompt),
        parts,
        hint: fill(spec.texts.hint),
        solution: fill(spec.texts.solution),
        numbers: Object.fromEntries(spec.draws.map((d) => [d.name, values[d.name]])),
      };
      if (spec.reveal) {
        const params = {};
        for (const p of spec.reveal.params) params[p.name] = evaluate(p, `reveal.params.${p.name}`, values, functions);
        x.reveal = { sample: spec.reveal.sample, params, caption: fill(spec.reveal.caption) ?? undefined };
      }
      return x;
    },
  };
}

// every text of a drawn exercise rendered once: a formula the typesetter does not know is named now
function renderAll(x, single) {
  rendered(authorBlocks, x.prompt, 'prompt');
  if (x.hint !== null) rendered(authorBlocks, x.hint, 'hint');
  rendered(authorBlocks, x.solution, 'solution');
  x.parts.forEach((p, k) => {
    const path = single ? '' : `parts[${k}].`;
    if (p.label) rendered(authorInline, p.label, `${path}label`);
    p.slips.forEach((s, j) => rendered(authorInline, s.message, `${path}slips[${j}].message`));
  });
  if (x.reveal?.caption) rendered(authorInline, x.reveal.caption, 'reveal.caption');
}

/**
 * Checks an exercise's definition and makes its generator: { title (HTML),
 * titleText, asks, generator }. `pe` is the core (the definition is drawn
 * TRIALS times with it); `samples` the registered lesson's samples (for a
 * reveal), or null. Throws a fieldError naming the field.
 */
export function compileExercise(definition, { pe, samples = null }) {
  const spec = readDefinition(definition, samples);
  const generator = makeGenerator(spec);
  for (let k = 0; k < TRIALS; k++) {
    const x = drawExercise(generator, pe, seededRandom(deriveSeed(0x5eed, `trial ${k}`)));
    renderAll(x, spec.single);
    x.parts.forEach((p, i) => {
      if (!judgePart(p, p.solutionValue, seededRandom(k)).right)
        throw fieldError(
          spec.single ? 'answer' : `parts[${i}].answer`,
          `its value as the solution shows it, ${p.solutionValue}, is not judged right (with ${valuesText(x.numbers)}): widen the tolerance or give more digits`,
        );
    });
  }
  return {
    title: rendered(authorInline, spec.texts.title, 'title'),
    titleText: spec.texts.title,
    asks: spec.asks,
    generator,
  };
}
