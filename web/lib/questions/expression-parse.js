// Reading a typed formula (web/lib/questions/expression.js): tokens (from
// expression-tokens.js) → brackets checked → tree, and the tree written
// back as TeX and plain text (expression-tex.js). Nesting is capped while
// parsing, so no input can overflow the stack.
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
//
// A tree's nodes: { type: 'number', value, text } | { type: 'variable' |
// 'constant', name } | { type: 'call', name, arg } | { type: 'negate', arg } |
// { type: 'power', base, exponent } | { type: 'sum', terms, signs } |
// { type: 'product', factors, ops }, each with the { start, end } of the
// text it was read from.

import { Failure, shorten, characterAt, lexicon, tokenize } from './expression-tokens.js';
import { plainOf, texOfNode } from './expression-tex.js';

const MAX_BRACKETS = 50;
// brackets, exponents and signs inside each other; bounds every recursion below
const MAX_NESTING = 100;

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
        if (t.params) return node('call', { name: t.name, args: argumentList(t) }, t.start, tokens[pos - 1].end);
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

  // a function of several arguments (the core's, in an author's expression): (a, b, ...)
  function argumentList(f) {
    const open = tokens[pos++];
    nest(open);
    const args = [];
    const usage = `${f.text}(${f.params.join(', ')})`;
    if (tokens[pos].type === ')') fail(`${usage} needs its arguments (${where(open)}).`, open);
    for (;;) {
      if (tokens[pos].type === ',' || tokens[pos].type === ')')
        fail(`An argument of ${usage} is missing ${where(tokens[pos])}.`, tokens[pos]);
      args.push(expression());
      const t = tokens[pos];
      if (t.type === ',') {
        pos++;
        continue;
      }
      if (t.type !== ')') unexpected(t);
      break;
    }
    pos++;
    nesting--;
    const [min, max] = f.arity;
    if (args.length < min || args.length > max) {
      const takes = min === max ? `${max}` : `${min} to ${max}`;
      fail(`${usage} takes ${takes} argument${max === 1 ? '' : 's'}; got ${args.length} (${where(f)}).`, f);
    }
    return args;
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
 * `functions` ({ name: { params, optional? } }, web/lib/questions/core-functions.js)
 * adds functions of several arguments for an author's expression; a call is
 * a node { type: 'call', name, args }.
 * Throws only for malformed `names` (the exercise's bug, not the learner's).
 */
export function parseExpression(text, { names = {}, functions = null, maxLength = 300 } = {}) {
  if (typeof text !== 'string') return { ok: false, message: 'The answer is not text.', start: 0, end: 0 };
  if (!(maxLength >= 0)) maxLength = 300;
  if (text.length > maxLength)
    return {
      ok: false,
      message: `The answer is ${text.length} characters long; at most ${maxLength} are read here.`,
      start: maxLength,
      end: text.length,
    };
  const lex = lexicon(names, functions);
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

/** The names of the variables in tree `n`, appended to `into` in reading order (repeats kept). */
export function collect(n, into) {
  if (n.type === 'variable') into.push(n.name);
  for (const child of children(n)) collect(child, into);
  return into;
}

const children = (n) =>
  n.args
    ? n.args
    : n.type === 'sum'
      ? n.terms
      : n.type === 'product'
        ? n.factors
        : n.type === 'power'
          ? [n.base, n.exponent]
          : n.arg
            ? [n.arg]
            : [];
