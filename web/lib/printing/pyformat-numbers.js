// Numbers printed as Python, numpy and PyTorch print them (web/lib/printing/pyformat.js
// lists what each function reproduces): from the exact binary value of a
// double, so fixed() rounds ties to even as Python does, and from the
// shortest round-trip digits for repr(). nonFinite, sciParts, expSuffix and
// shortest are pyformat-arrays.js's building blocks too.

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

export function nonFinite(x) {
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
export function sciParts(x, p) {
  const { neg, digits, point } = exactDecimal(x);
  if (digits === '') return { neg, digits: '0'.repeat(p + 1), exp: 0 };
  const r = roundDigits(digits, point, p + 1);
  return { neg, digits: r.digits, exp: r.point - 1 };
}

export function expSuffix(exp, minDigits = 2) {
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
export function shortest(x, float32) {
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
