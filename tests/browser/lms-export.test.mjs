// An author's page packaged by `posenc-course export` (issue 47, item 3),
// played as learners meet it: the SCORM 2004 and 1.2 packages in scorm-again
// (the LMS in a host page, the SCO in an iframe; tests/browser/scorm-host.mjs),
// the quiz answered wrong then right (⅔) and the exercise right at once (1):
// the LMS gets the score (1⅔ of 2), the status, the interactions under the
// author's ids and activity base and the progress in suspend_data, marked
// as the author's own; a relaunch restores both answers. The one-file page
// works opened from disk (file://), with no server.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { mkdtempSync, rmSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { unzipSync } from 'fflate';
import { launch, newPage, renderAllWidgets } from './harness.mjs';
import { quizState, waitUntil, boardSays, answerAuthorQuestions } from './questions.mjs';
import { runtimes, hostPage, launchData } from './scorm-host.mjs';
import { listenLocal } from '../../scripts/run/serve.mjs';
import { exportPage } from '../../lms/export.mjs';
import { writeAuthorPage } from '../js/author-page.mjs';

const BASE = 'https://lms.example.org/courses/positions';
let browser;
let server;
let origin;
let dir;
const packages = {};

before(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'posenc-lms-page-'));
  const page = writeAuthorPage(dir);
  for (const kind of ['scorm12', 'scorm2004']) {
    const { out } = await exportPage({ kind, page, out: path.join(dir, `${kind}.zip`), activityBase: BASE });
    packages[kind === 'scorm12' ? '1.2' : '2004'] = unzipSync(new Uint8Array(readFileSync(out)));
  }
  await exportPage({ kind: 'html', page, out: path.join(dir, 'offline.html') });
  server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    let m;
    if ((m = /^\/host-(1\.2|2004)\.html$/.exec(url.pathname)))
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(hostPage(m[1]));
    else if ((m = /^\/runtime-(1\.2|2004)\.js$/.exec(url.pathname)))
      res.writeHead(200, { 'content-type': 'text/javascript' }).end(runtimes[m[1]]);
    else if ((m = /^\/sco-(1\.2|2004)\/(.+)$/.exec(url.pathname)) && packages[m[1]][m[2]])
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(Buffer.from(packages[m[1]][m[2]]));
    else res.writeHead(404).end();
  });
  origin = await listenLocal(server);
  browser = await launch();
});
after(async () => {
  await browser?.close();
  server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

// the author's quiz wrong, then right (⅔); the exercise right at the first check (1)
async function openLms(version, data = launchData(version)) {
  const page = await newPage(browser, { viewport: { width: 1100, height: 900 } });
  await page.goto(`${origin}/host-${version}.html`);
  await page.evaluate((args) => window.startLms(args), { data, sco: `/sco-${version}/index.html` });
  const frame = page.frameLocator('#sco');
  await frame.locator('pe-quiz').waitFor({ state: 'attached' });
  await renderAllWidgets(frame, ['pe-quiz', 'pe-exercise', 'pe-quiz-score']);
  return { page, frame };
}

for (const version of ['2004', '1.2']) {
  test(`SCORM ${version}: the author's page in scorm-again: a miss then right (⅔) and right (1) score 1⅔ of 2; interactions under the author's ids; a relaunch restores both`, async () => {
    const { page, frame } = await openLms(version);
    await answerAuthorQuestions(page, frame);
    const value = (k) =>
      page.evaluate(
        ([v, key]) => (v === '2004' ? window.apiWrapper.GetValue(key) : window.apiWrapper.LMSGetValue(key)),
        [version, k],
      );
    await waitUntil(
      page.locator('body'),
      () =>
        window.scormLog.filter((c) => /SetValue/.test(c.m) && /interactions\.\d+\.result/.test(c.args[0])).length >= 3,
      {
        ms: 10000,
        every: 50,
        message: 'three answers never reached the LMS',
      },
    );
    if (version === '2004') {
      assert.equal(await value('cmi.score.raw'), '1.67');
      assert.equal(await value('cmi.score.max'), '2');
      assert.equal(await value('cmi.completion_status'), 'completed');
      assert.equal(await value('cmi.success_status'), 'passed');
      const ids = await page.evaluate(() => {
        const n = Number(window.apiWrapper.GetValue('cmi.interactions._count'));
        return Array.from({ length: n }, (_, i) => window.apiWrapper.GetValue(`cmi.interactions.${i}.id`));
      });
      assert.deepEqual(ids.sort(), [`${BASE}/quiz/alibi-farthest-head`, `${BASE}/quiz/rope-angle-of-pair`]);
    } else {
      // (0.6667 + 1) / 2 as a percentage to two decimals: credit is kept to four
      assert.equal(await value('cmi.core.score.raw'), '83.33');
      assert.equal(await value('cmi.core.lesson_status'), 'passed');
      // 1.2's interactions are write-only: what the SCO wrote
      const ids = await page.evaluate(() =>
        window.scormLog
          .filter((c) => c.m === 'LMSSetValue' && /^cmi\.interactions\.\d+\.id$/.test(c.args[0]))
          .map((c) => c.args[1]),
      );
      assert.deepEqual([...new Set(ids)].sort(), ['alibi-farthest-head', 'rope-angle-of-pair']);
    }
    const suspend = await value('cmi.suspend_data');
    assert.match(suspend, /^pe2~/);
    assert.match(suspend, /~alibi-farthest-head\.[89a-f]/, "kept as the author's own (flag 8)");
    // the score board inside the SCO says the same
    await boardSays(frame, 'Score: 1⅔ of 2 points (2 of 2 questions answered)');
    assert.deepEqual(page.errors, []);
    // the LMS's record of the attempt, then a relaunch from it
    const record = await page.evaluate(() => window.runtime.renderCommitCMI(true));
    await page.context().close();
    const resume =
      version === '2004'
        ? { suspend_data: record.cmi?.suspend_data ?? suspend }
        : { suspend_data: suspend, core: { lesson_status: 'incomplete' } };
    const again = await openLms(version, launchData(version, { resume }));
    const restored = await quizState(again.frame, 'alibi-farthest-head');
    assert.match(restored.result, /^Correct\./);
    await boardSays(again.frame, 'Score: 1⅔ of 2 points (2 of 2 questions answered)');
    await again.page.context().close();
  });
}

test('the one-file page opened from disk: the widgets and both questions work with no server, and the score board counts them', async () => {
  const page = await newPage(browser, { viewport: { width: 1100, height: 900 } });
  await page.goto(pathToFileURL(path.join(dir, 'offline.html')).href);
  await renderAllWidgets(page, ['pe-quiz', 'pe-exercise', 'pe-quiz-score']);
  await answerAuthorQuestions(page, page);
  await boardSays(page, 'Score: 1⅔ of 2 points (2 of 2 questions answered)');
  // its own stylesheet came along: the page's accent reaches the widgets (issue 47, item 5)
  assert.equal(await page.locator('pe-quiz').evaluate((n) => n.theme().accent.join(',')), '0,128,128');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
