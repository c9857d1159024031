// A question its author wrote inside <pe-quiz> or <pe-exercise>, read from
// the element's children, in one of two forms (docs/embedding.md, "Questions
// of your own"), both read as data, never run, so both work under a strict
// Content-Security-Policy:
//
//   JSON   <pe-quiz quiz="my-id"><script type="application/json">{ "question": ...,
//          "options": [...] }</script></pe-quiz>: the browser never runs a
//          script of that type; its text is JSON.parse'd
//   markup a quiz's question as elements, then its options as a list (<ul>
//          or <ol>; <li data-correct data-feedback="...">), then an optional
//          [data-explanation]; an exercise's fields as elements marked
//          data-title, data-prompt, data-draw="name" (<data value="int 1 8">),
//          data-let, data-require, data-answer (with its data-slip elements
//          after it), data-hint, data-solution
//
// Both give the same definition (own-quiz.js and own-exercise.js check and
// compile it). Markup texts are read into the same Markdown the JSON texts
// are written in (web/lib/questions/author-text.js): <em>, <strong>, <code>, <a href>,
// paragraphs and lists keep their meaning, anything else gives its text.
// Whatever is wrong is thrown as a fieldError naming the field.

/**
 * An error in an author's question: `field` is where (options[1].feedback,
 * draws.m.int), the message says what is wrong. It carries `kind`, as the
 * core's errors do, so the widget shows it in its box (PeElement).
 */
export function fieldError(field, message) {
  const error = new Error(field ? `${field}: ${message}` : message);
  error.kind = 'Error';
  error.field = field;
  return error;
}

/** The text of a JSON parse error with its line, from the engine's message. */
function jsonProblem(text, error) {
  const at = /position (\d+)/.exec(error.message);
  const line = at ? text.slice(0, Number(at[1])).split('\n').length : null;
  return `${error.message.replace(/^JSON\.parse: /, '')}${line && !/line \d/.test(error.message) ? ` (line ${line})` : ''}`;
}

/**
 * The definition an element holds: { definition, form: 'json' | 'markup' }.
 * Throws a fieldError for JSON that does not parse or markup out of place.
 */
export function readOwnQuestion(el) {
  const scripts = [...el.children].filter(
    (c) => c.localName === 'script' && c.getAttribute('type') === 'application/json',
  );
  if (scripts.length > 1)
    throw fieldError('', `${scripts.length} <script type="application/json"> inside; a question has one`);
  if (scripts.length === 1) {
    const text = scripts[0].textContent;
    let definition;
    try {
      definition = JSON.parse(text);
    } catch (error) {
      throw fieldError('', `its JSON does not parse: ${jsonProblem(text, error)}`);
    }
    return { definition, form: 'json' };
  }
  const read = el.localName === 'pe-quiz' ? quizMarkup : exerciseMarkup;
  return { definition: read(el), form: 'markup' };
}

// ---------------------------------------------------------------- markup

