// Authors' own questions, in Node (issue 47, item 2; the browser side is
// tests/browser/own-questions.test.mjs): docs/embedding.md's examples read
// from markup and from JSON give the same definition; an exercise compiled
// from a definition draws per learner, its solution's value judged right and
// its slips caught over many draws, its answer the core's; every kind of
// mistake names its field; the core's functions (web/lib/questions/core-functions.js)
// give the core's numbers and their table in docs/embedding.md is that list;
// progress keeps the own mark through an LMS's suspend_data.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parseHTML } from 'linkedom';
import { loadPosenc } from '../../web/posenc.js';
import { compileExercise, TRIALS } from '../../web/lib/questions/own-exercise.js';
import { compileQuiz } from '../../web/lib/questions/own-quiz.js';
import { readOwnQuestion } from '../../web/lib/questions/own-question.js';
import { CORE_FUNCTIONS, coreFunctions } from '../../web/lib/questions/core-functions.js';
import { drawExercise, judgePart, readAnswer } from '../../web/lib/questions/answers.js';
import { seededRandom, deriveSeed } from '../../web/lib/questions/random.js';
import { encodeProgress, decodeProgress } from '../../web/lib/reporting/suspend-data.js';
import { makeFunctionTable, FUNCTION_TABLE_MARKERS } from '../../scripts/build/bundles.mjs';

const pe = await loadPosenc();
const doc = readFileSync(new URL('../../docs/embedding.md', import.meta.url), 'utf8');
const examples = Object.fromEntries(
  [...doc.matchAll(/<!-- own-example:start (\S+) -->\s*```html\n([\s\S]*?)```\s*<!-- own-example:end -->/g)].map(
    (m) => [m[1], m[2]],
  ),
);
const elementOf = (html) =>
  parseHTML(`<!doctype html><html><body>${html}</body></html>`).document.body.firstElementChild;
const DRAWS = 60;

test("the docs' examples read: the markup quiz and both exercises, JSON and markup, into definitions", () => {
  const quiz = readOwnQuestion(elementOf(examples.quiz));
  assert.equal(quiz.form, 'markup');
  assert.deepEqual(
    quiz.definition.options.map((o) => [o.correct === true, !!o.feedback]),
    [
      [true, true],
      [false, true],
      [false, true],
    ],
  );
  const compiled = compileQuiz(quiz.definition);
  assert.equal(compiled.multiple, false);
  assert.match(compiled.question, /^An ALiBi model has 8 heads.*<math/);
  assert.match(compiled.explanation, /^<p>ALiBi adds/);
  const json = readOwnQuestion(elementOf(examples['exercise-json']));
  assert.equal(json.form, 'json');
  assert.deepEqual(Object.keys(json.definition.draws), ['d', 'i', 'm']);
  const markup = readOwnQuestion(elementOf(examples['exercise-markup']));
  assert.equal(markup.form, 'markup');
  assert.deepEqual(markup.definition.draws, { buckets: { choice: [16, 32] }, offset: { int: [-100, -20] } });
  assert.deepEqual(markup.definition.let, {
    dist: '-offset',
    exact: 'buckets / 4',
    bucket: 't5_bucket(offset, 1, buckets, 128)',
  });
  assert.deepEqual(
    markup.definition.parts.map((p) => [p.answer, p.type, p.slips.length]),
    [['bucket', 'integer', 2]],
  );
  assert.match(
    markup.definition.prompt,
    /has \{\{buckets\}\} buckets\. Which bucket holds a key \{\{dist\}\} positions \*before\* its query/,
  );
  assert.match(markup.definition.solution, /^- The key is before the query/);
});

