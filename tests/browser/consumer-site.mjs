// What the consumer tests (a course author's site built from the packed
// package by Vite, webpack 5, Rollup or esbuild) share:
// - siteProject(): the bundler's project under build/bundler-sites/<name>/
//   (git-ignored), its packages those of tests/browser/consumer-sites/<name>/'s
//   committed lock (installed by scripts/setup/setup.sh, once per lock), this
//   checkout's packed tarball (packedPackage: packed once per content)
//   installed over the previous copy on each run, offline;
// - the two sites every bundler builds: a page importing
//   `posenc-course/widgets` (every tag, train-lab included) and one importing
//   `posenc-course/bundle` (every tag but train-lab), both also computing
//   PyTorch's sinusoidal table through the API;
// - checkSite(): a page loaded in Chromium, every tag rendered and showing
//   something besides an error, nothing the learner would read as an error
//   (an error box, data-invalid, a note beside a control), the API equal to
//   PyTorch from both builds, <train-lab> started and trained (in workers or
//   on the page: returned), no page or console error or failing request.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { strictPage, renderAllWidgets, assertShowsSomething, learnerVisibleErrors, root } from './harness.mjs';
import { BUNDLE_EXCLUDED } from '../../scripts/build/bundles.mjs';
import { packedPackage, sinusoidalBothBuilds } from '../js/installed-package.mjs';
import { loadCase } from '../js/fixture.mjs';
import { tags as lessonTags } from './widget-tags.mjs';
import { installSite } from '../../scripts/setup/consumer-sites.mjs';
import { freePort } from '../../scripts/run/serve.mjs';

export { root };

// the attributes a course page must give (a quiz, an exercise and a sample
// need an id); train-lab is kept short: one encoding, 50 steps
const REQUIRED = {
  'pe-quiz': 'quiz="sinusoidal-fastest-pair"',
  'pe-exercise': 'exercise="sinusoidal-wavelength"',
  'pe-code-exercise': 'exercise="sinusoidal-code-row"',
  'pe-live-output': 'sample="seat-vectors"',
  'train-lab': 'steps="50" encodings="rope"',
};
export const allTags = [...new Set(lessonTags)];
export const sinusoidal = loadCase('sinusoidal_L50_d6_base10000.txt');
const apiCheck = `${sinusoidalBothBuilds(sinusoidal)}\nwindow.apiResult = out;\n`;

/** The two sites: name -> { source (the entry module), tags (on its page) }. */
export const SITES = {
  widgets: {
    source: `import 'posenc-course/widgets';\nimport { loadPosenc } from 'posenc-course';\n${apiCheck}`,
    tags: allTags,
  },
  bundle: {
    source: `import { loadPosenc } from 'posenc-course/bundle';\n${apiCheck}`,
    tags: allTags.filter((t) => !BUNDLE_EXCLUDED.includes(t)),
  },
};

/** A page holding `tags`, loading `script` (a module unless `module` is false). */
export function pageHtml(tags, script, { module = true } = {}) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>my course</title>
<script ${module ? 'type="module" ' : ''}src="${script}"></script></head><body>
${tags.map((t) => `<${t} ${REQUIRED[t] ?? ''}></${t}>`).join('\n')}
</body></html>`;
}

/**
 * build/bundler-sites/<name>/, a course author's project: its bundler as
 * tests/browser/consumer-sites/<name>/package-lock.json pins it (installed by
 * scripts/setup/setup.sh, or here if its lock changed since: scripts/setup/consumer-sites.mjs),
 * and this checkout packed and installed over the previous copy, offline.
 * Returns { project, npm(args), cold } (`cold`: the bundler was installed by
 * this call).
 */
export function siteProject(name) {
  // 1. the bundler, from the committed lock
  const { project, installed: cold } = installSite(name);
  const npm = (args) =>
    execFileSync('npm', args, { cwd: project, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  // 2. this checkout, packed and installed over the previous copy
  const packDir = path.join(project, 'pack');
  rmSync(packDir, { recursive: true, force: true });
  mkdirSync(packDir);
  const { tarball } = packedPackage();
  copyFileSync(tarball, path.join(packDir, path.basename(tarball)));
  // --no-save: the project stays its committed package.json and lock; --offline: nothing is fetched
  npm([
    'install',
    '--no-save',
    '--offline',
    '--no-audit',
    '--no-fund',
    '--loglevel=error',
    `./pack/${path.basename(tarball)}`,
  ]);
  for (const f of ['web/posenc.js', 'web/core/load.js', 'web/widgets/train-lab.js', 'dist/posenc-widgets.js']) {
    assert.equal(
      readFileSync(path.join(project, 'node_modules/posenc-course', f), 'utf8'),
      readFileSync(path.join(root, f), 'utf8'),
      `the installed ${f} is this checkout's`,
    );
  }
  return { project, npm, cold };
}

/**
 * The bundler's site project (siteProject) with each site's entry written
 * (writeEntries); logs whether the bundler had to be installed and how long
 * it took. Returns the project's folder.
 */
