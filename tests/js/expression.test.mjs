// Typed formulas (web/lib/questions/expression.js): equivalent forms of the course's
// formulas are accepted and near misses are not; every kind of bad input
// gets a plain message, never a throw or a hang; nothing typed reaches the
// TeX, and every TeX the reader writes renders through quizTextToHtml.
// Then a seeded fuzz loop over hostile strings and random token runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseExpression, evaluateExpression, sameFunction, texOf } from '../../web/lib/questions/expression.js';
import katex from 'katex';
import { quizTextToHtml } from '../../web/lib/questions/quiz-text.js';
import { seededRandom } from '../../web/lib/questions/random.js';

const NAMES = {
  s: { tex: 's' },
  d: { tex: 'd' },
  b: { tex: 'b' },
  i: { tex: 'i' },
  m: { tex: 'm' },
  theta: { tex: '\\theta', aliases: ['θ'] },
  x0: { tex: 'x_0', aliases: ['x₀', 'x_0'] },
  x1: { tex: 'x_1', aliases: ['x₁', 'x_1'] },
};
const DOMAINS = {
  s: { min: 1.5, max: 10000 },
  d: { min: 64, max: 1024, even: true },
  b: { min: 100, max: 100000 },
  i: { min: 0, max: 31, integer: true },
  m: { min: 0, max: 4096, integer: true },
  theta: { min: 1e-4, max: 1 },
  x0: { min: -3, max: 3 },
  x1: { min: -3, max: 3 },
};

const read = (text, options = { names: NAMES }) => {
  const r = parseExpression(text, options);
  assert.ok(r.ok, `${JSON.stringify(text)} should parse: ${r.message}`);
  return r.expr;
};
const refuse = (text, options = { names: NAMES }) => {
  const r = parseExpression(text, options);
  assert.equal(r.ok, false, `${JSON.stringify(text)} should be refused, read as ${r.expr?.plain}`);
  assert.equal(typeof r.message, 'string');
  assert.ok(r.message.length > 0);
  assert.ok(
    Number.isInteger(r.start) && Number.isInteger(r.end) && r.start >= 0 && r.start <= r.end,
    `${JSON.stringify(text)}: range ${r.start}..${r.end}`,
  );
  return r;
};
const value = (text, scope = {}, options = { names: NAMES }) => {
  const r = evaluateExpression(read(text, options), scope);
  assert.ok(r.ok, `${JSON.stringify(text)} should evaluate: ${r.message}`);
  return r.value;
};
const judge = (learner, reference, seed = 1, options) =>
  sameFunction(read(learner), read(reference), DOMAINS, seededRandom(seed), options);

// MathML only: the tags texToMathML writes, every other "<" escaped
const TAGS =
  /<\/?(?:span|math|semantics|mrow|mi|mn|mo|mfrac|msqrt|msup|msub|msubsup|mtext|mspace|annotation)\b[^<>]*>/g;
function assertRenders(tex, from) {
  assert.match(
    tex,
    /^[0-9A-Za-z\\{}^_()|+\-. ]*$/,
    `TeX of ${JSON.stringify(from)} holds only what the reader writes: ${tex}`,
  );
  const html = quizTextToHtml(`$${tex}$`);
  assert.doesNotMatch(html.replace(TAGS, ''), /[<>]/, `${JSON.stringify(from)} renders to ${html}`);
  // and is TeX proper: KaTeX, strict, reads it too
  katex.renderToString(tex, { throwOnError: true, strict: 'error', output: 'mathml' });
}

test('the course formulas: every equivalent form is accepted', () => {
  const forms = {
    's^(d/(d-2))': ['exp(d*ln(s)/(d-2))', 's^(1+2/(d-2))', 's*s^(2/(d-2))', 's ^ (d / (d − 2))', 'exp(d log(s)/(d-2))'],
    '2*pi*b^(2*i/d)': [
      '2pi b^(2i/d)',
      '2*pi*exp(2*i*ln(b)/d)',
      '2π·b^(2i/d)',
      'pi*2*(b^(i/d))^2',
      '2×π×b**(2i/d)',
      '2pi/b^(-2i/d)',
    ],
    'x0*cos(m*theta) - x1*sin(m*theta)': [
      'cos(m θ)x0 - x1 sin(θ m)',
      'x₀ cos(m θ) - x₁ sin(m θ)',
      '-(x_1 sin(m theta) - x_0 cos(m theta))',
    ],
  };
  for (const [reference, learners] of Object.entries(forms)) {
    for (const learner of learners) {
      for (const seed of [1, 2, 3])
        assert.deepEqual(judge(learner, reference, seed), { same: true }, `${learner} vs ${reference}, seed ${seed}`);
    }
  }
});

