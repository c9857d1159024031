// Quizzes that cannot be gamed (issue 20, part 1), in Chromium: options are
// shuffled per learner (seeded, the same after a reload) so the right one is
// not usually first; an answer after "Show solution" earns no credit and is
// reported as revealed; select-all quizzes mark what was missed and keep the
// learner's picks beside the solution; feedback says its label once; and
// generated questions set their maths as MathML with no inline style.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, openLessonAs, renderAllWidgets, SEED_KEY } from './harness.mjs';

const PROGRESS_KEY = 'posenc-course:quiz-progress:v1';

const site = useSite();

// The line under a quiz's buttons: how the last check went.
const resultText = (quiz) => quiz.evaluate((n) => n.shadowRoot.querySelector('.result').textContent);

const quizData = (page) =>
  page.evaluate(async () => {
    const { quizzes } = await import('/gen/lesson-data.js');
    return Object.fromEntries(
      Object.entries(quizzes).map(([id, q]) => [
        id,
        {
          generator: q.generator ?? null,
          multiple: !!q.multiple,
          correct: (q.options ?? []).flatMap((o, i) => (o.correct ? [i] : [])),
        },
      ]),
    );
  });

// authored index of each displayed option, per quiz
const displayedOrders = (page, ids) =>
  page.$$eval(
    'pe-quiz',
    (nodes, ids) =>
      Object.fromEntries(
        nodes
          .filter((n) => ids.includes(n.getAttribute('quiz')))
          .map((n) => [
            n.getAttribute('quiz'),
            [...n.shadowRoot.querySelectorAll('.options input')].map((i) => Number(i.value)),
          ]),
      ),
    ids,
  );

