// Issue 47's "done means", as a course author meets it: a fresh Vite site
// (pinned below) with this checkout's packed tarball installed, and a page of
// the author's own: docs/embedding.md's quiz and exercise of one's own (the
// exercise's answer the core's rope_angle of numbers drawn for the learner),
// a score board, its own stylesheet setting :root { --pe-accent }, and an
// entry script that imports posenc-course/widgets and configures an LRS.
//
//   1. `vite build` + `vite preview`: the page renders, grades by the credit
//      rule (the quiz wrong then right: ⅔; the exercise right: 1; the board
//      1⅔ of 2), the page's accent reaches the widgets, and Learning Locker's
//      statements service receives initialized, the three answers (under the
//      author's ids and activity base, one definition per question) and
//      completed, each valid
//   2. `npx posenc-course export scorm2004 index.html` in the site, with no
//      Emscripten on PATH: the package validates with the docs' xmllint
//      command and, in scorm-again, reports the score
//   3. `tsc` on a .tsx file of the site with the tags: passes
//   4. the Vite dev server (the package excluded from its pre-bundling, as
//      the docs say): <train-lab> trains in a worker, though its module is
//      train-lab.js?v=<hash> (it trained on the page before)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import http from 'node:http';
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { unzipSync } from 'fflate';
import { launch, newPage, renderAllWidgets } from './harness.mjs';
import { listenLocal } from '../../scripts/run/serve.mjs';
import { siteProject, startVite, stopCommandServer, timed } from './consumer-site.mjs';
import { typeAnswer, exerciseState, quizState, waitUntil, boardSays, assertAuthorAnswers } from './questions.mjs';
import { runtimes, hostPage, launchData } from './scorm-host.mjs';
import { startLrs, LRS_AUTH } from '../js/lrs.mjs';
import { writeAuthorPage } from '../js/author-page.mjs';

const require = createRequire(import.meta.url);
const BASE = 'https://author.example.org/courses/positions';
const ACTOR = { name: 'Vite Learner', mbox: 'mailto:vite-learner@example.org' };
const VERB = (name) => `http://adlnet.gov/expapi/verbs/${name}`;