test('near misses are rejected, with the point where they differ', () => {
  const misses = {
    '2*pi*b^(2*i/d)': ['2*pi*b^(i/d)', '2*pi*b^(-2*i/d)', '3*pi*b^(2*i/d)', 'pi*b^(2*i/d)', '2*pi*b^(2*i/d) + 1e-6*b'],
    's^(d/(d-2))': ['s^(d/(d+2))', 's^(d/(d-2)) * 1.001', 's^(2/(d-2))'],
    'x0*cos(m*theta) - x1*sin(m*theta)': [
      'x0*cos(m*theta) + x1*sin(m*theta)',
      'x0*sin(m*theta) - x1*cos(m*theta)',
      'x0*cos(theta) - x1*sin(theta)',
    ],
  };
  for (const [reference, learners] of Object.entries(misses)) {
    for (const learner of learners) {
      const v = judge(learner, reference);
      assert.equal(v.same, false, `${learner} vs ${reference}`);
      assert.ok(
        Number.isFinite(v.learnerValue) && Number.isFinite(v.referenceValue) && v.learnerValue !== v.referenceValue,
      );
      const back = evaluateExpression(read(reference), v.at);
      assert.equal(back.value, v.referenceValue, 'the reported point gives the reported value');
    }
  }
  // b^(2i/d) and b^(i/d) agree where i = 0: a domain of that one point cannot tell them apart, a wider one does
  const only = { ...DOMAINS, i: { min: 0, max: 0, integer: true } };
  assert.equal(sameFunction(read('b^(i/d)'), read('b^(2*i/d)'), only, seededRandom(4)).same, true);
});

test('a learner formula undefined where the reference is not is wrong, and says why', () => {
  const names = { x: {}, y: {} };
  const r = (t) => read(t, { names });
  const zero = { x: { min: 0, max: 0, integer: true } };
  const v = sameFunction(r('x^2/x'), r('x'), zero, seededRandom(1));
  assert.equal(v.same, false);
  assert.deepEqual(v.at, { x: 0 });
  assert.ok(Number.isNaN(v.learnerValue));
  assert.equal(v.referenceValue, 0);
  assert.equal(v.message, 'Your answer divides by zero: x = 0.');
  const negative = { x: { min: -2, max: -1 } };
  assert.equal(
    sameFunction(r('ln(x^2)/2'), r('ln(-x)'), negative, seededRandom(1)).same,
    true,
    'ln(x^2)/2 is ln(-x) for x < 0',
  );
  assert.match(
    sameFunction(r('ln(x)'), r('ln(-x)'), negative, seededRandom(1)).message,
    /takes ln of a negative number: x = -1\./,
  );
  // points where the reference itself is undefined are skipped, not held against the learner
  assert.equal(sameFunction(r('ln(abs(x))'), r('ln(x)'), { x: { min: -1, max: 1 } }, seededRandom(5)).same, true);
  // a variable the reference does not use takes values from its domain; without one, it is not part of this answer
  const both = { x: { min: -1, max: 1 }, y: { min: 1, max: 2 } };
  assert.equal(sameFunction(r('2x + 0y'), r('2*x'), both, seededRandom(1)).same, true);
  assert.equal(sameFunction(r('2x + y'), r('2*x'), both, seededRandom(1)).same, false);
  assert.deepEqual(sameFunction(r('2x + y'), r('2*x'), { x: both.x }, seededRandom(1)), {
    same: false,
    at: {},
    learnerValue: NaN,
    referenceValue: NaN,
    message: 'This answer does not depend on y.',
  });
  // the exercise's own bugs throw
  assert.throws(() => sameFunction(r('x'), r('x'), {}, seededRandom(1)), TypeError);
  assert.throws(
    () => sameFunction(r('x'), r('ln(x)'), { x: { min: -2, max: -1 } }, seededRandom(1)),
    /undefined at all/,
  );
});