for (const name of ['exercise-json', 'exercise-markup']) {
  test(`${name}: ${DRAWS} draws, the solution's value judged right, each slip caught, the answer the core's, two learners apart`, () => {
    const { definition } = readOwnQuestion(elementOf(examples[name]));
    const { generator } = compileExercise(definition, { pe });
    const f = coreFunctions(pe);
    const seen = new Set();
    for (let k = 0; k < DRAWS; k++) {
      const x = drawExercise(generator, pe, seededRandom(deriveSeed(7, `learner ${k}`)));
      seen.add(JSON.stringify(x.numbers));
      const [part] = x.parts;
      const random = seededRandom(k);
      assert.equal(judgePart(part, part.solutionValue, random).right, true, `${part.solutionValue}`);
      for (const slip of part.slips) {
        const typed = String(slip.value);
        const verdict = judgePart(part, typed, random);
        assert.deepEqual([verdict.right, verdict.slip, verdict.message], [false, true, slip.message]);
      }
      const n = x.numbers;
      const expected =
        name === 'exercise-json' ? f.rope_angle(n.m, n.i, n.d) : f.t5_bucket(n.offset, 1, n.buckets, 128);
      assert.equal(part.answer.value, expected);
      assert.doesNotMatch(x.prompt + x.solution, /\{\{/);
    }
    assert.ok(seen.size > DRAWS / 2, `${seen.size} different draws of ${DRAWS}`);
  });
}

test('a learner may not type the core functions: rope_angle(...) is an unknown name in an answer', () => {
  const r = readAnswer({ type: 'number', value: 1 }, 'rope_angle(100, 1, 64)');
  assert.equal(r.ok, false);
  assert.match(r.message, /^Unknown name "rope_angle"/);
});

const base = {
  title: 'T',
  draws: { h: { choice: [4, 8] }, j: { int: [1, 'h'] } },
  let: { alpha: 'alibi_slope(j, h)' },
  prompt: 'Head {{j}} of {{h}}',
  answer: 'alpha',
  solution: 'It is {{alpha:4}}',
};

// an exercise of these draws alone
const drawsOnly = (draws) => ({ title: 'T', draws, prompt: 'P', answer: '1', solution: 'S' });

test('every mistake in an exercise names its field; a good one compiles and its title is the same for every learner', () => {
  assert.equal(compileExercise(base, { pe }).titleText, 'T');
  const wrong = [
    [{ ...base, title: undefined }, /^title: is missing$/],
    [{ ...base, prompt: 7 }, /^prompt: must be text; got the number 7$/],
    [{ ...base, extra: 1 }, /^extra: is not a field here \(the fields are title, draws/],
    [
      drawsOnly({ h: { int: [1, 4], choice: [1] } }),
      /^draws\.h: needs exactly one of int, choice or range; got int and choice$/,
    ],
    [drawsOnly({ pi: { int: [1, 4] } }), /^draws\.pi: pi is the constant pi; choose another name$/],
    [drawsOnly({ rope_freq: { int: [1, 4] } }), /^draws\.rope_freq: rope_freq is the core function rope_freq/],
    [drawsOnly({ h: { int: [5, 4] } }), /^draws\.h\.int: low 5 is above high 4$/],
    [drawsOnly({ h: { int: [1.5, 1.7] } }), /^draws\.h\.int: holds no whole number from 1\.5 to 1\.7$/],
    [
      drawsOnly({ h: { range: [1, 2], digits: 9 } }),
      /^draws\.h\.digits: must be a whole number from 0 to 6; got the number 9$/,
    ],
    [
      { ...base, let: { alpha: 'alibi_slope(j)' } },
      /^let\.alpha: "alibi_slope\(j\)" does not read: alibi_slope\(j, h\) takes 2 arguments; got 1/,
    ],
    [{ ...base, require: ['alpha'] }, /^require\[0\]: "alpha" compares nothing/],
    [{ ...base, require: ['alpha > 2'] }, /^require: no draw of 200 met "alpha > 2"$/],
    [{ ...base, answer: undefined }, /^answer: is missing \(or give "parts"\)$/],
    [{ ...base, parts: [{ answer: 'alpha' }] }, /^answer: belongs in each of "parts" when there are parts$/],
    [
      { ...base, answer: undefined, parts: [{ answer: 'alpha', type: 'integer' }] },
      /^parts\[0\]\.answer: gives 0\.\d+ \(with h = \d, j = \d, alpha = [\d.]+\), not a whole number/,
    ],
    [
      { ...base, type: 'integer', tolerance: { rel: 0.1 } },
      /^tolerance: an integer answer is exact: it takes no tolerance$/,
    ],
    [{ ...base, tolerance: { rel: 0.1, abs: 1 } }, /^tolerance: must be \{ "rel": x \} or \{ "abs": x \}/],
    [{ ...base, slips: [{ answer: 'alpha*2' }] }, /^slips\[0\]\.message: is missing$/],
    [
      { ...base, solution: 'It is {{beta}}' },
      /^solution: \{\{beta\}\} names no draw or computed value \(there are h, j, alpha\)$/,
    ],
    [{ ...base, title: 'Head {{j}}' }, /^title: is the same for every learner/],
    [{ ...base, hint: 'Use $\\mathbf{x}$' }, /^hint: quiz maths: unsupported command \\mathbf/],
    [{ ...base, asks: 'formula' }, /^asks: must be one of number, prediction, bug/],
    [
      { ...base, reveal: { sample: 'seat-vectors' } },
      /^reveal\.sample: shows a sample of the lesson, and this page registers none$/,
    ],
    [
      { ...base, digits: 2, tolerance: { rel: 1e-9 } },
      /^answer: its value as the solution shows it, 0\.\d+, is not judged right \(with h = \d, j = \d\): widen the tolerance or give more digits$/,
    ],
  ];
  for (const [definition, message] of wrong) {
    const error = (() => {
      try {
        compileExercise(definition, { pe });
      } catch (e) {
        return e;
      }
      return null;
    })();
    assert.ok(error, `no error for ${message}`);
    assert.equal(error.kind, 'Error', 'shown in the widget, not re-thrown as a bug');
    assert.match(error.message, message);
  }
});

test('a quiz written wrong names its field', () => {
  const q = { question: 'Q', options: [{ text: 'a', correct: true }, { text: 'b' }] };
  assert.equal(compileQuiz(q).options.length, 2);
  for (const [definition, message] of [
    [{ ...q, question: '' }, /^question: is empty$/],
    [{ ...q, options: [{ text: 'a', correct: true }] }, /^options: has 1 entry; it needs 2 to 16$/],
    [
      { ...q, options: [{ text: 'a', correct: 'yes' }, { text: 'b' }] },
      /^options\[0\]\.correct: must be true or false; got the string "yes"$/,
    ],
    [{ ...q, multiple: 1 }, /^multiple: must be true or false; got the number 1$/],
    [[q], /^must be an object; got a list$/],
  ])
    assert.throws(
      () => compileQuiz(definition),
      (e) => e.kind === 'Error' && message.test(e.message),
    );
});

test("the core's functions give the core's numbers, refuse what the API refuses, and docs/embedding.md's table is their list", () => {
  const f = coreFunctions(pe);
  const inv = pe.ropeInvFreq(64, { base: 10000 });
  assert.equal(f.rope_freq(5, 64), inv[5]);
  assert.equal(f.rope_angle(300, 5, 64), Math.fround(300 * inv[5]));
  assert.equal(f.rope_wavelength(5, 64, 10000), (2 * Math.PI) / inv[5]);
  assert.equal(
    f.llama3_freq(20, 64, 8, 8192),
    pe.ropeInvFreq(64, { scaling: { type: 'llama3', factor: 8, originalMaxPositions: 8192 } })[20],
  );
  assert.equal(
    f.yarn_freq(20, 64, 8, 8192),
    pe.ropeInvFreq(64, { scaling: { type: 'yarn', factor: 8, originalMaxPositions: 8192 } })[20],
  );
  assert.equal(f.alibi_slope(3, 8), pe.alibiSlopes(8)[2]);
  assert.equal(
    f.t5_bucket(20, 1, 32, 128),
    pe.t5Buckets(1, 21, { numBuckets: 32, maxDistance: 128, bidirectional: true })[20],
  );
  assert.equal(f.sinusoidal(7, 3, 16), pe.sinusoidal(8, 16)[7 * 16 + 3]);
  assert.equal(f.floor(-1.5), -2);
  assert.throws(() => f.rope_freq(32, 64), /rope_freq: i must be a whole number from 0 to 31; got 32/);
  assert.throws(() => f.alibi_slope(1, 0), /alibiSlopes/);
  const [open, close] = FUNCTION_TABLE_MARKERS;
  const table = doc.slice(doc.indexOf(open) + open.length, doc.indexOf(close)).trim();
  assert.equal(table, makeFunctionTable(CORE_FUNCTIONS), 'run node scripts/build/bundles.mjs');
  for (const name of Object.keys(CORE_FUNCTIONS)) assert.match(table, new RegExp(`\\| \`${name}\\(`));
});

test('suspend_data keeps the mark of an own question, so an LMS resume still protects it', () => {
  const progress = {
    'my-quiz': {
      credit: 0.6667,
      misses: 1,
      attempts: 2,
      correct: true,
      solutionShown: false,
      response: [0],
      own: true,
    },
    'rope-what-rotates': { credit: 1, misses: 0, attempts: 1, correct: true, solutionShown: false, response: [1] },
  };
  const back = decodeProgress(encodeProgress(progress, 5)).progress;
  assert.equal(back['my-quiz'].own, true);
  assert.equal(back['rope-what-rotates'].own, undefined);
  assert.equal(TRIALS, 24);
});
