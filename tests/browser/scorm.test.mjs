// The SCORM packages against a real SCORM runtime: scorm-again's Scorm12API /
// Scorm2004API is the LMS in a host page in Chromium, the unzipped package
// (fflate) runs in an iframe below it, and every quiz is answered with the
// keyboard, some right, some wrong, one after Show solution. Checked: the
// score, the status, the session time, suspend_data within SCORM 1.2's 4,096
// characters, the runtime's last error "0" after every call, finish on
// pagehide, the exit ("suspend" mid-way; normal once every question is
// answered: "" in 1.2, "normal" in 2004), a relaunch from the first attempt's
// data restoring every answer, the new attempt an LMS opens after a normal exit
// (no suspend_data: a fresh start, and suspend when left mid-way),
// the xAPI statements the SCO makes (validated), the package opened without an
// LMS (as dist/lesson.html), and runtimes that err, throw or vanish, and
// suspend_data that is corrupt or foreign.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { readFileSync, mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { unzipSync } from 'fflate';
import { launch, newPage } from './harness.mjs';
import { exerciseState, typeAnswer, quizState, answerWithKeyboard, wrongPick, waitUntil } from './questions.mjs';
import { exportScorm } from '../../scripts/export/export-scorm.mjs';
import { listenLocal } from '../../scripts/run/serve.mjs';
import { runtimes, hostPage, launchData } from './scorm-host.mjs';

const require = createRequire(import.meta.url);
const validateStatement = require('@learninglocker/xapi-validation').default;
const PLACEHOLDER_ACTOR = { objectType: 'Agent', name: 'Test Learner', mbox: 'mailto:learner@example.com' };

let browser;
let server;
let base;
let tmp;
const packages = {}; // version -> { files: { name: Uint8Array }, manifest }

before(async () => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'posenc-scorm-test-'));
  const built = await exportScorm({ outDir: tmp });
  for (const { version, file } of built) {
    const files = unzipSync(readFileSync(file));
    packages[version] = { files, zipBytes: readFileSync(file).length };
  }
  server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    let m;
    if ((m = /^\/host-(1\.2|2004)\.html$/.exec(url.pathname))) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(hostPage(m[1]));
    } else if ((m = /^\/runtime-(1\.2|2004)\.js$/.exec(url.pathname))) {
      res.writeHead(200, { 'content-type': 'text/javascript' }).end(runtimes[m[1]]);
    } else if ((m = /^\/sco-(1\.2|2004)\/(.+)$/.exec(url.pathname)) && packages[m[1]].files[m[2]]) {
      res
        .writeHead(200, { 'content-type': m[2].endsWith('.html') ? 'text/html; charset=utf-8' : 'application/xml' })
        .end(Buffer.from(packages[m[1]].files[m[2]]));
    } else res.writeHead(404).end();
  });
  base = await listenLocal(server);
  browser = await launch();
});

after(async () => {
  await browser?.close();
  server?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

async function openLms(
  version,
  { data = launchData(version), mode = 'normal', sco = `/sco-${version}/lesson.html` } = {},
) {
  const page = await newPage(browser, { viewport: { width: 1040, height: 900 } });
  // in every frame: collect the SCO's statements and quiz events
  await page.addInitScript(() => {
    window.statements = [];
    window.answers = [];
    addEventListener('posenc-xapi', (e) => window.statements.push(e.detail));
    document.addEventListener('pe-quiz-answered', (e) => window.answers.push(e.detail));
  });
  await page.goto(`${base}/host-${version}.html`);
  await page.evaluate((args) => window.startLms(args), { data, sco, mode });
  const frame = page.frameLocator('#sco');
  await frame.locator('pe-quiz').first().waitFor({ state: 'attached' });
  return { page, frame };
}

const quizIdsOf = (frame) => frame.locator('pe-quiz').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('quiz')));
const exerciseIdsOf = (frame) =>
  frame.locator('pe-exercise').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('exercise')));

/**
 * One full attempt: every quiz answered, a third of them wrong, one right
 * answer after Show solution (revealed, no credit); every exercise typed in,
 * the first wrong then right (two thirds of a point), the second after Show
 * solution (revealed), the others right. Returns the expected tally.
 */