test('tolerances: relative, with an absolute floor near zero', () => {
  const names = { x: {} };
  const x = { x: { min: 1, max: 2 } };
  const same = (l, r, options) =>
    sameFunction(read(l, { names }), read(r, { names }), x, seededRandom(9), options).same;
  assert.equal(same('x*(1 + 1e-12)', 'x'), true);
  assert.equal(same('x*(1 + 1e-6)', 'x'), false);
  assert.equal(same('x*(1 + 1e-6)', 'x', { rel: 1e-5 }), true);
  assert.equal(same('sin(pi*x)*0 + 1e-13', '0*x'), true);
  assert.equal(same('1e-9', '0*x'), false);
});

test('domains: integers, even integers and intervals are drawn as asked', () => {
  const names = { n: {}, k: {}, t: {} };
  const seen = { n: new Set(), k: new Set(), t: [] };
  const probe = {
    n: { min: 2, max: 9, even: true },
    k: { min: -1.5, max: 2.5, integer: true },
    t: { min: 0.25, max: 0.5 },
  };
  const record = read('n + k + t', { names });
  const random = seededRandom(3);
  for (let j = 0; j < 40; j++) {
    // a learner off by one differs at the first point drawn, and reports it
    const v = sameFunction(read('n + k + t + 1', { names }), record, probe, random);
    seen.n.add(v.at.n);
    seen.k.add(v.at.k);
    seen.t.push(v.at.t);
  }
  assert.deepEqual(
    [...seen.n].sort((a, b) => a - b),
    [2, 4, 6, 8],
  );
  assert.deepEqual(
    [...seen.k].sort((a, b) => a - b),
    [-1, 0, 1, 2],
  );
  assert.ok(seen.t.every((t) => t >= 0.25 && t < 0.5));
  assert.throws(
    () => sameFunction(record, record, { ...probe, n: { min: 3, max: 3, even: true } }, random),
    /no even integer/,
  );
});

test('numbers, operators and precedence', () => {
  assert.equal(value('1e-3'), 0.001);
  assert.equal(value('2.5E4'), 25000);
  assert.equal(value('.5'), 0.5);
  assert.equal(value('5.'), 5);
  assert.equal(value('2^3^2'), 512, '^ is right-associative');
  assert.equal(value('-2^2'), -4, 'a sign binds looser than ^');
  assert.equal(value('2^-1'), 0.5);
  assert.equal(value('2*-3'), -6);
  assert.equal(value('6/2*3'), 9, '* and / left to right');
  assert.equal(value('1 - 2 - 3'), -4);
  assert.equal(value('2(3+1)'), 8);
  assert.equal(value('(1+1)(2+2)'), 8);
  assert.equal(value('(2)pi'), 2 * Math.PI);
  assert.equal(value('2e'), 2 * Math.E, '2e is 2 times e, 2e3 a number');
  assert.equal(value('2e3'), 2000);
  assert.equal(value('2i/d', { i: 3, d: 4 }), 1.5, '2i/d is 2*i/d');
  assert.equal(value('2×3 + 6÷2 − 1 + 2·3 + 2⋅3 + 2**3'), 6 + 3 - 1 + 6 + 6 + 8);
  assert.equal(value('θ²', { theta: 3 }), 9);
  assert.equal(value('x₀⁻¹', { x0: 4 }), 0.25);
  assert.equal(value('log(e^2)'), 2, 'log is the natural log');
  assert.equal(value('sqrt(16) + abs(-2) + exp(0) + tan(0) + sin(0) + cos(0)'), 8);
  // names, their aliases and x0-style names
  for (const t of ['x0', 'x₀', 'x_0']) assert.deepEqual(read(t).variables, ['x0']);
  assert.deepEqual(read('θ + theta').variables, ['theta']);
  assert.deepEqual(read('m theta x1 + s').variables, ['m', 'theta', 'x1', 's']);
});