const INLINE_MARKS = { em: '*', i: '*', strong: '**', b: '**', code: '`' };
const BLOCKS = new Set(['p', 'div', 'section', 'blockquote', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

/** An element's content as author-text Markdown: blocks apart by a blank line, lists as "- " lines. */
export function markdownOf(node) {
  const blocks = [];
  let line = '';
  const flush = () => {
    if (line.trim()) blocks.push(line.trim());
    line = '';
  };
  const inline = (n) => {
    if (n.nodeType === 3) return n.data.replace(/\s+/g, ' ');
    if (n.nodeType !== 1) return '';
    const tag = n.localName;
    const inner = () => [...n.childNodes].map(inline).join('');
    if (tag === 'br') return ' ';
    if (tag === 'code') return `\`${n.textContent}\``;
    if (INLINE_MARKS[tag]) return `${INLINE_MARKS[tag]}${inner().trim()}${INLINE_MARKS[tag]}`;
    if (tag === 'a' && n.getAttribute('href')) return `[${inner().trim()}](${n.getAttribute('href')})`;
    return inner();
  };
  const walk = (parent) => {
    for (const n of parent.childNodes) {
      const tag = n.nodeType === 1 ? n.localName : '';
      if (tag === 'script' || tag === 'style' || tag === 'template') continue;
      if (tag === 'ul' || tag === 'ol') {
        flush();
        const items = [...n.children].filter((c) => c.localName === 'li');
        blocks.push(items.map((li, k) => `${tag === 'ul' ? '-' : `${k + 1}.`} ${inline(li).trim()}`).join('\n'));
      } else if (BLOCKS.has(tag)) {
        flush();
        walk(n);
        flush();
      } else line += inline(n);
    }
  };
  walk(node);
  flush();
  return blocks.join('\n\n');
}

const describe = (el) => `<${el.localName}${el.attributes.length ? ` ${el.attributes[0].name}` : ''}>`;

// <p>question</p> <ul data-multiple><li data-correct data-feedback="...">text</li></ul> <p data-explanation>
function quizMarkup(el) {
  const definition = {};
  const question = [];
  let list = null;
  for (const child of el.children) {
    if (child.localName === 'script') continue;
    if (child.hasAttribute('data-title')) definition.title = markdownOf(child);
    else if (child.hasAttribute('data-explanation')) definition.explanation = markdownOf(child);
    else if (!list && (child.localName === 'ul' || child.localName === 'ol')) list = child;
    else if (list)
      throw fieldError(
        'markup',
        `${describe(child)} after the options: only the explanation (an element with data-explanation) may follow them`,
      );
    else question.push(markdownOf(child));
  }
  if (question.length) definition.question = question.join('\n\n');
  if (list) {
    if (list.hasAttribute('data-multiple')) definition.multiple = true;
    definition.options = [...list.children].map((li, i) => {
      if (li.localName !== 'li')
        throw fieldError(`options[${i}]`, `${describe(li)} in the options list: each option is an <li>`);
      const option = { text: markdownOf(li) };
      const correct = li.getAttribute('data-correct');
      if (correct !== null) option.correct = correct !== 'false';
      const feedback = li.getAttribute('data-feedback');
      if (feedback !== null) option.feedback = feedback;
      return option;
    });
  }
  return definition;
}

const EXERCISE_FIELDS = [
  'data-title',
  'data-prompt',
  'data-draw',
  'data-let',
  'data-require',
  'data-answer',
  'data-slip',
  'data-hint',
  'data-solution',
];

// the value of a data-* field element: its value attribute (a <data>), else its text
const valueOf = (el) => (el.getAttribute('value') ?? el.textContent).trim();

// "int 1 h", "int 0, d/2 - 1", "choice 4 8 16", "range 0.5 2 digits 1", "int 2 64 step 2"
function drawOf(text, field) {
  const m = /^([a-z]+)\s+([\s\S]*)$/.exec(text.trim());
  if (!m)
    throw fieldError(
      field,
      `${JSON.stringify(text)} is not a draw: write int LOW HIGH, choice A B C or range LOW HIGH`,
    );
  const [, kind, rest] = m;
  let args = rest.includes(',') ? rest.split(',') : rest.split(/\s+/);
  args = args.map((a) => a.trim()).filter(Boolean);
  const number = (a) => (/^-?\d+(\.\d+)?(e-?\d+)?$/i.test(a) ? Number(a) : a);
  const draw = {};
  const option = (name) => {
    const k = args.indexOf(name);
    if (k < 0) return;
    draw[name] = number(args[k + 1] ?? '');
    args.splice(k, 2);
  };
  if (kind === 'choice') draw.choice = args.map(number);
  else {
    option('step');
    option('digits');
    draw[kind] = args.map(number);
  }
  return draw;
}

// "rel 0.002", "abs 0.01"
function toleranceOf(text, field) {
  const m = /^(rel|abs)\s+(\S+)$/.exec(text.trim());
  if (!m) throw fieldError(field, `${JSON.stringify(text)} is not a tolerance: write rel 0.001 or abs 0.01`);
  return { [m[1]]: Number(m[2]) };
}

function exerciseMarkup(el) {
  const definition = {};
  const parts = [];
  for (const child of el.children) {
    if (child.localName === 'script') continue;
    const field = EXERCISE_FIELDS.find((f) => child.hasAttribute(f));
    if (!field)
      throw fieldError(
        'markup',
        `${describe(child)} has no field: mark each element with one of ${EXERCISE_FIELDS.join(', ')}`,
      );
    const name = child.getAttribute(field);
    switch (field) {
      case 'data-title':
        definition.title = markdownOf(child);
        break;
      case 'data-prompt':
      case 'data-hint':
      case 'data-solution':
        definition[field.slice(5)] = markdownOf(child);
        break;
      case 'data-draw':
        definition.draws ??= {};
        definition.draws[name] = drawOf(valueOf(child), `draws.${name}`);
        break;
      case 'data-let':
        definition.let ??= {};
        definition.let[name] = valueOf(child);
        break;
      case 'data-require':
        (definition.require ??= []).push(name || valueOf(child));
        break;
      case 'data-answer': {
        const part = { answer: name || valueOf(child) };
        const where = `parts[${parts.length}]`;
        for (const [attr, key] of [
          ['data-type', 'type'],
          ['data-unit', 'unit'],
          ['data-label', 'label'],
        ])
          if (child.hasAttribute(attr)) part[key] = child.getAttribute(attr);
        if (child.hasAttribute('data-digits')) part.digits = Number(child.getAttribute('data-digits'));
        if (child.hasAttribute('data-tolerance'))
          part.tolerance = toleranceOf(child.getAttribute('data-tolerance'), `${where}.tolerance`);
        parts.push(part);
        break;
      }
      case 'data-slip':
        if (!parts.length)
          throw fieldError('markup', 'a data-slip element before any data-answer: a slip follows its answer');
        (parts.at(-1).slips ??= []).push({ answer: name, message: markdownOf(child) });
        break;
    }
  }
  if (parts.length) definition.parts = parts;
  return definition;
}

// ---------------------------------------------------------------- checks shared by own-quiz.js and own-exercise.js

const kindOf = (v) =>
  v === null
    ? 'null'
    : Array.isArray(v)
      ? 'a list'
      : typeof v === 'object'
        ? 'an object'
        : `the ${typeof v} ${JSON.stringify(v).slice(0, 40)}`;

/** `value` must be a plain object whose keys are all in `allowed`; `path` names it. */
export function checkObject(value, allowed, path) {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw fieldError(path, `must be an object; got ${kindOf(value)}`);
  for (const key of Object.keys(value))
    if (!allowed.includes(key))
      throw fieldError(path ? `${path}.${key}` : key, `is not a field here (the fields are ${allowed.join(', ')})`);
  return value;
}

/** A text field: a non-empty string (or, if not required, absent: null). */
export function textField(value, path, { required = true } = {}) {
  if (value === undefined || value === null) {
    if (required) throw fieldError(path, 'is missing');
    return null;
  }
  if (typeof value !== 'string') throw fieldError(path, `must be text; got ${kindOf(value)}`);
  if (!value.trim()) {
    if (required) throw fieldError(path, 'is empty');
    return null;
  }
  if (value.length > 10000) throw fieldError(path, `is ${value.length} characters long; at most 10000`);
  return value;
}

/** A list field of `min` to `max` entries. */
export function listField(value, path, min, max) {
  if (!Array.isArray(value)) throw fieldError(path, `must be a list; got ${kindOf(value)}`);
  if (value.length < min || value.length > max)
    throw fieldError(
      path,
      `has ${value.length} entr${value.length === 1 ? 'y' : 'ies'}; it needs ${min === max ? min : `${min} to ${max}`}`,
    );
  return value;
}

/** `render(text)` (the Markdown and maths of author-text.js), with a formula that cannot be set named by field. */
export function rendered(render, text, path) {
  try {
    return render(text);
  } catch (error) {
    throw fieldError(path, error.message);
  }
}

export { kindOf };
