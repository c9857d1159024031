// Printing like Python, numpy and PyTorch, to the character, so a live panel
// beside a code sample shows exactly what that code prints. Pure functions,
// no DOM: the build, the page and the Node tests all use this file.
//
// What is reproduced (Python 3, numpy 1.24, PyTorch 1.13, default print options):
//   pyRepr(x)          repr()/str() of a Python float: shortest round-trip digits
//   fixed(x, p)        f"{x:.{p}f}"   (exact binary value, ties to even)
//   exponential(x, p)  f"{x:.{p}e}"
//   numpyStr(v, shape) print(ndarray) for float32 arrays (maxprec, precision 8,
//                      linewidth 75, summarised above 1000 elements)
//   numpyScalar(x)     print(np.float32(x))
//   torchStr(v, shape) print(tensor) (precision 4, linewidth 80, summarised
//                      above 1000 elements; float32, int64 and bool)
//   torchSize(shape)   print(t.shape)
//   npRound(v, d)      np.round / torch.round(decimals=d) on float32
//   pyList(v)          repr() of a list of floats

// ------------------------------------------------------------ exact decimals

// The exact decimal expansion of a finite double: { neg, digits, point } with
// value = 0.digits * 10^point (digits without leading zeros; '' for zero).
function exactDecimal(x) {
  const neg = x < 0 || Object.is(x, -0);
  const a = Math.abs(x);
  if (a === 0) return { neg, digits: '', point: 0 };
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, a);
  const hi = view.getUint32(0);
  const lo = view.getUint32(4);
  const biased = (hi >>> 20) & 0x7ff;
  let mant = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let e;
  if (biased === 0)
    e = -1074; // subnormal
  else {
    mant |= 1n << 52n;
    e = biased - 1075;
  }
  let digits;
  let point;
  if (e >= 0) {
    digits = (mant << BigInt(e)).toString();
    point = digits.length;
  } else {
    // m / 2^k = m * 5^k / 10^k
    digits = (mant * 5n ** BigInt(-e)).toString();
    point = digits.length + e;
  }
  digits = digits.replace(/0+$/, '');
  return { neg, digits, point };
}

// Rounds 0.digits * 10^point to `keep` significant digits, ties to even.
// Returns { digits (exactly keep long, or '' when keep <= 0 and it rounds
// to zero), point }.
function roundDigits(digits, point, keep) {
  if (keep < 0) return { digits: '', point };
  if (digits.length <= keep) return { digits: digits.padEnd(keep, '0'), point };
  let head = digits.slice(0, keep);
  const first = digits.charCodeAt(keep) - 48;
  const restNonZero = /[1-9]/.test(digits.slice(keep + 1));
  const last = keep > 0 ? head.charCodeAt(keep - 1) - 48 : 0;
  const up = first > 5 || (first === 5 && (restNonZero || last % 2 === 1));
  if (!up) return { digits: head, point };
  // add one ulp at position keep
  if (keep === 0) return { digits: '1', point: point + 1, grew: true };
  const n = (BigInt(head) + 1n).toString();
  if (n.length > keep) return { digits: n.slice(0, keep), point: point + 1 };
  head = n.padStart(keep, '0');
  return { digits: head, point };
}

function nonFinite(x) {
  if (Number.isNaN(x)) return 'nan';
  return x > 0 ? 'inf' : '-inf';
}

/** f"{x:.{p}f}" for a Python float x. */
export function fixed(x, p) {
  if (!Number.isFinite(x)) return nonFinite(x);
  // Fast path: toFixed also rounds the exact binary value, and differs from
  // Python only on an exact tie (ties away from zero there, to even here).
  // A double is a tie at p digits exactly when it is an odd multiple of
  // 2^-(p+1); those, zeros (-0.0 keeps its sign here), values toFixed
  // writes in exponent form and p = 0 take the exact path below. Widgets format
  // thousands of values per update, and the BigInt path cost most of it.
  if (x !== 0 && Math.abs(x) < 1e21 && p >= 1 && p <= 100) {
    const y = x * 2 ** (p + 1);
    if (!(Number.isInteger(y) && y % 2 !== 0)) return x.toFixed(p);
  }
  const { neg, digits, point } = exactDecimal(x);
  // keep every digit before the point plus p after it
  const r = roundDigits(digits, point, point + p);
  let intPart;
  let frac;
  if (r.digits === '' || /^0*$/.test(r.digits)) {
    intPart = '0';
    frac = '0'.repeat(p);
  } else {
    const pt = Math.max(r.point, 0);
    // a carry at p = 0 (9.7 -> 10) leaves one digit fewer than the point needs
    const all = (r.point >= 0 ? r.digits : '0'.repeat(-r.point) + r.digits).padEnd(pt, '0');
    intPart = all.slice(0, pt) || '0';
    frac = all.slice(pt).padEnd(p, '0').slice(0, p);
    intPart = intPart.replace(/^0+(?=\d)/, '');
  }
  return `${neg ? '-' : ''}${intPart}${p > 0 ? `.${frac}` : ''}`;
}

