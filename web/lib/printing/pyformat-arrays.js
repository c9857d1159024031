// Arrays printed as numpy and PyTorch print them (print(ndarray),
// print(tensor)), to the character: each library's choice of positional or
// scientific notation and width for the whole array, its line wrapping and
// its summary ("...") above 1000 elements. The numbers themselves come from
// pyformat-numbers.js.
import { fixed, exponential, numpyScalar, nonFinite, sciParts, expSuffix, shortest } from './pyformat-numbers.js';

// ---------------------------------------------------------------- numpy

// dragon4_positional(x, precision, unique=True, fractional=True, trim) for a
// float32, split into [integer part (with sign), fraction digits].
function npPositional(x, precision) {
  const s = shortest(x, true);
  const fracDigits = Math.max(0, s.digits.length - 1 - s.exp);
  let intPart;
  let frac;
  if (fracDigits > precision) {
    const f = fixed(x, precision); // cut off at precision, exact value rounded half to even
    [intPart, frac] = f.split('.');
    frac = (frac ?? '').replace(/0+$/, '');
    if (x < 0 && !intPart.startsWith('-')) intPart = `-${intPart}`;
  } else {
    const sign = s.neg ? '-' : '';
    if (s.exp < 0) {
      intPart = `${sign}0`;
      frac = '0'.repeat(-s.exp - 1) + s.digits;
    } else {
      intPart = sign + s.digits.slice(0, s.exp + 1).padEnd(s.exp + 1, '0');
      frac = s.digits.slice(s.exp + 1);
    }
    frac = frac.replace(/0+$/, '');
    if (s.digits === '0') frac = '';
  }
  return [intPart, frac];
}

// dragon4_scientific(x, precision, unique=True, trim='.'): [int part, frac digits, exponent].
function npScientific(x, precision) {
  const s = shortest(x, true);
  let digits = s.digits;
  let exp = s.exp;
  if (digits.length - 1 > precision) {
    const r = sciParts(x, precision);
    digits = r.digits;
    exp = r.exp;
  }
  return [`${s.neg ? '-' : ''}${digits[0]}`, digits.slice(1).replace(/0+$/, ''), exp];
}

// numpy's FloatingFormat for one array (fillFormat + __call__).
function numpyFloatFormatter(sample, { precision = 8, suppress = false } = {}) {
  const finite = sample.filter(Number.isFinite);
  const nonzero = finite.filter((v) => v !== 0).map(Math.abs);
  let expFormat = false;
  if (nonzero.length) {
    const max = Math.max(...nonzero);
    const min = Math.min(...nonzero);
    expFormat = max >= 1e8 || (!suppress && (min < 1e-4 || max / min > 1000));
  }
  let padLeft = 0;
  let padRight = 0;
  let fmt;
  if (finite.length === 0) {
    fmt = null;
  } else if (expFormat) {
    const parts = finite.map((v) => npScientific(v, precision));
    const prec = Math.max(...parts.map((p) => p[1].length));
    const expSize = Math.max(2, ...parts.map((p) => String(Math.abs(p[2])).length));
    padLeft = Math.max(...parts.map((p) => p[0].length));
    padRight = expSize + 2 + prec;
    // min_digits=prec: digits past the shortest unique ones are the exact
    // value's, rounded, so every element is the exact value to prec digits
    fmt = (v) => {
      const { neg, digits, exp } = sciParts(v, prec);
      const mant = prec > 0 ? `${digits[0]}.${digits.slice(1)}` : `${digits[0]}.`;
      return `${(neg ? '-' : '') + mant}`.padStart(padLeft + 1 + prec) + expSuffix(exp, expSize);
    };
  } else {
    const parts = finite.map((v) => npPositional(v, precision));
    padLeft = Math.max(...parts.map((p) => p[0].length));
    padRight = Math.max(...parts.map((p) => p[1].length));
    fmt = (v) => {
      const [i, f] = npPositional(v, precision);
      return `${i.padStart(padLeft)}.${f.padEnd(padRight)}`;
    };
  }
  if (finite.length !== sample.length) {
    const neginf = sample.some((v) => v === -Infinity);
    const offset = padRight + 1;
    padLeft = Math.max(padLeft, 3 - offset, 3 + (neginf ? 1 : 0) - offset);
  }
  return (v) => {
    if (!Number.isFinite(v)) {
      const s = nonFinite(v);
      return s.padStart(padLeft + padRight + 1);
    }
    return fmt(v);
  };
}