test('plain text and TeX show the reading, and the plain text reads back the same', () => {
  const cases = [
    ['2pi b^(2i/d)', '2*pi*b^(2*i/d)', '2 \\pi b^{\\frac{2 i}{d}}'],
    ['s^(d/(d-2))', 's^(d/(d - 2))', 's^{\\frac{d}{d - 2}}'],
    ['cos(m θ)x0 - x1 sin(θ m)', 'cos(m*theta)*x0 - x1*sin(theta*m)', '\\cos(m \\theta) x_0 - x_1 \\sin(\\theta m)'],
    ['-x0^2', '-x0^2', '-x_0^{2}'],
    ['(-x0)^2', '(-x0)^2', '(-x_0)^{2}'],
    ['2*3', '2*3', '2 \\cdot 3'],
    ['s*2', 's*2', 's \\cdot 2'],
    ['2*(1/2)', '2*(1/2)', '2 \\cdot \\frac{1}{2}'],
    ['s/d*b', 's/d*b', '\\frac{s}{d} b'],
    ['s/(d*b)', 's/(d*b)', '\\frac{s}{d b}'],
    ['(s+1)/d', '(s + 1)/d', '\\frac{s + 1}{d}'],
    ['s*(d+1)', 's*(d + 1)', 's \\cdot (d + 1)'],
    ['(s+1)(d+1)', '(s + 1)*(d + 1)', '(s + 1) (d + 1)'],
    ['s - (d - b)', 's - (d - b)', 's - (d - b)'],
    ['s*-d', 's*(-d)', 's \\cdot (-d)'],
    ['log(s)', 'ln(s)', '\\ln(s)'],
    ['sqrt(s)abs(d)', 'sqrt(s)*abs(d)', '\\sqrt{s} \\cdot |d|'],
    ['2.5E4 d', '2.5e4*d', '2.5 \\times 10^{4} d'],
    ['1e3^2', '1e3^2', '(1 \\times 10^{3})^{2}'],
    ['2^3^2', '2^3^2', '2^{3^{2}}'],
    ['(2^3)^2', '(2^3)^2', '(2^{3})^{2}'],
    ['+s', 's', 's'],
  ];
  for (const [typed, plain, tex] of cases) {
    const e = read(typed);
    assert.equal(e.plain, plain, typed);
    assert.equal(e.tex, tex, typed);
    assertRenders(e.tex, typed);
    assert.equal(read(e.plain).plain, plain, `${typed}: the plain text reads back the same`);
  }
  // a name of several letters is one group: a power covers all of it, a product is dotted
  const wide = { names: { dmodel: {}, x: {} } };
  assert.equal(read('dmodel^2 * x', wide).tex, '{\\mathrm{dmodel}}^{2} x');
  assert.equal(read('x dmodel', wide).tex, 'x \\cdot \\mathrm{dmodel}');
  assertRenders(read('dmodel^2 * x', wide).tex, 'dmodel');
});