async function answerEverything(page, frame) {
  const { ids, correct: quizPoints, revealedId } = await answerQuizzes(page, frame);
  const exerciseIds = await exerciseIdsOf(frame);
  let points = quizPoints;
  for (const [k, id] of exerciseIds.entries()) {
    const { solution } = await exerciseState(frame, id);
    if (k === 0) {
      await typeAnswer(
        page,
        frame,
        id,
        solution.map((v) => `${v}+1000`),
      );
      await typeAnswer(page, frame, id, solution);
      points += 2 / 3;
    } else if (k === 1) {
      await frame
        .locator(`pe-exercise[exercise="${id}"]`)
        .getByRole('button', { name: 'Show solution' })
        .press('Enter');
      await typeAnswer(page, frame, id, solution);
    } else {
      await typeAnswer(page, frame, id, solution);
      points += 1;
    }
  }
  return {
    ids: [...ids, ...exerciseIds],
    quizIds: ids,
    exerciseIds,
    points,
    revealedId,
    partialId: exerciseIds[0],
    revealedExerciseId: exerciseIds[1],
  };
}

async function answerQuizzes(page, frame) {
  const ids = await quizIdsOf(frame);
  let correct = 0;
  let revealedId = null;
  for (const [k, id] of ids.entries()) {
    if (process.env.POSENC_TEST_VERBOSE) console.log(`# ${k} ${id}`);
    const s = await quizState(frame, id);
    if (k === 1) {
      // Show solution first, then answer right: recorded as revealed
      await frame.locator(`pe-quiz[quiz="${id}"]`).getByRole('button', { name: 'Show solution' }).press('Enter');
      await frame.locator(`pe-quiz[quiz="${id}"]`).getByRole('button', { name: 'Try again' }).press('Enter');
      await answerWithKeyboard(page, frame, id, s.right);
      revealedId = id;
    } else if (k % 3 === 2) {
      await answerWithKeyboard(page, frame, id, s.multiple ? [s.right[0]] : wrongPick(s));
    } else {
      await answerWithKeyboard(page, frame, id, s.right);
      correct += 1;
    }
  }
  return { ids, correct, revealedId };
}

const errorsAfterCalls = (log) =>
  log
    .filter((c) => c.error !== '0')
    .map((c) => `${c.m}(${c.args.join(', ').slice(0, 60)}) -> ${c.result}, error ${c.error}`);

async function closeSco(page) {
  // the LMS unloads the SCO (as on leaving the activity): the SCO finishes on pagehide
  await page.evaluate(() => (document.getElementById('sco').src = 'about:blank'));
  await page.waitForFunction(() => window.runtime.isTerminated());
}

function summarise(log) {
  return log.map(
    (c) =>
      `${c.m}(${c.args.map((a) => (a.length > 40 ? `${a.slice(0, 37)}...(${a.length})` : a)).join(', ')}) = ${c.result}`,
  );
}