function strides(shape) {
  const s = new Array(shape.length).fill(1);
  for (let i = shape.length - 2; i >= 0; i--) s[i] = s[i + 1] * shape[i + 1];
  return s;
}

// The elements a summarised print shows (edge items of every axis).
function edgeSample(values, shape, edge) {
  const out = [];
  const st = strides(shape);
  const walk = (axis, offset) => {
    if (axis === shape.length) {
      out.push(values[offset]);
      return;
    }
    const n = shape[axis];
    const idx =
      n > 2 * edge
        ? [...Array(edge).keys(), ...Array.from({ length: edge }, (_, i) => n - edge + i)]
        : [...Array(n).keys()];
    for (const i of idx) walk(axis + 1, offset + i * st[axis]);
  };
  walk(0, 0);
  return out;
}

/** print(a) for a float32 ndarray `values` (row-major) of `shape`. */
export function numpyStr(values, shape = [values.length], { precision = 8, suppress = false } = {}) {
  const vals = Array.from(values, (v) => Math.fround(v));
  const size = shape.reduce((a, b) => a * b, 1);
  if (shape.length === 0) return numpyScalar(vals[0]);
  if (size === 0) return '[]';
  const edge = 3;
  const summarize = size > 1000;
  const format = numpyFloatFormatter(summarize ? edgeSample(vals, shape, edge) : vals, { precision, suppress });
  const st = strides(shape);
  const lineWidth = 75;
  const sep = ' ';

  const extendLine = (s, line, word, width, prefix) => {
    let wrap = line.length + word.length > width;
    if (line.length <= prefix.length) wrap = false;
    if (wrap) {
      s += `${line.trimEnd()}\n`;
      line = prefix;
    }
    return [s, line + word];
  };
  const recurse = (axis, offset, hanging, width) => {
    if (axis === shape.length) return format(vals[offset]);
    const nextHanging = `${hanging} `;
    const nextWidth = width - 1;
    const n = shape[axis];
    const showSummary = summarize && 2 * edge < n;
    const leading = showSummary ? edge : 0;
    const trailing = showSummary ? edge : n;
    let s = '';
    const left = shape.length - axis;
    if (left === 1) {
      const elemWidth = width - 1;
      let line = hanging;
      for (let i = 0; i < leading; i++) {
        [s, line] = extendLine(
          s,
          line,
          recurse(axis + 1, offset + i * st[axis], nextHanging, nextWidth),
          elemWidth,
          hanging,
        );
        line += sep;
      }
      if (showSummary) {
        [s, line] = extendLine(s, line, '...', elemWidth, hanging);
        line += sep;
      }
      for (let i = trailing; i > 1; i--) {
        [s, line] = extendLine(
          s,
          line,
          recurse(axis + 1, offset + (n - i) * st[axis], nextHanging, nextWidth),
          elemWidth,
          hanging,
        );
        line += sep;
      }
      [s, line] = extendLine(
        s,
        line,
        recurse(axis + 1, offset + (n - 1) * st[axis], nextHanging, nextWidth),
        elemWidth,
        hanging,
      );
      s += line;
    } else {
      const lineSep = `\n`.repeat(left - 1);
      for (let i = 0; i < leading; i++)
        s += hanging + recurse(axis + 1, offset + i * st[axis], nextHanging, nextWidth) + lineSep;
      if (showSummary) s += `${hanging}...${lineSep}`;
      for (let i = trailing; i > 1; i--)
        s += hanging + recurse(axis + 1, offset + (n - i) * st[axis], nextHanging, nextWidth) + lineSep;
      s += hanging + recurse(axis + 1, offset + (n - 1) * st[axis], nextHanging, nextWidth);
    }
    return `[${s.slice(hanging.length)}]`;
  };
  return recurse(0, 0, ' ', lineWidth);
}

// ---------------------------------------------------------------- PyTorch

