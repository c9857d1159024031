// Every relative link in README.md and docs/*.md points at a file that
// exists, and a link with a #fragment at a heading of that file (GitHub's
// anchors: lower case, punctuation dropped, spaces as dashes, -1, -2 ... for
// repeats). Links inside code (fenced blocks, `inline`) are not links;
// http(s) and mailto links are not followed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { brokenLinks } from './markdown-links.mjs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

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

// A path the docs name in code (`web/lib/reporting/scorm.js`,
// `node scripts/build/figures.mjs`) is a file or folder of the tree: a file
// moved or renamed leaves no stale name behind. Paths with a placeholder
// (<tag>, *, NN) and the built or installed ones (not in git) are not checked.
const NAMED_PATH = /(?<![\w./@-])((?:web|scripts|tests|cpp|lms|lessons|bin|docs)\/[\w./-]*[\w/])(?![\w<*-])/g;
const BUILT = /^(web\/(gen|wasm|pyodide|index\.html)|build\/|dist\/)/;
export function stalePaths(text, exists) {
  const stale = [];
  for (const code of text.matchAll(/`([^`\n]+)`/g)) {
    for (const [, p] of code[1].matchAll(NAMED_PATH)) {
      if (BUILT.test(p) || /\bNN\b/.test(p)) continue;
      if (!exists(p.replace(/\/$/, ''))) stale.push(p);
    }
  }
  return stale;
}

test('every path README.md, docs/*.md and lessons/README.md name in code exists', () => {
  const exists = (p) => {
    try {
      readFileSync(path.join(root, p));
      return true;
    } catch (e) {
      return e.code === 'EISDIR';
    }
  };
  const files = [path.join(root, 'README.md'), path.join(root, 'lessons/README.md'), ...docs];
  const stale = files.flatMap((f) =>
    stalePaths(readFileSync(f, 'utf8'), exists).map((p) => `${path.relative(root, f)}: ${p}`),
  );
  assert.deepEqual(stale, []);
  // the check itself: a moved file is caught, a placeholder and a built file are not checked
  assert.deepEqual(
    stalePaths('`scripts/test.mjs` `web/widgets/<tag>.js` `web/gen/lesson-data.js` `web/lib/`', exists),
    ['scripts/test.mjs'],
  );
});