test('hostile and mistyped input: a plain message each, never a throw', () => {
  const cases = [
    ['', /empty/],
    ['   \t\n', /empty/],
    ['2*s*(s+1', /^The bracket opened at character 5 is never closed\.$/],
    ['((s)', /bracket opened at character 1 is never closed/],
    ['(s+1)*2s)', /^A closing bracket at character 9 has no opening one\.$/],
    [')(', /closing bracket at character 1 has no opening one/],
    ['2*', /missing after "\*" at the end/],
    ['s +', /missing after "\+" at the end/],
    ['2*/3', /"\/" right after "\*" at character 3/],
    ['2^^3', /"\^" right after "\^"/],
    ['*2', /Nothing before "\*" at character 1/],
    ['(+)', /missing after "\+"/],
    ['s+-d', /Two signs in a row at character 3/],
    ['--s', /Two signs in a row at character 2/],
    ['()', /Nothing inside the brackets at character 1/],
    ['sin()', /Nothing inside the brackets at character 4/],
    ['<img src=x onerror=alert(1)>', /^Unknown character "<" at character 1\./],
    ['s > 2', /Unknown character ">" at character 3/],
    ['s = 2', /without "="/],
    ['[s]', /round brackets/],
    ['|s|', /abs\(…\)/],
    ['1,5', /decimals with a point/],
    ['s\u200bd', /U\+200B/],
    ['s\u0000', /U\+0000/],
    ['s\ud800', /U\+D800/],
    ['1e999', /^1e999 is too large to be a number here/],
    ['1e-999', /too small to be a number here/],
    ['1.2.3', /"1\.2\.3" at character 1 is not a number/],
    [
      'mtheta',
      /^Unknown name "mtheta"\. Did you mean m\*theta\? Names you can use here: s, d, b, i, m, theta, x0, x1, pi, e$/,
    ],
    ['2 bi', /Did you mean b\*i\?/],
    ['Theta', /Did you mean theta\?/],
    ['sinθ', /Did you mean sin\(θ\)\?/],
    ['x0cos(s)', /Did you mean x0\*cos\(…\)\? .*Functions you can use here: sin, cos/],
    ['s2', /Did you mean s\^2 or s\*2\?/],
    ['arcsin(s)', /Unknown name "arcsin".*Functions you can use here/],
    ['sin s', /sin needs brackets around what it applies to: sin\(s\)/],
    ['sin', /sin needs brackets/],
    ['sin^2(s)', /power after the brackets: sin\(…\)\^2/],
    ['sin²(s)', /power after the brackets: sin\(…\)\^2/],
    ['s(d+1)', /s\(…\) reads as a function, but s is not one: write s\*\(…\)/],
    ['pi(2)', /pi\(…\) reads as a function/],
    ['s 2', /A number right after "s"/],
    ['(s)2', /A number right after "\(…\)".*\(…\)\*2/],
    ['2 3', /Two numbers in a row/],
    ['s/2d', /^"s\/2d" is ambiguous: write \(s\/2\)\*d or s\/\(2\*d\)\.$/],
    ['s^2d', /^"s\^2d" is ambiguous: write s\^2\*d or s\^\(2\*d\)\.$/],
    ['e^sin(s) d', /is ambiguous: write e\^sin\(s\)\*d or e\^\(sin\(s\)\*d\)/],
    ['s²^2', /Both a superscript and \^/],
  ];
  for (const name of [
    'constructor',
    '__proto__',
    'toString',
    'hasOwnProperty',
    'valueOf',
    'prototype',
    'isPrototypeOf',
    '__defineGetter__',
  ]) {
    cases.push([name, new RegExp(`^Unknown name "${name}"`)], [`2*${name}(1)`, /^Unknown name/]);
  }
  for (const [text, message] of cases) assert.match(refuse(text).message, message, JSON.stringify(text));
  // the range points at what is wrong
  assert.deepEqual(pick(refuse('s + mtheta')), { start: 4, end: 10 });
  assert.deepEqual(pick(refuse('s + <b>')), { start: 4, end: 5 });
  // not text at all
  for (const x of [
    undefined,
    null,
    42,
    {},
    ['s'],
    {
      toString: () => {
        throw new Error('ran');
      },
    },
  ])
    assert.equal(parseExpression(x, { names: NAMES }).ok, false);
});

const pick = ({ start, end }) => ({ start, end });

test('size caps come before any work: no hang, no stack overflow', () => {
  // refused before the names are even looked at
  const untouchable = new Proxy(
    {},
    { ownKeys: () => assert.fail('read the names'), get: () => assert.fail('read the names') },
  );
  let t = performance.now();
  const huge = refuse('('.repeat(20000), { names: untouchable });
  assert.match(huge.message, /20000 characters long; at most 300/);
  assert.ok(performance.now() - t < 100, 'refused at once');
  assert.match(refuse('s'.repeat(301)).message, /301 characters long/);
  assert.equal(
    parseExpression('s'.repeat(300), { names: NAMES, maxLength: 300 }).message.startsWith('Unknown name'),
    true,
  );
  // nesting: brackets, then signs and powers, with the length cap lifted
  const lifted = { names: NAMES, maxLength: 1e6 };
  assert.match(
    refuse(`${'('.repeat(51)}s${')'.repeat(51)}`).message,
    /Brackets nest more than 50 deep at character 51/,
  );
  read(`${'('.repeat(50)}s${')'.repeat(50)}`);
  t = performance.now();
  assert.match(refuse(`${'('.repeat(20000)}s${')'.repeat(20000)}`, lifted).message, /Brackets nest more than 50/);
  read(`${'-('.repeat(50)}s${')'.repeat(50)}`);
  assert.match(
    refuse(`${'-('.repeat(50)}s${'^s'.repeat(5)}${')'.repeat(50)}`).message,
    /nests more than 100 brackets, powers and signs/,
  );
  assert.match(refuse(`${'2^'.repeat(5000)}2`, lifted).message, /nests more than 100/);
  // long flat chains are lists, not deep trees: they read, print and evaluate
  assert.equal(value(`1${'+1'.repeat(10000)}`, {}, lifted), 10001);
  assert.equal(value(`2${'*1'.repeat(10000)}`, {}, lifted), 2);
  // the longest words get no suggestion search
  assert.match(refuse(`${'m'.repeat(50000)}`, lifted).message, /^Unknown name "m{20}…"\. Names/);
  // linear work: well under a second on an idle machine; the bound leaves room for a busy one
  assert.ok(performance.now() - t < 10000, `${performance.now() - t} ms`);
});