// { mantissa digits (p+1 long), exponent } of x rounded to p+1 significant digits.
function sciParts(x, p) {
  const { neg, digits, point } = exactDecimal(x);
  if (digits === '') return { neg, digits: '0'.repeat(p + 1), exp: 0 };
  const r = roundDigits(digits, point, p + 1);
  return { neg, digits: r.digits, exp: r.point - 1 };
}

function expSuffix(exp, minDigits = 2) {
  return `e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(minDigits, '0')}`;
}

/** f"{x:.{p}e}" for a Python float x. */
export function exponential(x, p) {
  if (!Number.isFinite(x)) return nonFinite(x);
  const { neg, digits, exp } = sciParts(x, p);
  const mant = p > 0 ? `${digits[0]}.${digits.slice(1)}` : digits[0];
  return `${neg ? '-' : ''}${mant}${expSuffix(exp)}`;
}

// Shortest digits that round-trip: { neg, digits, exp } with value
// d.ddd * 10^exp. `float32` asks for the shortest that identifies the float32.
function shortest(x, float32) {
  const neg = x < 0 || Object.is(x, -0);
  const a = Math.abs(x);
  if (a === 0) return { neg, digits: '0', exp: 0 };
  let s;
  if (float32) {
    for (let k = 1; k <= 9; k++) {
      s = a.toExponential(k - 1);
      if (Math.fround(Number(s)) === Math.fround(a)) break;
    }
  } else {
    s = a.toExponential(); // shortest round-trip digits, like Python's repr
  }
  const [m, e] = s.split('e');
  return { neg, digits: m.replace('.', ''), exp: Number(e) };
}

/** repr() of a Python float (also what print() and str() show). */
export function pyRepr(x) {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  return floatRepr(shortest(x, false));
}

// Python's repr rule: positional for 1e-4 <= |x| < 1e16, else scientific.
function floatRepr({ neg, digits, exp }) {
  const sign = neg ? '-' : '';
  if (exp < -4 || exp >= 16) {
    const mant = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits[0];
    return `${sign}${mant}${expSuffix(exp)}`;
  }
  if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`;
  const intDigits = digits.slice(0, exp + 1).padEnd(exp + 1, '0');
  const frac = digits.slice(exp + 1) || '0';
  return `${sign}${intDigits}.${frac}`;
}

/** print(np.float32(x)). */
export function numpyScalar(x) {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  return floatRepr(shortest(Math.fround(x), true));
}

/** Thousands separators, as Python's ',' format option writes them: '2559196.5' -> '2,559,196.5' (for up to 3 decimals). */
export function grouped(text) {
  return text.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** repr() of a Python list of floats. */
export function pyList(values) {
  return `[${Array.from(values, pyRepr).join(', ')}]`;
}

/** print(t.shape) */
export function torchSize(shape) {
  return `torch.Size([${shape.join(', ')}])`;
}

/** np.round(a, d) / torch.round(a, decimals=d) on float32: scale, round half to even, unscale, all in float32. */
export function npRound(values, decimals = 0) {
  const f = Math.fround(10 ** Math.abs(decimals));
  const out = new Float32Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const x = Math.fround(values[i]);
    const y = decimals >= 0 ? Math.fround(x * f) : Math.fround(x / f);
    const r = rintEven(y);
    out[i] = decimals >= 0 ? Math.fround(r / f) : Math.fround(r * f);
  }
  return out;
}

function rintEven(y) {
  if (!Number.isFinite(y)) return y;
  const r = Math.round(y);
  // Math.round rounds .5 up; IEEE rint rounds ties to even
  return r - y === 0.5 && r % 2 !== 0 ? r - 1 : r === 0 && y < 0 ? -0 : r;
}

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

/**
 * A sample parameter's value written as a Python literal, for the code shown
 * beside a live output: int 4, float 0.5 (repr), vector [1.0, 0.5], choice
 * 'half' (quoted unless spec.raw), bool True/False.
 */
export function pyLiteral(spec, value) {
  switch (spec?.type) {
    case 'int':
      return String(Math.trunc(value));
    case 'float':
      return pyRepr(value);
    case 'vector':
      return pyList(value);
    case 'bool':
      return value ? 'True' : 'False';
    case 'choice':
    case 'enum':
    case 'string':
      return spec.raw ? String(value) : `'${String(value).replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
    default:
      return String(value);
  }
}