// the author's entry script: the widgets, and the LRS the page reports to (here given in its query)
const MAIN_JS = `import { configureXapi } from 'posenc-course/widgets';
const lrs = new URLSearchParams(location.search).get('lrs');
if (lrs)
  configureXapi({
    endpoint: lrs,
    auth: ${JSON.stringify(LRS_AUTH)},
    actor: ${JSON.stringify(ACTOR)},
    activityBase: ${JSON.stringify(BASE)},
  });
`;
const LAB_HTML = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>lab</title>
<script type="module" src="/lab.js"></script></head><body><train-lab steps="50" encodings="rope"></train-lab></body></html>`;
const PAGE_TSX = `import 'posenc-course/widgets';
export const Page = () => (
  <pe-quiz-score scope="page">
    <pe-quiz quiz="alibi-farthest-head"></pe-quiz>
    <pe-exercise exercise="rope-angle-of-pair"></pe-exercise>
    <rope-clock d-model={8} sentence="the cat sat" first="cat" second="sat"></rope-clock>
  </pe-quiz-score>
);
`;

let project;
let browser;
let lrs;
let preview;
let url;

before(async () => {
  const [site, seconds] = await timed(() => siteProject('vite-author'));
  project = site.project;
  console.log(`vite-author: ${site.cold ? 'cold (vite installed)' : 'warm'}; install and pack ${seconds.toFixed(1)} s`);
  writeAuthorPage(project);
  // Vite's entry is index.html
  writeFileSync(path.join(project, 'index.html'), readFileSync(path.join(project, 'page.html'), 'utf8'));
  rmSync(path.join(project, 'page.html'));
  mkdirSync(path.join(project, 'public'), { recursive: true });
  writeFileSync(path.join(project, 'main.js'), MAIN_JS);
  writeFileSync(path.join(project, 'lab.html'), LAB_HTML);
  writeFileSync(path.join(project, 'lab.js'), "import 'posenc-course/widgets';\n");
  writeFileSync(
    path.join(project, 'vite.config.js'),
    "export default { build: { rollupOptions: { input: { index: 'index.html', lab: 'lab.html' } } } };\n",
  );
  rmSync(path.join(project, 'dist'), { recursive: true, force: true });
  execFileSync('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: project, stdio: ['ignore', 'pipe', 'pipe'] });
  ({ child: preview, url } = await startVite(project, ['preview']));
  [browser, lrs] = await Promise.all([launch(), startLrs()]);
});
after(async () => {
  await browser?.close();
  stopCommandServer(preview);
  await lrs?.stop();
});

test('the Vite site: the author page renders, grades by the credit rule, takes the :root accent and reports to Learning Locker', async () => {
  const page = await newPage(browser, { viewport: { width: 1100, height: 900 } });
  await page.goto(`${url}/?lrs=${encodeURIComponent(lrs.endpoint)}`);
  await renderAllWidgets(page, ['pe-quiz', 'pe-exercise', 'pe-quiz-score']);
  // the quiz wrong, then right: ⅔
  const q = await quizState(page, 'alibi-farthest-head');
  const quiz = page.locator('pe-quiz');
  await quiz.locator(`.options input[value="${q.order.find((i) => !q.right.includes(i))}"]`).check();
  await quiz.getByRole('button', { name: 'Check' }).click();
  await quiz.getByRole('button', { name: 'Try again' }).click();
  await quiz.locator(`.options input[value="${q.right[0]}"]`).check();
  await quiz.getByRole('button', { name: 'Check' }).click();
  assert.match(await quiz.evaluate((n) => n.shadowRoot.querySelector('.result').textContent), /^Correct\. ⅔ point/);
  // the exercise: the core's angle for this learner's numbers, right at once: 1
  const x = await exerciseState(page, 'rope-angle-of-pair');
  const numbers = await page.locator('pe-exercise').evaluate((n) => n._draw.numbers);
  await typeAnswer(page, page, 'rope-angle-of-pair', x.solution);
  assert.match(
    await page.locator('pe-exercise').evaluate((n) => n.shadowRoot.querySelector('.result').textContent),
    /^Correct\. 1 point\.$/,
  );
  await boardSays(page, 'Score: 1⅔ of 2 points (2 of 2 questions answered)');
  assert.equal(await quiz.evaluate((n) => n.theme().accent.join(',')), '0,128,128', "the page's :root accent");

  // the LRS: initialized, three answers, completed
  let stored = [];
  for (let i = 0; i < 100 && !stored.some((s) => s.verb.id === VERB('completed')); i++) {
    await new Promise((r) => setTimeout(r, 100));
    stored = await lrs.statements();
  }
  const mine = stored.filter((s) => s.actor.mbox === ACTOR.mbox);
  console.log(
    `# Learning Locker stored: ${mine.map((s) => `${s.verb.id.split('/').pop()} ${s.object.id}${s.result?.score ? ` ${s.result.score.raw}/${s.result.score.max}` : ''}`).join('; ')}`,
  );
  assert.deepEqual(
    mine.map((s) => s.verb.id.split('/').pop()),
    ['initialized', 'answered', 'answered', 'answered', 'completed'],
  );
  assertAuthorAnswers(mine, BASE);
  const answered = mine.filter((s) => s.verb.id === VERB('answered'));
  assert.deepEqual(answered[0].object.definition, answered[1].object.definition, 'one definition per question');
  assert.equal(answered[2].object.definition.name['en-US'], 'The angle RoPE turns one pair by');
  assert.deepEqual(answered[2].result.extensions[`${BASE}/extensions/draw`].numbers, numbers);
  assert.deepEqual(mine.at(-1).result.score, { raw: 1.6667, min: 0, max: 2, scaled: 0.8333 });
  assert.equal(mine[0].object.id, BASE);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('npx posenc-course export scorm2004 index.html in the site, no Emscripten on PATH: the package validates and reports its score in scorm-again', async () => {
  // a PATH of node, npm, npx and a shell only (Debian puts emcc beside node in /usr/bin)
  const bin = path.join(project, '.bin-no-emcc');
  rmSync(bin, { recursive: true, force: true });
  mkdirSync(bin);
  for (const tool of ['node', 'npm', 'npx', 'sh']) {
    const found = execFileSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).trim();
    symlinkSync(found, path.join(bin, tool));
  }
  const env = { PATH: bin, HOME: process.env.HOME, npm_config_offline: 'true' };
  assert.notEqual(spawnSync('/bin/sh', ['-c', 'command -v emcc'], { env }).status, 0, 'no emcc on PATH');
  const r = spawnSync(path.join(bin, 'npx'), ['posenc-course', 'export', 'scorm2004', 'index.html'], {
    cwd: project,
    env,
    encoding: 'utf8',
  });
  assert.equal(r.status, 0, r.stdout + r.stderr);
  console.log(`# ${r.stdout.trim().split('\n').join('\n# ')}`);
  assert.match(
    r.stdout,
    /index-scorm2004\.zip \(SCORM 2004 4th edition, \d+ KiB\): 2 questions \(alibi-farthest-head, rope-angle-of-pair\)/,
  );
  const into = path.join(project, 'index-scorm2004');
  rmSync(into, { recursive: true, force: true });
  mkdirSync(into);
  const files = unzipSync(new Uint8Array(readFileSync(path.join(project, 'index-scorm2004.zip'))));
  for (const [name, bytes] of Object.entries(files)) writeFileSync(path.join(into, name), bytes);
  const lint = spawnSync('xmllint', ['--noout', '--nonet', '--schema', 'posenc-validate.xsd', 'imsmanifest.xml'], {
    cwd: into,
    encoding: 'utf8',
  });
  assert.equal(lint.status, 0, lint.stderr);
  console.log(`# xmllint: ${lint.stderr.trim()}`);

  // played in scorm-again
  const server = http.createServer((req, res) => {
    const u = new URL(req.url, 'http://x');
    if (u.pathname === '/host-2004.html')
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(hostPage('2004'));
    else if (u.pathname === '/runtime-2004.js')
      res.writeHead(200, { 'content-type': 'text/javascript' }).end(runtimes['2004']);
    else if (u.pathname.startsWith('/sco/') && files[u.pathname.slice(5)])
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(Buffer.from(files[u.pathname.slice(5)]));
    else res.writeHead(404).end();
  });
  const lms = await listenLocal(server);
  try {
    const page = await newPage(browser, { viewport: { width: 1100, height: 900 } });
    await page.goto(`${lms}/host-2004.html`);
    await page.evaluate((args) => window.startLms(args), { data: launchData('2004'), sco: '/sco/index.html' });
    const frame = page.frameLocator('#sco');
    await frame.locator('pe-quiz').waitFor({ state: 'attached' });
    await renderAllWidgets(frame, ['pe-quiz', 'pe-exercise', 'pe-quiz-score']);
    const q = await quizState(frame, 'alibi-farthest-head');
    await frame.locator(`pe-quiz .options input[value="${q.right[0]}"]`).check();
    await frame.locator('pe-quiz').getByRole('button', { name: 'Check' }).click();
    const x = await exerciseState(frame, 'rope-angle-of-pair');
    await typeAnswer(page, frame, 'rope-angle-of-pair', x.solution);
    await waitUntil(page.locator('body'), () => window.apiWrapper.GetValue('cmi.score.raw') === '2', {
      ms: 10000,
      every: 50,
      message: 'the score never reached the LMS',
    });
    const cmi = await page.evaluate(() =>
      Object.fromEntries(
        ['cmi.score.raw', 'cmi.score.max', 'cmi.score.scaled', 'cmi.completion_status', 'cmi.success_status'].map(
          (k) => [k, window.apiWrapper.GetValue(k)],
        ),
      ),
    );
    console.log(`# scorm-again: ${JSON.stringify(cmi)}`);
    assert.deepEqual(cmi, {
      'cmi.score.raw': '2',
      'cmi.score.max': '2',
      'cmi.score.scaled': '1',
      'cmi.completion_status': 'completed',
      'cmi.success_status': 'passed',
    });
    assert.deepEqual(page.errors, []);
    await page.context().close();
  } finally {
    server.close();
  }
});

