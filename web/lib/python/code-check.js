// The judge of <pe-code-exercise> (pure: no DOM, no Python, so the Node
// tests run it): the values a learner's function returned for each case,
// against what the core computed, case by case; the first failing case with
// where it first differs; a named slip when the returned value is what a
// known mistake gives.
//
// An exercise's `tolerance` is { abs, rel } (a number passes when
// |got − expected| ≤ abs + rel·|expected|) or { exact: true } (whole
// numbers). The core computes in float32 as PyTorch does and Python in
// float64: each exercise's `why` says how its tolerance covers the float32
// roundings and stays far below what any slip changes.

/** The parameter names of `def name(a, b=1.0, *, c=2):` -> ['a', 'b', 'c']. */
export function parameterNames(signature) {
  const m = /^\s*def\s+[A-Za-z_]\w*\s*\(([^)]*)\)/.exec(signature ?? '');
  if (!m) return [];
  return m[1]
    .split(',')
    .map((p) =>
      p
        .trim()
        .replace(/[:=].*$/, '')
        .trim(),
    )
    .filter((p) => p && p !== '*' && p !== '/');
}

const isNumber = (x) => typeof x === 'number';

function describe(x) {
  if (Array.isArray(x)) return `a list of ${x.length}`;
  if (isNumber(x)) return Number.isInteger(x) ? 'an int' : 'a float';
  if (x && typeof x === 'object' && x.float) return `the float ${x.float}`;
  if (x && typeof x === 'object' && x.type === 'too large') return 'a value too large to compare';
  if (x && typeof x === 'object' && x.type) return `a ${x.type} (${x.repr ?? ''})`;
  if (x === null) return 'None';
  return typeof x;
}

/**
 * Where `got` first differs from `expected` (depth first, in index order), or
 * null when it matches: { path: [i, j, ...], expected, got, reason }.
 */
export function firstDifference(expected, got, tolerance, path = []) {
  if (Array.isArray(expected)) {
    if (!Array.isArray(got))
      return { path, expected, got, reason: `expected a list of ${expected.length}, got ${describe(got)}` };
    if (got.length !== expected.length)
      return {
        path,
        expected,
        got,
        reason: `expected a list of ${expected.length}, got a list of ${got.length}`,
      };
    for (let i = 0; i < expected.length; i++) {
      const d = firstDifference(expected[i], got[i], tolerance, [...path, i]);
      if (d) return d;
    }
    return null;
  }
  if (!isNumber(got)) return { path, expected, got, reason: `expected a number, got ${describe(got)}` };
  if (tolerance.exact) {
    return got === expected ? null : { path, expected, got, reason: 'not equal' };
  }
  const bound = (tolerance.abs ?? 0) + (tolerance.rel ?? 0) * Math.abs(expected);
  return Math.abs(got - expected) <= bound ? null : { path, expected, got, reason: 'too far' };
}

/**
 * The verdict over all cases: { right, failing: { index, case, got, diff,
 * slip? } | null, error? } where `returns` are the values the learner's
 * function gave (one per case, shorter if it raised) and `raised` the
 * exception's case index (or null).
 */
export function judgeCases(cases, returns, { tolerance, slips = [] }, raised = null) {
  for (let i = 0; i < cases.length; i++) {
    if (i >= returns.length) {
      if (raised === i) return { right: false, failing: { index: i, case: cases[i], raised: true } };
      return { right: false, failing: { index: i, case: cases[i], missing: true } };
    }
    const diff = firstDifference(cases[i].expected, returns[i], tolerance);
    if (!diff) continue;
    // a known mistake gives exactly this (within the same tolerance)?
    const slip = slips.find(
      (s) =>
        cases[i].slips?.[s.id] !== undefined &&
        firstDifference(cases[i].expected, cases[i].slips[s.id], tolerance) &&
        !firstDifference(cases[i].slips[s.id], returns[i], tolerance),
    );
    return { right: false, failing: { index: i, case: cases[i], got: returns[i], diff, slip: slip ?? null } };
  }
  return { right: true, failing: null };
}

// ------------------------------------------------------------------ text
// Values as Python would print them (short floats), for the learner; with
// `float`, whole numbers too are floats (1.0), as the core's always are.
export function pyValue(x, digits = 8, float = false) {
  if (Array.isArray(x)) return `[${x.map((v) => pyValue(v, digits, float)).join(', ')}]`;
  if (typeof x === 'boolean') return x ? 'True' : 'False';
  if (typeof x === 'string') return `'${x.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  if (isNumber(x)) {
    if (Number.isInteger(x) && Math.abs(x) < 1e16) return float ? `${x}.0` : String(x);
    const s = Number(x.toPrecision(digits)).toString();
    return /e/.test(s) ? s.replace(/e([+-])(\d)$/, 'e$10$2') : s;
  }
  if (x === null) return 'None';
  if (x && typeof x === 'object') return x.repr ?? x.float ?? `<${x.type}>`;
  return String(x);
}

/** Python float literal for an argument: 10000 → 10000.0 where the signature's default is a float. */
export function pyArgument(x) {
  return pyValue(x, 17);
}

/** "[2][0]" for a path into nested lists; "" for the value itself. */
export const pathText = (path) => path.map((i) => `[${i}]`).join('');

/**
 * An exercise's code around a body (its starter or its solution): the
 * imports, the signature, the docstring, then the body indented into the
 * function.
 */
export function composeCode({ imports = '', signature, docstring }, body) {
  const indent = (text) =>
    text
      .split('\n')
      .map((line) => (line.trim() ? `    ${line}` : ''))
      .join('\n');
  const doc = `    """${docstring.split('\n').join('\n    ')}\n    """`;
  return `${imports ? `${imports}\n\n\n` : ''}${signature}\n${doc}\n${indent(body)}\n`;
}