for (const version of ['1.2', '2004']) {
  test(`SCORM ${version}: a full attempt with the keyboard reports score, status, session time and compact suspend_data; a relaunch restores every answer`, async () => {
    const { page, frame } = await openLms(version);
    const { ids, quizIds, exerciseIds, points, revealedId, partialId, revealedExerciseId } = await answerEverything(
      page,
      frame,
    );
    const total = ids.length;
    const correct = Math.round(points * 10000) / 10000;
    const say = (m) => process.env.POSENC_TEST_VERBOSE && console.log(`# ${m}`);
    say('answered');
    // one commit after each answer
    await page.waitForFunction((n) => window.scormLog.filter((c) => /Commit/.test(c.m)).length >= n, total);
    say('committed');
    // what each question shows now, to compare after the relaunch
    const shown = {};
    for (const id of quizIds) shown[id] = await quizState(frame, id);
    for (const id of exerciseIds) shown[id] = await exerciseState(frame, id);
    const statements = await frame.locator('body').evaluate(() => window.statements);
    say('statements');
    await closeSco(page);
    say('closed');
    const log = await page.evaluate(() => window.scormLog);
    const data = await page.evaluate(() => JSON.parse(JSON.stringify(window.runtime.cmi)));
    assert.deepEqual(errorsAfterCalls(log), [], 'every call leaves the last error at "0"');
    assert.equal(log[0].m, version === '2004' ? 'Initialize' : 'LMSInitialize');
    assert.equal(log.at(-1).m, version === '2004' ? 'Terminate' : 'LMSFinish');
    const commits = log.filter((c) => /Commit/.test(c.m)).length;
    assert.ok(commits >= total + 1, `a commit after each of the ${total} answers (got ${commits})`);
    const sets = Object.fromEntries(log.filter((c) => /SetValue/.test(c.m)).map((c) => [c.args[0], c.args[1]]));
    const suspend = data.suspend_data;
    assert.ok(suspend.length <= 4096, `suspend_data is ${suspend.length} characters`);
    assert.match(suspend, /^pe2~/);
    const scaled = points / total;
    if (version === '2004') {
      assert.ok(Math.abs(Number(data.score.raw) - points) < 0.01, `score.raw ${data.score.raw}, expected ${points}`);
      assert.equal(Number(data.score.max), total);
      assert.equal(Number(data.score.min), 0);
      assert.ok(Math.abs(Number(data.score.scaled) - scaled) < 1e-4);
      assert.equal(data.completion_status, 'completed');
      assert.equal(data.success_status, scaled >= 0.8 ? 'passed' : 'failed');
      assert.match(sets['cmi.session_time'], /^PT\d+H\d+M\d+(\.\d{1,2})?S$/);
      assert.equal(data.exit, 'normal', 'every question answered: a normal exit, the LMS closes the attempt');
      assert.equal(
        Number(
          data.interactions._count ?? data.interactions.childArray?.length ?? Object.keys(data.interactions).length,
        ),
        total,
        'one interaction per question',
      );
    } else {
      assert.equal(Number(data.core.score.raw), Math.round(scaled * 10000) / 100);
      assert.equal(data.core.score.max, '100');
      assert.equal(data.core.lesson_status, scaled >= 0.8 ? 'passed' : 'failed');
      assert.match(sets['cmi.core.session_time'], /^\d{2,4}:\d\d:\d\d\.\d\d$/);
      assert.equal(data.core.exit, '', 'every question answered: 1.2\'s normal exit ""');
      assert.ok(
        Object.keys(sets).some((k) => /^cmi\.interactions\.\d+\.student_response$/.test(k)),
        'interactions are journaled',
      );
    }
    // mid-way the exit was "suspend" (a leaving learner resumes), normal from the last answer on
    const exits = log
      .filter((c) => /SetValue/.test(c.m) && c.args[0] === (version === '2004' ? 'cmi.exit' : 'cmi.core.exit'))
      .map((c) => c.args[1]);
    assert.equal(exits[0], 'suspend');
    assert.equal(exits.at(-1), version === '2004' ? 'normal' : '');
    assert.equal(
      exits.indexOf(exits.at(-1)),
      exits.length - exits.slice().reverse().indexOf('suspend'),
      'suspend until complete, then normal',
    );
    // the revealed quiz and exercise are not credited in the interactions either
    const interactionOf = (id) =>
      Object.entries(sets)
        .filter(([k, v]) => k.endsWith('.id') && (v === id || v.endsWith(`/quiz/${id}`)))
        .map(([k]) => k.replace(/\.id$/, ''));
    for (const id of [revealedId, revealedExerciseId]) {
      const [n] = interactionOf(id).slice(-1);
      assert.ok(n, `the revealed question ${id} has an interaction`);
      assert.equal(sets[`${n}.result`], 'neutral', `${id} is revealed`);
    }
    // exercises: their type, the learner's response, the credit as the result, and the latency
    const exerciseFields = exerciseIds.map((id) => interactionOf(id).slice(-1)[0]);
    const responseKey = version === '2004' ? 'learner_response' : 'student_response';
    for (const n of exerciseFields) {
      assert.match(sets[`${n}.type`], /^(numeric|fill-in)$/);
      assert.ok(sets[`${n}.${responseKey}`] !== undefined && sets[`${n}.${responseKey}`] !== '', `${n}: no response`);
      assert.match(sets[`${n}.latency`], version === '2004' ? /^PT\d+H\d+M[\d.]+S$/ : /^\d{2,4}:\d\d:\d\d\.\d\d$/);
    }
    const [partial] = interactionOf(partialId).slice(-1);
    assert.equal(sets[`${partial}.result`], '0.6667', 'a right answer after one miss is reported as two thirds');
    assert.ok(
      exerciseFields.some((n) => sets[`${n}.type`] === 'numeric') &&
        exerciseFields.some((n) => sets[`${n}.type`] === 'fill-in'),
      'both kinds of exercise',
    );

    // statements: an answered one per answer and one completed with the total, all valid xAPI
    // one per check: every question once, and the exercise answered wrong first once more
    assert.equal(statements.filter((s) => s.verb.id.endsWith('/answered')).length, total + 1);
    const done = statements.filter((s) => s.verb.id.endsWith('/completed'));
    assert.equal(done.length, 1);
    assert.ok(
      Math.abs(done[0].result.score.raw - points) < 1e-3 && done[0].result.score.max === total,
      JSON.stringify(done[0].result.score),
    );
    assert.ok(Math.abs(done[0].result.score.scaled - scaled) < 1e-3);
    assert.ok(
      statements.some((s) => s.object.definition.interactionType === 'numeric') &&
        statements.some((s) => s.object.definition.interactionType === 'fill-in'),
      'exercise statements',
    );
    for (const s of statements)
      assert.deepEqual(validateStatement({ actor: PLACEHOLDER_ACTOR, ...s }), [], JSON.stringify(s).slice(0, 300));
    assert.ok(
      statements.some((s) => s.object.definition.correctResponsesPattern?.[0]?.includes('[,]')),
      'a multi-answer quiz among them',
    );

    assert.deepEqual(page.errors, []);
    await page.context().close();

    // ---- relaunch: the runtime loaded from the first attempt's data
    console.log(
      `# SCORM ${version}: ${quizIds.length} quizzes and ${exerciseIds.length} exercises, ${correct} points, suspend_data ${suspend.length} characters, zip ${packages[version].zipBytes} bytes, ${log.length} calls`,
    );
    console.log(
      summarise(log.filter((c, i) => i < 12 || i > log.length - 12))
        .map((l) => `#   ${l}`)
        .join('\n'),
    );
    // (the suspend_data is the same whatever the exit: this is the relaunch a learner who had left mid-way gets)
    const again = await openLms(version, { data: launchData(version, { resume: data }) });
    for (const id of quizIds) {
      const s = await quizState(again.frame, id);
      assert.deepEqual(s.checked, shown[id].checked, `${id}: the same picks`);
      assert.deepEqual(s.order, shown[id].order, `${id}: the same option order`);
      assert.equal(s.result, shown[id].result, `${id}: the same verdict`);
    }
    for (const id of exerciseIds) {
      const s = await exerciseState(again.frame, id);
      assert.deepEqual(s.typed, shown[id].typed, `${id}: the same typed answer`);
      assert.deepEqual(s.solution, shown[id].solution, `${id}: the same numbers`);
    }
    const first = await quizState(again.frame, quizIds[0]);
    assert.equal(first.result, 'Correct. 1 point.');
    const board = await again.frame
      .locator('pe-quiz-score')
      .evaluate((n) => n.shadowRoot.querySelector('.text').textContent);
    assert.match(
      board,
      new RegExp(`^Score: [0-9⅓⅔]+ of ${total} points \\(${total} of ${total} questions answered, 2 revealed\\)$`),
    );
    // the relaunch reports the same score at once
    await again.page.waitForFunction(() => window.scormLog.some((c) => /Commit/.test(c.m)));
    const relaunched = await again.page.evaluate(() => JSON.parse(JSON.stringify(window.runtime.cmi)));
    if (version === '2004') assert.ok(Math.abs(Number(relaunched.score.raw) - points) < 0.01);
    else assert.equal(Number(relaunched.core.score.raw), Math.round(scaled * 10000) / 100);
    assert.deepEqual(errorsAfterCalls(await again.page.evaluate(() => window.scormLog)), []);
    assert.deepEqual(again.page.errors, []);
    await again.page.context().close();

    // ---- after the normal exit the LMS opens a new attempt: no suspend_data
    // (1.2's entry "" rather than ab-initio, so the adapter reads the empty suspend_data)
    const freshStarted = Date.now();
    const freshData = launchData(version);
    if (version === '2004') freshData.entry = 'ab-initio';
    else freshData.core.entry = '';
    const fresh = await openLms(version, { data: freshData });
    const start = await quizState(fresh.frame, quizIds[0]);
    assert.deepEqual(start.checked, [], 'a new attempt starts with nothing picked');
    assert.equal(start.result, '');
    await fresh.page.waitForFunction(() => window.scormLog.some((c) => /Commit/.test(c.m)));
    const freshBoard = await fresh.frame
      .locator('pe-quiz-score')
      .evaluate((n) => n.shadowRoot.querySelector('.text').textContent);
    assert.match(freshBoard, new RegExp(`^Score: 0 of ${total} points`));
    // one answer, then the learner leaves mid-way: suspend, so the next launch resumes
    await answerWithKeyboard(fresh.page, fresh.frame, quizIds[0], start.right);
    await fresh.page.waitForFunction(() => window.scormLog.filter((c) => /Commit/.test(c.m)).length >= 2);
    await closeSco(fresh.page);
    const left = await fresh.page.evaluate(() => JSON.parse(JSON.stringify(window.runtime.cmi)));
    if (version === '2004') {
      assert.equal(left.exit, 'suspend', 'mid-way: suspend');
      assert.equal(left.completion_status, 'incomplete');
      assert.ok(Math.abs(Number(left.score.raw) - 1) < 0.01, `score.raw ${left.score.raw}`);
    } else {
      assert.equal(left.core.exit, 'suspend', 'mid-way: suspend');
      assert.equal(left.core.lesson_status, 'incomplete');
    }
    assert.match(left.suspend_data, /^pe2~/);
    assert.ok(left.suspend_data.includes(`~${quizIds[0]}.`), 'the answer is kept for the resume');
    assert.deepEqual(errorsAfterCalls(await fresh.page.evaluate(() => window.scormLog)), []);
    assert.deepEqual(fresh.page.errors, []);
    await fresh.page.context().close();
    console.log(`# SCORM ${version}: the new attempt after the normal exit took ${Date.now() - freshStarted} ms`);
  });
}

