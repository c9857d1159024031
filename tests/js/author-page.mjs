// An author's page for the export tests: docs/embedding.md's quiz and JSON
// exercise ("Questions of your own"), a score board, a stylesheet, an icon
// and an image of its own, and the module script a bundled site has (which
// the export drops: the package's own script defines the widgets).
import { readFileSync, writeFileSync, copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** docs/embedding.md's examples of questions of one's own, by name. */
export function ownExamples() {
  const doc = readFileSync(path.join(root, 'docs/embedding.md'), 'utf8');
  const out = {};
  for (const m of doc.matchAll(/<!-- own-example:start (\S+) -->\s*```html\n([\s\S]*?)```\s*<!-- own-example:end -->/g))
    out[m[1]] = m[2];
  return out;
}

/** docs/embedding.md's example of a code exercise of one's own: { html, definition }. */
export function ownCodeExample() {
  const doc = readFileSync(path.join(root, 'docs/embedding.md'), 'utf8');
  const html = /<!-- own-code-example:start -->\s*```html\n([\s\S]*?)```\s*<!-- own-code-example:end -->/.exec(doc)[1];
  const json = /<script type="application\/json">([\s\S]*?)<\/script>/.exec(html)[1];
  return { html, definition: JSON.parse(json) };
}

/** The page's markup: `script` is the site's entry (src of a module script). */
export function authorPageHtml({ script = '/main.js', extra = '' } = {}) {
  const ex = ownExamples();
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Positions, my way</title>
<meta name="description" content="Two questions of my own on ALiBi and RoPE.">
<link rel="stylesheet" href="style.css">
<link rel="icon" href="icon.png">
<script type="module" src="${script}"></script>
</head>
<body>
<h1>Positions, my way</h1>
<p><img src="icon.png" alt="the course's icon" width="32" height="32"> Two questions of my own.</p>
${ex.quiz}
${ex['exercise-json']}
<pe-quiz-score></pe-quiz-score>
${extra}
</body>
</html>
`;
}

/** Writes the page (page.html), its stylesheet and icon into `dir`; returns the page's path. */
export function writeAuthorPage(dir, options) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'page.html'), authorPageHtml(options));
  writeFileSync(path.join(dir, 'style.css'), ':root { --pe-accent: rgb(0, 128, 128); }\nh1 { font-family: serif; }\n');
  copyFileSync(path.join(root, 'web/favicon.png'), path.join(dir, 'icon.png'));
  return path.join(dir, 'page.html');
}
