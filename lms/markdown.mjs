// A page written in Markdown, for `posenc-course export <page.md>`
// (lms/page.mjs), read without a Markdown library (the npm package has no
// dependency). The Markdown of an author's question texts
// (web/lib/questions/author-text.js) plus what a page needs:
//
//   # Heading ... ###### Heading       (the first # heading is the title)
//   paragraphs, "- " and "1. " lists, > quotes
//   ```lang ... ```                     code, shown as written
//   $$ ... $$ on lines of their own     a displayed formula
//   inline: `code`, $TeX$, **bold**, *emphasis*, [link](https://...)
//   HTML blocks: a line that starts with a tag (<pe-quiz ...>, <div>) opens
//   a block passed through as written, up to the line that closes that tag
//   (so a question of one's own, markup or JSON, may span blank lines)
//
// Formulas are the TeX subset web/lib/questions/quiz-text.js sets as MathML; one it
// does not know throws, naming the line.
import { authorInline } from '../web/lib/questions/author-text.js';
import { escapeHtml, texToMathML } from '../web/lib/questions/quiz-text.js';

const slug = (text) =>
  text
    .toLowerCase()
    .replace(/<[^>]+>|[^\p{L}\p{N}\s-]/gu, '')
    .trim()
    .replace(/\s+/g, '-');

/** { html, title } of a Markdown page (`where` names it in errors). */
export function markdownPage(text, where = 'page') {
  const lines = String(text).replace(/\r\n?/g, '\n').split('\n');
  const out = [];
  let title = null;
  let i = 0;
  const inline = (s, n) => {
    try {
      return authorInline(s);
    } catch (error) {
      throw new Error(`${where}:${n + 1}: ${error.message}`);
    }
  };
  while (i < lines.length) {
    const line = lines[i];
    if (!line.trim()) {
      i++;
      continue;
    }
    // HTML, to the line that closes the tag it opens
    const open = /^\s*<([a-zA-Z][\w-]*)[\s>/]/.exec(line);
    if (open) {
      const tag = open[1].toLowerCase();
      const opens = new RegExp(`<${tag}(?=[\\s>/])`, 'gi');
      const closes = new RegExp(`</${tag}\\s*>|<${tag}(?=[\\s/])[^>]*/>`, 'gi');
      const block = [];
      let depth = 0;
      for (; i < lines.length; i++) {
        block.push(lines[i]);
        depth += (lines[i].match(opens) ?? []).length - (lines[i].match(closes) ?? []).length;
        // closed again, or an element with no closing tag (<img>) ending at a blank line
        if (depth <= 0 && (new RegExp(closes.source, 'i').test(lines[i]) || !lines[i + 1]?.trim())) {
          i++;
          break;
        }
      }
      out.push(block.join('\n'));
      continue;
    }
    const fence = /^\s*(`{3,})\s*([\w-]*)\s*$/.exec(line);
    if (fence) {
      const body = [];
      const start = i;
      for (i++; i < lines.length && !lines[i].trim().startsWith(fence[1]); i++) body.push(lines[i]);
      if (i >= lines.length) throw new Error(`${where}:${start + 1}: the code block opened here is never closed`);
      i++;
      const lang = fence[2] ? ` class="language-${escapeHtml(fence[2])}"` : '';
      out.push(`<pre><code${lang}>${escapeHtml(body.join('\n'))}</code></pre>`);
      continue;
    }
    if (line.trim() === '$$') {
      const body = [];
      const start = i;
      for (i++; i < lines.length && lines[i].trim() !== '$$'; i++) body.push(lines[i]);
      if (i >= lines.length) throw new Error(`${where}:${start + 1}: the formula opened here is never closed`);
      i++;
      try {
        out.push(`<p class="math-display">${texToMathML(body.join(' '))}</p>`);
      } catch (error) {
        throw new Error(`${where}:${start + 1}: ${error.message}`);
      }
      continue;
    }
    const heading = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      const level = heading[1].length;
      const html = inline(heading[2], i);
      if (level === 1 && title === null) title = heading[2].replace(/[*`$]/g, '');
      out.push(`<h${level} id="${escapeHtml(slug(html))}">${html}</h${level}>`);
      i++;
      continue;
    }
    // a paragraph, a list or a quote: lines up to a blank one or a block
    const start = i;
    const block = [];
    for (; i < lines.length && lines[i].trim() && !/^\s*(<[a-zA-Z]|`{3}|\$\$\s*$|#{1,6}\s)/.test(lines[i]); i++)
      block.push(lines[i].trim());
    if (block.every((l) => /^[-*] /.test(l)))
      out.push(`<ul>${block.map((l, k) => `<li>${inline(l.slice(2), start + k)}</li>`).join('')}</ul>`);
    else if (block.every((l) => /^\d+\. /.test(l)))
      out.push(`<ol>${block.map((l, k) => `<li>${inline(l.replace(/^\d+\. /, ''), start + k)}</li>`).join('')}</ol>`);
    else if (block.every((l) => l.startsWith('>')))
      out.push(`<blockquote><p>${inline(block.map((l) => l.replace(/^>\s?/, '')).join(' '), start)}</p></blockquote>`);
    else out.push(`<p>${inline(block.join(' '), start)}</p>`);
  }
  return { html: out.join('\n'), title };
}
