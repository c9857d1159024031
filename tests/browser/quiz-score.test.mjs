// <pe-quiz-score> counts what is on its page (issue 34): on an author's page
// with one quiz and one exercise it says "of 2", moves when one is answered,
// follows questions added later, ignores an id the lesson does not know, and
// its reset clears only what it counts; scope="<selector>" counts inside the
// matched elements, scope="lesson" the whole lesson, a bad selector gets a
// message; the lesson page still counts every question of the lesson.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, newPage, renderAllWidgets } from './harness.mjs';
import { exerciseState, typeAnswer } from './questions.mjs';

const PROGRESS_KEY = 'posenc-course:quiz-progress:v1';
const site = useSite();

// two written single-answer quizzes and an exercise of the lesson, with each quiz's right option
async function lessonFacts(page) {
  return page.evaluate(async () => {
    const { quizzes, questionIds } = await import('/gen/lesson-data.js');
    const written = Object.keys(quizzes).filter((id) => !quizzes[id].generator && !quizzes[id].multiple);
    const right = Object.fromEntries(written.map((id) => [id, quizzes[id].options.findIndex((o) => o.correct)]));
    const exercise = questionIds.find((id) => !(id in quizzes));
    return { quizA: written[0], quizB: written[1], exercise, right, total: questionIds.length };
  });
}

async function authorPage(markup) {
  const page = await newPage(site.browser, { viewport: { width: 1000, height: 900 } });
  await page.goto(`${site.url}/widgets/dev.html`);
  const facts = await lessonFacts(page);
  await page.evaluate(async (m) => {
    await Promise.all(['pe-quiz', 'pe-exercise', 'pe-quiz-score'].map((t) => import(`/widgets/${t}.js`)));
    // the lesson's questions, lent by id as widgets.js does
    const { registerLessonLoader } = await import('/lib/lesson/lesson-registry.js');
    registerLessonLoader(() => import('/gen/lesson-data.js'));
    document.body.insertAdjacentHTML('beforeend', m);
  }, markup(facts));
  await renderAllWidgets(page, ['pe-quiz', 'pe-exercise', 'pe-quiz-score']);
  return { page, facts };
}

const boards = (page) =>
  page.$$eval('pe-quiz-score', (nodes) =>
    nodes.map(
      (n) => n.shadowRoot.querySelector('.error')?.textContent || n.shadowRoot.querySelector('.text').textContent,
    ),
  );
const waitBoard = (page, i, re) =>
  page
    .waitForFunction(
      ([i, src]) => new RegExp(src).test(document.querySelectorAll('pe-quiz-score')[i].shadowRoot.textContent),
      [i, re.source],
      { timeout: 5000 },
    )
    .catch(async () => {
      throw new Error(`board ${i} never matched ${re}: ${JSON.stringify(await boards(page))}`);
    });

async function answerRight(page, id, right) {
  const quiz = page.locator(`pe-quiz[quiz="${id}"]`);
  await quiz.locator(`.options input[value="${right}"]`).check();
  await quiz.getByRole('button', { name: 'Check' }).click();
}