export async function bundlerProject(bundler) {
  const [site, seconds] = await timed(() => siteProject(bundler));
  console.log(
    `${bundler}: ${site.cold ? `cold (${bundler} installed)` : 'warm'}; install and pack ${seconds.toFixed(1)} s`,
  );
  writeEntries(site.project);
  return site.project;
}

/** Writes each site's entry module as <project>/<name>.js. */
export function writeEntries(project) {
  for (const [name, site] of Object.entries(SITES)) writeFileSync(path.join(project, `${name}.js`), site.source);
}

/**
 * The path of the command `name` the project `cwd` installed
 * (node_modules/.bin): its pinned copy or nothing, where `npx` would look
 * the name up on the registry when it is missing.
 */
export const projectBin = (cwd, name) => path.join(cwd, 'node_modules/.bin', name);

/** Runs the project's command `[name, ...args]` (projectBin) in `cwd`; returns its output. */
export function runProjectBin(cwd, [name, ...args]) {
  return execFileSync(projectBin(cwd, name), args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/**
 * Spawns the project's command `[name, ...args]` (projectBin) in `cwd`, in a
 * process group of its own, and waits until `url` answers; returns the child.
 */
export async function startCommandServer([name, ...args], cwd, url) {
  const child = spawn(projectBin(cwd, name), args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(url)).ok) return child;
    } catch {}
    if (i > 150) {
      stopCommandServer(child);
      throw new Error(`${[name, ...args].join(' ')} did not start`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Starts the project's Vite (`vite ...args`: preview, or the dev server) on a
 * free local port and waits until its `page` answers; -> { child, url }.
 */
export async function startVite(cwd, args, page = '/') {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const command = ['vite', ...args, '--port', String(port), '--strictPort', '--host', '127.0.0.1'];
  return { child: await startCommandServer(command, cwd, `${url}${page}`), url };
}

export function stopCommandServer(child) {
  if (child?.pid) {
    try {
      process.kill(-child.pid); // the command and anything it started
    } catch {}
  }
}

/**
 * Loads `url` in Chromium and checks the site: every tag of `tags` renders and
 * shows something, with no learner-visible error (learnerVisibleErrors), the
 * API equals PyTorch from both builds, <train-lab> (if on
 * the page) trains 50 steps to its done event, no console error, no failing
 * request. Returns { page, trainMode } ('workers', 'page' or null); the
 * caller closes the page after its own checks.
 */
export async function checkSite(browser, url, tags) {
  const p = await strictPage(browser);
  await p.goto(url);
  assert.equal(await renderAllWidgets(p, tags), tags.length);
  // rendered is not enough: data-ready is set after an update that failed
  // too, and an error box is text. Nothing a learner reads as an error, no
  // page or console error so far.
  assert.deepEqual(await learnerVisibleErrors(p, tags.join(',')), [], 'errors on the page the learner would see');
  assert.deepEqual(p.problems, [], 'page errors, console errors, failed requests');
  for (const t of tags) await assertShowsSomething(p, t);
  await p.waitForFunction(() => window.apiResult, null, { timeout: 30_000 });
  const result = await p.evaluate(() => window.apiResult);
  const expected = sinusoidal.tensors.out.values;
  for (const build of ['simd', 'scalar']) {
    const worst = Math.max(...result[build].map((v, i) => Math.abs(v - expected[i])));
    assert.ok(result[build].length === expected.length && worst <= 1e-6, `${build}: largest difference ${worst}`);
  }
  let trainMode = null;
  if (tags.includes('train-lab')) {
    const lab = p.locator('train-lab');
    await lab.evaluate((el) => {
      window.trainLog = { progress: 0, done: null };
      el.addEventListener('train-lab-progress', () => window.trainLog.progress++);
      el.addEventListener('train-lab-done', (e) => (window.trainLog.done = e.detail));
    });
    await lab.getByRole('button', { name: 'Start', exact: true }).click();
    await p.waitForFunction(() => window.trainLog.done, null, { timeout: 60_000 });
    const log = await p.evaluate(() => ({
      progress: window.trainLog.progress,
      results: window.trainLog.done.results?.length,
    }));
    assert.ok(log.progress > 0, 'train-lab reported progress');
    assert.equal(log.results, 1, 'train-lab: a result for its one encoding');
    trainMode = await lab.evaluate((el) => el.runInfo.mode);
    assert.ok(['workers', 'page'].includes(trainMode), `train-lab mode ${trainMode}`);
  }
  assert.deepEqual(p.problems, []);
  return { page: p, trainMode };
}

/**
 * The built files under `dir` that hold a copy of the train worker: its own
 * code (a string only web/workers/train-worker.js has) or a data: URL of a
 * module. A bundler that follows the worker emits one; one that does not, none.
 */
export function workerCopies(dir) {
  return readdirSync(dir, { recursive: true })
    .filter((f) => /\.m?js$/.test(f))
    .filter((f) => {
      const text = readFileSync(path.join(dir, f), 'utf8');
      return text.includes('unknown message type') || text.includes('data:text/javascript');
    })
    .sort();
}

/** Runs fn() and returns [its result, seconds taken]. */
export async function timed(fn) {
  const t0 = performance.now();
  const value = await fn();
  return [value, (performance.now() - t0) / 1000];
}