test('options are shuffled per learner: the right one is first in at most about half of the quizzes, and the order survives a reload', async () => {
  const orders = [];
  for (const seed of [1234567, 3141592653]) {
    const page = await openLessonAs(site, seed);
    const data = await quizData(page);
    const single = Object.keys(data).filter((id) => !data[id].generator && !data[id].multiple);
    assert.ok(single.length >= 10, `only ${single.length} single-answer written quizzes`);
    await renderAllWidgets(
      page,
      single.map((id) => `pe-quiz[quiz="${id}"]`),
    );
    const order = await displayedOrders(page, single);
    const firstRight = single.filter((id) => order[id][0] === data[id].correct[0]);
    assert.ok(
      firstRight.length <= Math.ceil(single.length / 2),
      `seed ${seed}: the right option is first in ${firstRight.length} of ${single.length} quizzes: ${firstRight.join(', ')}`,
    );
    const authored = single.filter((id) => order[id].every((v, i) => v === i));
    assert.ok(
      authored.length < single.length / 2,
      `seed ${seed}: ${authored.length} of ${single.length} quizzes in authored order`,
    );
    await page.reload();
    await renderAllWidgets(
      page,
      single.map((id) => `pe-quiz[quiz="${id}"]`),
    );
    assert.deepEqual(await displayedOrders(page, single), order, `seed ${seed}: the order changed on reload`);
    orders.push(single.map((id) => order[id].join()));
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
  assert.ok(
    orders[0].some((o, i) => o !== orders[1][i]),
    'two learners see the same orders',
  );
});

test('a fresh learner gets a seed once; an old progress entry (authored indices, no seed) restores the right option', async () => {
  const page = await openLessonAs(site);
  const data = await quizData(page);
  const id = Object.keys(data).find((q) => !data[q].generator && !data[q].multiple);
  const right = data[id].correct[0];
  await page.evaluate(
    ([k, v]) => localStorage.setItem(k, v),
    [PROGRESS_KEY, JSON.stringify({ [id]: { correct: true, solutionShown: false, attempts: 1, response: [right] } })],
  );
  await page.reload();
  const quiz = page.locator(`pe-quiz[quiz="${id}"]`);
  await renderAllWidgets(page, [`pe-quiz[quiz="${id}"]`, 'pe-quiz-score']);
  const state = await quiz.evaluate((n) => {
    const r = n.shadowRoot;
    return {
      checked: [...r.querySelectorAll('input')].filter((i) => i.checked).map((i) => Number(i.value)),
      result: r.querySelector('.result').textContent,
    };
  });
  assert.deepEqual(state.checked, [right]);
  assert.match(state.result, /^Correct/);
  const seed = await page.evaluate((k) => localStorage.getItem(k), SEED_KEY);
  assert.match(seed ?? '', /^\d+$/);
  await page.reload();
  assert.equal(
    await page.evaluate((k) => localStorage.getItem(k), SEED_KEY),
    seed,
    'the learner seed changed on reload',
  );
  await page.context().close();
});

test('Show solution, Try again, then the right answer: recorded as revealed, no credit, on the board, in the event and after a reload', async () => {
  const page = await openLessonAs(site, 99);
  await page.evaluate(() => localStorage.removeItem('posenc-course:quiz-progress:v1'));
  const data = await quizData(page);
  // the board counts every question: quizzes and exercises
  const total = await page.evaluate(async () => (await import('/gen/lesson-data.js')).questionIds.length);
  const id = Object.keys(data).find((q) => !data[q].generator && !data[q].multiple);
  const right = data[id].correct[0];
  const wrong = right === 0 ? 1 : 0;
  const quiz = page.locator(`pe-quiz[quiz="${id}"]`);
  await renderAllWidgets(page, [`pe-quiz[quiz="${id}"]`, 'pe-quiz-score']);
  // a wrong pick first, then the solution: the pick stays checked and marked as the learner's
  await quiz.locator(`input[value="${wrong}"]`).check();
  await quiz.getByRole('button', { name: 'Check' }).click();
  await quiz.getByRole('button', { name: 'Show solution' }).click();
  const solution = await quiz.evaluate(
    (n, [w, c]) => {
      const r = n.shadowRoot;
      const label = (i) => r.querySelector(`input[value="${i}"]`).closest('label');
      return {
        wrongChecked: label(w).querySelector('input').checked,
        wrongClass: label(w).className,
        wrongMark: label(w).querySelector('.mark')?.textContent,
        rightClass: label(c).className,
        explanation: !r.querySelector('.explanation').hidden,
      };
    },
    [wrong, right],
  );
  assert.ok(solution.wrongChecked, "the learner's pick is unchecked by Show solution");
  assert.match(solution.wrongClass, /\bwrong\b/);
  assert.match(solution.wrongMark, /your answer/);
  assert.match(solution.rightClass, /\bcorrect\b/);
  assert.ok(solution.explanation);
  await quiz.getByRole('button', { name: 'Try again' }).click();
  await quiz.locator(`input[value="${right}"]`).check();
  await quiz.getByRole('button', { name: 'Check' }).click();
  assert.match(await resultText(quiz), /^Revealed/);
  const answers = await page.evaluate(() => window.answers);
  const last = answers.at(-1);
  assert.equal(last.quizId, id);
  assert.equal(last.correct, true, 'correct says whether the response is right');
  assert.equal(last.revealed, true);
  assert.equal(last.score, 0);
  assert.equal(typeof last.attempts, 'number');
  assert.equal(answers[0].revealed, false);
  const board = () => page.locator('pe-quiz-score').evaluate((n) => n.shadowRoot.querySelector('.text').textContent);
  await page.waitForFunction(() => /revealed/.test(document.querySelector('pe-quiz-score').shadowRoot.textContent));
  assert.equal(await board(), `Score: 0 of ${total} points (1 of ${total} questions answered, 1 revealed)`);
  const stored = await page.evaluate((k) => JSON.parse(localStorage.getItem(k)), PROGRESS_KEY);
  // answered right (correct), but after the solution: no credit
  assert.equal(stored[id].correct, true);
  assert.equal(stored[id].credit, 0);
  assert.equal(stored[id].solutionShown, true);
  await page.reload();
  await renderAllWidgets(page, [`pe-quiz[quiz="${id}"]`, 'pe-quiz-score']);
  assert.match(await resultText(quiz), /^Revealed/);
  assert.equal(await board(), `Score: 0 of ${total} points (1 of ${total} questions answered, 1 revealed)`);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('select-all: after Check every missed right option and every wrong pick is marked; a right answer shows the explanation', async () => {
  const page = await openLessonAs(site, 7);
  await page.evaluate(() => localStorage.removeItem('posenc-course:quiz-progress:v1'));
  const data = await quizData(page);
  const id = Object.keys(data).find((q) => data[q].multiple && data[q].correct.length >= 2);
  assert.ok(id, 'no select-all quiz with two right options');
  const { correct } = data[id];
  const quiz = page.locator(`pe-quiz[quiz="${id}"]`);
  await renderAllWidgets(page, [`pe-quiz[quiz="${id}"]`]);
  const n = await quiz.locator('input').count();
  const wrong = [...Array(n).keys()].find((i) => !correct.includes(i));
  const classes = () =>
    quiz.evaluate((n) => {
      const r = n.shadowRoot;
      return Object.fromEntries([...r.querySelectorAll('input')].map((i) => [i.value, i.closest('label').className]));
    });
  // one right pick and one wrong pick
  await quiz.locator(`input[value="${correct[0]}"]`).check();
  await quiz.locator(`input[value="${wrong}"]`).check();
  await quiz.getByRole('button', { name: 'Check' }).click();
  let marked = await classes();
  assert.match(marked[correct[0]], /\bcorrect\b/);
  assert.match(marked[wrong], /\bwrong\b/);
  for (const i of correct.slice(1)) assert.match(marked[i], /\bmissed\b/, `right option ${i} not marked as missed`);
  assert.ok(
    await quiz.evaluate((n) => {
      const r = n.shadowRoot;
      return r.querySelector('.explanation').hidden;
    }),
    'explanation shown after a wrong answer',
  );
  // only right picks, some missing: "Partly", the missing ones marked
  await quiz.getByRole('button', { name: 'Try again' }).click();
  await quiz.locator(`input[value="${correct[0]}"]`).check();
  await quiz.getByRole('button', { name: 'Check' }).click();
  assert.match(await resultText(quiz), /^Partly/);
  marked = await classes();
  for (const i of correct.slice(1)) assert.match(marked[i], /\bmissed\b/);
  // all right: correct, with the explanation
  await quiz.getByRole('button', { name: 'Try again' }).click();
  for (const i of correct) await quiz.locator(`input[value="${i}"]`).check();
  await quiz.getByRole('button', { name: 'Check' }).click();
  assert.match(await resultText(quiz), /^Correct/);
  assert.equal(
    await quiz.evaluate((n) => {
      const r = n.shadowRoot;
      return r.querySelector('.explanation').hidden;
    }),
    false,
    'explanation hidden after a right answer',
  );
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('feedback prints its label once, and generated questions set their maths as MathML with no inline style and no "-0.000"', async () => {
  const page = await openLessonAs(site, 2024);
  const data = await quizData(page);
  const generated = Object.keys(data).filter((id) => data[id].generator);
  assert.ok(generated.length >= 2, `only ${generated.length} generated quizzes`);
  await renderAllWidgets(
    page,
    generated.map((id) => `pe-quiz[quiz="${id}"]`),
  );
  for (const id of generated) {
    const quiz = page.locator(`pe-quiz[quiz="${id}"]`);
    for (let round = 0; round < 3; round++) {
      await quiz.getByRole('button', { name: 'Show solution' }).click();
      const state = await quiz.evaluate((n) => {
        const r = n.shadowRoot;
        return {
          maths: r.querySelectorAll('legend math, .options math, .explanation math').length,
          styled: [...r.querySelectorAll('[style]')].map((e) => e.localName),
          // what is read: without the TeX annotations of the formulas
          text: [...r.querySelectorAll('legend, .options, .explanation')]
            .map((e) => {
              const c = e.cloneNode(true);
              for (const a of c.querySelectorAll('annotation')) a.remove();
              return c.textContent;
            })
            .join(' '),
          marks: [...r.querySelectorAll('.feedback')].map((f) => f.textContent),
        };
      });
      assert.ok(state.maths > 0, `${id}: no MathML`);
      assert.deepEqual(state.styled, [], `${id}: inline styles`);
      assert.doesNotMatch(state.text, /[-\u2212]0\.0+(?!\d*[1-9])/, `${id}: negative zero`);
      assert.doesNotMatch(state.text, /\$|\\(theta|Delta|lambda|text|top)\b/, `${id}: raw TeX shows`);
      for (const m of state.marks)
        assert.doesNotMatch(m, /^[^:]*: (Right|Correct|No|Yes)\s*[.:]/, `${id}: label printed twice: ${m}`);
      await quiz.getByRole('button', { name: 'New question' }).click();
      await page.waitForFunction(
        (q) => document.querySelector(`pe-quiz[quiz="${q}"]`).shadowRoot.querySelector('.options input'),
        id,
      );
    }
  }
  // a written quiz, every option's feedback shown
  const written = Object.keys(data).find((id) => !data[id].generator);
  const quiz = page.locator(`pe-quiz[quiz="${written}"]`);
  await renderAllWidgets(page, [`pe-quiz[quiz="${written}"]`]);
  await quiz.getByRole('button', { name: 'Show solution' }).click();
  for (const m of await quiz.evaluate((n) => {
    const r = n.shadowRoot;
    return [...r.querySelectorAll('.feedback')].map((f) => f.textContent);
  })) {
    assert.doesNotMatch(m, /^[^:]*: (Right|Correct)\s*[.:]/, `label printed twice: ${m}`);
  }
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