test('one quiz and one exercise on an author page: 0 of 2, answered moves it, later questions count, the reset clears only these', async () => {
  const { page, facts } = await authorPage(
    (f) =>
      `<pe-quiz quiz="${f.quizA}"></pe-quiz><pe-exercise exercise="${f.exercise}"></pe-exercise><pe-quiz-score></pe-quiz-score>`,
  );
  const { quizA, quizB, right } = facts;
  assert.deepEqual(await boards(page), ['Score: 0 of 2 points (0 of 2 questions answered)']);
  // progress of a question elsewhere in the course, which this page must not touch
  const elsewhere = {
    credit: 1,
    misses: 0,
    attempts: 1,
    correct: true,
    solutionShown: false,
    response: [right[quizB]],
  };
  await page.evaluate(
    ([k, id, e]) => localStorage.setItem(k, JSON.stringify({ [id]: e })),
    [PROGRESS_KEY, quizB, elsewhere],
  );

  await answerRight(page, quizA, right[quizA]);
  await waitBoard(page, 0, /^.*Score: 1 of 2 points \(1 of 2 questions answered\)/);

  // a question added later, a duplicate and an id the lesson does not have
  await page.evaluate(
    ([b]) =>
      document.body.insertAdjacentHTML(
        'afterbegin',
        `<pe-quiz quiz="${b}"></pe-quiz><pe-quiz quiz="no-such-quiz"></pe-quiz>`,
      ),
    [quizB],
  );
  await waitBoard(page, 0, /Score: 2 of 3 points \(2 of 3 questions answered\)/);
  await page.evaluate(() => document.querySelector('pe-quiz[quiz]').remove());
  await waitBoard(page, 0, /Score: 1 of 2 points/);

  // reset: twice to confirm; this page's questions only
  const reset = page.locator('pe-quiz-score').getByRole('button');
  await reset.click();
  assert.equal(await reset.textContent(), 'Press again to reset these 2 questions');
  await reset.click();
  await waitBoard(page, 0, /Score: 0 of 2 points \(0 of 2 questions answered\)/);
  assert.deepEqual(await page.evaluate((k) => Object.keys(JSON.parse(localStorage.getItem(k))), PROGRESS_KEY), [quizB]);
  const picked = await page
    .locator(`pe-quiz[quiz="${quizA}"]`)
    .evaluate((n) => [...n.shadowRoot.querySelectorAll('input')].filter((i) => i.checked).length);
  assert.equal(picked, 0, 'the reset quiz still shows its pick');
  assert.deepEqual(
    page.errors.filter((e) => !/no-such-quiz/.test(e)),
    [],
  );
  await page.context().close();
});

