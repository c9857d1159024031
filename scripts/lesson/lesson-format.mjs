// The lesson's Markdown beyond CommonMark + tables, as markdown-it plugins
// (the syntax is documented in lessons/README.md), used by lesson-markdown.mjs (pass 3 of ../build/build-lesson.mjs):
//
//   ::: aside Title        collapsible implementation detail, closed by default
//   ::: note Title         an always-visible short box (the Notation box)
//   [@key] [@key, loc] [-@key] [@a; @b]
//                          citations of lessons/positional-encoding/references.yaml,
//                          listed in the page's final References part
//
// Errors are BuildErrors naming the file, like every other lesson error.
import container from 'markdown-it-container';
import yaml from 'js-yaml';
import { parseFragment } from 'parse5';

export class BuildError extends Error {}
export const fail = (where, message) => {
  throw new BuildError(`${where}: ${message}`);
};

export const escapeHtml = (s) =>
  String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
export const slug = (s) =>
  s
    .toLowerCase()
    .replace(/<[^>]+>/g, '')
    .replace(/[`*_$\\{}()[\],.:;!?'"’“”]/g, '')
    .trim()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');

const KEY = /^[a-z0-9][a-z0-9-]*$/;

// ------------------------------------------------------------------ asides and notes
// ctx: { where: () => file name for errors }
export function containerPlugin(md, ctx) {
  const titleOf = (token, kind) => token.info.trim().slice(kind.length).trim();

  md.use(container, 'aside', {
    validate: (params) => /^aside(\s|$)/.test(params.trim()),
    render(tokens, i, options, env) {
      if (tokens[i].nesting !== 1) return '</div>\n</details>\n';
      const title = titleOf(tokens[i], 'aside');
      if (!title)
        fail(ctx.where(), '"::: aside" needs a title on the same line: ::: aside Under the hood: float32 rounding');
      // native <details>: closed by default, keyboard-operable, no script
      return `<details class="aside"><summary>${md.renderInline(title, env)}</summary>\n<div class="aside-body">\n`;
    },
  });

  md.use(container, 'note', {
    validate: (params) => /^note(\s|$)/.test(params.trim()),
    render(tokens, i, options, env) {
      if (tokens[i].nesting !== 1) return '</div>\n';
      const title = titleOf(tokens[i], 'note');
      if (!title) return '<div class="note" role="note">\n';
      // role=note, not <aside>: an aside named inside a section (a region
      // landmark) is a nested landmark, which axe reports
      const ids = env.ids ?? (env.ids = new Set());
      const base = `${env.section ?? 'lesson'}-note-${slug(title) || 'box'}`;
      let id = base;
      for (let n = 2; ids.has(id); n++) id = `${base}-${n}`;
      ids.add(id);
      return `<div class="note" role="note" aria-labelledby="${id}">\n<p class="note-title" id="${id}">${md.renderInline(title, env)}</p>\n`;
    },
  });

  // After block parsing: quizzes and exercises are main path (refused inside an aside), and a
  // ::: line no container took (a misspelt kind, a missing closing :::) is an
  // error instead of text on the page.
  md.core.ruler.after('block', 'lesson_containers', (state) => {
    let asideDepth = 0;
    for (const t of state.tokens) {
      if (t.type === 'container_aside_open') asideDepth += 1;
      else if (t.type === 'container_aside_close') asideDepth -= 1;
      else if (t.type === 'fence' && asideDepth > 0 && ['quiz', 'exercise', 'code-exercise'].includes(t.info.trim())) {
        const id = t.content.match(/^id:\s*(\S+)/m)?.[1] ?? '(no id)';
        const kind = t.info.trim();
        fail(
          ctx.where(),
          `${kind} ${id} is inside an aside: ${kind === 'quiz' ? 'quizzes' : 'exercises'} belong to the main path, move it out of the "::: aside"`,
        );
      } else if (t.type === 'inline' && /^:{3,}/.test(t.content)) {
        fail(
          ctx.where(),
          `"${t.content.split('\n')[0]}" is not a container: write "::: aside Title" or "::: note Title", close it with ":::", and give an outer container more colons than the one it holds`,
        );
      }
    }
  });
}

// ------------------------------------------------------------------ citations
// [@key], [@key, locator], [-@key] (the year alone), [@a; @b, locator]
const ITEM = String.raw`-?@[a-z0-9][a-z0-9-]*(?:,[^;\]]*)?`;
const CITATION = new RegExp(String.raw`^\[(${ITEM}(?:;\s*${ITEM})*)\]`);

// ctx: { where: () => file, references: { key: entry }, cited: Set of keys }
export function citationPlugin(md, ctx) {
  md.inline.ruler.before('link', 'citation', (state, silent) => {
    if (state.src.charCodeAt(state.pos) !== 0x5b /* [ */) return false;
    const m = CITATION.exec(state.src.slice(state.pos));
    if (!m) return false;
    const items = m[1].split(';').map((part) => {
      const [, dash, key, locator] = part.trim().match(/^(-?)@([a-z0-9-]+)(?:,(.*))?$/s);
      return { key, yearOnly: dash === '-', locator: (locator ?? '').trim() };
    });
    for (const { key } of items) {
      if (!ctx.references[key])
        fail(ctx.where(), `unknown reference [@${key}]: add it to lessons/positional-encoding/references.yaml`);
    }
    if (!silent) {
      state.push('citation', '', 0).meta = { items };
      for (const { key } of items) ctx.cited.add(key);
    }
    state.pos += m[0].length;
    return true;
  });
  md.renderer.rules.citation = (tokens, i) =>
    tokens[i].meta.items
      .map(({ key, yearOnly, locator }) => {
        const r = ctx.references[key];
        const text = `${yearOnly ? '' : `${r.authors}, `}${r.year}${locator ? `, ${locator}` : ''}`;
        return `<a class="cite" href="#ref-${key}">${escapeHtml(text)}</a>`;
      })
      .join('; ');
}

// ------------------------------------------------------------------ references.yaml
const FIELDS = { authors: 'string', year: 'number', title: 'string', url: 'string', venue: 'string' };

/** Parses references.yaml: { strict: boolean, references: { key: { authors, year, title, url, venue? } } }. */
export function parseReferences(text, file) {
  let doc;
  try {
    doc = yaml.load(text) ?? {};
  } catch (error) {
    fail(file, `does not parse: ${error.message}`);
  }
  if (typeof doc !== 'object' || Array.isArray(doc)) fail(file, 'must be a mapping with strict: and references:');
  for (const k of Object.keys(doc))
    if (k !== 'strict' && k !== 'references') fail(file, `unknown top-level field ${k} (strict, references)`);
  const strict = doc.strict ?? false;
  if (typeof strict !== 'boolean') fail(file, 'strict must be true or false');
  const references = doc.references ?? {};
  if (typeof references !== 'object' || Array.isArray(references))
    fail(file, 'references must map each key to an entry');
  for (const [key, r] of Object.entries(references)) {
    if (!KEY.test(key)) fail(file, `reference key ${key} must be lowercase letters, digits and dashes`);
    if (!r || typeof r !== 'object') fail(file, `reference ${key} must be a mapping`);
    for (const [field, value] of Object.entries(r)) {
      if (!(field in FIELDS))
        fail(file, `reference ${key}: unknown field ${field} (${Object.keys(FIELDS).join(', ')})`);
      if (typeof value !== FIELDS[field] || value === '')
        fail(file, `reference ${key}: ${field} must be a non-empty ${FIELDS[field]}`);
    }
    for (const field of ['authors', 'year', 'title', 'url'])
      if (!(field in r)) fail(file, `reference ${key} needs ${field}`);
    if (!Number.isInteger(r.year)) fail(file, `reference ${key}: year must be an integer`);
    if (!/^https:\/\/[^\s"<>]+$/.test(r.url)) fail(file, `reference ${key}: url must be an https:// address`);
  }
  return { strict, references };
}

