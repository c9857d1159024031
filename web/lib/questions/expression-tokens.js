// Reading a typed formula's characters (web/lib/questions/expression.js): the words
// it may use (the exercise's names, the constants, the functions) and the
// tokens, with what a word that is not a name probably meant. A failure is
// thrown as a Failure { message, start, end } (plain text, about
// text.slice(start, end)), which expression-parse.js turns into its result;
// it never leaves these modules.

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

// A parse error on its way out; never escapes parseExpression.
export class Failure {
  constructor(message, start, end) {
    Object.assign(this, { message, start, end });
  }
}

// learner text quoted in a message: long runs shortened (never inside an emoji), invisible characters by code
export const shorten = (s) => (s.length > 24 ? `${Array.from(s.slice(0, 40)).slice(0, 20).join('')}…` : s);
const codeOf = (cp) => `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
// 1-based, counting characters as a person does (an emoji is one)
export const characterAt = (text, index) => Array.from(text.slice(0, index)).length + 1;

/**
 * The answer's names (variables and their aliases), the constants and the
 * functions, by the word that spells them. `names` is the exercise's, not the
 * learner's: a malformed one is a bug in the exercise and throws.
 * `functions` ({ name: { params, optional? } }) adds functions of several
 * arguments, separated by commas: the core's, for an author's expressions
 * (web/lib/questions/core-functions.js); a learner's answer never gets them.
 */
export function lexicon(names, functions = null) {
  const words = new Map();
  for (const [word, name] of FUNCTIONS) words.set(word, { type: 'function', name });
  for (const [word, spec] of Object.entries(functions ?? {})) {
    if (!IS_WORD.test(word) || words.has(word))
      throw new TypeError(`expression functions: "${word}" is not a new name`);
    const params = spec.params;
    const optional = spec.optional ?? 0;
    words.set(word, { type: 'function', name: word, params, arity: [params.length - optional, params.length] });
  }
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
    if (words.get(name)?.params) throw new TypeError(`expression names: "${name}" is a function`);
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
  return { words, variables, listed, commas: Object.keys(functions ?? {}).length > 0 };
}

// x → x, x0 → x_{0}, theta → \theta, dmodel → \mathrm{dmodel}
function defaultTex(name) {
  const m = /^([A-Za-z]+)(\d*)$/.exec(name);
  if (!m) return `\\mathrm{${name}}`;
  const base = m[1].length === 1 ? m[1] : GREEK.has(m[1]) ? `\\${m[1]}` : `\\mathrm{${m[1]}}`;
  return m[2] ? `${base}_{${m[2]}}` : base;
}

// ---------------------------------------------------------------------------
// Characters → tokens

export function tokenize(text, lex) {
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
      const token = { type: entry.type, name: entry.name, text: m, start, end: i, space };
      if (entry.params) Object.assign(token, { params: entry.params, arity: entry.arity });
      tokens.push(token);
    } else if ((m = at(SUPERSCRIPT))) {
      i += m.length;
      const digits = Array.from(m.replace('⁻', ''), (c) => SUPERSCRIPT_DIGITS.indexOf(c)).join('');
      tokens.push({ type: 'superscript', text: m, negative: m[0] === '⁻', digits, start, end: i, space });
    } else if (text.startsWith('**', i) || OPERATORS.has(text[i])) {
      const op = text.startsWith('**', i) ? '**' : text[i];
      i += op.length;
      tokens.push({ type: 'operator', op: OPERATORS.get(op) ?? '^', text: op, start, end: i, space });
    } else if (text[i] === '(' || text[i] === ')' || (text[i] === ',' && lex.commas)) {
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
  const known = [...lex.words].filter(([, e]) => e.type === 'function').map(([w]) => w);
  const functions = isCall ? `. Functions you can use here: ${known.join(', ')}` : '';
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