test('scope: a selector counts inside the elements it matches, lesson counts the lesson, a bad selector says so', async () => {
  const { page, facts } = await authorPage(
    (f) => `<section id="week-1"><pe-quiz quiz="${f.quizA}"></pe-quiz></section>
      <section id="week-2" class="week"><pe-quiz quiz="${f.quizB}"></pe-quiz><pe-exercise exercise="${f.exercise}"></pe-exercise></section>
      <pe-quiz-score scope="#week-2"></pe-quiz-score><pe-quiz-score scope="section"></pe-quiz-score>
      <pe-quiz-score scope="lesson"></pe-quiz-score><pe-quiz-score scope="##"></pe-quiz-score>`,
  );
  const { quizA, quizB, right, total } = facts;
  assert.deepEqual(await boards(page), [
    'Score: 0 of 2 points (0 of 2 questions answered)',
    'Score: 0 of 3 points (0 of 3 questions answered)',
    `Score: 0 of ${total} points (0 of ${total} questions answered)`,
    'scope must be page, lesson or a CSS selector; "##" is not a valid selector',
  ]);
  await answerRight(page, quizA, right[quizA]);
  await waitBoard(page, 2, /Score: 1 of \d+ points/);
  await waitBoard(page, 1, /Score: 1 of 3 points/);
  assert.match((await boards(page))[0], /^Score: 0 of 2 points/, 'week 2 counted a week-1 answer');
  await answerRight(page, quizB, right[quizB]);
  await waitBoard(page, 0, /Score: 1 of 2 points/);
  // week 2's reset leaves week 1's answer
  const reset = page.locator('pe-quiz-score[scope="#week-2"]').getByRole('button');
  await reset.click();
  await reset.click();
  await waitBoard(page, 0, /Score: 0 of 2 points/);
  await waitBoard(page, 1, /Score: 1 of 3 points/);
  assert.deepEqual(await page.evaluate((k) => Object.keys(JSON.parse(localStorage.getItem(k))), PROGRESS_KEY), [quizA]);
  // the scope is the author's, so the page's URL state cannot change it
  assert.equal(
    await page.locator('pe-quiz-score[scope="lesson"]').evaluate((n) => n.applyParam('scope', 'page')),
    false,
  );
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the lesson page counts every question of the lesson', async () => {
  const page = await newPage(site.browser, { viewport: { width: 1280, height: 900 } });
  await page.goto(`${site.url}/index.html`);
  const { total } = await lessonFacts(page);
  const onPage = await page.$$eval('pe-quiz[quiz], pe-exercise[exercise], pe-code-exercise[exercise]', (n) => n.length);
  assert.equal(onPage, total, 'the lesson page does not hold every question');
  await renderAllWidgets(page, ['pe-quiz-score']);
  assert.deepEqual(await boards(page), [`Score: 0 of ${total} points (0 of ${total} questions answered)`]);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test("two tabs of one learner: an answer in one moves the other's score board, and a reset in one draws the other's questions anew", async () => {
  const markup = ({ quizA, exercise }) =>
    `<pe-quiz-score></pe-quiz-score><pe-quiz quiz="${quizA}"></pe-quiz><pe-exercise exercise="${exercise}"></pe-exercise>`;
  const { page: first, facts } = await authorPage(markup);
  // the second tab: the same page in the same browser (the same storage)
  const second = await first.context().newPage();
  const secondErrors = [];
  second.on('pageerror', (e) => secondErrors.push(e.message));
  await second.goto(`${site.url}/widgets/dev.html`);
  await second.evaluate(async (m) => {
    await Promise.all(['pe-quiz', 'pe-exercise', 'pe-quiz-score'].map((t) => import(`/widgets/${t}.js`)));
    // the lesson's questions, lent by id as widgets.js does
    const { registerLessonLoader } = await import('/lib/lesson/lesson-registry.js');
    registerLessonLoader(() => import('/gen/lesson-data.js'));
    document.body.insertAdjacentHTML('beforeend', m);
  }, markup(facts));
  await renderAllWidgets(second, ['pe-quiz', 'pe-exercise', 'pe-quiz-score']);
  await waitBoard(second, 0, /Score: 0 of 2 points/);
  await answerRight(first, facts.quizA, facts.right[facts.quizA]);
  await waitBoard(first, 0, /Score: 1 of 2 points/);
  await waitBoard(second, 0, /Score: 1 of 2 points \(1 of 2 questions answered\)/);
  // the other tab's quiz shows the answer given in the first
  await second.waitForFunction(
    (id) =>
      /Correct/.test(document.querySelector(`pe-quiz[quiz="${id}"]`).shadowRoot.querySelector('.result').textContent),
    facts.quizA,
  );
  // an exercise checked in the first tab: the second shows that check on the
  // same numbers, and neither tab draws anew (only a reset or New numbers does)
  const drawOf = (page) =>
    page.locator('pe-exercise').evaluate((n) => n._draw.parts.map((p) => p.solutionValue).join('|'));
  const { solution } = await exerciseState(first, facts.exercise);
  await exerciseState(second, facts.exercise);
  const shown = await drawOf(first);
  assert.equal(await drawOf(second), shown, 'one learner, one seed: the same numbers in both tabs');
  await typeAnswer(first, first, facts.exercise, solution);
  await waitBoard(second, 0, /Score: 2 of 2 points/);
  await second.waitForFunction(() =>
    /^Correct/.test(document.querySelector('pe-exercise').shadowRoot.querySelector('.result').textContent),
  );
  await first.waitForTimeout(300); // a redraw would come within a frame or two
  assert.equal(await drawOf(second), shown, 'the other tab kept the numbers it showed');
  assert.equal(await drawOf(first), shown, 'the tab that answered kept its numbers');
  // a reset in the second tab: the first tab's score and exercise follow (new numbers: a new attempt)
  const numbers = () => drawOf(first);
  const before = await numbers();
  const reset = second.locator('pe-quiz-score').getByRole('button');
  await reset.click();
  await reset.click();
  await waitBoard(first, 0, /Score: 0 of 2 points/);
  // the board follows the cleared progress, the exercise the new attempt, which
  // storage announces after it: wait for new numbers (10 s at most)
  await first
    .waitForFunction(
      (old) => {
        const draw = document.querySelector('pe-exercise')._draw;
        return draw && draw.parts.map((p) => p.solutionValue).join('|') !== old;
      },
      before,
      { timeout: 10000 },
    )
    .catch(() => {});
  assert.notEqual(await numbers(), before, 'the exercise in the other tab drew new numbers');
  assert.deepEqual([...first.errors, ...secondErrors], []);
  await first.context().close();
});
