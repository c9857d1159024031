// A course author's site built with Rollup (pinned in consumer-sites/rollup/, with
// @rollup/plugin-node-resolve and @web/rollup-plugin-import-meta-assets for
// the core's `new URL('../wasm/posenc-<variant>.wasm', import.meta.url)`)
// from the packed package, no copied files, served as static files, rendered
// in Chromium: a page importing `posenc-course/widgets` (every tag, train-lab
// included, and `loadPosenc` from `posenc-course`) and one importing
// `posenc-course/bundle`; every tag renders, <train-lab> trains, no console
// error or failing request, and the API gives PyTorch's sinusoidal table from
// both builds. The shared part: ./consumer-site.mjs.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { launch, startServer } from './harness.mjs';
import { SITES, bundlerProject, pageHtml, checkSite, workerCopies, timed, runProjectBin } from './consumer-site.mjs';

// An author's rollup.config.mjs: one build per page, ES modules, the assets
// plugin. Rollup does not build `new Worker(new URL(...))` as a worker: the
// assets plugin copies train-worker.js as it is, whose own imports
// (../posenc.js, ...) are then missing (404). So train-lab.js is left out of
// the plugin: its worker URL stays unresolved, and it trains on the page
// with no failing request (as with esbuild).
const CONFIG = `import { nodeResolve } from '@rollup/plugin-node-resolve';
import { importMetaAssets } from '@web/rollup-plugin-import-meta-assets';
export default ${JSON.stringify(Object.keys(SITES))}.map((name) => ({
  input: name + '.js',
  output: { dir: 'dist/' + name, format: 'es' },
  plugins: [nodeResolve({ browser: true }), importMetaAssets({ exclude: '**/posenc-course/web/widgets/train-lab.js' })],
}));
`;

let project;
let server;
let url;
let browser;
before(async () => {
  project = await bundlerProject('rollup');
  writeFileSync(path.join(project, 'rollup.config.mjs'), CONFIG);
  rmSync(path.join(project, 'dist'), { recursive: true, force: true });
  runProjectBin(project, ['rollup', '-c', 'rollup.config.mjs', '--silent']);
  for (const [name, s] of Object.entries(SITES))
    writeFileSync(path.join(project, 'dist', name, 'index.html'), pageHtml(s.tags, `${name}.js`));
  ({ server, url } = await startServer({ dir: path.join(project, 'dist') }));
  browser = await launch();
});
after(async () => {
  await browser?.close();
  server?.close();
});

test('Rollup emits no copy of the train worker (train-lab.js left out of the assets plugin)', () => {
  assert.deepEqual(workerCopies(path.join(project, 'dist')), []);
});

for (const name of Object.keys(SITES)) {
  test(`a page built by Rollup from posenc-course/${name}: every tag renders, no console error${name === 'widgets' ? ', train-lab trains' : ''}, and the API equals PyTorch`, async (t) => {
    const [{ page: p, trainMode }, seconds] = await timed(() =>
      checkSite(browser, `${url}/${name}/`, SITES[name].tags),
    );
    if (trainMode) t.diagnostic(`rollup: train-lab trained in ${trainMode === 'workers' ? 'a worker' : 'the page'}`);
    if (name === 'widgets') assert.equal(trainMode, 'page');
    t.diagnostic(`rollup ${name} page checked in ${seconds.toFixed(1)} s`);
    await p.close();
  });
}