test('evaluation says where a value is undefined', () => {
  const ev = (text, scope) => evaluateExpression(read(text), scope);
  assert.deepEqual(ev('1/(d - d)', { d: 64 }), {
    ok: false,
    message: 'Your answer divides by zero: (d - d) is 0 when d = 64.',
  });
  assert.deepEqual(ev('1/0', {}), { ok: false, message: 'Your answer divides by zero.' });
  assert.match(ev('ln(s - 5)', { s: 2 }).message, /takes ln of a negative number: \(s - 5\) is -3 when s = 2/);
  assert.match(ev('log(s - 2)', { s: 2 }).message, /takes ln of zero/);
  assert.match(ev('sqrt(-s)', { s: 2 }).message, /square root of a negative number: \(-s\) is -2 when s = 2/);
  assert.match(ev('(0*s)^(-1)', { s: 2 }).message, /raises 0 to a negative power/);
  assert.match(ev('(-s)^0.5', { s: 2 }).message, /raises a negative number to the power 0\.5/);
  assert.match(ev('exp(s)', { s: 1000 }).message, /too large to compute at exp\(s\) when s = 1000/);
  assert.match(ev('s*d', { s: 1 }).message, /needs a number for d/);
  assert.match(ev('s', { s: NaN }).message, /needs a number for s/);
  assert.match(ev('s', { s: '3' }).message, /needs a number for s/);
  // scope lookups are own properties only
  assert.equal(evaluateExpression(read('toString', { names: { toString: {} } }), {}).ok, false);
  assert.equal(evaluateExpression(read('toString', { names: { toString: {} } }), { toString: 2 }).value, 2);
  assert.equal(evaluateExpression(read('s'), null).ok, false);
  assert.equal(evaluateExpression(undefined, {}).ok, false);
  assert.equal(ev('(-8)^3', {}).value, -512);
});

test("the exercise's names are checked; malformed ones are its bug and throw", () => {
  assert.throws(() => parseExpression('x', { names: { sin: {} } }), /used twice/);
  assert.throws(() => parseExpression('x', { names: { '2x': {} } }), /not a name/);
  assert.throws(() => parseExpression('x', { names: { __proto__x: {} } }), /not a name/);
  assert.throws(() => parseExpression('x', { names: { a: { aliases: ['b'] }, b: {} } }), /used twice/);
  assert.throws(() => parseExpression('x', { names: { a: { aliases: ['x y'] } } }), /not a name/);
  // a variable may take a constant's name; names without tex get one
  assert.equal(value('e', { e: 3 }, { names: { e: {} } }), 3);
  assert.equal(read('theta1 + x2 + k', { names: { theta1: {}, x2: {}, k: {} } }).tex, '\\theta_{1} + x_{2} + k');
  // names from JSON, with an own __proto__ key, are still checked as names
  assert.throws(() => parseExpression('x', { names: JSON.parse('{"__proto__": {}}') }), /not a name/);
});

test('texOf: numbers for feedback, in TeX quizTextToHtml renders', () => {
  const cases = [
    [0, '0'],
    [-0, '0'],
    [4.3, '4.3'],
    [-3.5, '-3.5'],
    [25000, '25{,}000'],
    [123456.789, '123{,}457'],
    [1.5e-7, '1.5 \\times 10^{-7}'],
    [-2.5e21, '-2.5 \\times 10^{21}'],
    [Math.PI, '3.14159'],
    [NaN, '\\text{undefined}'],
    [Infinity, '\\infty'],
    [-Infinity, '-\\infty'],
  ];
  for (const [v, tex] of cases) {
    assert.equal(texOf(v), tex, String(v));
    assert.doesNotThrow(() => quizTextToHtml(`$x = ${texOf(v)}$`));
  }
  assert.equal(texOf(Math.PI, 3), '3.14');
});

