// Answering the lesson's questions as a learner does, with the keyboard, in
// a page or in a frame (`frame`: a Page or a FrameLocator; `page` presses the
// keys): the quizzes' and exercises' state, a quiz's picks, an exercise's
// typed answer. The right answers are read from the question itself (a
// quiz's options, an exercise's worked solution), wherever it runs.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { renderAllWidgets } from './harness.mjs';

/**
 * Waits until ready(element) is true in the page, asking every `every` ms;
 * fails with `message` after `ms`. ready runs in the page (its source is sent
 * there), so it can use only its arguments: the element and `arg`.
 */
export async function waitUntil(locator, ready, { ms, every, message, arg }) {
  const t0 = Date.now();
  while (!(await locator.evaluate(ready, arg))) {
    if (Date.now() - t0 > ms) throw new Error(message);
    await new Promise((resolve) => setTimeout(resolve, every));
  }
}

// The score board (<pe-quiz-score>) in a page or frame says exactly `text`:
// waits for it to count `answered` questions first (it updates a frame after
// an answer), then compares the whole line.
export async function boardSays(frame, text, { answered = text.match(/\((\d+ of \d+) questions?/)[1] } = {}) {
  const board = frame.locator('pe-quiz-score');
  await waitUntil(board, (n, count) => n.shadowRoot.textContent.includes(`${count} question`), {
    ms: 5000,
    every: 50,
    message: `the board never counted ${answered} questions`,
    arg: answered,
  });
  assert.equal(await board.evaluate((n) => n.shadowRoot.querySelector('.text').textContent), text);
}

// A question widget has said how the check went.
export const resultShown = (n) => n.shadowRoot.querySelector('.result').textContent !== '';

/** Waits until the exercise shows its boxes; returns what the learner typed and the answers the worked solution gives. */
export async function exerciseState(frame, id) {
  const el = frame.locator(`pe-exercise[exercise="${id}"]`);
  await renderAllWidgets(frame, [`pe-exercise[exercise="${id}"]`]);
  await waitUntil(el, (n) => !!(n._draw && n.shadowRoot.querySelector('.parts input')), {
    ms: 20000,
    every: 50,
    message: `exercise ${id} did not render`,
  });
  return el.evaluate((n) => ({
    // the answers as the worked solution writes them (what part="solution-value" shows)
    solution: n._draw.parts.map((p) => p.solutionValue),
    typed: [...n.shadowRoot.querySelectorAll('.parts input')].map((i) => i.value),
    result: n.shadowRoot.querySelector('.result').textContent,
  }));
}

/** Types `texts` into the exercise's boxes with the keyboard and presses Enter (which checks). */
export async function typeAnswer(page, frame, id, texts) {
  const el = frame.locator(`pe-exercise[exercise="${id}"]`);
  await exerciseState(frame, id);
  const inputs = el.locator('.parts input');
  for (let i = 0; i < texts.length; i++) {
    await inputs.nth(i).focus();
    await page.keyboard.press('Control+A');
    await page.keyboard.type(texts[i]);
  }
  await page.keyboard.press('Enter');
  await waitUntil(el, resultShown, { ms: 10000, every: 20, message: `${id}: no result after Enter` });
}

/** Waits until the quiz shows its question; returns its state: multiple, displayed order (authored indices), which are right. */
export async function quizState(frame, id) {
  const quiz = frame.locator(`pe-quiz[quiz="${id}"]`);
  // scrolled to (again while widgets above it grow) until it renders
  await renderAllWidgets(frame, [`pe-quiz[quiz="${id}"]`]);
  await waitUntil(quiz, (n) => !!(n._question && n.shadowRoot.querySelector('input')), {
    ms: 20000,
    every: 50,
    message: `quiz ${id} did not render`,
  });
  return quiz.evaluate((n) => ({
    multiple: n._question.multiple,
    order: [...n.shadowRoot.querySelectorAll('input')].map((i) => Number(i.value)),
    right: n._question.options.flatMap((o, i) => (o.correct ? [i] : [])),
    checked: [...n.shadowRoot.querySelectorAll('input')]
      .filter((i) => i.checked)
      .map((i) => Number(i.value))
      .sort(),
    result: n.shadowRoot.querySelector('.result').textContent,
  }));
}

/** Picks `wanted` (authored indices) with the keyboard alone and presses Check. */
export async function answerWithKeyboard(page, frame, id, wanted) {
  const quiz = frame.locator(`pe-quiz[quiz="${id}"]`);
  const { multiple, order } = await quizState(frame, id);
  const focused = () =>
    quiz.evaluate((n) => {
      const a = n.shadowRoot.activeElement;
      return a?.localName === 'input' ? a.value : (a?.textContent ?? null);
    });
  await quiz.locator('input').first().focus();
  if (multiple) {
    for (let k = 0; k < order.length; k++) {
      assert.equal(Number(await focused()), order[k]);
      if (wanted.includes(order[k])) await page.keyboard.press('Space');
      await page.keyboard.press('Tab');
    }
  } else {
    await page.keyboard.press('Space');
    for (let guard = 0; Number(await focused()) !== wanted[0] && guard < 10; guard++)
      await page.keyboard.press('ArrowDown');
    assert.equal(Number(await focused()), wanted[0]);
    await page.keyboard.press('Tab');
  }
  assert.equal(await focused(), 'Check');
  await page.keyboard.press('Enter');
  await waitUntil(quiz, resultShown, { ms: 10000, every: 20, message: `${id}: no result after Check` });
}

export const wrongPick = (s) => [s.order.find((i) => !s.right.includes(i))];

/**
 * docs/embedding.md's quiz and JSON exercise of one's own (tests/js/author-page.mjs's
 * page) answered as a learner would: the quiz wrong, then right (⅔), the
 * exercise right (1).
 */
export async function answerAuthorQuestions(page, frame) {
  const q = await quizState(frame, 'alibi-farthest-head');
  const quiz = frame.locator('pe-quiz');
  const wrong = q.order.find((i) => !q.right.includes(i));
  await quiz.locator(`.options input[value="${wrong}"]`).check();
  await quiz.getByRole('button', { name: 'Check' }).click();
  await quiz.getByRole('button', { name: 'Try again' }).click();
  await quiz.locator(`.options input[value="${q.right[0]}"]`).check();
  await quiz.getByRole('button', { name: 'Check' }).click();
  const x = await exerciseState(frame, 'rope-angle-of-pair');
  await typeAnswer(page, frame, 'rope-angle-of-pair', x.solution);
}

const validateStatement = createRequire(import.meta.url)('@learninglocker/xapi-validation').default;

/**
 * What an LRS stored of answerAuthorQuestions (`statements`: one learner's,
 * in order): every one valid xAPI, and the three answers under `base`, the
 * author's activity base: the quiz 0 then ⅔, the exercise 1.
 */
export function assertAuthorAnswers(statements, base) {
  for (const s of statements) assert.deepEqual(validateStatement(s), [], JSON.stringify(s).slice(0, 300));
  assert.deepEqual(
    statements
      .filter((s) => s.verb.id === 'http://adlnet.gov/expapi/verbs/answered')
      .map((s) => [s.object.id, s.result.score.scaled]),
    [
      [`${base}/quiz/alibi-farthest-head`, 0],
      [`${base}/quiz/alibi-farthest-head`, 0.6667],
      [`${base}/quiz/rope-angle-of-pair`, 1],
    ],
  );
}
