// Typed answers of <pe-exercise>, read and judged (pure: no DOM, so the Node
// tests judge every exercise's answer over many draws).
//
// An exercise part expects one of three kinds of answer, drawn with fresh
// numbers by web/exercises/<generator>.js:
//
//   { type: 'number', value, tolerance: { abs } | { rel }, digits?, unit? }
//       right when |x − value| ≤ abs, or ≤ rel·|value|; the learner may type
//       the number or arithmetic that gives it (2*pi*100), never names
//   { type: 'integer', value, unit? }
//       right when the typed arithmetic gives exactly this whole number
//   { type: 'expression', reference, names, domains }
//       a formula in the variables `names` (web/lib/questions/expression.js's names);
//       right when it agrees with `reference` at random points of `domains`
//       (STACK's and WeBWorK's test), so every equivalent form counts
//
// A part may list slips, answers a learner who made a known mistake would
// give ({ value } for numbers, { expression } for formulas, each with a
// message), so the feedback names the mistake instead of only "wrong".
import { parseExpression, evaluateExpression, sameFunction } from './expression.js';

/** The longest text a learner may type into one part. */
export const MAX_INPUT = 300;

const isNumeric = (answer) => answer.type === 'number' || answer.type === 'integer';

/**
 * What the learner typed, as the page understood it: { ok: true, tex, value?
 * (numbers), expr? (formulas) } or { ok: false, message }. Nothing typed is
 * run: it is parsed by web/lib/questions/expression.js.
 */
export function readAnswer(answer, text) {
  const typed = String(text ?? '');
  if (typed.trim() === '') return { ok: false, empty: true, message: 'Type an answer first.' };
  if (typed.length > MAX_INPUT)
    return {
      ok: false,
      message: `That is ${typed.length.toLocaleString('en-US')} characters long; an answer here has at most ${MAX_INPUT}.`,
    };
  const parsed = parseExpression(typed, { names: isNumeric(answer) ? {} : answer.names, maxLength: MAX_INPUT });
  if (!parsed.ok) return { ok: false, message: parsed.message };
  if (!isNumeric(answer)) return { ok: true, expr: parsed.expr, tex: parsed.expr.tex };
  const evaluated = evaluateExpression(parsed.expr, {});
  if (!evaluated.ok) return { ok: false, message: evaluated.message };
  if (!Number.isFinite(evaluated.value)) return { ok: false, message: 'That does not give a finite number.' };
  return { ok: true, value: evaluated.value, tex: parsed.expr.tex };
}

function closeEnough(answer, x, target) {
  if (answer.type === 'integer') return x === target;
  const t = answer.tolerance ?? { rel: 1e-6 };
  const bound = t.abs !== undefined ? t.abs : t.rel * Math.abs(target);
  // a hair of slack for the decimal the learner typed against the float the core gave
  return Math.abs(x - target) <= bound * (1 + 1e-9) + 1e-12;
}

/**
 * Judges one part: { right, invalid?, message?, slip? }. `random` (floats in
 * [0, 1), seeded by the caller) draws the points where formulas are compared,
 * so the same answer to the same numbers always gets the same verdict.
 */
export function judgePart(part, text, random) {
  const { answer } = part;
  const read = readAnswer(answer, text);
  if (!read.ok) return { right: false, invalid: true, message: read.message, empty: !!read.empty };
  if (isNumeric(answer)) {
    if (closeEnough(answer, read.value, answer.value)) return { right: true, value: read.value };
    const slip = (part.slips ?? []).find((s) => s.value !== undefined && closeEnough(answer, read.value, s.value));
    if (slip) return { right: false, slip: true, message: slip.message, value: read.value };
    if (answer.type === 'integer' && !Number.isInteger(read.value))
      return { right: false, message: 'The answer is a whole number.', value: read.value };
    return {
      right: false,
      value: read.value,
      message:
        answer.type === 'integer'
          ? `${short(read.value)} is not it.`
          : `${short(read.value)} is not within ${toleranceText(answer)} of the answer.`,
    };
  }
  const reference = referenceOf(answer);
  const verdict = sameFunction(read.expr, reference, answer.domains, random);
  if (verdict.same) return { right: true };
  for (const s of part.slips ?? []) {
    if (s.expression === undefined) continue;
    const slipExpr = parseExpression(s.expression, { names: answer.names });
    if (!slipExpr.ok)
      throw new Error(`exercise slip ${JSON.stringify(s.expression)} does not parse: ${slipExpr.message}`);
    if (sameFunction(read.expr, slipExpr.expr, answer.domains, random).same)
      return { right: false, slip: true, message: s.message };
  }
  const named = namedMistake(answer, read.expr, random);
  if (named) return { right: false, slip: true, message: named };
  return { right: false, message: verdict.message ?? differsAt(verdict) };
}

