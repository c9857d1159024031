// Generated quiz text (web/lib/questions/quiz-text.js): the small TeX subset becomes
// MathML with the same characters KaTeX would set, every other character is
// escaped, no style attribute is ever written (strict CSP), numbers never
// print as "-0.000", and the feedback label is not printed twice. Then every
// generator (web/quizzes/*.js), over many seeds and both builds, writes only
// text that renders.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import katex from 'katex';
import {
  texToMathML,
  quizTextToHtml,
  quizNumber,
  texNumber,
  texVector,
  withoutLabel,
  escapeHtml,
} from '../../web/lib/questions/quiz-text.js';
import { loadPosenc } from '../../web/posenc.js';
import { seededRandom } from '../../web/lib/questions/random.js';

// the characters a reader sees: the text of the formula, without the TeX annotation and tags
const shown = (html) =>
  html
    .replace(/<annotation[^>]*>[\s\S]*?<\/annotation>/g, '')
    .replace(/<mspace[^>]*><\/mspace>|<mspace[^>]*\/>/g, '')
    .replace(/<mtext>\s*<\/mtext>/g, '') // KaTeX's spacing commands
    .replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\u00a0/g, ' ')
    .trim();

const FORMULAS = [
  '2 - 2\\cos(\\Delta\\theta_i)',
  'd_{\\text{model}} = 8',
  'd_{\\text{head}} = 128',
  'q = (0.5, -1.2)',
  'q^\\top R_{n-m}\\, k',
  '\\lambda_{12} = 4{,}096',
  '\\theta_{3}/4',
  '\\text{smooth} = (8{,}192/\\lambda_{5} - 1)/3',
  '2\\pi \\approx 6.28',
  'n = m + \\Delta',
  '\\theta_0 = 1',
  '(n - m)\\theta',
  '\\frac{1}{2}\\sqrt{d}',
  'x \\le y \\ne z',
];

test('formulas carry the characters KaTeX sets, as MathML', () => {
  for (const tex of FORMULAS) {
    const ours = texToMathML(tex);
    const theirs = katex.renderToString(tex, { output: 'mathml' });
    assert.equal(shown(ours), shown(theirs), tex);
    assert.match(ours, /^<span class="katex"><math xmlns="http:\/\/www.w3.org\/1998\/Math\/MathML"><semantics><mrow>/);
    assert.ok(ours.includes(`<annotation encoding="application/x-tex">${escapeHtml(tex)}</annotation>`));
  }
});

test('sub- and superscripts, groups and function names nest as in KaTeX', () => {
  assert.equal(
    texToMathML('\\theta_i').replace(/^.*?<mrow>|<\/mrow><annotation.*$/g, ''),
    '<msub><mi>θ</mi><mi>i</mi></msub>',
  );
  const inner = (tex) => texToMathML(tex).match(/<semantics><mrow>(.*)<\/mrow><annotation/)[1];
  assert.equal(inner('R_{n-m}'), '<msub><mi>R</mi><mrow><mi>n</mi><mo>−</mo><mi>m</mi></mrow></msub>');
  assert.equal(inner('x_1^2'), '<msubsup><mi>x</mi><mn>1</mn><mn>2</mn></msubsup>');
  assert.equal(inner('\\cos x'), '<mi>cos</mi><mo>\u2061</mo><mi>x</mi>');
  assert.equal(inner('\\Delta'), '<mi mathvariant="normal">Δ</mi>');
  assert.equal(inner('d_{\\text{rot}}'), '<msub><mi>d</mi><mtext>rot</mtext></msub>');
  assert.equal(inner('12{,}345'), '<mn>12,345</mn>');
  // a sign after an operator, a fence or at the start is part of the number; after an operand it is a subtraction
  assert.equal(inner('n - m = -1'), '<mi>n</mi><mo>−</mo><mi>m</mi><mo>=</mo><mn>−1</mn>');
  assert.equal(
    inner('(-0.8, -0.5)'),
    '<mo stretchy="false">(</mo><mn>−0.8</mn><mo>,</mo><mn>−0.5</mn><mo stretchy="false">)</mo>',
  );
  assert.equal(inner('-3'), '<mn>−3</mn>');
  assert.equal(inner('2-3'), '<mn>2</mn><mo>−</mo><mn>3</mn>');
  assert.equal(inner('x_{-1}'), '<msub><mi>x</mi><mn>−1</mn></msub>');
});

test('unsupported TeX throws instead of reaching the page', () => {
  for (const bad of [
    '\\foo',
    'x_',
    '{x',
    'x}',
    '_x',
    'x_1_2',
    '\\text x',
    'a & b',
    'a " b',
    '\\left(',
    '\\mathbf{q}',
  ]) {
    assert.throws(() => texToMathML(bad), SyntaxError, bad);
  }
});