/** Keys never cited; with strict: true in references.yaml, any is an error. */
export function checkCitations({ strict, references }, cited, file) {
  const uncited = Object.keys(references).filter((key) => !cited.has(key));
  if (strict && uncited.length) fail(file, `never cited in the lesson (cite or remove them): ${uncited.join(', ')}`);
  return uncited;
}

const endSentence = (s) => (/[.?!]$/.test(s) ? s : `${s}.`);

/** The References part: every entry, by authors then year; '' when there is none. */
export function renderReferences(references) {
  const entries = Object.entries(references).sort(
    ([ka, a], [kb, b]) => a.authors.localeCompare(b.authors) || a.year - b.year || ka.localeCompare(kb),
  );
  if (!entries.length) return '';
  const items = entries.map(
    ([key, r]) =>
      `<li id="ref-${key}">${escapeHtml(r.authors)} (${r.year}). <a href="${escapeHtml(r.url)}">${escapeHtml(endSentence(r.title))}</a>` +
      `${r.venue ? ` ${escapeHtml(endSentence(r.venue))}` : ''}</li>`,
  );
  return (
    `<section id="references" aria-labelledby="references-title">\n` +
    `<h2 id="references-title">References <a class="anchor" href="#references" aria-label="Link to this section">#</a></h2>\n` +
    `<ol class="references">\n${items.join('\n')}\n</ol>\n</section>`
  );
}

// ------------------------------------------------------------------ MathML letters
// KaTeX writes \mathbb{R} as <mi mathvariant="double-struck">R</mi>, but
// MathML Core (Chromium) honours mathvariant="normal" only: ℝ shows as a
// plain R. So the letters themselves become Unicode's mathematical
// alphanumeric characters (R -> ℝ, U+211D), which every engine and screen
// reader knows, and the attribute goes. Only <mi> and <mn> (identifiers and
// numbers); <mtext> stays words. Letters a style lacks keep the attribute.

