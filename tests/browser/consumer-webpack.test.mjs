// A course author's site built with webpack 5 (pinned below) from the packed
// package: `posenc-course/widgets` and `loadPosenc` from `posenc-course`, no
// copied files, `webpack` (production, a minimal config), served as static
// files, rendered in Chromium:
// every tag renders (train-lab included), no console error, and the API gives
// PyTorch's sinusoidal table from both builds.
//
// The project lives in build/bundler-sites/webpack/ (git-ignored): webpack is
// installed once and again only when the pinned list changes (a stamp file);
// each run installs the freshly packed tarball over the previous one.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { launch, strictPage, renderAllWidgets, root } from './harness.mjs';
import { createStaticServer } from '../../scripts/serve.mjs';
import { sinusoidalBothBuilds } from '../js/installed-package.mjs';
import { loadCase } from '../js/fixture.mjs';
import { tags as lessonTags } from './widget-tags.mjs';

const PINNED = { webpack: '5.113.0', 'webpack-cli': '7.3.1' };
const project = path.join(root, 'build/bundler-sites/webpack');
const REQUIRED = { 'pe-quiz': 'quiz="sinusoidal-fastest-pair"', 'pe-live-output': 'sample="seat-vectors"' };
const allTags = [...new Set(lessonTags)];
const sinusoidal = loadCase('sinusoidal_L50_d6_base10000.txt');
const npm = (args) => execFileSync('npm', args, { cwd: project, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

let server;
let url;
let browser;
before(async () => {
  mkdirSync(project, { recursive: true });
  // 1. webpack, installed once per pinned list
  const stamp = path.join(project, '.pinned-stamp');
  const pinned = JSON.stringify(PINNED);
  if (!existsSync(stamp) || readFileSync(stamp, 'utf8') !== pinned || !existsSync(path.join(project, 'node_modules/webpack'))) {
    rmSync(path.join(project, 'node_modules'), { recursive: true, force: true });
    rmSync(path.join(project, 'package-lock.json'), { force: true });
    writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'webpack-site', version: '1.0.0', private: true, type: 'module', devDependencies: PINNED }, null, 2));
    npm(['install', '--no-audit', '--no-fund', '--loglevel=error']);
    writeFileSync(stamp, pinned);
  }
  // 2. this checkout, packed and installed over the previous copy
  const packDir = path.join(project, 'pack');
  rmSync(packDir, { recursive: true, force: true });
  mkdirSync(packDir);
  const packed = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', packDir], { cwd: root, encoding: 'utf8' }));
  npm(['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', `./pack/${packed[0].filename}`]);
  for (const f of ['web/posenc.js', 'web/core/load.js', 'web/widgets/train-lab.js']) {
    assert.equal(readFileSync(path.join(project, 'node_modules/posenc-course', f), 'utf8'), readFileSync(path.join(root, f), 'utf8'), `the installed ${f} is this checkout's`);
  }
  // 3. the site
  writeFileSync(
    path.join(project, 'index.html'),
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>my course</title>
<script src="main.js"></script></head><body>
${allTags.map((t) => `<${t} ${REQUIRED[t] ?? ''}></${t}>`).join('\n')}
</body></html>`,
  );
  writeFileSync(path.join(project, 'main.js'), `import 'posenc-course/widgets';\nimport { loadPosenc } from 'posenc-course';\n${sinusoidalBothBuilds(sinusoidal)}\nwindow.apiResult = out;\n`);
  writeFileSync(path.join(project, 'webpack.config.js'), "export default { mode: 'production', entry: './main.js', output: { path: new URL('./dist/', import.meta.url).pathname, filename: 'main.js', clean: true }, experiments: { topLevelAwait: true } };\n");
  execFileSync('npx', ['webpack'], { cwd: project, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  writeFileSync(path.join(project, 'dist/index.html'), readFileSync(path.join(project, 'index.html')));
  server = createStaticServer(path.join(project, 'dist'));
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${server.address().port}`;
  browser = await launch();
});
after(async () => {
  await browser?.close();
  server?.close();
});

test('a page built by webpack 5 from posenc-course/widgets: every tag renders, no console error, and the API equals PyTorch', async () => {
  const p = await strictPage(browser);
  await p.goto(`${url}/`);
  assert.equal(await renderAllWidgets(p, allTags), allTags.length);
  await p.waitForFunction(() => window.apiResult, null, { timeout: 30_000 });
  const result = await p.evaluate(() => window.apiResult);
  const expected = sinusoidal.tensors.out.values;
  for (const build of ['simd', 'scalar']) {
    const worst = Math.max(...result[build].map((v, i) => Math.abs(v - expected[i])));
    assert.ok(result[build].length === expected.length && worst <= 1e-6, `${build}: largest difference ${worst}`);
  }
  assert.deepEqual(p.problems, []);
  await p.close();
});
