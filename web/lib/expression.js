// Typed answers read as formulas: a number or an expression such as
// 2*pi*b^(2*i/d) becomes a tree, is shown back as TeX (so the learner sees how
// it was read), is evaluated, and is judged against a reference by comparing
// values at random points, as WeBWorK does, so every equivalent form counts.
//
// Nothing typed is ever run or becomes markup: there is no eval and no
// new Function (the page runs under a strict CSP), names are looked up in a
// Map (so "constructor" or "__proto__" are unknown names, not properties), the
// TeX is built only from digits, the names' own TeX and fixed commands, and
// bad input gives a plain-text message, never a throw. Size caps come first:
// the length before any work, nesting while parsing, so no input can hang the
// page or overflow the stack.
//
// Grammar (lowest precedence first):
//   expression := term (('+' | '-') term)*
//   term       := signed (('*' | '/') signed | implicit power)*
//   signed     := ('-' | '+') power | power      a sign binds looser than ^: -x^2 = -(x^2)
//   power      := atom ('^' signed | superscript)?      right-associative: a^b^c = a^(b^c)
//   atom       := number | name | function '(' expression ')' | '(' expression ')'
//   number     := (digits ('.' digits?)? | '.' digits) (('e' | 'E') ('+' | '-')? digits)?
//   superscript := '⁻'? ('⁰' … '⁹')+                 x² = x^2
// Also read: ** as ^; × · ⋅ ∗ as *; ÷ as /; − – as -.
//
// Implicit multiplication only where the reading is unambiguous: a number
// before a name or a bracket (2pi, 2(x+1), 2i/d = 2*i/d); a closing bracket
// or a superscript before a name or an opening bracket ((a)(b), (a)b, x²y);
// two names apart by a space (m theta). Everything else that would need a
// guess is an error that says what to write instead:
//   mtheta    an unknown name, never split silently ("Did you mean m*theta?")
//   x(y+1)    a name is not a function: x*(y+1)
//   sin x     a function needs brackets: sin(x)
//   a/2b      (a/2)*b or a/(2b)?
//   b^2c      (b^2)*c or b^(2c)?
//   x + -y    two signs in a row (x*-y and x^-y are fine)

import { plainOf, texOfNode, wrapIf } from './expression-tex.js';

// What expression-tex.js writes back is part of this module's interface
export { texOf } from './expression-tex.js';

const MAX_BRACKETS = 50;
// brackets, exponents and signs inside each other; bounds every recursion below
const MAX_NESTING = 100;
// words longer than this get no "Did you mean" (the search is quadratic)
const MAX_SUGGESTED = 40;

// log is the natural logarithm, as in STACK (Maxima) and most CAS: log(x) = ln(x).
// It is shown and written back as ln, so the learner sees which log was read.
const FUNCTIONS = new Map([
  ['sin', 'sin'],
  ['cos', 'cos'],
  ['tan', 'tan'],
  ['exp', 'exp'],
  ['ln', 'ln'],
  ['log', 'ln'],
  ['sqrt', 'sqrt'],
  ['abs', 'abs'],
]);
const CONSTANTS = new Map([
  ['pi', 'pi'],
  ['π', 'pi'],
  ['e', 'e'],
]);
const OPERATORS = new Map([
  ['+', '+'],
  ['-', '-'],
  ['−', '-'],
  ['–', '-'],
  ['*', '*'],
  ['×', '*'],
  ['·', '*'],
  ['⋅', '*'],
  ['∗', '*'],
  ['/', '/'],
  ['÷', '/'],
  ['^', '^'],
]);
const SUPERSCRIPT_DIGITS = '⁰¹²³⁴⁵⁶⁷⁸⁹';
const GREEK = new Set([
  'alpha',
  'beta',
  'gamma',
  'delta',
  'epsilon',
  'eta',
  'theta',
  'kappa',
  'lambda',
  'mu',
  'nu',
  'rho',
  'sigma',
  'tau',
  'phi',
  'omega',
]);