// torch/_tensor_str.py's _Formatter.
function torchFormatter(sample, dtype, precision) {
  if (dtype !== 'float32' && dtype !== 'float64') {
    const str = dtype === 'bool' ? (v) => (v ? 'True' : 'False') : (v) => String(Math.trunc(v));
    const width = Math.max(1, ...sample.map((v) => str(v).length));
    return { width, format: (v) => str(v).padStart(width) };
  }
  const nz = sample.filter((v) => Number.isFinite(v) && v !== 0);
  let intMode = true;
  let sciMode = false;
  let width = 1;
  if (nz.length) {
    const abs = nz.map(Math.abs);
    const min = Math.min(...abs);
    const max = Math.max(...abs);
    intMode = nz.every((v) => v === Math.ceil(v));
    if (intMode) {
      if (max / min > 1000 || max > 1e8) {
        sciMode = true;
        for (const v of nz) width = Math.max(width, exponential(v, precision).length);
      } else {
        for (const v of nz) width = Math.max(width, fixed(v, 0).length + 1);
      }
    } else if (max / min > 1000 || max > 1e8 || min < 1e-4) {
      sciMode = true;
      for (const v of nz) width = Math.max(width, exponential(v, precision).length);
    } else {
      for (const v of nz) width = Math.max(width, fixed(v, precision).length);
    }
  }
  const format = (v) => {
    let r;
    if (sciMode) r = exponential(v, precision);
    else if (intMode) r = fixed(v, 0) + (Number.isFinite(v) ? '.' : '');
    else r = fixed(v, precision);
    return r.padStart(width);
  };
  return { width, format };
}

/**
 * print(t) for a tensor of `shape` holding `values` (row-major).
 * dtype: 'float32' (default), 'float64', 'int64' or 'bool'; suffix: extra
 * text such as ', requires_grad=True' printed before the closing parenthesis.
 */
export function torchStr(values, shape, { dtype = 'float32', precision = 4, suffix = '' } = {}) {
  const f32 = dtype === 'float32';
  const vals = Array.from(values, (v) => (f32 ? Math.fround(v) : typeof v === 'boolean' ? Number(v) : v));
  const size = shape.reduce((a, b) => a * b, 1);
  const dtypeSuffix = dtype === 'float64' ? ', dtype=torch.float64' : '';
  if (size === 0) {
    const sizeSuffix = shape.length === 1 ? '' : `, size=(${shape.join(', ')}${shape.length === 1 ? ',' : ''})`;
    return `tensor([]${sizeSuffix}${dtypeSuffix}${suffix})`;
  }
  const edge = 3;
  const summarize = size > 1000;
  const { width, format } = torchFormatter(summarize ? edgeSample(vals, shape, edge) : vals, dtype, precision);
  const st = strides(shape);
  const lineWidth = 80;
  const vector = (offset, n, stride, indent) => {
    const elementLength = width + 2;
    const perLine = Math.max(1, Math.floor((lineWidth - indent) / elementLength));
    const idx = summarize && n > 2 * edge ? [0, 1, 2, -1, n - 3, n - 2, n - 1] : [...Array(n).keys()];
    const data = idx.map((i) => (i < 0 ? ' ...' : format(vals[offset + i * stride])));
    const lines = [];
    for (let i = 0; i < data.length; i += perLine) lines.push(data.slice(i, i + perLine).join(', '));
    return `[${lines.join(`,\n${' '.repeat(indent + 1)}`)}]`;
  };
  const recurse = (axis, offset, indent) => {
    const dim = shape.length - axis;
    if (dim === 1) return vector(offset, shape[axis], st[axis], indent);
    const n = shape[axis];
    const idx = summarize && n > 2 * edge ? [0, 1, 2, -1, n - 3, n - 2, n - 1] : [...Array(n).keys()];
    const slices = idx.map((i) => (i < 0 ? '...' : recurse(axis + 1, offset + i * st[axis], indent + 1)));
    return `[${slices.join(`,${'\n'.repeat(dim - 1)}${' '.repeat(indent + 1)}`)}]`;
  };
  const body = shape.length === 0 ? format(vals[0]) : recurse(0, 0, 'tensor('.length);
  return `tensor(${body}${dtypeSuffix}${suffix})`;
}
