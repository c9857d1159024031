// A course author's site built with webpack 5 (pinned: consumer-sites/webpack/) from the packed
// package, no copied files, `webpack` (production, a minimal config with an
// entry per page), served as static files, rendered in Chromium: a page
// importing `posenc-course/widgets` (every tag, train-lab included, and
// `loadPosenc` from `posenc-course`) and one importing `posenc-course/bundle`;
// every tag renders, <train-lab> trains (webpack builds its worker: in a
// worker), no console error, and the API gives PyTorch's sinusoidal table
// from both builds. The shared part: ./consumer-site.mjs.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { launch, startServer } from './harness.mjs';
import { SITES, bundlerProject, pageHtml, checkSite, workerCopies, timed, runProjectBin } from './consumer-site.mjs';

const PAGES = { widgets: 'index.html', bundle: 'bundle.html' };

let project;
let server;
let url;
let browser;
before(async () => {
  project = await bundlerProject('webpack');
  rmSync(path.join(project, 'main.js'), { force: true }); // the former single-page site
  writeFileSync(
    path.join(project, 'webpack.config.js'),
    "export default { mode: 'production', entry: { widgets: './widgets.js', bundle: './bundle.js' }, output: { path: new URL('./dist/', import.meta.url).pathname, filename: '[name].js', clean: true }, experiments: { topLevelAwait: true }, cache: { type: 'filesystem' }, snapshot: { managedPaths: [], module: { hash: true }, resolve: { hash: true } } };\n",
  );
  runProjectBin(project, ['webpack']);
  for (const [name, file] of Object.entries(PAGES))
    writeFileSync(path.join(project, 'dist', file), pageHtml(SITES[name].tags, `${name}.js`, { module: false }));
  ({ server, url } = await startServer({ dir: path.join(project, 'dist') }));
  browser = await launch();
});
after(async () => {
  await browser?.close();
  server?.close();
});

test('webpack emits the train worker once, built (no unbuilt copy)', () => {
  const copies = workerCopies(path.join(project, 'dist'));
  assert.equal(copies.length, 1, `train worker copies: ${copies.join(', ')}`);
  assert.doesNotMatch(
    readFileSync(path.join(project, 'dist', copies[0]), 'utf8'),
    /from\s*["']\.\.\/posenc\.js["']/,
    'the worker is built, not copied',
  );
});

for (const [name, file] of Object.entries(PAGES)) {
  test(`a page built by webpack 5 from posenc-course/${name}: every tag renders, no console error${name === 'widgets' ? ', train-lab trains' : ''}, and the API equals PyTorch`, async (t) => {
    const [{ page: p, trainMode }, seconds] = await timed(() => checkSite(browser, `${url}/${file}`, SITES[name].tags));
    if (trainMode) t.diagnostic(`webpack: train-lab trained in ${trainMode === 'workers' ? 'a worker' : 'the page'}`);
    if (name === 'widgets') assert.equal(trainMode, 'workers');
    t.diagnostic(`webpack ${name} page checked in ${seconds.toFixed(1)} s`);
    await p.close();
  });
}
