// Judging a typed formula against the exercise's (web/lib/questions/expression.js):
// both evaluated at random points, as WeBWorK does, so every equivalent form
// counts.

import { evaluateExpression } from './expression-eval.js';

/** A value drawn from a domain { min, max, integer?, even? } (even implies integer). */
function draw(domain, random, name) {
  const { min, max } = domain ?? {};
  if (!(Number.isFinite(min) && Number.isFinite(max) && min <= max))
    throw new TypeError(`sameFunction: the domain of ${name} needs finite min <= max`);
  if (!domain.integer && !domain.even) return min + (max - min) * random();
  const step = domain.even ? 2 : 1;
  const lo = Math.ceil(min / step);
  const hi = Math.floor(max / step);
  if (lo > hi) throw new TypeError(`sameFunction: the domain of ${name} holds no ${domain.even ? 'even ' : ''}integer`);
  return step * (lo + Math.floor(random() * (hi - lo + 1)));
}

/**
 * Is the learner's formula the reference's function? At `points` points x
 * drawn from `domains` (random: floats in [0, 1), seeded by the caller),
 * skipping points where the reference r is undefined or infinite, the
 * learner's l must be defined and
 *
 *   |l(x) − r(x)| ≤ abs + rel · max(|l(x)|, |r(x)|)
 *
 * (a relative tolerance, with an absolute floor for values near zero, as in
 * WeBWorK's test points). Formulas that differ agree at random points only
 * by accident, so this accepts every equivalent form and, in practice, only
 * those.
 *
 * → { same: true } or { same: false, at, learnerValue, referenceValue,
 *   message? }, the message when the learner's formula is undefined at `at`
 *   (then learnerValue is NaN). A learner variable the reference does not
 *   use takes values from its domain too; one without a domain is not part
 *   of this answer. Throws for a reference variable without a domain, or a
 *   reference undefined at every point tried (the exercise's bugs).
 */
export function sameFunction(learner, reference, domains, random, { points = 12, rel = 1e-9, abs = 1e-12 } = {}) {
  const names = [...new Set([...reference.variables, ...learner.variables])];
  for (const name of reference.variables)
    if (!Object.hasOwn(domains, name)) throw new TypeError(`sameFunction: no domain for ${name}`);
  const stray = learner.variables.find((name) => !Object.hasOwn(domains, name));
  if (stray)
    return {
      same: false,
      at: {},
      learnerValue: NaN,
      referenceValue: NaN,
      message: `This answer does not depend on ${stray}.`,
    };
  const tries = Math.max(1, points) * 20;
  let compared = 0;
  for (let t = 0; t < tries && compared < points; t++) {
    const at = {};
    for (const name of names) at[name] = draw(domains[name], random, name);
    const r = evaluateExpression(reference, at);
    if (!r.ok) continue;
    const l = evaluateExpression(learner, at);
    if (!l.ok) return { same: false, at, learnerValue: NaN, referenceValue: r.value, message: l.message };
    if (!(Math.abs(l.value - r.value) <= abs + rel * Math.max(Math.abs(l.value), Math.abs(r.value)))) {
      return { same: false, at, learnerValue: l.value, referenceValue: r.value };
    }
    compared++;
  }
  if (compared === 0)
    throw new Error(`sameFunction: the reference ${reference.plain} is undefined at all ${tries} points tried`);
  return { same: true };
}
