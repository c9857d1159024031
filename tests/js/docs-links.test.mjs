// Every relative link in README.md and docs/*.md points at a file that
// exists, and a link with a #fragment at a heading of that file (GitHub's
// anchors: lower case, punctuation dropped, spaces as dashes, -1, -2 ... for
// repeats). Links inside code (fenced blocks, `inline`) are not links;
// http(s) and mailto links are not followed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

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

const docs = readdirSync(path.join(root, 'docs'))
  .filter((f) => f.endsWith('.md'))
  .map((f) => path.join(root, 'docs', f));

test('every relative link in README.md and docs/*.md resolves to a file and, with a #fragment, to a heading', () => {
  const files = [path.join(root, 'README.md'), ...docs];
  assert.ok(docs.length >= 6, `docs/ has ${docs.length} pages`);
  const problems = files.flatMap((f) => brokenLinks(f).map((b) => `${path.relative(root, f)}: ${b}`));
  assert.deepEqual(problems, []);
});

test('README.md links to every page of docs/', () => {
  const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
  for (const f of docs)
    assert.ok(readme.includes(`](docs/${path.basename(f)}`), `README.md links to docs/${path.basename(f)}`);
});

test('the check itself: a missing file, a missing heading and a link in code are told apart', () => {
  const file = path.join(root, 'docs', 'example.md');
  const md = [
    '# A page',
    '',
    '## Put it in an LMS: `npm run export:scorm`',
    '',
    '## A page',
    '[ok](api.md) [ok](#a-page-1) [ok](#put-it-in-an-lms-npm-run-exportscorm) ![ok](../README.md)',
    '[gone](nowhere.md) [no heading](api.md#no-such-heading) [none here](#missing)',
    '`[in code](nowhere-either.md)`',
    '```md',
    '[in a block](nowhere-at-all.md)',
    '```',
    '[outside](https://example.org/x.md)',
  ].join('\n');
  assert.deepEqual(brokenLinks(file, md), [
    'nowhere.md: no such file',
    'api.md#no-such-heading: no heading #no-such-heading',
    '#missing: no heading #missing',
  ]);
});
