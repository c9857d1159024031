// The argument checks of the API (web/posenc.js): each throws a TypeError
// (wrong kind of value) or a RangeError (out of range) whose message starts
// with the function's name and names the argument, carrying `kind`
// (inputError); unwrap() throws the core's own errors the same way.

/**
 * An error about a value that was given (an argument, an attribute, what a
 * learner typed), not a bug: a `Class` (Error, TypeError, RangeError) that
 * carries `kind`, its class's name, as the core's own errors do
 * (bindings.cpp). Every check of the API throws one; a widget shows exactly
 * these in its box (PeElement), and anything else, a bug, goes on to the
 * console. (Also the widgets'.)
 */
export function inputError(message, Class = Error) {
  const error = new Class(message);
  error.kind = Class.name;
  return error;
}
export const typeError = (message) => inputError(message, TypeError);
export const rangeError = (message) => inputError(message, RangeError);

/** A text as a message quotes it: in double quotes, cut at 40 characters. (Also the widgets'.) */
export function quote(text) {
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
}

/** d_model, d-model -> dModel: a core argument or an attribute as JS spells it. (Also the widgets'.) */
export function camelCase(name) {
  return name.replace(/[_-]([a-z0-9])/g, (_, c) => c.toUpperCase());
}

/** A value as an error message names it: its kind, and its length or text. */
export function describe(v) {
  if (typeof v === 'string') return `the string ${quote(v)}`;
  if (v === null) return 'null';
  if (Array.isArray(v)) return `an Array of length ${v.length}`;
  if (Object.prototype.toString.call(v) === '[object HeapArray]') return `a HeapArray of length ${v.length}`;
  if (ArrayBuffer.isView(v)) return `a ${v.constructor.name} of length ${v.length}`;
  if (typeof v === 'object') return 'an object';
  if (typeof v === 'number') return String(v);
  return `${typeof v} ${String(v)}`;
}

export function number(fn, name, v) {
  if (typeof v !== 'number') throw typeError(`${fn}: ${name} must be a number, got ${describe(v)}`);
  if (!Number.isFinite(v)) throw rangeError(`${fn}: ${name} must be a finite number, got ${v}`);
  return v;
}

export function integer(fn, name, v) {
  number(fn, name, v);
  if (!Number.isInteger(v)) throw rangeError(`${fn}: ${name} must be an integer, got ${v}`);
  return v;
}

export function size(fn, name, v, lo, hi) {
  integer(fn, name, v);
  if (v < lo || v > hi) throw rangeError(`${fn}: ${name} must be between ${lo} and ${hi}, got ${v}`);
  return v;
}

export function boolean(fn, name, v) {
  if (typeof v !== 'boolean') throw typeError(`${fn}: ${name} must be true or false, got ${describe(v)}`);
  return v;
}

export function options(fn, opts, known) {
  if (opts === undefined || opts === null) return {};
  if (typeof opts !== 'object' || Array.isArray(opts) || ArrayBuffer.isView(opts)) {
    throw typeError(`${fn}: options must be an object, got ${describe(opts)}`);
  }
  for (const key of Object.keys(opts)) {
    if (!known.includes(key)) {
      throw typeError(`${fn}: unknown option '${key}' (known: ${known.join(', ')})`);
    }
  }
  return opts;
}

// The core returns its errors as values (bindings.cpp, errors.h): throw
// them here, prefixed with the function's name. The core spells arguments
// as the C++ does (rotary_dim) and lists the ones its message names in
// error.names; JS callers know them as options (rotaryDim), so exactly those
// are respelled. error.values keeps the numbers the rule was about.
export function unwrap(fn, result) {
  if (result instanceof Error) {
    let message = result.message;
    for (const name of result.names ?? []) message = message.replaceAll(name, camelCase(name));
    result.detail = message;
    result.message = `${fn}: ${message}`;
    throw result;
  }
  return result;
}

/** v must be one of `names` (a list of the core's, or the API's); `what` starts the message. */
export function oneOf(fn, name, v, names, what = '') {
  if (!names.includes(v)) {
    const list = names.map((n) => `'${n}'`).join(', ');
    throw typeError(`${fn}: ${what}${name} must be one of ${list}, got ${describe(v)}`);
  }
  return v;
}
