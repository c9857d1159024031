// A parsed formula's value (web/lib/questions/expression.js): evaluated over the
// tree (expression-parse.js's nodes), never by eval; where it is undefined
// or too large, a sentence that says where, quoting the part of the formula
// and the values that make it so.

import { collect } from './expression-parse.js';
import { plainOf, wrapIf } from './expression-tex.js';

// An undefined or infinite value on its way out of evaluate(); never escapes.
class Undefined {
  constructor(message) {
    this.message = message;
  }
}

const formatNumber = (v) =>
  Object.is(v, -0) ? '0' : Number.isInteger(v) && Math.abs(v) < 1e15 ? String(v) : String(Number(v.toPrecision(6)));

/**
 * The value of a parsed formula where its variables take the values of
 * `scope` ({ name: number }): { ok: true, value } with value finite, or
 * { ok: false, message } saying what is undefined and where, as a sentence
 * ("Your answer divides by zero: (d - d) is 0 when d = 64."). `functions`
 * ({ name: (...args) => number }) computes the calls of several arguments
 * (the core's, web/lib/questions/core-functions.js); one that throws makes the formula
 * undefined, with its message.
 */
export function evaluateExpression(expr, scope, { functions = null, subject = 'Your answer' } = {}) {
  if (!expr?.ast) return { ok: false, message: 'There is no formula to evaluate.' };
  const values = scope !== null && typeof scope === 'object' ? scope : {};
  try {
    return { ok: true, value: evaluate(expr.ast, values, functions) };
  } catch (e) {
    if (e instanceof Undefined) return { ok: false, message: `${subject} ${e.message}.` };
    throw e;
  }
}

function evaluate(n, scope, functions) {
  // (d - d) is 0 when d = 64
  const quote = (m) => wrapIf(plainOf(m), m, ['sum', 'product', 'negate']);
  const when = (m) => {
    const names = [...new Set(collect(m, []))];
    return names.length ? ` when ${names.map((name) => `${name} = ${formatNumber(scope[name])}`).join(', ')}` : '';
  };
  // "divides by zero: (d - d) is 0 when d = 64", "…: x = -3", or only what for a literal
  const is = (m, v, what) => {
    if (m.type === 'variable') throw new Undefined(`${what}: ${m.name} = ${formatNumber(v)}`);
    if (m.type === 'number' || (m.type === 'negate' && m.arg.type === 'number')) throw new Undefined(what);
    throw new Undefined(`${what}: ${quote(m)} is ${formatNumber(v)}${when(m)}`);
  };
  const value = (m) => evaluate(m, scope, functions);
  let v;
  switch (n.type) {
    case 'number':
      v = n.value;
      break;
    case 'constant':
      v = n.name === 'pi' ? Math.PI : Math.E;
      break;
    case 'variable':
      v = Object.hasOwn(scope, n.name) ? scope[n.name] : undefined;
      if (typeof v !== 'number' || !Number.isFinite(v)) throw new Undefined(`needs a number for ${n.name}`);
      break;
    case 'negate':
      v = -value(n.arg);
      break;
    case 'sum':
      v = 0;
      n.terms.forEach((t, k) => (v = n.signs[k] === '-' ? v - value(t) : v + value(t)));
      break;
    case 'product':
      v = value(n.factors[0]);
      for (let k = 1; k < n.factors.length; k++) {
        const f = value(n.factors[k]);
        if (n.ops[k] === '/' && f === 0) is(n.factors[k], 0, 'divides by zero');
        v = n.ops[k] === '/' ? v / f : v * f;
      }
      break;
    case 'power': {
      const b = value(n.base);
      const x = value(n.exponent);
      if (b === 0 && x < 0) is(n.base, b, 'raises 0 to a negative power');
      if (b < 0 && !Number.isInteger(x))
        is(n.base, b, `raises a negative number to the power ${formatNumber(x)}, which is not a whole number`);
      v = b ** x;
      break;
    }
    default: {
      // call
      if (n.args) {
        const args = n.args.map(value);
        const fn = functions && Object.hasOwn(functions, n.name) ? functions[n.name] : null;
        if (!fn) throw new Undefined(`calls ${n.name}, which is not available here`);
        try {
          v = fn(...args);
        } catch (e) {
          throw new Undefined(`has no value at ${n.name}(${args.map(formatNumber).join(', ')}): ${e.message}`);
        }
        break;
      }
      const x = value(n.arg);
      if (n.name === 'ln' && x === 0) is(n.arg, x, 'takes ln of zero');
      if (n.name === 'ln' && x < 0) is(n.arg, x, 'takes ln of a negative number');
      if (n.name === 'sqrt' && x < 0) is(n.arg, x, 'takes the square root of a negative number');
      v = { sin: Math.sin, cos: Math.cos, tan: Math.tan, exp: Math.exp, ln: Math.log, sqrt: Math.sqrt, abs: Math.abs }[
        n.name
      ](x);
    }
  }
  if (Number.isNaN(v)) throw new Undefined(`has no value at ${quote(n)}${when(n)}`);
  if (!Number.isFinite(v)) throw new Undefined(`gives a number too large to compute at ${quote(n)}${when(n)}`);
  return v;
}
