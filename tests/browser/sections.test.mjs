// A choice of sections in the browser (issue 34, item 4): the lesson page
// with ?sections=a,b shows only those sections (contents too) and its score
// counts only their questions; a bad choice is named on the page, which
// shows whole. A SCORM 2004 package of two sections with one SCO per section
// (export-scorm --sections rope,long-context --sco-per-section
// --activity-base ...), launched by scorm-again as its manifest says
// (lesson.html?sections=rope), reports a score over RoPE's questions only,
// with interaction ids under the configured IRI base.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { unzipSync, strFromU8 } from 'fflate';
import { useSite, newPage } from './harness.mjs';
import { exportScorm } from '../../scripts/export/export-scorm.mjs';
import * as lessonData from '../../web/gen/lesson-data.js';
import { questionIdsIn } from '../../web/lib/lesson/sections.js';
import { registerLesson } from '../../web/lib/lesson/lesson-registry.js';
import { listenLocal } from '../../scripts/run/serve.mjs';

const require = createRequire(import.meta.url);
const { sections, quizzes, codeExercises } = lessonData;
registerLesson(lessonData); // questionIdsIn reads the registered lesson, as on the page
const site = useSite();
const BASE_IRI = 'https://lms.example.org/courses/pe';

const sectionsShown = (page) => page.$$eval('main > section[id]', (nodes) => nodes.map((n) => n.id));
const tocShown = (page) =>
  page.$$eval('.toc > details > ol > li > a', (nodes) => nodes.map((a) => a.getAttribute('href')));
const scoreText = (page) =>
  page
    .waitForFunction(() => document.querySelector('pe-quiz-score')?.shadowRoot?.querySelector('.text')?.textContent)
    .then((h) => h.jsonValue());

test('the lesson page with ?sections=rope,relative-bias shows those two and scores their questions; a bad choice is named and the whole lesson shows', async () => {
  const page = await newPage(site.browser, { viewport: { width: 1200, height: 900 } });
  await page.goto(`${site.url}/index.html?sections=relative-bias,rope`);
  assert.deepEqual(await sectionsShown(page), ['rope', 'relative-bias', 'references']);
  assert.deepEqual(await tocShown(page), ['#rope', '#relative-bias', '#references']);
  const total = questionIdsIn(['rope', 'relative-bias']).length;
  assert.equal(total, 15);
  assert.match(await scoreText(page), new RegExp(`^Score: 0 of ${total} points`));

  await page.goto(`${site.url}/index.html?sections=rope,alibi`);
  assert.match(
    await page.locator('#sections-error').textContent(),
    /^Unknown section "alibi": this lesson has why-position, .*review\. The whole lesson is shown\.$/,
  );
  assert.equal((await sectionsShown(page)).length, sections.length + 1);
  assert.match(await scoreText(page), new RegExp(`of ${questionIdsIn(null).length} points`));
  assert.deepEqual(page.errors, []);
});

// ------------------------------------------------------------------ SCORM
let tmp;
let server;
let lmsBase;
let files;
const hostPage = `<!doctype html><html><head><meta charset="utf-8"><title>LMS</title><link rel="icon" href="data:,">
<script src="/runtime.js"></script>
<script>
window.scormLog = [];
window.startLms = (sco) => {
  const api = new Scorm2004API({ logLevel: 5, autocommit: false });
  api.loadFromJSON({ learner_id: 'learner-1', learner_name: 'Learner, Test', entry: 'ab-initio' });
  window.runtime = api;
  const wrapper = {};
  for (const m of ['Initialize', 'Terminate', 'GetValue', 'SetValue', 'Commit', 'GetLastError', 'GetErrorString', 'GetDiagnostic']) {
    wrapper[m] = (...args) => {
      const result = api[m](...args);
      if (m === 'SetValue') window.scormLog.push({ el: args[0], value: args[1], error: String(api.GetLastError()) });
      return result;
    };
  }
  window.API_1484_11 = wrapper;
  const frame = document.createElement('iframe');
  frame.id = 'sco';
  frame.style.cssText = 'width:1000px;height:800px;border:0';
  frame.src = sco;
  document.body.append(frame);
};
</script></head><body></body></html>`;

before(async () => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'posenc-sections-'));
  const [{ file }] = await exportScorm({
    outDir: tmp,
    versions: ['2004'],
    sections: 'rope,long-context',
    scoPerSection: true,
    activityBase: BASE_IRI,
  });
  files = unzipSync(readFileSync(file));
  const runtime = readFileSync(require.resolve('scorm-again/scorm2004'), 'utf8');
  server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    if (url.pathname === '/host.html') res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(hostPage);
    else if (url.pathname === '/runtime.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(runtime);
    else if (url.pathname === '/sco/lesson.html')
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(Buffer.from(files['lesson.html']));
    else res.writeHead(404).end();
  });
  lmsBase = await listenLocal(server);
});
after(() => {
  server?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

test("SCORM 2004, one SCO per section: the item launched with ?sections=rope scores over RoPE's questions only, interaction ids under --activity-base", async () => {
  // the manifest's items and their launch parameters
  const manifest = strFromU8(files['imsmanifest.xml']);
  assert.deepEqual(
    [...manifest.matchAll(/parameters="([^"]*)"/g)].map((m) => m[1]),
    ['?sections=rope', '?sections=long-context'],
  );
  // what the one-file SCO counts: RoPE's questions without its code exercise (no Python there)
  const rope = questionIdsIn(['rope']).filter((id) => !codeExercises[id]);
  const quizId = rope.find((id) => quizzes[id] && !quizzes[id].generator && !quizzes[id].multiple);
  const right = quizzes[quizId].options.findIndex((o) => o.correct);

  const page = await newPage(site.browser, { viewport: { width: 1040, height: 900 } });
  await page.goto(`${lmsBase}/host.html`);
  // as the LMS launches the item: the resource's href plus the item's parameters
  await page.evaluate(() => window.startLms('/sco/lesson.html?sections=rope'));
  const frame = page.frameLocator('#sco');
  const quiz = frame.locator(`pe-quiz[quiz="${quizId}"]`);
  await quiz.scrollIntoViewIfNeeded();
  assert.deepEqual(await frame.locator('main > section[id]').evaluateAll((nodes) => nodes.map((n) => n.id)), [
    'rope',
    'references',
  ]);
  await quiz.locator(`.options input[value="${right}"]`).check();
  await quiz.getByRole('button', { name: 'Check' }).click();

  const set = async (el) =>
    (await page.waitForFunction((el) => window.scormLog.findLast((c) => c.el === el), el)).jsonValue();
  assert.equal((await set('cmi.score.max')).value, String(rope.length));
  assert.equal((await set('cmi.score.raw')).value, '1');
  assert.equal((await set('cmi.interactions.0.id')).value, `${BASE_IRI}/quiz/${quizId}`);
  const errors = await page.evaluate(() => window.scormLog.filter((c) => c.error !== '0'));
  assert.deepEqual(errors, []);
  assert.deepEqual(page.errors, []);
});
