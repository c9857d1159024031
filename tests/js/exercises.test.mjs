// Every exercise of the lesson (web/exercises/*.js), over many draws, against
// the core (SIMD build): the numbers it draws give a question whose answer,
// typed as the worked solution writes it (part="solution-value"), is judged
// right; every slip it names is judged wrong, with its message; its texts
// render (no raw TeX, nothing unescaped); its live reveal asks a sample for
// values inside that sample's ranges; and hostile typing gets a message and
// never throws. The browser side is tests/browser/exercise.test.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { loadPosenc } from '../../web/posenc.js';
import { seededRandom, deriveSeed } from '../../web/lib/questions/random.js';
import { judgePart, readAnswer, interactionOf, drawExercise } from '../../web/lib/questions/answers.js';
import { blocksToHtml, quizTextToHtml } from '../../web/lib/questions/quiz-text.js';
import { authorBlocks, authorInline } from '../../web/lib/questions/author-text.js';
import { compileExercise } from '../../web/lib/questions/own-exercise.js';
import { exercises as lessonExercises } from '../../web/gen/lesson-data.js';
import { builtLesson } from './built-lesson.mjs';

const pe = await loadPosenc();
const dir = new URL('../../web/exercises/', import.meta.url);
// web/exercises/<generator>.js, and the lesson's exercises written as data
// (as an author writes one: web/lib/questions/own-exercise.js), under their ids
const samplesDir = new URL('../../web/samples/', import.meta.url);
const sampleIds = Object.fromEntries(
  readdirSync(samplesDir)
    .filter((f) => f.endsWith('.js'))
    .map((f) => [f.slice(0, -3), true]),
);
const generators = {
  ...Object.fromEntries(
    await Promise.all(
      readdirSync(dir)
        .filter((f) => f.endsWith('.js'))
        .map(async (f) => [f.slice(0, -3), (await import(new URL(f, dir))).default]),
    ),
  ),
  ...Object.fromEntries(
    Object.values(lessonExercises)
      .filter((x) => x.definition)
      .map((x) => [x.id, compileExercise(x.definition, { pe, samples: sampleIds }).generator]),
  ),
};
const generatorOf = (x) => generators[x.generator ?? x.id];
// a generator's texts are quiz text; a written exercise's, an author's Markdown
const blocksOf = (x) => (x.markdown ? authorBlocks : blocksToHtml);
const inlineOf = (x) => (x.markdown ? authorInline : quizTextToHtml);
const DRAWS = 60;

// A slip's message names the slip; stating the answer would let the next
// check earn ⅔ on the same numbers, cheaper than Show solution. The answer is
// stated if the message holds its text, or a number equal to it outside its
// formulas (where "L/4" or "offset $8$" are the topic's words, not the answer).
function statesTheAnswer(message, solutionValue) {
  const text = String(solutionValue);
  const value = Number(text);
  if (!Number.isFinite(value)) return message.includes(text);
  const numbers = (message.replace(/\$[^$]*\$/g, ' ').match(/\d[\d,]*(\.\d+)?/g) ?? []).map((t) =>
    Number(t.replaceAll(',', '')),
  );
  return numbers.some((n) => Math.abs(n - Math.abs(value)) <= 1e-6 * Math.max(1, Math.abs(value)));
}

const HOSTILE = [
  '<img src=x onerror=alert(1)>',
  'constructor',
  '__proto__',
  'x.constructor.constructor("alert(1)")()',
  '1e999',
  '('.repeat(500),
  'a'.repeat(20000),
  '1/0',
  ')',
  '',
  '   ',
  '$\\frac{1}{0}$',
  'pi^pi^pi^pi^pi',
  '9'.repeat(400),
];

