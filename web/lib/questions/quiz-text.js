// Text of generated quiz questions (web/quizzes/*.js) as HTML: the little
// Markdown they use (`code`, $TeX$) with the maths as MathML, like the
// build-time KaTeX output of the written quizzes, so the page needs no math
// script, no inline style and no eval (it runs under a strict CSP).
//
// Only the TeX that generators write is understood: letters, numbers,
// operators, sub/superscripts, {groups}, Greek letters, \cos-style function
// names, \text{}, \mathrm{}, \frac{}{}, \sqrt{} and spacing. An
// unknown command throws (tests/js/quiz-text.test.mjs renders every
// generator's text over many seeds), so a typo cannot reach the page as
// garbage. Every character of the input ends up escaped: the result is safe
// for innerHTML whatever the text holds.

import { fixed, grouped } from '../printing/pyformat.js';

const ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (s) => String(s).replace(/[&<>"']/g, (c) => ESCAPES[c]);

/**
 * A number for quiz text: `digits` after the point, never "-0.000" (a value
 * that rounds to zero is printed without a sign), with a true minus sign
 * (U+2212) when `minus` is set.
 */
export function quizNumber(x, digits = 0, { minus = false } = {}) {
  let s = fixed(Number(x), digits);
  if (/^-0(\.0*)?$/.test(s)) s = s.slice(1);
  return minus ? s.replace('-', '\u2212') : s;
}

/** TeX for a number with thousands grouped (12{,}345, typeset 12,345), `digits` after the point. */
export function texNumber(x, digits = 0) {
  return grouped(quizNumber(x, digits)).replace(/,/g, '{,}');
}

/** TeX for a vector of numbers: (0.5, −1.2), each with `digits` after the point, or as written if undefined. */
export function texVector(values, digits) {
  const f = (v) => (digits === undefined ? String(v === 0 ? 0 : v) : quizNumber(v, digits));
  return `(${Array.from(values, f).join(', ')})`;
}

const GREEK = {
  alpha: 'α',
  beta: 'β',
  gamma: 'γ',
  delta: 'δ',
  epsilon: 'ϵ',
  varepsilon: 'ε',
  eta: 'η',
  theta: 'θ',
  kappa: 'κ',
  lambda: 'λ',
  mu: 'μ',
  nu: 'ν',
  pi: 'π',
  rho: 'ρ',
  sigma: 'σ',
  tau: 'τ',
  phi: 'ϕ',
  varphi: 'φ',
  omega: 'ω',
};
// upright capitals, as KaTeX writes them
const GREEK_UPPER = { Delta: 'Δ', Theta: 'Θ', Lambda: 'Λ', Pi: 'Π', Sigma: 'Σ', Phi: 'Φ', Omega: 'Ω' };
const OPERATORS = {
  cdot: '⋅',
  times: '×',
  le: '≤',
  leq: '≤',
  ge: '≥',
  geq: '≥',
  ne: '≠',
  neq: '≠',
  approx: '≈',
  to: '→',
  pm: '±',
  ldots: '…',
  dots: '…',
  mid: '∣',
  sum: '∑',
  infty: '∞',
};
const FUNCTIONS = new Set(['cos', 'sin', 'tan', 'log', 'ln', 'exp', 'max', 'min', 'arg']);
const SPACES = { ',': '0.1667em', ':': '0.2222em', ';': '0.2778em', ' ': '0.25em', quad: '1em' };
const OPERATOR_CHARS = "+-=<>()[],./|'*:;!?";

const element = (tag, body, attrs = '') => `<${tag}${attrs}>${body}</${tag}>`;
// fences keep their size, as KaTeX writes them (MathML would stretch them around a fraction or a sign)
const mo = (c) =>
  element(
    'mo',
    escapeHtml(c === '-' ? '−' : c === "'" ? '′' : c === '*' ? '∗' : c),
    '()[]|'.includes(c) ? ' stretchy="false"' : '',
  );

// may a minus sign here start a negative number? Not after an operand.
function signAllowed(tokens) {
  const last = tokens.at(-1);
  if (!last) return true;
  if (last.kind === 'operator') return !')]|'.includes(last.value);
  return last.kind === '{' || last.kind === '_' || last.kind === '^';
}

function tokenize(tex) {
  const tokens = [];
  for (let i = 0; i < tex.length;) {
    const rest = tex.slice(i);
    let m;
    const push = (kind, value) => tokens.push({ kind, value, start: i, end: i + m[0].length });
    if ((m = /^\s+/.exec(rest))) {
      // spacing in math mode comes from the operators, not from the source
    } else if ((m = /^\\(text|mathrm)\s*\{([^{}]*)\}/.exec(rest))) push(m[1], m[2]);
    else if ((m = /^\\([a-zA-Z]+)/.exec(rest))) push('command', m[1]);
    else if ((m = /^\\([,:; {}])/.exec(rest))) push('command', m[1]);
    else if (
      (m = /^[-−]?(?:\d{1,3}(?:\{,\}\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)/.exec(rest)) &&
      (/\d|\./.test(m[0][0]) || signAllowed(tokens))
    ) {
      // a sign after an operator, a fence or at the start belongs to the number: "= −1" reads as minus one, not as a subtraction
      push('number', m[0].replace(/\{,\}/g, ',').replace('-', '−'));
    } else if ((m = /^[{}_^]/.exec(rest))) push(m[0]);
    else if ((m = /^[a-zA-Z]/.exec(rest))) push('letter', m[0]);
    else if ((m = /^[αβγδεϵηθκλμνπρστφϕω]/.exec(rest))) push('letter', m[0]);
    else if ((m = /^[ΔΘΛΠΣΦΩ]/.exec(rest))) push('upright', m[0]);
    else if ((m = /^[−·×≤≥≠≈→±…]/.exec(rest))) push('operator', m[0]);
    else if (OPERATOR_CHARS.includes(rest[0])) ((m = [rest[0]]), push('operator', rest[0]));
    else throw new SyntaxError(`quiz maths: unsupported character "${rest[0]}" in "${tex}"`);
    i += m[0].length;
  }
  return tokens;
}

// Recursive descent over the tokens: a list of atoms, each possibly with a
// subscript and/or a superscript.
function parse(tex) {
  const tokens = tokenize(tex);
  let pos = 0;
  const fail = (what) => {
    throw new SyntaxError(`quiz maths: ${what} in "${tex}"`);
  };

  function group() {
    if (tokens[pos]?.kind !== '{') return atom();
    pos++;
    const items = list('}');
    if (tokens[pos]?.kind !== '}') fail('an unclosed {');
    pos++;
    return items.length === 1 ? items[0] : element('mrow', items.join(''));
  }

  function atom() {
    const t = tokens[pos++];
    if (!t) fail('a missing argument');
    switch (t.kind) {
      case 'number':
        return element('mn', t.value);
      case 'letter':
        return element('mi', escapeHtml(t.value));
      case 'upright':
        return element('mi', t.value, ' mathvariant="normal"');
      case 'operator':
        return mo(t.value);
      case '{':
        pos--;
        return group();
      case 'text':
        return element('mtext', escapeHtml(t.value));
      case 'mathrm':
        return element('mi', escapeHtml(t.value), ' mathvariant="normal"');
      case 'command': {
        const c = t.value;
        if (GREEK[c]) return element('mi', GREEK[c]);
        if (GREEK_UPPER[c]) return element('mi', GREEK_UPPER[c], ' mathvariant="normal"');
        if (OPERATORS[c]) return mo(OPERATORS[c]);
        if (FUNCTIONS.has(c)) return element('mi', c) + element('mo', '\u2061');
        if (c === 'top') return element('mi', '⊤', ' mathvariant="normal"');
        if (c === '{' || c === '}') return mo(c);
        if (SPACES[c]) return `<mspace width="${SPACES[c]}"></mspace>`;
        // (no \mathbf: Chromium ignores mathvariant="bold", see scripts/build/build-lesson.mjs)
        if (c === 'text' || c === 'mathrm') return fail(`\\${c} needs a {…} argument without braces inside`);
        if (c === 'sqrt') return element('msqrt', group());
        if (c === 'frac') return element('mfrac', group() + group());
        return fail(`unsupported command \\${c}`);
      }
      default:
        return fail(`unexpected "${t.kind}"`);
    }
  }

  function list(end) {
    const items = [];
    while (pos < tokens.length && tokens[pos].kind !== end) {
      if (tokens[pos].kind === '_' || tokens[pos].kind === '^') fail(`a ${tokens[pos].kind} with nothing before it`);
      let base = atom();
      // a function name's application operator stays after its scripts
      let apply = '';
      if (base.endsWith('<mo>\u2061</mo>')) {
        apply = '<mo>\u2061</mo>';
        base = base.slice(0, -apply.length);
      }
      let sub = null;
      let sup = null;
      while (tokens[pos]?.kind === '_' || tokens[pos]?.kind === '^') {
        const kind = tokens[pos++].kind;
        if ((kind === '_' ? sub : sup) !== null) fail(`a double ${kind}`);
        if (kind === '_') sub = group();
        else sup = group();
      }
      if (sub !== null && sup !== null) items.push(element('msubsup', base + sub + sup));
      else if (sub !== null) items.push(element('msub', base + sub));
      else if (sup !== null) items.push(element('msup', base + sup));
      else items.push(base);
      if (apply) items.push(apply);
    }
    return items;
  }

  const items = list(null);
  if (pos < tokens.length) fail('an unmatched }');
  return items.join('');
}

/** MathML (inline, as KaTeX's MathML output is wrapped) for a TeX formula of the subset above. */
export function texToMathML(tex) {
  const body = parse(String(tex));
  return (
    '<span class="katex"><math xmlns="http://www.w3.org/1998/Math/MathML"><semantics>' +
    `<mrow>${body}</mrow><annotation encoding="application/x-tex">${escapeHtml(tex)}</annotation>` +
    '</semantics></math></span>'
  );
}

/**
 * HTML for a generated quiz text: `code` spans and $TeX$ formulas; all other
 * text escaped. A literal dollar sign is written \$.
 */
export function quizTextToHtml(text) {
  let html = '';
  const s = String(text);
  const pattern = /\\\$|`([^`]*)`|\$([^$]+)\$/g;
  let last = 0;
  for (const m of s.matchAll(pattern)) {
    html += escapeHtml(s.slice(last, m.index));
    if (m[0] === '\\$') html += '$';
    else if (m[1] !== undefined) html += `<code>${escapeHtml(m[1])}</code>`;
    else html += texToMathML(m[2]);
    last = m.index + m[0].length;
  }
  return html + escapeHtml(s.slice(last));
}

// Feedback is printed after a mark that is its label ("Right: ", "Not this
// one: "), so a label the feedback starts with itself ("Right.", "Correct:",
// "Yes.", "No.") would say it twice: it is dropped. Works on plain text and on
// the build-time HTML of written quizzes (whose text comes first).
const LEADING_LABEL = /^\s*(?:right|correct|yes|no|wrong|incorrect|not quite)\s*[.:!]\s*/i;
export function withoutLabel(feedback) {
  const rest = String(feedback).replace(LEADING_LABEL, '');
  // "Right." and nothing else: keep it rather than print an empty feedback
  return rest === '' ? String(feedback).trim() : rest.charAt(0).toUpperCase() + rest.slice(1);
}

/**
 * HTML for a longer generated text (an exercise's prompt, hint or worked
 * solution): blocks separated by a blank line, each a paragraph, or a list
 * when every line of it starts with "- " (or "1. " for a numbered one); the
 * text of each is quizTextToHtml's, or `inline`'s (an author's Markdown,
 * web/lib/questions/author-text.js).
 */
export function blocksToHtml(text, inline = quizTextToHtml) {
  return String(text)
    .split(/\n\s*\n/)
    .map((block) => block.trim())
    .filter(Boolean)
    .map((block) => {
      const lines = block.split('\n').map((l) => l.trim());
      if (lines.every((l) => l.startsWith('- ')))
        return `<ul>${lines.map((l) => `<li>${inline(l.slice(2))}</li>`).join('')}</ul>`;
      if (lines.every((l) => /^\d+\. /.test(l)))
        return `<ol>${lines.map((l) => `<li>${inline(l.replace(/^\d+\. /, ''))}</li>`).join('')}</ol>`;
      return `<p>${inline(lines.join(' '))}</p>`;
    })
    .join('');
}
