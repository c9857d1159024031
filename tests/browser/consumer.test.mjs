// A course author's site built with a bundler from the installed package
// (`npm pack`, `npm install --offline` into a fresh project, then esbuild),
// rendered in Chromium under the strict CSP. This catches asset paths a
// bundler cannot follow:
// - `posenc-course/bundle` (every tag but train-lab, and the compute API of
//   its own inlined core): the page and its one script, no other request;
// - `posenc-course/widgets` with the package's wasm/ folder copied where the
//   core names its .wasm files (`new URL('../wasm/posenc-<variant>.wasm',
//   import.meta.url)`, which esbuild leaves as is: wasm/ next to the folder
//   holding the bundle), as the README says; esbuild inlines the glue: every
//   tag renders, train-lab included, and the API gives PyTorch's sinusoidal table.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { launch, strictPage, renderAllWidgets } from './harness.mjs';
import { createStaticServer } from '../../scripts/serve.mjs';
import { BUNDLE_EXCLUDED } from '../../scripts/bundles.mjs';
import { tags as lessonTags } from './widget-tags.mjs';
import { installPackedPackage, sinusoidalBothBuilds } from '../js/installed-package.mjs';
import { loadCase } from '../js/fixture.mjs';

const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'";
// the attributes a course page must give (a quiz and a sample need an id)
const REQUIRED = { 'pe-quiz': 'quiz="sinusoidal-fastest-pair"', 'pe-live-output': 'sample="seat-vectors"' };
const allTags = [...new Set(lessonTags)];
const page = (tags) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>my course</title>
<script type="module" src="app.js"></script></head><body>
${tags.map((t) => `<${t} ${REQUIRED[t] ?? ''}></${t}>`).join('\n')}
</body></html>`;
const sinusoidal = loadCase('sinusoidal_L50_d6_base10000.txt');
// the consumer's own code: both builds of the API, the result on the page
const apiCheck = `${sinusoidalBothBuilds(sinusoidal)}
  window.apiResult = out;
`;
const SITES = {
  bundle: {
    source: `import { loadPosenc } from 'posenc-course/bundle';\n${apiCheck}`,
    tags: allTags.filter((t) => !BUNDLE_EXCLUDED.includes(t)),
    copy: [],
  },
  widgets: {
    source: `import 'posenc-course/widgets';\nimport { loadPosenc } from 'posenc-course';\n${apiCheck}`,
    tags: allTags,
    copy: ['web/wasm'], // the README's recipe: the core's .wasm files in ../wasm/ from the bundle
  },
};

let installed;
let server;
let url;
let browser;
before(async () => {
  installed = installPackedPackage('posenc-bundler-');
  const { project } = installed;
  for (const [name, site] of Object.entries(SITES)) {
    const out = path.join(project, 'public', name);
    mkdirSync(out, { recursive: true });
    writeFileSync(path.join(project, `${name}.js`), site.source);
    // what a bundler config for the browser looks like: ES module output, minified
    const result = await build({ entryPoints: [path.join(project, `${name}.js`)], bundle: true, format: 'esm', minify: true, platform: 'browser', target: 'es2022', outfile: path.join(out, 'app.js'), absWorkingDir: project, logLevel: 'silent' });
    assert.deepEqual(result.errors, []);
    writeFileSync(path.join(out, 'index.html'), page(site.tags));
    for (const dir of site.copy) cpSync(path.join(project, 'node_modules/posenc-course', dir), path.join(out, '..', path.basename(dir)), { recursive: true });
  }
  server = createStaticServer(path.join(project, 'public'), { headers: { 'Content-Security-Policy': CSP } });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${server.address().port}`;
  browser = await launch();
});
after(async () => {
  await browser?.close();
  server?.close();
  installed?.remove();
});

for (const [name, site] of Object.entries(SITES)) {
  test(`a page bundled by esbuild from posenc-course/${name}: every tag renders under the strict CSP and the API equals PyTorch`, async () => {
    const p = await strictPage(browser);
    await p.goto(`${url}/${name}/`);
    assert.equal(await renderAllWidgets(p, site.tags), site.tags.length);
    for (const t of site.tags) {
      const text = await p.locator(t).first().evaluate((n) => n.shadowRoot.textContent);
      assert.ok(text.trim().length > 0, `${t} shows something`);
    }
    await p.waitForFunction(() => window.apiResult, null, { timeout: 30_000 });
    const result = await p.evaluate(() => window.apiResult);
    const expected = sinusoidal.tensors.out.values;
    for (const build of ['simd', 'scalar']) {
      const worst = Math.max(...result[build].map((v, i) => Math.abs(v - expected[i])));
      assert.ok(result[build].length === expected.length && worst <= 1e-6, `${build}: largest difference ${worst}`);
    }
    assert.deepEqual(p.problems, []);
    assert.deepEqual(p.violations, []);
    const other = p.requests.filter((r) => !/^\/[a-z]+\/(app\.js)?$/.test(r));
    if (name === 'bundle') assert.deepEqual(other, [], 'no request but the page and its script');
    else assert.deepEqual([...new Set(other)].sort(), ['/wasm/posenc-scalar.wasm', '/wasm/posenc-simd.wasm'], 'the glue is in the bundle');
    await p.close();
  });
}