// Sticky patterns, tried at the current position. A name is a letter, then
// letters, digits, subscript digits or _ (x0, x₀, x_0, θ); a word read from
// the answer may also start with _, so __proto__ is one unknown name.
const SPACE = /\s+/y;
const NUMBER = /(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/y;
const WORD = /[\p{L}_][\p{L}\p{M}\d_₀-₉]*/uy;
const SUPERSCRIPT = /⁻?[⁰¹²³⁴⁵⁶⁷⁸⁹]+/y;
const IS_WORD = /^\p{L}[\p{L}\p{M}\d_₀-₉]*$/u;

const HINTS = new Map([
  ...Array.from('[]{}', (c) => [c, ' Use round brackets ( ).']),
  ['|', ' For an absolute value write abs(…).'],
  ['√', ' Write sqrt(…).'],
  ['=', ' Type only the formula, without "=".'],
  [',', ' Write decimals with a point (0.5), and numbers without separators.'],
]);

// A parse error on its way out; never escapes this module.
class Failure {
  constructor(message, start, end) {
    Object.assign(this, { message, start, end });
  }
}

// learner text quoted in a message: long runs shortened (never inside an emoji), invisible characters by code
const shorten = (s) => (s.length > 24 ? `${Array.from(s.slice(0, 40)).slice(0, 20).join('')}…` : s);
const codeOf = (cp) => `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
// 1-based, counting characters as a person does (an emoji is one)
const characterAt = (text, index) => Array.from(text.slice(0, index)).length + 1;

/**
 * The answer's names (variables and their aliases), the constants and the
 * functions, by the word that spells them. `names` is the exercise's, not the
 * learner's: a malformed one is a bug in the exercise and throws.
 */
function lexicon(names) {
  const words = new Map();
  for (const [word, name] of FUNCTIONS) words.set(word, { type: 'function', name });
  const variables = new Map();
  const add = (word, name) => {
    if (typeof word !== 'string' || !IS_WORD.test(word))
      throw new TypeError(
        `expression names: ${JSON.stringify(word)} is not a name (a letter, then letters, digits or _)`,
      );
    if (FUNCTIONS.has(word) || variables.has(word) || words.get(word)?.type === 'variable')
      throw new TypeError(`expression names: "${word}" is used twice`);
    words.set(word, { type: 'variable', name });
  };
  for (const name of Object.keys(names ?? {})) {
    const spec = names[name] ?? {};
    add(name, name);
    for (const alias of Array.isArray(spec.aliases) ? spec.aliases : []) add(alias, name);
    const tex = typeof spec.tex === 'string' ? spec.tex : defaultTex(name);
    // one symbol, perhaps with a subscript, can stand next to another and take a power as it is
    const compact =
      /^(?:[A-Za-z]|\\[A-Za-z]+)(?:_(?:[A-Za-z0-9]|\{[^{}]*\}))?$/.test(tex) && !tex.startsWith('\\mathrm');
    variables.set(name, { tex, compact });
  }
  const listed = [...variables.keys()];
  // a variable may shadow a constant (an exercise whose variable is e)
  for (const [word, name] of CONSTANTS) {
    if (words.has(word)) continue;
    words.set(word, { type: 'constant', name });
    if (word === name) listed.push(word);
  }
  return { words, variables, listed };
}

// x → x, x0 → x_{0}, theta → \theta, dmodel → \mathrm{dmodel}
function defaultTex(name) {
  const m = /^([A-Za-z]+)(\d*)$/.exec(name);
  if (!m) return `\\mathrm{${name}}`;
  const base = m[1].length === 1 ? m[1] : GREEK.has(m[1]) ? `\\${m[1]}` : `\\mathrm{${m[1]}}`;
  return m[2] ? `${base}_{${m[2]}}` : base;
}

// ---------------------------------------------------------------------------
// Reading: characters → tokens → brackets checked → tree

function tokenize(text, lex) {
  const tokens = [];
  let space = false;
  for (let i = 0; i < text.length;) {
    const at = (re) => ((re.lastIndex = i), re.exec(text)?.[0]);
    let m;
    if ((m = at(SPACE))) {
      i += m.length;
      space = true;
      continue;
    }
    const start = i;
    if ((m = at(NUMBER))) {
      i += m.length;
      if (text[i] === '.') {
        const run = /[\d.]*/y;
        run.lastIndex = start;
        const whole = run.exec(text)[0];
        throw new Failure(
          `"${shorten(whole)}" at character ${characterAt(text, start)} is not a number: it has more than one decimal point.`,
          start,
          start + whole.length,
        );
      }
      tokens.push({ type: 'number', ...readNumber(m, text, start), start, end: i, space });
    } else if ((m = at(WORD))) {
      i += m.length;
      const entry = lex.words.get(m);
      if (!entry) throw unknownName(m, text, start, i, lex);
      tokens.push({ type: entry.type, name: entry.name, text: m, start, end: i, space });
    } else if ((m = at(SUPERSCRIPT))) {
      i += m.length;
      const digits = Array.from(m.replace('⁻', ''), (c) => SUPERSCRIPT_DIGITS.indexOf(c)).join('');
      tokens.push({ type: 'superscript', text: m, negative: m[0] === '⁻', digits, start, end: i, space });
    } else if (text.startsWith('**', i) || OPERATORS.has(text[i])) {
      const op = text.startsWith('**', i) ? '**' : text[i];
      i += op.length;
      tokens.push({ type: 'operator', op: OPERATORS.get(op) ?? '^', text: op, start, end: i, space });
    } else if (text[i] === '(' || text[i] === ')') {
      i += 1;
      tokens.push({ type: text[start], text: text[start], start, end: i, space });
    } else {
      const cp = text.codePointAt(i);
      const c = String.fromCodePoint(cp);
      const shown = /[\p{C}\p{Z}\p{M}]/u.test(c) ? `${codeOf(cp)} (an invisible or combining character)` : `"${c}"`;
      throw new Failure(
        `Unknown character ${shown} at character ${characterAt(text, i)}.${HINTS.get(c) ?? ''}`,
        i,
        i + c.length,
      );
    }
    space = false;
  }
  return tokens;
}

// "2.5E+04" → value 25000, text "2.5e4"; ".5" → "0.5"; "5." → "5"
function readNumber(typed, text, start) {
  const value = Number(typed);
  const [mantissa, exponent] = typed.toLowerCase().split('e');
  const where = () => `at character ${characterAt(text, start)}`;
  const end = start + typed.length;
  if (!Number.isFinite(value))
    throw new Failure(`${shorten(typed)} is too large to be a number here (${where()}).`, start, end);
  if (value === 0 && /[1-9]/.test(mantissa))
    throw new Failure(`${shorten(typed)} is too small to be a number here: it would be 0 (${where()}).`, start, end);
  let m = mantissa.replace(/\.$/, '');
  if (m.startsWith('.')) m = `0${m}`;
  return { value, text: exponent === undefined ? m : `${m}e${Number(exponent)}` };
}

function unknownName(word, text, start, end, lex) {
  const hint = suggestion(word, lex);
  const isCall = /^\s*\(/.test(text.slice(end));
  const names = lex.listed.length ? `Names you can use here: ${lex.listed.join(', ')}` : 'This answer uses no names';
  const functions = isCall ? `. Functions you can use here: ${[...FUNCTIONS.keys()].join(', ')}` : '';
  return new Failure(
    `Unknown name "${shorten(word)}".${hint ? ` Did you mean ${hint}?` : ''} ${names}${functions}`,
    start,
    end,
  );
}

// What a word that is not a name probably meant: the same name in other
// case (Theta), a function without its brackets (sinx), known names run
// together (mtheta), names run into a function (x0cos), a name and a number
// run together (x2).
function suggestion(word, lex) {
  if (word.length > MAX_SUGGESTED) return '';
  for (const known of lex.words.keys()) if (known.toLowerCase() === word.toLowerCase()) return known;
  for (const f of FUNCTIONS.keys()) {
    const after = word.startsWith(f) && split(word.slice(f.length), lex);
    if (after) return `${f}(${after.join('*')})`;
    const before = word.endsWith(f) && split(word.slice(0, -f.length), lex);
    if (before) return `${before.join('*')}*${f}(…)`;
  }
  const parts = split(word, lex);
  if (parts) return parts.join('*');
  const m = /^(.*?)(\d+)$/.exec(word);
  if (m && lex.words.has(m[1]) && lex.words.get(m[1]).type !== 'function') return `${m[1]}^${m[2]} or ${m[1]}*${m[2]}`;
  return '';
}

// the fewest known names (not functions) that spell `word` exactly, or null
function split(word, lex) {
  if (word === '') return null;
  const best = [[]];
  for (let i = 0; i < word.length; i++) {
    if (!best[i]) continue;
    for (const [known, entry] of lex.words) {
      if (entry.type === 'function' || !word.startsWith(known, i)) continue;
      const j = i + known.length;
      if (!best[j] || best[j].length > best[i].length + 1) best[j] = [...best[i], known];
    }
  }
  return best[word.length] ?? null;
}

// Every bracket is matched, and none deeper than MAX_BRACKETS, before the
// parser sees them, so it can say which bracket is wrong. Returns open → close.
function matchBrackets(tokens, text) {
  const open = [];
  const closes = new Map();
  tokens.forEach((t, k) => {
    if (t.type === '(') {
      open.push(k);
      if (open.length > MAX_BRACKETS)
        throw new Failure(
          `Brackets nest more than ${MAX_BRACKETS} deep at character ${characterAt(text, t.start)}.`,
          t.start,
          t.end,
        );
    } else if (t.type === ')') {
      if (!open.length)
        throw new Failure(
          `A closing bracket at character ${characterAt(text, t.start)} has no opening one.`,
          t.start,
          t.end,
        );
      closes.set(open.pop(), k);
    }
  });
  if (open.length) {
    const t = tokens[open.at(-1)];
    throw new Failure(`The bracket opened at character ${characterAt(text, t.start)} is never closed.`, t.start, t.end);
  }
  return closes;
}

// Recursive descent over the tokens, one function per grammar rule.
function parse(tokens, text) {
  const closes = matchBrackets(tokens, text);
  let pos = 0;
  let nesting = 0;
  // the last exponent written without brackets, as token positions (b^2c is ambiguous after it)
  let bareExponent = null;
  const fail = (message, t) => {
    throw new Failure(message, t.start, t.end);
  };
  const where = (t) => `at character ${characterAt(text, t.start)}`;
  const node = (type, fields, start, end) => ({ type, ...fields, start, end });
  const isOp = (t, ops) => t?.type === 'operator' && ops.includes(t.op);
  const nest = (t) => {
    if (++nesting > MAX_NESTING)
      fail(
        `This formula nests more than ${MAX_NESTING} brackets, powers and signs inside each other (${where(t)}); write it more simply.`,
        t,
      );
  };

  function expression() {
    const terms = [term()];
    const signs = ['+'];
    while (isOp(tokens[pos], '+-')) {
      signs.push(tokens[pos++].op);
      terms.push(term());
    }
    return terms.length === 1 ? terms[0] : node('sum', { terms, signs }, terms[0].start, terms.at(-1).end);
  }

  function term() {
    const firsts = [pos]; // the token each factor starts at, to quote it
    const factors = [signed()];
    const ops = ['*'];
    const typed = (from, to = pos) => shorten(text.slice(tokens[from].start, tokens[to - 1].end));
    for (;;) {
      const t = tokens[pos];
      if (isOp(t, '*/')) {
        pos++;
        ops.push(t.op);
        firsts.push(pos);
        factors.push(signed());
        continue;
      }
      if (!t || !implicit(tokens[pos - 1], t)) break;
      const after = pos;
      const exponent = bareExponent?.end === pos ? bareExponent : null;
      firsts.push(pos);
      factors.push(power());
      const next = typed(after);
      if (ops.at(-1) === '/') {
        const [num, den] = [typed(firsts[0], firsts.at(-2) - 1), typed(firsts.at(-2), after)];
        fail(`"${typed(firsts[0])}" is ambiguous: write (${num}/${den})*${next} or ${num}/(${den}*${next}).`, t);
      }
      if (exponent) {
        const [base, exp] = [typed(firsts.at(-2), exponent.first), typed(exponent.first, after)];
        fail(`"${typed(firsts.at(-2))}" is ambiguous: write ${base}${exp}*${next} or ${base}(${exp}*${next}).`, t);
      }
      ops.push('*');
    }
    return factors.length === 1 ? factors[0] : node('product', { factors, ops }, factors[0].start, factors.at(-1).end);
  }

  // May `next` start a factor multiplied by juxtaposition after `prev`? An
  // error when the juxtaposition is one a reader could take another way.
  function implicit(prev, next) {
    const afterOperand = prev.type === 'number' || prev.type === ')' || prev.type === 'superscript';
    if (next.type === 'function' || next.type === 'variable' || next.type === 'constant') {
      if (afterOperand || next.space) return true;
      return false;
    }
    if (next.type === '(') {
      if (afterOperand) return true;
      fail(
        `${shorten(prev.text)}(…) reads as a function, but ${shorten(prev.text)} is not one: write ${shorten(prev.text)}*(…) to multiply (${where(next)}).`,
        next,
      );
    }
    if (next.type === 'number') {
      const shown = prev.type === ')' ? '(…)' : shorten(prev.text);
      const before = prev.type === 'number' ? 'Two numbers in a row' : `A number right after "${shown}"`;
      fail(`${before} ${where(next)}: put an operator between them, as in ${shown}*${shorten(next.text)}.`, next);
    }
    return false;
  }

  function signed() {
    const t = tokens[pos];
    if (!isOp(t, '+-')) return power();
    if (isOp(tokens[pos - 1], '+-'))
      fail(`Two signs in a row ${where(t)}: write one, or put the negative number in brackets, as in x + (-2).`, t);
    pos++;
    nest(t);
    const arg = power();
    nesting--;
    return t.op === '-' ? node('negate', { arg }, t.start, arg.end) : arg;
  }

  function power() {
    const base = atom();
    const t = tokens[pos];
    if (t?.type === 'superscript') {
      pos++;
      const value = Number(t.digits);
      if (!Number.isFinite(value)) fail(`${shorten(t.text)} is too large to be a number here (${where(t)}).`, t);
      const n = node('number', { value, text: String(value) }, t.start, t.end);
      const exponent = t.negative ? node('negate', { arg: n }, t.start, t.end) : n;
      if (isOp(tokens[pos], '^'))
        fail(
          `Both a superscript and ^ ${where(tokens[pos])}: write the whole exponent after ^, in brackets.`,
          tokens[pos],
        );
      return node('power', { base, exponent }, base.start, t.end);
    }
    if (!isOp(t, '^')) return base;
    pos++;
    nest(t);
    const first = pos;
    const exponent = signed();
    nesting--;
    if (!(tokens[first]?.type === '(' && closes.get(first) === pos - 1)) bareExponent = { first, end: pos };
    return node('power', { base, exponent }, base.start, exponent.end);
  }

  function atom() {
    const t = tokens[pos];
    if (!t || t.type === 'operator' || t.type === ')' || t.type === 'superscript') missingOperand(t, tokens[pos - 1]);
    pos++;
    switch (t.type) {
      case 'number':
        return node('number', { value: t.value, text: t.text }, t.start, t.end);
      case 'variable':
      case 'constant':
        return node(t.type, { name: t.name }, t.start, t.end);
      case 'function': {
        const next = tokens[pos];
        if (next?.type !== '(') {
          if (next?.type === 'superscript' || isOp(next, '^')) {
            const exp =
              next.type === 'superscript'
                ? (next.negative ? '-' : '') + Number(next.digits)
                : tokens[pos + 1]?.type === 'number'
                  ? tokens[pos + 1].text
                  : '…';
            fail(`Put the power after the brackets: ${t.text}(…)^${shorten(exp)} (${where(next)}).`, t);
          }
          const arg =
            next && (next.type === 'number' || next.type === 'variable' || next.type === 'constant')
              ? shorten(next.text)
              : '…';
          fail(`${t.text} needs brackets around what it applies to: ${t.text}(${arg}) (${where(t)}).`, t);
        }
        const inner = bracketed();
        return node('call', { name: t.name, arg: inner }, t.start, tokens[pos - 1].end);
      }
      default: // '('
        pos--;
        return bracketed();
    }
  }

  function bracketed() {
    const open = tokens[pos++];
    nest(open);
    if (tokens[pos].type === ')') fail(`Nothing inside the brackets ${where(open)}.`, open);
    const inner = expression();
    const t = tokens[pos];
    if (t.type !== ')') unexpected(t);
    pos++;
    nesting--;
    return inner;
  }

  function missingOperand(t, prev) {
    if (!t) fail(`Something is missing after "${prev.text}" at the end.`, prev);
    if (t.type === ')') fail(`Something is missing after "${prev.text}" ${where(prev)}.`, prev);
    if (!prev || prev.type === '(') fail(`Nothing before "${t.text}" ${where(t)}.`, t);
    if (isOp(t, '+-') && isOp(prev, '+-'))
      fail(`Two signs in a row ${where(t)}: write one, or put the negative number in brackets, as in x + (-2).`, t);
    fail(`"${t.text}" right after "${prev.text}" ${where(t)}: something is missing between them.`, t);
  }

  function unexpected(t) {
    fail(`"${shorten(t.text)}" ${where(t)} was not expected here.`, t);
  }

  const tree = expression();
  if (pos < tokens.length) unexpected(tokens[pos]);
  return tree;
}

/**
 * Reads a typed answer. `names` are the variables it may use:
 *   { s: { tex: 's' }, theta: { tex: '\\theta', aliases: ['θ'] }, x0: { tex: 'x_0', aliases: ['x₀', 'x_0'] } }
 * (a name without tex gets one: x0 → x_{0}, theta → \theta). Built in: the
 * constants pi (π) and e, the functions sin cos tan exp ln log sqrt abs.
 *
 * → { ok: true, expr: { ast, tex, plain, variables } } where tex is how it
 *   was read (for quizTextToHtml), plain the same as normalised text
 *   ("2*pi*b^(2*i/d)"), variables the names it uses, in order;
 * → { ok: false, message, start, end } for anything else: message is plain
 *   text (set it as text, never as HTML: it quotes what was typed), start
 *   and end the part of `text` it is about (UTF-16 indices, as for
 *   setSelectionRange).
 * Throws only for malformed `names` (the exercise's bug, not the learner's).
 */
export function parseExpression(text, { names = {}, maxLength = 300 } = {}) {
  if (typeof text !== 'string') return { ok: false, message: 'The answer is not text.', start: 0, end: 0 };
  if (!(maxLength >= 0)) maxLength = 300;
  if (text.length > maxLength)
    return {
      ok: false,
      message: `The answer is ${text.length} characters long; at most ${maxLength} are read here.`,
      start: maxLength,
      end: text.length,
    };
  const lex = lexicon(names);
  if (text.trim() === '') return { ok: false, message: 'The answer is empty.', start: 0, end: text.length };
  try {
    const ast = parse(tokenize(text, lex), text);
    const variables = [...new Set(collect(ast, []))];
    return { ok: true, expr: { ast, tex: texOfNode(ast, lex.variables), plain: plainOf(ast), variables } };
  } catch (e) {
    if (e instanceof Failure) return { ok: false, message: e.message, start: e.start, end: e.end };
    throw e;
  }
}

function collect(n, into) {
  if (n.type === 'variable') into.push(n.name);
  for (const child of children(n)) collect(child, into);
  return into;
}

const children = (n) =>
  n.type === 'sum'
    ? n.terms
    : n.type === 'product'
      ? n.factors
      : n.type === 'power'
        ? [n.base, n.exponent]
        : n.arg
          ? [n.arg]
          : [];

// ---------------------------------------------------------------------------
// Evaluating

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
 * ("Your answer divides by zero: (d - d) is 0 when d = 64.").
 */
export function evaluateExpression(expr, scope) {
  if (!expr?.ast) return { ok: false, message: 'There is no formula to evaluate.' };
  const values = scope !== null && typeof scope === 'object' ? scope : {};
  try {
    return { ok: true, value: evaluate(expr.ast, values) };
  } catch (e) {
    if (e instanceof Undefined) return { ok: false, message: `Your answer ${e.message}.` };
    throw e;
  }
}

function evaluate(n, scope) {
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
  const value = (m) => evaluate(m, scope);
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

// ---------------------------------------------------------------------------
// Judging

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