// ------------------------------------------------------------------ without an LMS, and bad LMSs

/** Answers the first `n` written quizzes right; returns their ids. */
async function answerSome(page, frame, n) {
  const ids = (await quizIdsOf(frame)).filter((id) => !/-gen$/.test(id)).slice(0, n);
  for (const id of ids) await answerWithKeyboard(page, frame, id, (await quizState(frame, id)).right);
  return ids;
}

async function assertCalm(page, frame, correct) {
  // the board counts the last answer a frame after it (boardSays)
  const score = new RegExp(`^Score: ${correct} of \\d+ points`);
  const board = () => frame.locator('pe-quiz-score').evaluate((n) => n.shadowRoot.querySelector('.text').textContent);
  await waitUntil(
    frame.locator('pe-quiz-score'),
    (n, re) => new RegExp(re).test(n.shadowRoot.querySelector('.text').textContent),
    {
      ms: 5000,
      every: 50,
      arg: score.source,
      message: 'the board did not count the answers',
    },
  ).catch(() => {});
  assert.match(await board(), score);
  // nothing about the LMS reaches the learner
  const shown = await frame
    .locator('body')
    .evaluate(
      () =>
        document.body.innerText +
        [...document.querySelectorAll('*')].map((n) => n.shadowRoot?.textContent ?? '').join(' '),
    );
  assert.doesNotMatch(shown, /SCORM|LMS|LMSInitialize|API_1484_11|unavailable/);
  // the widgets' alert boxes stay empty
  const alerts = await frame.locator('body').evaluate(() => {
    const found = [];
    const visit = (root) => {
      for (const n of root.querySelectorAll('*')) {
        if (n.getAttribute('role') === 'alert' && n.textContent.trim()) found.push(n.textContent.trim());
        if (n.shadowRoot) visit(n.shadowRoot);
      }
    };
    visit(document);
    return found;
  });
  assert.deepEqual(alerts, []);
  assert.deepEqual(page.errors, []);
}

