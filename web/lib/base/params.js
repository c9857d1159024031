// The one reader of a parameter's text: a widget's attribute (its spec in
// the widget's `static params`), a value typed into a control, a URL
// parameter, and a live sample's parameter (its spec from the lesson). It
// returns { value } or { error }, never throws: the error names the
// parameter, what it must be and what it got, and a control shows it beside
// the box ("; got ..." cut off) while the value in use stays.
//
// A spec: { type: 'int' | 'float' | 'bool' | 'enum' | 'vector' | 'string',
//   default, min, max, even, grid (values lie on min + k·grid), options
//   (enum), length (vector; min and max bound each entry), maxLength,
//   pattern, patternMessage (string) }.
import { quote } from '../../posenc.js';

/** Parses `raw` (text, or null for an absent attribute: the default) by `spec`. */
export function parseParam(name, spec, raw) {
  if (raw === null || raw === undefined) return { value: spec.default };
  const text = String(raw);
  const range = () => {
    const lo = spec.min !== undefined ? ` from ${spec.min}` : '';
    const hi = spec.max !== undefined ? ` to ${spec.max}` : '';
    return `${lo}${hi}`;
  };
  switch (spec.type) {
    case 'int':
    case 'float': {
      const v = text.trim() === '' ? NaN : Number(text);
      const okType = spec.type === 'int' ? Number.isInteger(v) : Number.isFinite(v);
      const inRange = (spec.min === undefined || v >= spec.min) && (spec.max === undefined || v <= spec.max);
      if (!okType || !inRange || (spec.even && v % 2 !== 0) || !onGrid(spec, v)) {
        const kind = spec.type === 'int' ? (spec.even ? 'an even integer' : 'an integer') : 'a number';
        const steps = spec.grid ? ` in steps of ${spec.grid}` : '';
        return { error: `${name} must be ${kind}${range()}${steps}; got ${quote(text)}` };
      }
      return { value: v };
    }
    case 'bool':
      if (text === '' || text === 'true' || text === 'True' || text === name) return { value: true };
      if (text === 'false' || text === 'False') return { value: false };
      return { error: `${name} must be true or false; got ${quote(text)}` };
    case 'enum':
      if (spec.options.includes(text.trim())) return { value: text.trim() };
      return { error: `${name} must be one of ${spec.options.join(', ')}; got ${quote(text)}` };
    case 'vector': {
      // "1,0.5" or, as Python prints a list, "[1, 0.5]"
      const v = text
        .trim()
        .replace(/^\[|\]$/g, '')
        .split(',')
        .map((s) => (s.trim() === '' ? NaN : Number(s)));
      const lengthOk = spec.length === undefined || v.length === spec.length;
      const inRange = (x) => (spec.min === undefined || x >= spec.min) && (spec.max === undefined || x <= spec.max);
      if (!lengthOk || v.some((x) => !Number.isFinite(x) || !inRange(x))) {
        const n = spec.length !== undefined ? `${spec.length} ` : '';
        return { error: `${name} must be ${n}comma-separated numbers${range()}; got ${quote(text)}` };
      }
      return { value: v };
    }
    default: {
      // string
      const maxLength = spec.maxLength ?? 200;
      if (text.length > maxLength) return { error: `${name} must be at most ${maxLength} characters long` };
      if (spec.pattern && !spec.pattern.test(text))
        return { error: `${name} ${spec.patternMessage ?? 'has an invalid value'}; got ${quote(text)}` };
      return { value: text };
    }
  }
}

/** The spec of an attribute naming an item of the lesson (a quiz, an exercise, a sample) by its id. */
export const idParam = (patternMessage) => ({
  type: 'string',
  default: '',
  maxLength: 80,
  pattern: /^[a-z0-9-]*$/,
  patternMessage,
});

/** The spec of a sentence of `fewest` to `most` words (the lesson's running example by default), in a box 26 wide. */
export const sentenceParam = (fewest, most) => ({
  type: 'string',
  default: 'the dog bit the man',
  maxLength: 120,
  pattern: new RegExp(`^\\s*\\S+(?:\\s+\\S+){${fewest - 1},${most - 1}}\\s*$`),
  patternMessage: `must have ${fewest} to ${most} words`,
  label: 'sentence',
  size: 26,
});

/** A parsed value as attribute or URL text: vectors as "1,0.5", the rest as String(). */
export const formatParam = (spec, value) => (spec.type === 'vector' ? value.join(',') : String(value));

// Whether v lies on the grid min + k·grid (up to rounding: 0.15 is on a 0.05 grid)
function onGrid(spec, v) {
  if (!spec.grid) return true;
  const k = (v - (spec.min ?? 0)) / spec.grid;
  return Math.abs(k - Math.round(k)) < 1e-6;
}