// ---------------------------------------------------------------------------
// Fuzz: hostile characters and plausible token runs, seeded so a failure
// replays. Nothing throws; every result is a formula or a message; every
// formula renders, prints plain text that reads back the same, and evaluates
// to the same value (or the same refusal) as that plain text.

const NASTY = [
  ...'0123456789.eE+-*/^()  ',
  ...'sdbimθπx_₀₁²³⁻',
  ...'<>&"\'`$\\{}[]|=,;:!?#%@~',
  '\u2212',
  '×',
  '÷',
  '·',
  '\u200b',
  '\u0000',
  '\ud800',
  '\udc00',
  '😀',
  '\u0301',
  '\u00a0',
  '\n',
  '**',
  'sin',
  'cos(',
  'ln',
  'log',
  'exp',
  'sqrt(',
  'abs(',
  'pi',
  'theta',
  'x0',
  'x_1',
  'x₁',
  'constructor',
  '__proto__',
  'toString',
  'prototype',
  'valueOf',
  '1e308',
  '1e999',
  '1e-400',
  '<script>',
  '&amp;',
  '\\frac',
  '$x$',
];
const TOKENS = [
  's',
  'd',
  'b',
  'i',
  'm',
  'theta',
  'θ',
  'x0',
  'x₁',
  'pi',
  'π',
  'e',
  '2',
  '0',
  '1.5',
  '.5',
  '1e3',
  '+',
  '-',
  '*',
  '/',
  '^',
  '**',
  '(',
  ')',
  'sin(',
  'ln(',
  'sqrt(',
  'abs(',
  'exp(',
  ' ',
  '²',
  '×',
  '−',
];

function checkOne(text, random) {
  let r;
  assert.doesNotThrow(() => (r = parseExpression(text, { names: NAMES })), JSON.stringify(text));
  if (!r.ok) {
    assert.equal(typeof r.message, 'string', JSON.stringify(text));
    assert.ok(r.message.length > 0 && r.start >= 0 && r.start <= r.end && r.end <= text.length, JSON.stringify(r));
    return false;
  }
  const { tex, plain, variables } = r.expr;
  assertRenders(tex, text);
  assert.ok(variables.every((v) => Object.hasOwn(NAMES, v)));
  const again = parseExpression(plain, { names: NAMES });
  assert.ok(again.ok, `${JSON.stringify(text)} → ${plain} should read back: ${again.message}`);
  assert.equal(again.expr.plain, plain);
  assert.equal(again.expr.tex, tex);
  const scope = Object.fromEntries(
    variables.map((v) => [v, DOMAINS[v].min + (DOMAINS[v].max - DOMAINS[v].min) * random()]),
  );
  const [a, b] = [evaluateExpression(r.expr, scope), evaluateExpression(again.expr, scope)];
  assert.deepEqual(a, b, `${JSON.stringify(text)} and ${plain} evaluate alike`);
  assert.ok(a.ok ? Number.isFinite(a.value) : a.message.startsWith('Your answer '));
  return true;
}

test('fuzz: random strings from a nasty alphabet', () => {
  const random = seededRandom(20240601);
  let accepted = 0;
  for (let n = 0; n < 3000; n++) {
    const length = 1 + Math.floor(random() * 12);
    const text = Array.from({ length }, () => NASTY[Math.floor(random() * NASTY.length)]).join('');
    if (checkOne(text, random)) accepted++;
  }
  assert.ok(accepted > 30, `some of them are formulas (${accepted})`);
});

test('fuzz: random token runs, most of them formulas', () => {
  const random = seededRandom(7);
  let accepted = 0;
  for (let n = 0; n < 4000; n++) {
    const length = 1 + Math.floor(random() * 16);
    const text = Array.from({ length }, () => TOKENS[Math.floor(random() * TOKENS.length)]).join('');
    if (checkOne(text, random)) accepted++;
  }
  assert.ok(accepted > 150, `some of them are formulas (${accepted})`);
});

