// The texts of an author's own question (web/lib/questions/own-quiz.js,
// own-exercise.js) as HTML: a small Markdown, the same whether the question
// was written as JSON or as markup (own-question.js reads markup into it).
//
//   `code`, $TeX$ (the subset web/lib/questions/quiz-text.js typesets as MathML),
//   **bold**, *emphasis*, [a link](https://...) (http, https, mailto or a
//   relative address), \$ for a dollar sign; blocks separated by a blank
//   line, each a paragraph, or a list when every line starts with "- " (or
//   "1. ")
//
// Everything else is text: every character ends up escaped, nothing is
// evaluated, so the result is safe for trustedFragment whatever the text
// holds, and a formula the subset does not know throws (its field is named
// by the caller).
//
// An exercise's texts show its drawn numbers: {{name}} is replaced by the
// value of a draw or a computed value (integers as they are, other numbers
// to 6 significant digits), {{name:3}} with 3 decimals, {{name:4s}} to 4
// significant digits, and {{x > 0 ? after | before}} by the words the
// numbers make true, before the text is read (so inside $...$ too).
import { escapeHtml, texToMathML, blocksToHtml, quizNumber } from './quiz-text.js';

const INLINE = /\\\$|`([^`]*)`|\$([^$]+)\$|\*\*([^*]+)\*\*|\*([^*\s][^*]*)\*|\[([^\]]+)\]\(([^)\s]+)\)/g;
const SAFE_HREF = /^(?:https?:|mailto:|[^:]*$)/i;

/** HTML for one line of an author's text (see above). */
export function authorInline(text) {
  const s = String(text);
  let html = '';
  let last = 0;
  for (const m of s.matchAll(INLINE)) {
    html += escapeHtml(s.slice(last, m.index));
    const [whole, code, tex, bold, em, label, href] = m;
    if (whole === '\\$') html += '$';
    else if (code !== undefined) html += `<code>${escapeHtml(code)}</code>`;
    else if (tex !== undefined) html += texToMathML(tex);
    else if (bold !== undefined) html += `<strong>${authorInline(bold)}</strong>`;
    else if (em !== undefined) html += `<em>${authorInline(em)}</em>`;
    else if (SAFE_HREF.test(href)) html += `<a href="${escapeHtml(href)}">${authorInline(label)}</a>`;
    else html += escapeHtml(whole); // javascript: and the like stay text
    last = m.index + whole.length;
  }
  return html + escapeHtml(s.slice(last));
}

/** HTML for an author's longer text: paragraphs and lists of authorInline lines. */
export const authorBlocks = (text) => blocksToHtml(text, authorInline);

const PLACEHOLDER = /\{\{\s*([A-Za-z][A-Za-z0-9_]*)\s*(?::\s*(\d{1,2})(s?)\s*)?\}\}/g;

// {{condition ? words | other words}}: one or the other, as the numbers drawn
// make the condition; the words may hold {{name}} placeholders themselves.
// Found by a scan that pairs {{ with }} (a regular expression cannot nest).
function choices(text) {
  const found = [];
  for (let i = text.indexOf('{{'); i >= 0;) {
    let depth = 0;
    let question = -1;
    let bar = -1;
    let j = i;
    for (; j < text.length; j++) {
      if (text.startsWith('{{', j)) (depth++, j++);
      else if (text.startsWith('}}', j)) {
        depth--;
        j++;
        if (depth === 0) break;
      } else if (depth === 1 && text[j] === '?' && question < 0) question = j;
      else if (depth === 1 && text[j] === '|' && question >= 0 && bar < 0) bar = j;
    }
    if (depth !== 0) break;
    if (question >= 0 && bar >= 0)
      found.push({
        start: i,
        end: j + 1,
        condition: text.slice(i + 2, question).trim(),
        a: text.slice(question + 1, bar).trim(),
        b: text.slice(bar + 1, j - 1).trim(),
      });
    i = text.indexOf('{{', question >= 0 && bar >= 0 ? j + 1 : i + 2);
  }
  return found;
}

/** The names a text's {{name}} placeholders use, in order. */
export const placeholdersOf = (text) => [...String(text).matchAll(PLACEHOLDER)].map((m) => m[1]);

/** The conditions of a text's {{condition ? a | b}} placeholders, in order. */
export const choicesOf = (text) => choices(String(text)).map((c) => c.condition);

/**
 * A value as a text shows it: a whole number as it is, another to 6
 * significant digits; with `digits`, that many decimals, or that many
 * significant digits when `significant`.
 */
export function shownNumber(value, digits, significant = false) {
  if (digits !== undefined && significant) return String(Number(value.toPrecision(Math.max(1, Number(digits)))));
  if (digits !== undefined) return quizNumber(value, Number(digits));
  if (Number.isInteger(value)) return String(value);
  return String(Number(value.toPrecision(6)));
}

/**
 * `text` with each {{condition ? a | b}} replaced by a or b (`holds(condition)`
 * says which), then each {{name}} ({{name:3}}: 3 decimals, {{name:4s}}: 4
 * significant digits) from `values`; a name without a value throws.
 */
export function fillPlaceholders(text, values, holds = null) {
  let chosen = String(text);
  for (const c of choices(chosen).reverse()) {
    if (!holds) throw new Error(`{{${c.condition} ? ...}} needs a condition that can be checked here`);
    chosen = chosen.slice(0, c.start) + (holds(c.condition) ? c.a : c.b) + chosen.slice(c.end);
  }
  return chosen.replace(PLACEHOLDER, (_, name, digits, s) => {
    if (!Object.hasOwn(values, name)) throw new Error(`{{${name}}} names no draw or computed value`);
    return shownNumber(values[name], digits, s === 's');
  });
}