// Two mistakes any formula exercise can meet, named instead of answered with
// a counter-example (issue 46): a number typed where a variable belongs (the
// reference uses `base`, the answer does not: 10000 in its place), and the
// right formula with one variable's sign turned (-θ for θ: a turn the other
// way). Returns a message in the slips' text form, or null.
function namedMistake(answer, learner, random) {
  const reference = referenceOf(answer);
  const tex = (v) => `$${answer.names[v]?.tex ?? v}$`;
  const missing = [...new Set(reference.variables)].filter((v) => !learner.variables.includes(v));
  if (missing.length)
    return `The answer depends on ${missing.map(tex).join(' and ')}, and your formula does not use ${missing.length > 1 ? 'them' : 'it'}: a number in ${missing.length > 1 ? 'their place' : 'its place'} holds for one value only. Type ${missing.map((v) => `\`${v}\``).join(' and ')}.`;
  for (const v of new Set(reference.variables)) {
    const turned = parseExpression(answer.reference.replace(new RegExp(`\\b${v}\\b`, 'g'), `(-${v})`), {
      names: answer.names,
    });
    if (turned.ok && sameWhereDefined(learner, turned.expr, answer.domains, random))
      return `That is the right formula with $-${answer.names[v]?.tex ?? v}$ in place of ${tex(v)}: a sign turned (for an angle, a turn the other way).`;
  }
  return null;
}

// sameFunction, where a reference undefined at every point (base^x with -s
// for s, say) is simply not the learner's formula
function sameWhereDefined(learner, reference, domains, random) {
  try {
    return sameFunction(learner, reference, domains, random).same;
  } catch {
    return false;
  }
}

function referenceOf(answer) {
  const r = parseExpression(answer.reference, { names: answer.names });
  if (!r.ok) throw new Error(`exercise reference ${JSON.stringify(answer.reference)} does not parse: ${r.message}`);
  return r.expr;
}

const short = (x) => (Number.isFinite(x) ? Number(x.toPrecision(6)).toString() : String(x));

// "At d = 64, s = 4 your formula gives 5.1 where the right one gives 4.3."
function differsAt({ at, learnerValue, referenceValue }) {
  if (!at) return '';
  const where = Object.entries(at)
    .map(([k, v]) => `${k} = ${short(v)}`)
    .join(', ');
  return `At ${where}, your formula gives ${short(learnerValue)}, the right one ${short(referenceValue)}.`;
}

const toleranceText = (answer) => {
  const t = answer.tolerance ?? { rel: 1e-6 };
  return t.abs !== undefined ? `±${short(t.abs)}` : `${short(t.rel * 100)}%`;
};

/** How an answer is judged, for the learner: "a number; answers within ±0.005 count". */
export function answerRule(answer) {
  if (answer.type === 'integer') return 'a whole number';
  if (answer.type === 'number')
    return `a number (or arithmetic that gives it); answers within ${toleranceText(answer)} count`;
  const names = Object.keys(answer.names ?? {});
  return `a formula in ${names.join(', ')}; any equivalent form counts`;
}

/**
 * What SCORM and xAPI are told an exercise expects and got: the interaction
 * type (numeric for one number, fill-in for formulas and several parts), the
 * correct pattern (2004's "min[:]max" for a number), the correct value
 * (SCORM 1.2's numeric pattern), and the response.
 */
export function interactionOf(parts, texts, judged) {
  const numeric = parts.length === 1 && isNumeric(parts[0].answer);
  if (numeric) {
    const a = parts[0].answer;
    const t = a.type === 'integer' ? 0 : (a.tolerance?.abs ?? (a.tolerance?.rel ?? 1e-6) * Math.abs(a.value));
    const value = judged[0]?.value;
    return {
      kind: 'numeric',
      correctPattern: `${short(a.value - t)}[:]${short(a.value + t)}`,
      correctValue: short(a.value),
      response: value === undefined ? clean(texts[0]) : short(value),
    };
  }
  const pattern = parts.map((p) =>
    isNumeric(p.answer)
      ? short(p.answer.value)
      : (parseExpression(p.answer.reference, { names: p.answer.names }).expr?.plain ?? p.answer.reference),
  );
  return {
    kind: 'fill-in',
    correctPattern: pattern.map(clean).join('[,]'),
    correctValue: null,
    response: texts.map(clean).join('[,]'),
  };
}

// SCORM's list separator and braces must not come from the learner's text
const clean = (s) =>
  String(s ?? '')
    .replace(/\[[,.:]\]/g, ' ')
    .replace(/[{}]/g, '')
    .slice(0, 120);

/**
 * An exercise as its generator drew it, with each numeric part's slips that
 * the tolerance cannot tell from the right answer (or from an earlier slip)
 * dropped: with some numbers a slip gives the right value, and the feedback
 * must not call a right answer a mistake. The widget and the tests both take
 * exercises through this.
 */
export function drawExercise(generator, pe, random) {
  const x = generator.generate(pe, random);
  for (const part of x.parts) {
    if (!isNumeric(part.answer) || !part.slips) continue;
    const kept = [];
    for (const s of part.slips) {
      if (s.value === undefined || !Number.isFinite(s.value)) continue;
      if (closeEnough(part.answer, s.value, part.answer.value)) continue;
      if (kept.some((k) => closeEnough(part.answer, s.value, k.value))) continue;
      kept.push(s);
    }
    part.slips = kept;
  }
  return x;
}
