// A course author's site built with a bundler from the installed package
// (`npm pack`, `npm install --offline` into a fresh project, then esbuild),
// rendered in Chromium under the strict CSP. This catches asset paths a
// bundler cannot follow:
// - `posenc-course/bundle` (every tag but train-lab, and the compute API of
//   its own inlined core): the page and its one script, no other request;
// - `posenc-course/widgets` with the package's wasm/ folder copied where the
//   core names its .wasm files (`new URL('../wasm/posenc-<variant>.wasm',
//   import.meta.url)`, which esbuild leaves as is: wasm/ next to the folder
//   holding the bundle), as docs/embedding.md says; esbuild inlines the glue: every
//   tag renders, train-lab included, and the API gives PyTorch's sinusoidal table.
// esbuild does not build `new Worker(new URL(...))` as a worker: <train-lab>
// sees its worker URL unresolved and trains on the page, with no failing
// request. The shared checks: ./consumer-site.mjs.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { launch, startServer, STRICT_CSP } from './harness.mjs';
import { installPackedPackage } from '../js/installed-package.mjs';
import { SITES, pageHtml, checkSite, workerCopies, timed } from './consumer-site.mjs';

// docs/embedding.md's recipe for posenc-course/widgets: the core's .wasm files in ../wasm/ from the bundle,
// and the code exercises' editor (gen/code-editor.js) in ../gen/
const COPY = { bundle: [], widgets: ['web/wasm', 'web/gen'] };

let installed;
let server;
let url;
let browser;
before(async () => {
  const [, seconds] = await timed(() => (installed = installPackedPackage('posenc-bundler-')));
  console.log(`esbuild: pack and install ${seconds.toFixed(1)} s`);
  const { project } = installed;
  for (const [name, site] of Object.entries(SITES)) {
    const out = path.join(project, 'public', name);
    mkdirSync(out, { recursive: true });
    writeFileSync(path.join(project, `${name}.js`), site.source);
    // what a bundler config for the browser looks like: ES module output, minified
    const result = await build({
      entryPoints: [path.join(project, `${name}.js`)],
      bundle: true,
      format: 'esm',
      minify: true,
      platform: 'browser',
      target: 'es2022',
      outfile: path.join(out, 'app.js'),
      absWorkingDir: project,
      logLevel: 'silent',
    });
    assert.deepEqual(result.errors, []);
    writeFileSync(path.join(out, 'index.html'), pageHtml(site.tags, 'app.js'));
    for (const dir of COPY[name])
      cpSync(path.join(project, 'node_modules/posenc-course', dir), path.join(out, '..', path.basename(dir)), {
        recursive: true,
      });
  }
  ({ server, url } = await startServer({
    dir: path.join(project, 'public'),
    headers: { 'Content-Security-Policy': STRICT_CSP },
  }));
  browser = await launch();
});
after(async () => {
  await browser?.close();
  server?.close();
  installed?.remove();
});

test('esbuild emits no copy of the train worker', () => {
  assert.deepEqual(workerCopies(path.join(installed.project, 'public')), []);
});

for (const [name, site] of Object.entries(SITES)) {
  test(`a page bundled by esbuild from posenc-course/${name}: every tag renders under the strict CSP${name === 'widgets' ? ', train-lab trains' : ''}, and the API equals PyTorch`, async (t) => {
    const [{ page: p, trainMode }, seconds] = await timed(() => checkSite(browser, `${url}/${name}/`, site.tags));
    if (trainMode) t.diagnostic(`esbuild: train-lab trained in ${trainMode === 'workers' ? 'a worker' : 'the page'}`);
    if (name === 'widgets') assert.equal(trainMode, 'page');
    assert.deepEqual(p.violations, []);
    const other = p.requests.filter((r) => !/^\/[a-z]+\/(app\.js)?$/.test(r));
    if (name === 'bundle') assert.deepEqual(other, [], 'no request but the page and its script');
    else
      assert.deepEqual(
        [...new Set(other)].sort(),
        ['/gen/code-editor.js', '/wasm/posenc-scalar.wasm', '/wasm/posenc-simd.wasm', '/wasm/posenc-train-simd.wasm'],
        'the glue is in the bundle',
      );
    t.diagnostic(`esbuild ${name} page checked in ${seconds.toFixed(1)} s`);
    await p.close();
  });
}