for (const version of ['1.2', '2004']) {
  test(`SCORM ${version}: "Reset my answers" is a new attempt the LMS sees (a comment, new interactions, the attempt in suspend_data and an attempted statement), with new numbers, so a revealed answer typed back earns nothing`, async () => {
    const { page, frame } = await openLms(version);
    const id = 'sinusoidal-wavelength';
    const el = frame.locator(`pe-exercise[exercise="${id}"]`);
    const { solution: shown } = await exerciseState(frame, id);
    await el.getByRole('button', { name: 'Show solution' }).click();
    // the score board's reset, confirmed by a second press
    const reset = frame.locator('pe-quiz-score').getByRole('button');
    await reset.click();
    await reset.click();
    // (a question off screen waits to be seen before it draws again)
    await el.scrollIntoViewIfNeeded();
    await waitUntil(el, (n) => !n.shadowRoot.querySelector('.solution:not([hidden])'), {
      ms: 10000,
      every: 50,
      message: 'the exercise was not drawn again after the reset',
    });
    const { solution: fresh } = await exerciseState(frame, id);
    assert.notDeepEqual(fresh, shown, 'the reset drew new numbers');
    // the revealed value, typed back, is not the answer to the new numbers
    await typeAnswer(page, frame, id, shown);
    assert.match(await el.evaluate((n) => n.shadowRoot.querySelector('.result').textContent), /^Not right yet/);
    await typeAnswer(page, frame, id, fresh);
    await page.waitForFunction(() => window.scormLog.some((c) => /Commit/.test(c.m)));
    const statements = await frame.locator('body').evaluate(() => window.statements);
    await closeSco(page);
    const log = await page.evaluate(() => window.scormLog);
    assert.deepEqual(errorsAfterCalls(log), [], 'every call leaves the last error at "0"');
    const sets = log.filter((c) => /SetValue/.test(c.m)).map((c) => c.args);
    const comments = sets.filter(([k]) => /^cmi\.comments/.test(k)).map(([, v]) => v);
    assert.ok(
      comments.some((c) => /Reset my answers at .*: attempt 2 started with new numbers/.test(c)),
      `a comment says so: ${comments.join(' | ')}`,
    );
    const ids = sets.filter(([k]) => /^cmi\.interactions\.\d+\.id$/.test(k)).map(([, v]) => v);
    assert.ok(
      ids.some((v) => (version === '2004' ? v.endsWith(`/quiz/${id}?attempt=2`) : v === `${id}-attempt-2`)),
      `the second attempt's answers are interactions of their own: ${ids.join(', ')}`,
    );
    const suspend = sets.filter(([k]) => k === 'cmi.suspend_data').at(-1)[1];
    assert.match(suspend, /^pe2~[0-9a-z]+\+2~/);
    const attempted = statements.filter((s) => s.verb.id === 'http://adlnet.gov/expapi/verbs/attempted');
    assert.equal(attempted.length, 1);
    assert.deepEqual(validateStatement({ actor: PLACEHOLDER_ACTOR, ...attempted[0] }), []);
    await page.context().close();
  });
}

