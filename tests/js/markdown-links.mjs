// Relative links of Markdown files, followed as GitHub does (shared by
// docs-links.test.mjs, for the repository, and package.test.mjs, for the
// files the npm package ships).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** Each line of a Markdown file as { line, code }: code for a fence line and the lines inside a fenced block. */
function markdownLines(markdown) {
  let fence = null;
  return markdown.split('\n').map((line) => {
    const m = line.match(/^\s*(`{3,}|~{3,})/);
    if (!m) return { line, code: fence !== null };
    if (!fence) fence = m[1];
    else if (m[1][0] === fence[0] && m[1].length >= fence.length) fence = null;
    return { line, code: true };
  });
}

/** The text outside fenced code blocks and inline code spans. */
function prose(markdown) {
  return markdownLines(markdown)
    .map(({ line, code }) => (code ? '' : line.replace(/(`+)[\s\S]*?\1/g, '')))
    .join('\n');
}

/** GitHub's anchor for each heading of a Markdown file. */
export function anchors(markdown) {
  const seen = new Map();
  const result = new Set();
  for (const { line, code } of markdownLines(markdown)) {
    const h = !code && line.match(/^#{1,6}\s+(.*?)\s*#*\s*$/);
    if (!h) continue;
    const text = h[1].replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/<[^>]+>/g, '');
    const slug = text
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    result.add(n ? `${slug}-${n}` : slug);
  }
  return result;
}

/** The broken relative links of one Markdown file, as "target: why". */
export function brokenLinks(file, markdown = readFileSync(file, 'utf8')) {
  const broken = [];
  const text = prose(markdown);
  for (const m of text.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    const target = m[1];
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // http:, https:, mailto:
    const [rawPath, fragment] = target.split('#');
    if (!rawPath) {
      if (!anchors(markdown).has(decodeURIComponent(fragment))) broken.push(`${target}: no heading #${fragment}`);
      continue;
    }
    const resolved = path.resolve(path.dirname(file), decodeURIComponent(rawPath));
    if (!existsSync(resolved)) {
      broken.push(`${target}: no such file`);
      continue;
    }
    if (fragment !== undefined) {
      if (!resolved.endsWith('.md')) {
        broken.push(`${target}: a fragment on a file that is not Markdown`);
        continue;
      }
      if (!anchors(readFileSync(resolved, 'utf8')).has(decodeURIComponent(fragment)))
        broken.push(`${target}: no heading #${fragment}`);
    }
  }
  return broken;
}