// A random tree, printed the way a learner might type it (aliases, spaces,
// Unicode operators, implicit products where they are unambiguous), with its
// value computed directly: the reader must accept it and get the same number.
function randomFormula(random, depth) {
  const pick = (items) => items[Math.floor(random() * items.length)];
  const sp = () => pick(['', '', ' ']);
  if (depth === 0 || random() < 0.25) {
    if (random() < 0.5) {
      const [text, v] = pick([
        ['2', 2],
        ['0.5', 0.5],
        ['.25', 0.25],
        ['3', 3],
        ['1e-3', 1e-3],
        ['2.5E1', 25],
        ['pi', Math.PI],
        ['π', Math.PI],
        ['e', Math.E],
      ]);
      return { text, value: () => v, atom: true, number: /^[\d.]/.test(text) };
    }
    const [text, name] = pick([
      ['s', 's'],
      ['d', 'd'],
      ['θ', 'theta'],
      ['theta', 'theta'],
      ['x₀', 'x0'],
      ['x_1', 'x1'],
      ['m', 'm'],
    ]);
    return { text, value: (scope) => scope[name], atom: true, name: true };
  }
  const a = randomFormula(random, depth - 1);
  const b = randomFormula(random, depth - 1);
  const br = (f) => (f.atom ? f.text : `(${f.text})`);
  switch (Math.floor(random() * 8)) {
    // (the right side of + and - in brackets: a + (b - c) rounds differently from a + b - c)
    case 0:
      return { text: `${a.text}${sp()}+${sp()}${br(b)}`, value: (x) => a.value(x) + b.value(x) };
    case 1:
      return { text: `${a.text}${sp()}${pick(['-', '−'])}${sp()}${br(b)}`, value: (x) => a.value(x) - b.value(x) };
    case 2: {
      // a number before a name may be juxtaposed; anything else gets a sign
      const times = a.number && b.name ? pick(['', ' ', '*']) : `${sp()}${pick(['*', '×', '·'])}${sp()}`;
      return { text: `${br(a)}${times}${br(b)}`, value: (x) => a.value(x) * b.value(x) };
    }
    case 3:
      return { text: `${br(a)}${sp()}${pick(['/', '÷'])}${sp()}${br(b)}`, value: (x) => a.value(x) / b.value(x) };
    case 4:
      return { text: `${br(a)}${pick(['^', '**'])}(${b.text})`, value: (x) => a.value(x) ** b.value(x) };
    case 5:
      return { text: `-${br(a)}`, value: (x) => -a.value(x) };
    case 6: {
      const [f, fn] = pick([
        ['sin', Math.sin],
        ['cos', Math.cos],
        ['exp', Math.exp],
        ['ln', Math.log],
        ['log', Math.log],
        ['sqrt', Math.sqrt],
        ['abs', Math.abs],
        ['tan', Math.tan],
      ]);
      return { text: `${f}(${a.text})`, value: (x) => fn(a.value(x)), atom: true };
    }
    default:
      return { text: `(${a.text})`, value: a.value, atom: true };
  }
}

test('fuzz: random well-formed formulas read as written and evaluate to the same number', () => {
  const random = seededRandom(99);
  let compared = 0;
  for (let n = 0; n < 2000; n++) {
    const f = randomFormula(random, 1 + Math.floor(random() * 4));
    const r = parseExpression(f.text, { names: NAMES });
    assert.ok(r.ok, `${f.text}: ${r.message}`);
    assertRenders(r.expr.tex, f.text);
    const scope = {
      s: 1 + random() * 3,
      d: 64,
      theta: random(),
      x0: random() * 2 - 1,
      x1: random() * 2 - 1,
      m: Math.floor(random() * 8),
    };
    const ours = evaluateExpression(r.expr, scope);
    if (!ours.ok) continue;
    assert.equal(ours.value, f.value(scope), f.text);
    compared++;
  }
  assert.ok(compared > 1000, `most are defined (${compared})`);
});

test('fuzz: judging never throws on whatever the reader accepts', () => {
  const random = seededRandom(11);
  const reference = read('2*pi*b^(2*i/d)');
  for (let n = 0; n < 1500; n++) {
    const text = Array.from(
      { length: 1 + Math.floor(random() * 12) },
      () => TOKENS[Math.floor(random() * TOKENS.length)],
    ).join('');
    const r = parseExpression(text, { names: NAMES });
    if (!r.ok) continue;
    const v = sameFunction(r.expr, reference, DOMAINS, random, { points: 4 });
    assert.ok(
      v.same === true || (v.same === false && (v.message === undefined || typeof v.message === 'string')),
      text,
    );
  }
});
