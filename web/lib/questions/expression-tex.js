// A formula parsed by web/lib/questions/expression.js written back: as plain text and
// as TeX, with brackets only where the reading needs them (parsing the plain
// text again gives the same tree), and a number as TeX for feedback.
// Nodes: { type: 'number', text } | { type: 'variable' | 'constant', name } |
// { type: 'call', name, arg } | { type: 'negate', arg } |
// { type: 'power', base, exponent } | { type: 'sum', terms, signs } |
// { type: 'product', factors, ops }; `variables` maps a name to its
// { tex, compact }.

const CONSTANT_TEX = { pi: '\\pi', e: 'e' };

export const wrapIf = (s, n, types) => (types.includes(n.type) ? `(${s})` : s);

export function plainOf(n) {
  switch (n.type) {
    case 'number':
      return n.text;
    case 'variable':
    case 'constant':
      return n.name;
    case 'call':
      return n.args ? `${n.name}(${n.args.map(plainOf).join(', ')})` : `${n.name}(${plainOf(n.arg)})`;
    case 'negate':
      return `-${wrapIf(plainOf(n.arg), n.arg, ['sum', 'negate', 'product'])}`;
    case 'power':
      return `${wrapIf(plainOf(n.base), n.base, ['sum', 'product', 'negate', 'power'])}^${wrapIf(plainOf(n.exponent), n.exponent, ['sum', 'product'])}`;
    case 'sum':
      return n.terms
        .map((t, k) => (k ? ` ${n.signs[k]} ` : '') + wrapIf(plainOf(t), t, k ? ['sum', 'negate'] : ['sum']))
        .join('');
    default: // product
      return n.factors
        .map(
          (f, k) => (k ? n.ops[k] : '') + wrapIf(plainOf(f), f, k ? ['sum', 'negate', 'product'] : ['sum', 'product']),
        )
        .join('');
  }
}

// "2.5e4" → 2.5 \times 10^{4}
const numberTex = (text) => (text.includes('e') ? text.replace(/e(.*)/, ' \\times 10^{$1}') : text);

// TeX in the subset web/lib/questions/quiz-text.js renders: fractions as \frac,
// powers as ^{…}, function arguments always in brackets, ln for log.
export function texOfNode(n, variables) {
  const tex = (m) => texOfNode(m, variables);
  switch (n.type) {
    case 'number':
      return numberTex(n.text);
    case 'variable':
      return variables.get(n.name).tex;
    case 'constant':
      return CONSTANT_TEX[n.name];
    case 'call':
      if (n.args) return `\\text{${n.name}}(${n.args.map(tex).join(', ')})`;
      if (n.name === 'sqrt') return `\\sqrt{${tex(n.arg)}}`;
      if (n.name === 'abs') return `|${tex(n.arg)}|`;
      return `\\${n.name}(${tex(n.arg)})`;
    case 'negate':
      return `-${wrapIf(tex(n.arg), n.arg, ['sum', 'negate'])}`;
    case 'power': {
      const { base } = n;
      const b = tex(base);
      const bracket =
        ['sum', 'product', 'negate', 'power'].includes(base.type) || (base.type === 'number' && b.includes('\\times'));
      // a base of several symbols is one group, so the power is on all of it
      const brace = base.type === 'variable' && !variables.get(base.name).compact;
      return `${bracket ? `(${b})` : brace ? `{${b}}` : b}^{${tex(n.exponent)}}`;
    }
    case 'sum':
      return n.terms
        .map((t, k) => (k ? ` ${n.signs[k]} ` : '') + wrapIf(tex(t), t, k ? ['sum', 'negate'] : ['sum']))
        .join('');
    default:
      return productTex(n, variables);
  }
}

// Left to right, as read: a / makes everything before it the numerator
// (2*i/d → \frac{2 i}{d}; a/b*c → \frac{a}{b} c). Factors stand side by side
// unless that could be misread; then \cdot.
function productTex(n, variables) {
  const isWide = (m) => m.type === 'variable' && !variables.get(m.name).compact;
  // a product inside a product keeps its brackets, unless it is one fraction
  const factorTex = (f, first) => {
    const t = texOfNode(f, variables);
    const wrap = f.type === 'sum' || (f.type === 'negate' && !first) || (f.type === 'product' && f.ops.at(-1) !== '/');
    return wrap ? `(${t})` : t;
  };
  let acc = factorTex(n.factors[0], true);
  let last = n.factors[0];
  for (let k = 1; k < n.factors.length; k++) {
    const f = n.factors[k];
    if (n.ops[k] === '/') {
      const numerator = k === 1 ? texOfNode(n.factors[0], variables) : acc;
      acc = `\\frac{${numerator}}{${texOfNode(f, variables)}}`;
      last = null;
      continue;
    }
    const t = factorTex(f, false);
    const dot =
      /^[\d.|-]/.test(t) || // 2 \cdot 3, x \cdot |y|
      (t.startsWith('(') && (last?.type === 'variable' || last?.type === 'constant')) || // x(y+1) would read as a function
      (t.startsWith('\\frac') && last?.type === 'number') || // 2 \frac{1}{2} would read as 2½
      t.startsWith('{') ||
      isWide(f) ||
      (last && isWide(last)); // \mathrm{ab} \mathrm{cd} runs together
    acc += (dot ? ' \\cdot ' : ' ') + t;
    last = f;
  }
  return acc;
}

/**
 * A number as TeX for feedback, to `digits` significant digits (6 if not
 * given): 4.3, 25{,}000, 1.5 \times 10^{-7}; \infty and \text{undefined} for
 * what is not finite.
 */
export function texOf(value, digits = 6) {
  const v = Number(value);
  if (Number.isNaN(v)) return '\\text{undefined}';
  if (!Number.isFinite(v)) return v > 0 ? '\\infty' : '-\\infty';
  const p = Math.min(17, Math.max(1, Math.round(Number(digits)) || 6));
  const size = Math.abs(v);
  if (size === 0) return '0';
  const rounded = Number(v.toPrecision(p));
  if (size >= 1e-4 && Math.abs(rounded) < 10 ** Math.max(p, 6))
    return String(rounded).replace(/^-?\d+/, (int) => int.replace(/\B(?=(\d{3})+$)/g, '{,}'));
  const [mantissa, exponent] = v.toExponential(p - 1).split('e');
  return `${mantissa.replace(/\.?0+$/, '')} \\times 10^{${Number(exponent)}}`;
}
