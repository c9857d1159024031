// A course author's site built with Vite (pinned: consumer-sites/vite/) from the packed
// package, no copied files, `vite build`, served by `vite preview`, rendered
// in Chromium: a page importing `posenc-course/widgets` (every tag, train-lab
// included, and `loadPosenc` from `posenc-course`) and one importing
// `posenc-course/bundle`; every tag renders, <train-lab> trains (Vite builds
// its worker: in a worker), no console error, and the API gives PyTorch's
// sinusoidal table from both builds. The shared part: ./consumer-site.mjs.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { launch } from './harness.mjs';
import {
  SITES,
  bundlerProject,
  pageHtml,
  startVite,
  runProjectBin,
  stopCommandServer,
  checkSite,
  workerCopies,
  timed,
} from './consumer-site.mjs';

let project;
let preview;
let url;
let browser;
before(async () => {
  project = await bundlerProject('vite');
  // the site's two pages: index.html (widgets) and bundle.html
  writeFileSync(path.join(project, 'index.html'), pageHtml(SITES.widgets.tags, '/widgets.js'));
  writeFileSync(path.join(project, 'bundle.html'), pageHtml(SITES.bundle.tags, '/bundle.js'));
  writeFileSync(
    path.join(project, 'vite.config.js'),
    "export default { build: { rollupOptions: { input: { index: 'index.html', bundle: 'bundle.html' } } } };\n",
  );
  rmSync(path.join(project, 'main.js'), { force: true }); // the former single-page site
  rmSync(path.join(project, 'dist'), { recursive: true, force: true });
  runProjectBin(project, ['vite', 'build', '--logLevel', 'warn']);
  ({ child: preview, url } = await startVite(project, ['preview']));
  browser = await launch();
});
after(async () => {
  await browser?.close();
  stopCommandServer(preview);
});

test('Vite emits the train worker once, built (no unbuilt copy, no inlined one)', () => {
  const copies = workerCopies(path.join(project, 'dist'));
  assert.equal(copies.length, 1, `train worker copies: ${copies.join(', ')}`);
  assert.match(copies[0], /^assets\/train-worker-[\w-]+\.js$/);
});

for (const [name, page] of [
  ['widgets', '/'],
  ['bundle', '/bundle.html'],
]) {
  test(`a page built by Vite from posenc-course/${name}: every tag renders, no console error${name === 'widgets' ? ', train-lab trains' : ''}, and the API equals PyTorch`, async (t) => {
    const [{ page: p, trainMode }, seconds] = await timed(() => checkSite(browser, `${url}${page}`, SITES[name].tags));
    if (trainMode) t.diagnostic(`vite: train-lab trained in ${trainMode === 'workers' ? 'a worker' : 'the page'}`);
    if (name === 'widgets') assert.equal(trainMode, 'workers');
    t.diagnostic(`vite ${name} page checked in ${seconds.toFixed(1)} s`);
    await p.close();
  });
}
