// Questions in the author's own words (issue 47, item 2): docs/embedding.md's
// three examples ("Questions of your own"), as written, on a page served under
// the strict CSP that registers no lesson (it imports the three question
// widgets' files, not widgets.js): each renders, grades by the credit rule
// (a miss, then right: ⅔), fires pe-quiz-answered and counts on the score
// board; a slip is named; a lesson id on that page says no lesson is
// registered; a question written wrong names its field in the widget.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSite, strictPage, renderAllWidgets, STRICT_CSP } from './harness.mjs';
import { ownExamples } from '../js/author-page.mjs';
import { typeAnswer, exerciseState, quizState, waitUntil } from './questions.mjs';

const site = useSite({ headers: { 'Content-Security-Policy': STRICT_CSP } });

// the development page with only the question widgets: no lesson is registered
async function pageWith(markup) {
  const page = await strictPage(site.browser);
  await page.goto(`${site.url}/widgets/dev.html`);
  await page.evaluate(async (m) => {
    window.answers = [];
    document.addEventListener('pe-quiz-answered', (e) => window.answers.push(e.detail));
    await Promise.all(['pe-quiz', 'pe-exercise', 'pe-quiz-score'].map((t) => import(`/widgets/${t}.js`)));
    document.body.insertAdjacentHTML('beforeend', m);
  }, markup);
  return page;
}

const boxText = (page, selector) =>
  page.locator(selector).evaluate((n) => n.shadowRoot.querySelector('.error').textContent);
const resultOf = (page, selector) =>
  page.locator(selector).evaluate((n) => n.shadowRoot.querySelector('.result').textContent);

