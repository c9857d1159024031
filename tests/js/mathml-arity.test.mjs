// MathML with positional children (msub, msup, msubsup, mfrac, mover,
// munder, munderover, mroot) must have exactly as many as the element takes:
// Firefox reports any other count ("Invalid markup: Incorrect number of
// children for <msub/> tag") and draws the formula wrong. The lesson build
// refuses such a formula (scripts/build/build-lesson.mjs, mathmlProblems); this
// holds the checker to known cases, the built page and the written quizzes
// to it, and the quiz generators' MathML (web/lib/questions/quiz-text.js) over seeds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import katex from 'katex';
import { mathmlProblems } from '../../scripts/lesson/lesson-format.mjs';
import { quizTextToHtml, texToMathML } from '../../web/lib/questions/quiz-text.js';
import { loadPosenc } from '../../web/posenc.js';
import { seededRandom } from '../../web/lib/questions/random.js';

const M = (inner) => `<math xmlns="http://www.w3.org/1998/Math/MathML">${inner}</math>`;

test('mathmlProblems finds wrong child counts and accepts right ones', () => {
  assert.deepEqual(mathmlProblems(M('<msub><mi>x</mi><mi>i</mi></msub>')), []);
  assert.deepEqual(mathmlProblems(M('<msub><mrow></mrow><mi>i</mi></msub>')), []); // {}_i: an empty base is a child
  assert.deepEqual(mathmlProblems(M('<msub><mi>x</mi></msub>')), ['<msub> with 1 child (needs 2)']);
  assert.deepEqual(mathmlProblems(M('<msub><mi>x</mi><mi>i</mi><mi>j</mi></msub>')), [
    '<msub> with 3 children (needs 2)',
  ]);
  assert.deepEqual(mathmlProblems(M('<mfrac><mn>1</mn><mn>2</mn><mn>3</mn></mfrac>')), [
    '<mfrac> with 3 children (needs 2)',
  ]);
  assert.deepEqual(mathmlProblems(M('<msubsup><mi>x</mi><mi>i</mi></msubsup>')), [
    '<msubsup> with 2 children (needs 3)',
  ]);
  assert.deepEqual(
    mathmlProblems(M('<munderover><mo>∑</mo><mi>i</mi><mi>n</mi></munderover><mroot><mi>x</mi></mroot>')),
    ['<mroot> with 1 child (needs 2)'],
  );
  // loose text is laid out as a child too
  assert.deepEqual(mathmlProblems(M('<msup>x<mn>2</mn><mn>3</mn></msup>')), ['<msup> with 3 children (needs 2)']);
  // nested: each element counts its own children
  assert.deepEqual(mathmlProblems(M('<msup><msub><mi>x</mi></msub><mn>2</mn></msup>')), [
    '<msub> with 1 child (needs 2)',
  ]);
  // an HTML <sub> is not MathML
  assert.deepEqual(mathmlProblems('<p>x<sub>1</sub></p>'), []);
});

test('KaTeX output for scripts, fractions, accents, roots and big operators is well formed', () => {
  for (const tex of [
    'x_i',
    'x^2',
    'x_i^2',
    '{}_a^b',
    '\\frac{a}{b}',
    '\\hat{q}',
    '\\underbrace{x}_{n}',
    '\\sum_{i=0}^{n} x_i',
    '\\sqrt[3]{x}',
    "\\theta'_i",
    '\\left(\\frac{a}{b}\\right)^{2}',
    '\\operatorname*{argmax}_x f',
    '\\mathbb{R}^{d}',
  ]) {
    for (const displayMode of [false, true]) {
      assert.deepEqual(
        mathmlProblems(katex.renderToString(tex, { output: 'mathml', displayMode, throwOnError: true })),
        [],
        tex,
      );
    }
  }
});

test(
  'the built page and its written quizzes have no malformed MathML',
  { skip: !existsSync(new URL('../../web/index.html', import.meta.url)) && 'web/index.html not built' },
  async () => {
    const page = readFileSync(new URL('../../web/index.html', import.meta.url), 'utf8');
    assert.ok((page.match(/<math/g) ?? []).length > 100);
    assert.deepEqual(mathmlProblems(page), []);
    const { quizzes } = await import('../../web/gen/lesson-data.js');
    const strings = [];
    const visit = (v) =>
      typeof v === 'string'
        ? v.includes('<math') && strings.push(v)
        : v && typeof v === 'object' && Object.values(v).forEach(visit);
    visit(quizzes);
    assert.ok(strings.length > 10);
    for (const s of strings) assert.deepEqual(mathmlProblems(s), [], s.slice(0, 200));
  },
);

test("quiz text MathML is well formed, and so is every generator's over 100 seeds", async () => {
  for (const tex of ['x_i', 'x_{-1}', 'x_i^2', '\\frac{1}{2}', '\\sin_x', 'm_{\\text{max}}', '\\theta_{i}']) {
    assert.deepEqual(mathmlProblems(texToMathML(tex)), [], tex);
  }
  const pe = await loadPosenc({ simd: false });
  const dir = new URL('../../web/quizzes/', import.meta.url);
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.js'))) {
    const { generate } = await import(new URL(file, dir));
    for (let seed = 1; seed <= 100; seed++) {
      const q = generate(pe, seededRandom(seed));
      for (const text of [q.question, q.explanation ?? '', ...q.options.flatMap((o) => [o.text, o.feedback ?? ''])]) {
        assert.deepEqual(mathmlProblems(quizTextToHtml(text)), [], `${file} seed ${seed}: ${text}`);
      }
    }
  }
});