test('the SCO opened as a plain file, with no LMS, keeps progress in localStorage like dist/lesson.html', async () => {
  const file = path.join(tmp, 'plain-sco.html');
  writeFileSync(file, packages['1.2'].files['lesson.html']);
  const page = await newPage(browser, { viewport: { width: 1000, height: 800 } });
  await page.goto(pathToFileURL(file).href);
  const [id] = await answerSome(page, page, 1);
  assert.ok(
    await page.evaluate(() => Object.keys(localStorage).some((k) => k.startsWith('posenc-course:quiz-progress'))),
  );
  await page.reload();
  assert.equal((await quizState(page, id)).result, 'Correct. 1 point.');
  await assertCalm(page, page, 1);
  await page.context().close();
});

for (const mode of ['errors', 'throws', 'refuses-writes']) {
  test(`a runtime that ${mode === 'errors' ? 'returns errors for everything' : mode === 'throws' ? 'throws on every call' : 'refuses every write'}: the lesson keeps working and says nothing`, async () => {
    const { page, frame } = await openLms('1.2', { mode });
    await answerSome(page, frame, 2);
    await assertCalm(page, frame, 2);
    await page.context().close();
  });
}

test('an API that disappears mid-session: answers after it keep working on the page', async () => {
  const { page, frame } = await openLms('2004');
  await answerSome(page, frame, 1);
  await page.waitForFunction(() =>
    window.scormLog.some((c) => c.m === 'SetValue' && c.args[0] === 'cmi.score.raw' && c.args[1] === '1'),
  );
  // the LMS frame tears its API down
  await page.evaluate(() => {
    delete window.API_1484_11;
    for (const k of Object.keys(window.apiWrapper)) delete window.apiWrapper[k];
  });
  const ids = (await quizIdsOf(frame)).filter((id) => !/-gen$/.test(id));
  await answerWithKeyboard(page, frame, ids[1], (await quizState(frame, ids[1])).right);
  await answerWithKeyboard(page, frame, ids[2], wrongPick(await quizState(frame, ids[2])));
  await assertCalm(page, frame, 2);
  await page.evaluate(() => (document.getElementById('sco').src = 'about:blank'));
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

for (const [kind, suspend] of [
  ['corrupt', (ids) => `pe1~2s~${ids[0]}.11.2~${ids[1]}.zz~garbage~~${ids[2]}.1`],
  ['foreign', () => 'A1B2C3|{"slide":14,"vars":{"score":90}}'],
  ['from another version', (ids) => `pe7~1~${ids[0]}.11.2`],
]) {
  test(`suspend_data that is ${kind}: what is sound restores, the rest starts fresh, and the next answer writes ours`, async () => {
    const ids = Object.keys((await import('../../web/gen/lesson-data.js')).quizzes).filter((id) => !/-gen$/.test(id));
    const data = { ...launchData('1.2'), suspend_data: suspend(ids) };
    data.core.entry = 'resume';
    const { page, frame } = await openLms('1.2', { data });
    const first = await quizState(frame, ids[0]);
    if (kind === 'corrupt') assert.deepEqual(first.checked, [2], 'the sound entry is restored');
    else assert.deepEqual(first.checked, [], 'nothing foreign is restored');
    const free = ids.find((id, k) => k > 2);
    await answerWithKeyboard(page, frame, free, (await quizState(frame, free)).right);
    await page.waitForFunction(
      () => window.scormLog.some((c) => c.m === 'LMSCommit') && /^pe2~/.test(window.runtime.cmi.suspend_data),
    );
    const stored = await page.evaluate(() => window.runtime.cmi.suspend_data);
    assert.ok(stored.includes(`~${free}.`));
    if (kind === 'corrupt') assert.ok(stored.includes(`~${ids[0]}.`), 'the restored answer is kept');
    assert.deepEqual(errorsAfterCalls(await page.evaluate(() => window.scormLog)), []);
    await assertCalm(page, frame, kind === 'corrupt' ? 2 : 1); // the restored entry kept its credit
    await page.context().close();
  });
}

test('embed.html: H5P hello is said again until a late parent answers; posenc:answered carries a valid statement', async () => {
  const { startServer } = await import('./harness.mjs');
  const web = await startServer();
  try {
    const page = await newPage(browser, { viewport: { width: 900, height: 800 } });
    await page.goto(`${web.url}/examples/course-page.html`);
    // a new parent page whose listener arrives 2.5 s after the iframe
    await page.evaluate((src) => {
      document.body.replaceChildren();
      const frame = document.createElement('iframe');
      frame.src = src;
      frame.style.cssText = 'width:800px;height:600px';
      document.body.append(frame);
      window.late = [];
      setTimeout(
        () =>
          addEventListener('message', (e) => {
            window.late.push(e.data);
            if (e.data?.context === 'h5p' && e.data.action === 'hello')
              frame.contentWindow.postMessage({ context: 'h5p', action: 'hello' }, '*');
          }),
        2500,
      );
    }, `${web.url}/embed.html?widget=pe-quiz&quiz=ablation-identical-curves`);
    await page.waitForFunction(() => window.late.some((m) => m?.action === 'hello'), null, { timeout: 10000 });
    await page.waitForTimeout(2500);
    const hellos = await page.evaluate(() => window.late.filter((m) => m?.action === 'hello').length);
    assert.equal(hellos, 1, 'answered: no more hellos');
    const frame = page.frameLocator('iframe');
    const s = await quizState(frame, 'ablation-identical-curves');
    await answerWithKeyboard(page, frame, 'ablation-identical-curves', s.right);
    await page.waitForFunction(() => window.late.some((m) => m?.type === 'posenc:answered'));
    const answered = await page.evaluate(() => window.late.find((m) => m?.type === 'posenc:answered'));
    assert.equal(answered.version, 3);
    assert.equal(answered.kind, 'choice');
    assert.equal(answered.score, 1);
    assert.equal(answered.credit, 1);
    assert.deepEqual(answered.choices, s.right.map(String));
    assert.equal(answered.statement.result.response, s.right.join('[,]'));
    assert.deepEqual(validateStatement({ actor: PLACEHOLDER_ACTOR, ...answered.statement }), []);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  } finally {
    web.server.close();
  }
});