test('text around the maths is escaped; nothing can inject markup or styles', () => {
  const hostile = `<img src=x onerror="alert(1)"> & 'quotes' <style>*{}</style> \`<b>code</b>\` $\\text{<script>alert(1)</script>}$`;
  const html = quizTextToHtml(hostile);
  assert.doesNotMatch(html, /<(img|style|script|b)\b/i);
  assert.ok(html.includes('&lt;img src=x onerror=&quot;alert(1)&quot;&gt; &amp; &#39;quotes&#39;'));
  assert.ok(html.includes('<code>&lt;b&gt;code&lt;/b&gt;</code>'));
  assert.ok(html.includes('<mtext>&lt;script&gt;alert(1)&lt;/script&gt;</mtext>'));
  assert.equal(quizTextToHtml('costs \\$5 and $5$'), `costs $5 and ${texToMathML('5')}`);
  assert.equal(quizTextToHtml('a lone $ sign'), 'a lone $ sign');
  for (const tex of FORMULAS) assert.doesNotMatch(texToMathML(tex), /style=/);
});

test('numbers: no negative zero, true minus on request, grouping and vectors', () => {
  assert.equal(quizNumber(-0.0004, 3), '0.000');
  assert.equal(quizNumber(-0, 0), '0');
  assert.equal(quizNumber(-1e-9, 1), '0.0');
  assert.equal(quizNumber(-0.0006, 3), '-0.001');
  assert.equal(quizNumber(-1.5, 1, { minus: true }), '\u22121.5');
  assert.equal(quizNumber(1.93, 3), '1.930');
  assert.equal(texNumber(500000), '500{,}000');
  assert.equal(texNumber(12.3), '12');
  assert.equal(texVector([0.5, -1.2, -0]), '(0.5, -1.2, 0)');
  assert.equal(texVector([0.12345, -0.0001], 2), '(0.12, 0.00)');
});

test('feedback does not repeat the label it is printed after', () => {
  assert.equal(withoutLabel('Right. Both moved by 3.'), 'Both moved by 3.');
  assert.equal(withoutLabel('Right: distance 1.930'), 'Distance 1.930');
  assert.equal(withoutLabel('Correct: yes'), 'Yes');
  assert.equal(withoutLabel('No. Only pairs above'), 'Only pairs above');
  assert.equal(withoutLabel('Yes. YaRN multiplies'), 'YaRN multiplies');
  assert.equal(withoutLabel('No mask is built for them.'), 'No mask is built for them.');
  assert.equal(withoutLabel('Rightly so.'), 'Rightly so.');
  assert.equal(
    withoutLabel('<span class="katex">x</span>: a formula first'),
    '<span class="katex">x</span>: a formula first',
  );
  assert.equal(withoutLabel('Right.'), 'Right.');
});

const generators = readdirSync(new URL('../../web/quizzes/', import.meta.url)).filter((f) => f.endsWith('.js'));

for (const simd of [true, false]) {
  test(`every generator writes text that renders: MathML, no "-0.000", no label repeated (${simd ? 'SIMD' : 'scalar'} build)`, async () => {
    const pe = await loadPosenc({ simd });
    assert.ok(generators.length >= 2); // rope-same-offset, long-context-llama3-pair;
    for (const file of generators) {
      const m = await import(`../../web/quizzes/${file}`);
      const generate = m.generate ?? m.default.generate;
      for (let seed = 1; seed <= 150; seed++) {
        const q = generate(pe, seededRandom(seed * 2654435761));
        const texts = [q.question, q.explanation, ...q.options.flatMap((o) => [o.text, o.feedback])];
        const where = `${file}, seed ${seed}`;
        assert.equal(q.options.filter((o) => o.correct).length, 1, where);
        for (const t of texts) {
          assert.equal(typeof t, 'string', where);
          const html = quizTextToHtml(t); // throws on maths it cannot set
          assert.doesNotMatch(shown(html), /[-\u2212]0\.0+(?!\d*[1-9])/, `${where}: negative zero in ${t}`);
          assert.doesNotMatch(html, /style=/, where);
          assert.doesNotMatch(shown(html), /\{|\}|\\/, `${where}: TeX left in the text of ${t}`);
          // maths is typeset, not written as plain-text formulas
          const prose = t.replace(/\$[^$]*\$|`[^`]*`/g, '');
          assert.doesNotMatch(
            prose,
            /\b(omega|theta|lambda|Delta|cos|sin)\b|[*^_]|\b[a-z] = /,
            `${where}: plain-text maths in ${t}`,
          );
        }
        for (const o of q.options)
          assert.doesNotMatch(o.feedback, /^\s*(right|correct)\s*[.:]/i, `${where}: feedback starts with a label`);
      }
    }
  });
}