for (const [name, gen] of Object.entries(generators)) {
  test(`${name}: ${DRAWS} draws, the solution's value is right and each slip is caught`, async () => {
    const samples = {};
    for (let seed = 1; seed <= DRAWS; seed++) {
      const x = drawExercise(gen, pe, seededRandom(seed * 7919));
      assert.ok(x.prompt && x.hint && x.solution, `${name}: prompt, hint and solution`);
      assert.ok(Array.isArray(x.parts) && x.parts.length >= 1);
      for (const text of [x.prompt, x.hint, x.solution]) {
        const html = blocksOf(x)(text);
        assert.doesNotMatch(
          html.replace(/<annotation[^>]*>[\s\S]*?<\/annotation>/g, ''),
          /\$|\\(frac|theta|text|lambda)\b/,
          `${name}: raw TeX in ${text.slice(0, 80)}`,
        );
      }
      x.parts.forEach((part, i) => {
        inlineOf(x)(part.label ?? '');
        const random = () => seededRandom(deriveSeed(seed, `judge-${i}`));
        const right = judgePart(part, part.solutionValue, random());
        assert.equal(
          right.right,
          true,
          `${name} seed ${seed} part ${i}: the solution value ${part.solutionValue} is judged wrong (${right.message})`,
        );
        for (const slip of part.slips ?? []) {
          const typed = slip.expression ?? String(slip.value);
          const j = judgePart(part, typed, random());
          assert.equal(j.right, false, `${name} seed ${seed} part ${i}: the slip ${typed} is judged right`);
          assert.equal(
            j.slip,
            true,
            `${name} seed ${seed} part ${i}: the slip ${typed} is not recognised (${j.message})`,
          );
          inlineOf(x)(slip.message);
          assert.ok(
            !statesTheAnswer(slip.message, part.solutionValue),
            `${name} seed ${seed} part ${i}: the slip's message states the answer ${part.solutionValue}: ${slip.message}`,
          );
        }
        for (const h of HOSTILE) {
          const j = judgePart(part, h, random());
          assert.equal(j.right, false, `${name}: ${h.slice(0, 30)} judged right`);
          assert.ok(typeof j.message === 'string' || j.message === undefined);
          const r = readAnswer(part.answer, h);
          if (!r.ok)
            assert.ok(
              r.message && !/<|>/.test(r.message.replace(/"[^"]*"/g, '')),
              `${name}: message for ${h.slice(0, 30)}: ${r.message}`,
            );
        }
      });
      const inter = interactionOf(
        x.parts,
        x.parts.map((p) => p.solutionValue),
        x.parts.map((p) => judgePart(p, p.solutionValue, seededRandom(1))),
      );
      assert.ok(['numeric', 'fill-in'].includes(inter.kind));
      if (x.reveal) {
        const { default: sample } = await (samples[x.reveal.sample] ??= import(
          `../../web/samples/${x.reveal.sample}.js`
        ));
        for (const [k, v] of Object.entries(x.reveal.params)) {
          const spec = sample.params[k];
          assert.ok(spec, `${name}: the sample ${x.reveal.sample} has no parameter ${k}`);
          if (spec.type === 'int' || spec.type === 'float')
            assert.ok(v >= spec.min && v <= spec.max, `${name}: ${k} = ${v} outside ${spec.min}..${spec.max}`);
          if (spec.type === 'int') assert.ok(Number.isInteger(v));
          if (spec.options) assert.ok(spec.options.includes(v));
        }
        assert.equal(
          typeof sample.run(pe, {
            ...Object.fromEntries(Object.entries(sample.params).map(([k, s]) => [k, s.default])),
            ...x.reveal.params,
          }),
          'string',
        );
      }
    }
  });
}

test('two learners see different numbers in most exercises; one learner the same numbers twice', () => {
  let differ = 0;
  for (const gen of Object.values(generators)) {
    const a = JSON.stringify(gen.generate(pe, seededRandom(deriveSeed(11, 'x'))));
    const again = JSON.stringify(gen.generate(pe, seededRandom(deriveSeed(11, 'x'))));
    const b = JSON.stringify(gen.generate(pe, seededRandom(deriveSeed(12, 'x'))));
    assert.equal(a, again, 'the same seed must give the same exercise');
    if (a !== b) differ += 1;
  }
  assert.ok(
    differ >= Object.keys(generators).length - 1,
    `only ${differ} of ${Object.keys(generators).length} exercises differ between two learners`,
  );
});

test('the lesson: at least 10 exercises in 7 sections, 3 asking for a formula, 3 for a prediction a live sample then shows, 1 for a bug', async () => {
  const { exercises } = await builtLesson();
  const list = Object.values(exercises);
  const sections = new Set(list.map((x) => x.section));
  assert.ok(list.length >= 10, `${list.length} exercises`);
  assert.ok(sections.size >= 7, `exercises in ${sections.size} sections`);
  const kinds = {};
  for (const x of list) kinds[generatorOf(x).asks] = (kinds[generatorOf(x).asks] ?? 0) + 1;
  assert.ok(kinds.formula >= 3, `${kinds.formula} formula exercises`);
  assert.ok(kinds.prediction >= 3, `${kinds.prediction} prediction exercises`);
  assert.ok(kinds.bug >= 1, 'no find-the-bug exercise');
  // a prediction is shown by a live sample once answered
  for (const x of list.filter((e) => generatorOf(e).asks === 'prediction')) {
    assert.ok(
      drawExercise(generatorOf(x), pe, seededRandom(5)).reveal,
      `${x.id}: a prediction with nothing to show it`,
    );
  }
});

test('two mistakes are named, not answered with a counter-example: a number where a variable belongs, a sign turned (issue 46)', () => {
  const names = { base: { tex: '\\text{base}' }, s: { tex: 's' }, d: { tex: 'd' } };
  const domains = { base: { min: 1000, max: 1e6 }, s: { min: 1.5, max: 32 }, d: { min: 16, max: 256, even: true } };
  const ntk = { answer: { type: 'expression', reference: 'base*s^(d/(d-2))', names, domains } };
  const constant = judgePart(ntk, '10000*s^(d/(d-2))', seededRandom(1));
  assert.equal(constant.right, false);
  assert.match(
    constant.message,
    /^The answer depends on \$\\text\{base\}\$, and your formula does not use it: .* Type `base`\.$/,
  );
  const turn = {
    answer: {
      type: 'expression',
      reference: 'x0*cos(m*theta) - x1*sin(m*theta)',
      names: { x0: { tex: 'x_0' }, x1: { tex: 'x_1' }, m: { tex: 'm' }, theta: { tex: '\\theta' } },
      domains: {
        x0: { min: -2, max: 2 },
        x1: { min: -2, max: 2 },
        m: { min: 0, max: 50, integer: true },
        theta: { min: 0.01, max: 1.5 },
      },
    },
  };
  // no slip of the exercise's own: the clockwise turn is named all the same
  const clockwise = judgePart(turn, 'x0*cos(theta*m) + sin(m*theta)*x1', seededRandom(2));
  assert.match(
    clockwise.message,
    /^That is the right formula with \$-(m|\\theta)\$ in place of \$(m|\\theta)\$: a sign turned/,
  );
  // any other wrong formula still gets the place where it differs
  assert.match(judgePart(turn, 'x0*cos(m*theta)', seededRandom(3)).message, /^The answer depends on \$x_1\$/);
  assert.match(judgePart(ntk, 'base*s^2 + d', seededRandom(4)).message, /^At .*your formula gives/);
});
