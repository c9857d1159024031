// An author's own code exercise (web/lib/questions/own-code-exercise.js), in
// Node without Python (tests/js/code-exercises.test.mjs runs the docs'
// example's solution and wrong ones on Pyodide; the browser side is
// tests/browser/code-exercise.test.mjs): docs/embedding.md's example
// compiles into what <pe-code-exercise> shows for a lesson's, its fixed
// cases first and the same for every learner, its drawn ones per seed, every
// expected value the core's; every kind of mistake names its field.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadPosenc } from '../../web/posenc.js';
import { compileCodeExercise } from '../../web/lib/questions/own-code-exercise.js';
import { seededRandom } from '../../web/lib/questions/random.js';
import { ownCodeExample } from './author-page.mjs';

const pe = await loadPosenc();
const { definition } = ownCodeExample();

test("docs/embedding.md's example: the data a lesson code exercise has, fixed cases first, drawn ones per learner, expected values the core's", () => {
  const { data, generator, titleText } = compileCodeExercise(definition, { pe });
  assert.equal(titleText, 'The angles RoPE turns each pair by');
  for (const k of ['prompt', 'tensors', 'tolerance', 'hint', 'notes']) assert.match(data.html[k], /^<p>/, k);
  assert.match(data.html.prompt, /<math/);
  assert.deepEqual(
    data.slips.map((s) => s.id),
    ['degrees', 'i-for-2i'],
  );
  assert.deepEqual(data.tolerance, { abs: 1e-6, rel: 1e-6 });
  const a = generator.cases(pe, seededRandom(1));
  const b = generator.cases(pe, seededRandom(2));
  assert.equal(a.length, 3 + 4);
  assert.deepEqual(
    a.slice(0, 3).map((c) => c.args),
    [
      [0, 8, 10000],
      [1, 2, 10000],
      [5, 6, 10000],
    ],
  );
  assert.deepEqual(a.slice(0, 3), b.slice(0, 3));
  assert.notDeepEqual(a.slice(3), b.slice(3));
  for (const c of a) {
    const [m, d, base] = c.args;
    const freq = pe.ropeInvFreq(d, { base });
    assert.deepEqual(
      c.expected,
      Array.from(freq, (f) => Math.fround(m * f)),
    );
    assert.equal(c.slips.degrees.length, d / 2);
  }
});

// [what, the change to the example, the field named, the message]
const MISTAKES = [
  ['an unknown field', { answer: 'x' }, 'answer', /is not a field here/],
  ['no title', { title: undefined }, 'title', /is missing/],
  ['a signature that is not one def', { signature: 'rope_angles(m, d)' }, 'signature', /def name\(params\)/],
  ['a signature without parameters', { signature: 'def f():' }, 'signature', /no parameters/],
  ['a parameter twice', { signature: 'def f(m, m, d, base):' }, 'signature', /twice/],
  ['""" in the docstring', { docstring: 'say """ here' }, 'docstring', /"""/],
  ['a placeholder in the prompt', { prompt: 'At {{m}}' }, 'prompt', /same for every learner/],
  ['a fixed case without a parameter', { cases: [{ m: 0, d: 8 }] }, 'cases[0].base', /is missing/],
  ['a fixed case with text', { cases: [{ m: 'zero', d: 8, base: 1 }] }, 'cases[0].m', /must be a number/],
  ['a fixed case with another name', { cases: [{ m: 0, d: 8, base: 1, x: 2 }] }, 'cases[0].x', /not a field/],
  [
    'a parameter no draw gives',
    { draws: { d: { choice: [8] }, m: { int: [1, 9] } } },
    'draws',
    /give the parameter base/,
  ],
  ['count without draws', { draws: undefined, count: 2 }, 'count', /no draws/],
  ['too many cases', { count: 30 }, 'count', /from 0 to 24/],
  ['no cases at all', { cases: undefined, draws: undefined, count: undefined }, 'cases', /no cases/],
  ['an unknown name in expected', { expected: 'rope_angle(m, 0, d, bse)' }, 'expected', /Unknown name "bse"/],
  [
    "a list whose length is not whole at some learner's numbers",
    { expected: { list: 'd / 3', item: 'i', value: '1' } },
    'expected.list',
    /whole number/,
  ],
  [
    'a value undefined at a fixed case',
    { expected: { list: 'd / 2', item: 'i', value: '1 / m' } },
    'expected.value',
    /divides by zero.*in cases\[0\]/,
  ],
  ['a core function refusing a pair', { expected: 'rope_angle(m, d, d, base)' }, 'expected', /rope_angle/],
  ['no tolerance', { tolerance: undefined }, 'tolerance', /is missing/],
  ['a negative tolerance', { tolerance: { abs: -1 } }, 'tolerance.abs', /from 0/],
  ['exact with abs', { tolerance: { exact: true, abs: 1 } }, 'tolerance', /alone/],
  ['a slip id twice', { slips: [definition.slips[0], definition.slips[0]] }, 'slips[1].id', /named twice/],
  ['a slip without its message', { slips: [{ id: 'x', expected: '1' }] }, 'slips[0].message', /is missing/],
];

test('every mistake in a code exercise names its field', () => {
  for (const [what, change, field, message] of MISTAKES) {
    const bad = { ...definition, ...change };
    for (const [k, v] of Object.entries(change)) if (v === undefined) delete bad[k];
    assert.throws(
      () => compileCodeExercise(bad, { pe }),
      (e) => {
        assert.equal(e.field, field, what);
        assert.match(e.message, message, what);
        assert.equal(e.kind, 'Error', `${what}: a learner-facing error`);
        return true;
      },
      what,
    );
  }
});