test('the three examples of docs/embedding.md, on a page with no lesson under a strict CSP: each grades by the credit rule, names a slip and counts on the board', async () => {
  const ex = ownExamples();
  assert.deepEqual(Object.keys(ex), ['quiz', 'exercise-json', 'exercise-markup']);
  const page = await pageWith(
    `${ex.quiz}\n${ex['exercise-json']}\n${ex['exercise-markup']}\n<pe-quiz-score></pe-quiz-score>`,
  );
  await renderAllWidgets(page, ['pe-quiz', 'pe-exercise', 'pe-quiz-score']);
  assert.equal(
    await page.evaluate(async () => (await import('/lib/lesson/lesson-registry.js')).hasLesson()),
    false,
    'the page registers no lesson',
  );
  const board = () => page.locator('pe-quiz-score').evaluate((n) => n.shadowRoot.querySelector('.text').textContent);
  assert.equal(await board(), 'Score: 0 of 3 points (0 of 3 questions answered)');

  // the quiz: its question and three options, typeset; a wrong pick, then the right one
  const q = await quizState(page, 'alibi-farthest-head');
  assert.deepEqual(q.right, [0]);
  const quiz = page.locator('pe-quiz');
  assert.match(
    await quiz.evaluate((n) => n.shadowRoot.querySelector('legend').textContent),
    /^An ALiBi model has 8 heads/,
  );
  assert.equal(await quiz.evaluate((n) => n.shadowRoot.querySelectorAll('legend math').length), 1);
  await quiz.locator('.options input[value="1"]').check();
  await quiz.getByRole('button', { name: 'Check' }).click();
  assert.match(await quiz.locator('.option.wrong .feedback').textContent(), /its penalty grows fastest/);
  await quiz.getByRole('button', { name: 'Try again' }).click();
  await quiz.locator('.options input[value="0"]').check();
  await quiz.getByRole('button', { name: 'Check' }).click();
  assert.match(await resultOf(page, 'pe-quiz'), /^Correct\. ⅔ point/);
  assert.match(await quiz.locator('.explanation').textContent(), /smallest slope loses the least/);

  // the JSON exercise: degrees are a slip, named; then the answer, right: ⅔
  const json = 'pe-exercise[exercise="rope-angle-of-pair"]';
  const a = await exerciseState(page, 'rope-angle-of-pair');
  const numbers = await page.locator(json).evaluate((n) => n._draw.numbers);
  assert.deepEqual(Object.keys(numbers), ['d', 'i', 'm']);
  const prompt = await page.locator(json).evaluate((n) => n.shadowRoot.querySelector('.prompt').textContent);
  // the drawn numbers in the prompt's formulas (their TeX, as MathML carries it)
  for (const name of ['d', 'i', 'm']) assert.ok(prompt.includes(`${name} = ${numbers[name]}`), prompt);
  const angle = Number(a.solution[0]);
  // the core's angle: m·θ_i with θ_i = 10000^(-2i/d) (a float32 product)
  assert.ok(Math.abs(angle - numbers.m * 10000 ** ((-2 * numbers.i) / numbers.d)) <= 1e-3 * angle, `${angle}`);
  await typeAnswer(page, page, 'rope-angle-of-pair', [String((angle * 180) / Math.PI)]);
  assert.match(
    await page.locator(json).evaluate((n) => n.shadowRoot.querySelector('.part .feedback').textContent),
    /That is in degrees/,
  );
  await typeAnswer(page, page, 'rope-angle-of-pair', [a.solution[0]]);
  assert.match(await resultOf(page, json), /^Correct\. ⅔ point/);

  // the markup exercise: right at the first check, 1 point; its hint and solution were hidden before
  const markup = 'pe-exercise[exercise="t5-bucket-of-key"]';
  const b = await exerciseState(page, 't5-bucket-of-key');
  assert.match(b.solution[0], /^\d+$/);
  await typeAnswer(page, page, 't5-bucket-of-key', [b.solution[0]]);
  assert.match(await resultOf(page, markup), /^Correct\. 1 point\.$/);
  await page.locator(markup).getByRole('button', { name: 'Show solution' }).click();
  assert.match(
    await page.locator(markup).evaluate((n) => n.shadowRoot.querySelector('.solution').textContent),
    new RegExp(`Distance \\d+ is past the \\d exact buckets: bucket \\d \\+ .* = ${b.solution[0]}\\.`),
  );

  // the events: ids, kinds, credit
  const answers = await page.evaluate(() => window.answers.map((d) => [d.quizId, d.kind, d.correct, d.score]));
  assert.deepEqual(answers, [
    ['alibi-farthest-head', 'choice', false, 0],
    ['alibi-farthest-head', 'choice', true, 0.6667],
    ['rope-angle-of-pair', 'numeric', false, 0],
    ['rope-angle-of-pair', 'numeric', true, 0.6667],
    ['t5-bucket-of-key', 'numeric', true, 1],
  ]);
  await waitUntil(page.locator('pe-quiz-score'), (n) => /of 3 points \(3 of 3/.test(n.shadowRoot.textContent), {
    ms: 5000,
    every: 50,
    message: 'the board did not count the three answers',
  });
  assert.equal(await board(), 'Score: 2⅓ of 3 points (3 of 3 questions answered)');
  // kept as the author's own: a lesson that does not know the ids never forgets them
  const stored = await page.evaluate(async () => (await import('/lib/reporting/progress.js')).loadProgress());
  assert.deepEqual(
    Object.entries(stored).map(([id, e]) => [id, e.own, e.credit]),
    [
      ['alibi-farthest-head', true, 0.6667],
      ['rope-angle-of-pair', true, 0.6667],
      ['t5-bucket-of-key', true, 1],
    ],
  );
  assert.deepEqual([page.violations, page.problems], [[], []]);
});

test('on a page that registers no lesson, a lesson id says so; questions written wrong name the field and what is wrong', async () => {
  const cases = {
    'lesson-id': [
      '<pe-quiz quiz="rope-what-rotates"></pe-quiz>',
      /pe-quiz: there is no quiz with id "rope-what-rotates": this page registers no lesson/,
    ],
    'bad-json': [
      '<pe-quiz quiz="bad-json"><script type="application/json">{"question": "Q", "options": [}</script></pe-quiz>',
      /^pe-quiz "bad-json": its JSON does not parse: Unexpected token '\}'/,
    ],
    'no-correct': [
      '<pe-quiz quiz="no-correct"><p>Which?</p><ul><li>a</li><li>b</li></ul></pe-quiz>',
      /^pe-quiz "no-correct": options: no option is marked correct/,
    ],
    'two-correct': [
      '<pe-quiz quiz="two-correct"><script type="application/json">{"question": "Q", "options": [{"text": "a", "correct": true}, {"text": "b", "correct": true}]}</script></pe-quiz>',
      /options: 2 options are marked correct; add "multiple": true/,
    ],
    'bad-option': [
      '<pe-quiz quiz="bad-option"><script type="application/json">{"question": "Q", "options": [{"text": "a", "correct": true}, {"txt": "b"}]}</script></pe-quiz>',
      /^pe-quiz "bad-option": options\[1\]\.txt: is not a field here \(the fields are text, correct, feedback\)$/,
    ],
    'bad-maths': [
      '<pe-quiz quiz="bad-maths"><script type="application/json">{"question": "Q", "options": [{"text": "$\\\\mathbf{x}$", "correct": true}, {"text": "b"}]}</script></pe-quiz>',
      /options\[0\]\.text: quiz maths: unsupported command \\mathbf/,
    ],
    'bad-draw': [
      '<pe-exercise exercise="bad-draw"><script type="application/json">{"title": "T", "draws": {"h": {"choice": [4, 8]}, "j": {"int": [1, "hh"]}}, "prompt": "P", "answer": "j", "solution": "S"}</script></pe-exercise>',
      /^pe-exercise "bad-draw": draws\.j\.int\[1\]: "hh" does not read: Unknown name "hh"\. Did you mean h\*h\?/,
    ],
    'bad-placeholder': [
      '<pe-exercise exercise="bad-placeholder"><p data-title>T</p><data data-draw="m" value="int 1 9"></data><p data-prompt>m is {{mm}}</p><data data-answer value="m"></data><p data-solution>S</p></pe-exercise>',
      /prompt: \{\{mm\}\} names no draw or computed value \(there are m\)/,
    ],
    'undefined-answer': [
      '<pe-exercise exercise="undefined-answer"><script type="application/json">{"title": "T", "draws": {"h": {"choice": [4, 8]}}, "prompt": "P", "answer": "alibi_slope(h, 2)", "solution": "S"}</script></pe-exercise>',
      /answer: "alibi_slope\(h, 2\)" has no value at alibi_slope\([48], 2\): alibi_slope: j must be a whole number from 1 to 2; got [48] \(with h = [48]\)/,
    ],
    'stray-markup': [
      '<pe-exercise exercise="stray-markup"><p data-title>T</p><p>loose text</p><data data-answer value="1"></data></pe-exercise>',
      /markup: <p> has no field: mark each element with one of data-title, data-prompt/,
    ],
  };
  const page = await pageWith(
    Object.values(cases)
      .map(([m]) => m)
      .join('\n'),
  );
  await renderAllWidgets(page, ['pe-quiz', 'pe-exercise']);
  for (const [id, [, expected]] of Object.entries(cases)) {
    const selector = id === 'lesson-id' ? 'pe-quiz[quiz="rope-what-rotates"]' : `[quiz="${id}"], [exercise="${id}"]`;
    await waitUntil(page.locator(selector), (n) => n.shadowRoot.querySelector('.error').textContent !== '', {
      ms: 10000,
      every: 50,
      message: `${id}: no message in the widget`,
    });
    assert.match(await boxText(page, selector), expected, id);
    assert.equal(await page.locator(selector).evaluate((n) => n.hasAttribute('data-invalid')), true, id);
  }
  assert.deepEqual([page.violations, page.problems], [[], []]);
});

test('new numbers and a reset never ask again what was just shown: two possible draws alternate; with nothing drawn the question stays', async () => {
  const page = await pageWith(
    '<pe-exercise exercise="two-draws"><script type="application/json">{"title": "T", "draws": {"h": {"choice": [4, 8]}}, "prompt": "$h = {{h}}$; type $h$.", "answer": "h", "solution": "S"}</script></pe-exercise>' +
      '<pe-exercise exercise="no-draws"><script type="application/json">{"title": "F", "prompt": "Type 3.", "answer": "3", "solution": "S"}</script></pe-exercise>' +
      '<pe-quiz-score></pe-quiz-score>',
  );
  await renderAllWidgets(page, ['pe-exercise', 'pe-quiz-score']);
  const drawn = async (id) => {
    await exerciseState(page, id); // drawn and shown
    return page.locator(`pe-exercise[exercise="${id}"]`).evaluate(async (n) => ({
      numbers: n._draw.numbers,
      seed: n._seed,
      stored: (await import('/lib/reporting/progress.js')).loadProgress()[n.questionId]?.seed,
    }));
  };
  const again = (id) =>
    page.locator(`pe-exercise[exercise="${id}"]`).getByRole('button', { name: 'New numbers' }).click();
  let last = await drawn('two-draws');
  // with 2 outcomes, 8 draws in a row each unlike the last: 1 in 256 by chance
  for (let k = 0; k < 8; k++) {
    await again('two-draws');
    const now = await drawn('two-draws');
    assert.notEqual(now.numbers.h, last.numbers.h, `draw ${k + 1} asked again what was shown`);
    assert.equal(now.stored, now.seed, 'the seed shown is the one stored (a reload shows the same)');
    last = now;
  }
  // the score board's reset: attempt 2, and again something else
  const reset = page.locator('pe-quiz-score').getByRole('button');
  await reset.click();
  await reset.click();
  await waitUntil(page.locator('pe-exercise[exercise="two-draws"]'), (n, h) => !!n._draw && n._draw.numbers.h !== h, {
    ms: 10000,
    every: 50,
    arg: last.numbers.h,
    message: 'the reset drew what was shown before it',
  });
  // nothing to draw: New numbers shows the same question, and works
  const fixed = await drawn('no-draws');
  await again('no-draws');
  assert.deepEqual((await drawn('no-draws')).numbers, fixed.numbers);
  assert.deepEqual([page.errors, page.problems], [[], []]);
});
