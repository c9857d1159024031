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