test('tsc on a .tsx file of the site with the tags passes', () => {
  writeFileSync(path.join(project, 'page.tsx'), PAGE_TSX);
  writeFileSync(
    path.join(project, 'jsx-library.d.ts'),
    'declare global { namespace JSX { interface Element {} } }\nexport {};\n',
  );
  writeFileSync(
    path.join(project, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'es2022',
        module: 'esnext',
        moduleResolution: 'bundler',
        jsx: 'preserve',
        lib: ['es2022', 'dom'],
        strict: true,
        noEmit: true,
        types: [],
      },
      files: ['jsx-library.d.ts', 'page.tsx'],
    }),
  );
  const r = spawnSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.json'], {
    cwd: project,
    encoding: 'utf8',
  });
  console.log(`# tsc -p tsconfig.json: exit ${r.status}${r.stdout.trim() ? `\n${r.stdout}` : ''}`);
  assert.equal(r.status, 0, r.stdout + r.stderr);
});

test("the Vite dev server: <train-lab> trains in a worker (its module's URL ends in ?v=)", async () => {
  // as docs/embedding.md says: Vite's dev server pre-bundles dependencies,
  // which cuts the worker's file off from its module (the lab then trains on
  // the page); excluded, the package's modules are served as they are
  writeFileSync(
    path.join(project, 'vite.dev.config.js'),
    "export default { optimizeDeps: { exclude: ['posenc-course'] } };\n",
  );
  rmSync(path.join(project, 'node_modules/.vite'), { recursive: true, force: true });
  const { child: server, url: dev } = await startVite(project, ['--config', 'vite.dev.config.js'], '/lab.html');
  try {
    const page = await newPage(browser, { viewport: { width: 1100, height: 900 } });
    await page.goto(`${dev}/lab.html`);
    await renderAllWidgets(page, ['train-lab']);
    const lab = page.locator('train-lab');
    const moduleUrl = await page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .map((e) => e.name)
        .find((n) => /train-lab\.js/.test(n)),
    );
    assert.match(moduleUrl ?? '', /\?v=/, 'served with a ?v= query');
    await lab.evaluate((el) => {
      window.trainDone = null;
      el.addEventListener('train-lab-done', (e) => (window.trainDone = e.detail));
    });
    await lab.getByRole('button', { name: 'Start', exact: true }).click();
    await page.waitForFunction(() => window.trainDone, null, { timeout: 120_000 });
    const mode = await lab.evaluate((el) => el.runInfo.mode);
    console.log(`# vite dev: train-lab trained in ${mode === 'workers' ? 'a worker' : 'the page'}`);
    assert.equal(mode, 'workers');
    await page.context().close();
  } finally {
    stopCommandServer(server);
  }
});