// first code point of A-Z (then a-z), of 0-9, of Greek capitals and small, per mathvariant
const ALPHANUMERIC = {
  bold: { latin: 0x1d400, digit: 0x1d7ce, greek: 0x1d6a8 },
  italic: { latin: 0x1d434, greek: 0x1d6e2 },
  'bold-italic': { latin: 0x1d468, greek: 0x1d71c },
  script: { latin: 0x1d49c },
  'bold-script': { latin: 0x1d4d0 },
  fraktur: { latin: 0x1d504 },
  'double-struck': { latin: 0x1d538, digit: 0x1d7d8 },
  'bold-fraktur': { latin: 0x1d56c },
  'sans-serif': { latin: 0x1d5a0, digit: 0x1d7e2 },
  'bold-sans-serif': { latin: 0x1d5d4, digit: 0x1d7ec, greek: 0x1d756 },
  'sans-serif-italic': { latin: 0x1d608 },
  'sans-serif-bold-italic': { latin: 0x1d63c, greek: 0x1d790 },
  monospace: { latin: 0x1d670, digit: 0x1d7f6 },
};
// the letters that were in Unicode's Letterlike Symbols block first (their
// slots in the alphanumeric block are unassigned)
const LETTERLIKE = {
  italic: { h: 'ℎ' },
  script: { B: 'ℬ', E: 'ℰ', F: 'ℱ', H: 'ℋ', I: 'ℐ', L: 'ℒ', M: 'ℳ', R: 'ℛ', e: 'ℯ', g: 'ℊ', o: 'ℴ' },
  fraktur: { C: 'ℭ', H: 'ℌ', I: 'ℑ', R: 'ℜ', Z: 'ℨ' },
  'double-struck': { C: 'ℂ', H: 'ℍ', N: 'ℕ', P: 'ℙ', Q: 'ℚ', R: 'ℝ', Z: 'ℤ' },
};

/** `ch` in mathvariant `variant` as one Unicode character, or null if there is none. */
export function styledLetter(ch, variant) {
  const table = ALPHANUMERIC[variant];
  if (!table) return null;
  if (LETTERLIKE[variant]?.[ch]) return LETTERLIKE[variant][ch];
  const c = ch.codePointAt(0);
  let cp = null;
  if (c >= 0x41 && c <= 0x5a) cp = table.latin + (c - 0x41);
  else if (c >= 0x61 && c <= 0x7a) cp = table.latin + 26 + (c - 0x61);
  else if (c >= 0x30 && c <= 0x39 && table.digit) cp = table.digit + (c - 0x30);
  // Greek: Α-Ω (U+03A2 is unassigned; its slot is ϴ), then α-ω after 25 slots and ∇
  else if (c >= 0x391 && c <= 0x3a9 && c !== 0x3a2 && table.greek) cp = table.greek + (c - 0x391);
  else if (c >= 0x3b1 && c <= 0x3c9 && table.greek) cp = table.greek + 26 + (c - 0x3b1);
  return cp === null ? null : String.fromCodePoint(cp);
}

/**
 * Rewrites KaTeX's MathML so that <mi>/<mn> with a mathvariant other than
 * "normal" carry the styled Unicode letters instead (when every character
 * has one); the result is still valid MathML (the annotation keeps the TeX).
 */
export function mathvariantLetters(mathml) {
  return mathml.replace(
    /<(mi|mn)(\s[^>]*?)?\smathvariant="([a-z-]+)"([^>]*)>([^<]*)<\/\1>/g,
    (whole, tag, before = '', variant, after, text) => {
      if (variant === 'normal') return whole;
      const chars = [...text.replace(/&amp;|&lt;|&gt;/g, '\0')];
      const styled = chars.map((ch) => styledLetter(ch, variant));
      if (!chars.length || styled.includes(null)) return whole;
      // a single styled letter in <mi> is not auto-italicised (that applies to plain letters only)
      return `<${tag}${before}${after}>${styled.join('')}</${tag}>`;
    },
  );
}

// MathML elements whose children are positional (base, script, ...): the
// number they must have. Firefox reports any other count as "Invalid markup:
// Incorrect number of children for <msub/> tag" and draws the formula wrong.
export const MATHML_ARITY = { msub: 2, msup: 2, msubsup: 3, mfrac: 2, mover: 2, munder: 2, munderover: 3, mroot: 2 };

/**
 * The malformed elements of a piece of MathML (as the HTML parser of a
 * browser reads it): an array of messages such as '<msub> with 1 child
 * (needs 2)', empty when it is well formed. Children are elements and
 * non-blank text (which a browser also lays out as a child).
 */
export function mathmlProblems(html) {
  const problems = [];
  const walk = (node) => {
    for (const child of node.childNodes ?? []) {
      const need = MATHML_ARITY[child.tagName];
      if (need !== undefined && child.namespaceURI === 'http://www.w3.org/1998/Math/MathML') {
        const n = child.childNodes.filter((c) => c.tagName || (c.nodeName === '#text' && c.value.trim())).length;
        if (n !== need) problems.push(`<${child.tagName}> with ${n} ${n === 1 ? 'child' : 'children'} (needs ${need})`);
      }
      walk(child.content ?? child);
    }
  };
  walk(parseFragment(html));
  return problems;
}
