// The lesson's Markdown beyond CommonMark (lessons/README.md): asides, note
// boxes, citations and the References list, rendered from snippets by the
// build's own renderer, and the build errors they can raise.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRenderer } from '../../scripts/build/build-lesson.mjs';
import { BuildError, parseReferences, checkCitations, renderReferences } from '../../scripts/lesson/lesson-format.mjs';
import { sectionStats } from '../../scripts/lesson/lesson-stats.mjs';

const FILE = 'lessons/positional-encoding/99-snippet.md';
const references = {
  vaswani2017: {
    authors: 'Vaswani et al.',
    year: 2017,
    title: 'Attention Is All You Need',
    url: 'https://arxiv.org/abs/1706.03762',
    venue: 'NeurIPS 2017',
  },
  su2021: {
    authors: 'Su et al.',
    year: 2021,
    title: 'RoFormer: Enhanced Transformer with Rotary Position Embedding',
    url: 'https://arxiv.org/abs/2104.09864',
  },
};
const render = (markdown, refs = references) => {
  const r = createRenderer({ references: refs });
  return { ...r.render(markdown, { file: FILE, section: 'snippet' }), renderer: r };
};

const snippet = `
Sinusoids came first [@vaswani2017, Table 3]; Su et al. ([-@su2021]) rotate instead.

::: note Notation
$d$ is the model width.
:::

::: aside Under the hood: $\\theta$ in float32
The angle is $m\\theta$.

| pair | wavelength |
|---|---|
| 0 | $2\\pi$ |

See [@su2021].
:::

\`\`\`quiz
id: snippet-quiz
question: Who introduced the sinusoidal table [@vaswani2017]?
options:
  - text: The Transformer paper [@vaswani2017]
    correct: true
    feedback: Yes, [-@vaswani2017].
  - text: RoFormer
    feedback: That is rotation [@su2021, Sec. 3.4].
explanation: See [@vaswani2017; @su2021].
\`\`\`
`;

test('an aside renders as a closed details with an inline title, holding math and a table', () => {
  const { html, subsections } = render(snippet);
  const aside = html.match(/<details class="aside">[\s\S]*?<\/details>/)?.[0];
  assert.ok(aside, html);
  assert.doesNotMatch(aside, /<details[^>]* open/);
  assert.match(
    aside,
    /^<details class="aside"><summary>Under the hood: <span class="katex"><math[\s\S]*?<\/math><\/span> in float32<\/summary>\n<div class="aside-body">/,
  );
  assert.match(aside, /<table>[\s\S]*<math[\s\S]*<\/table>/);
  assert.match(aside, /<a class="cite" href="#ref-su2021">Su et al\., 2021<\/a>/);
  assert.match(aside, /<\/div>\n<\/details>$/);
  assert.doesNotMatch(html, /style=/);
  assert.deepEqual(subsections, []);
});

test('a note renders as an always-visible box labelled by its title', () => {
  const { html } = render(snippet);
  assert.match(
    html,
    /<div class="note" role="note" aria-labelledby="snippet-note-notation">\n<p class="note-title" id="snippet-note-notation">Notation<\/p>\n<p><span class="katex"><math/,
  );
});

test('a widget alone on its line is a block of the section, not a paragraph; anywhere else it stays where it is', () => {
  const { html } = render(`Before.

<pe-heatmap max-len="64" d-model="64"></pe-heatmap>

Text and <rope-clock></rope-clock> in one paragraph.

<alibi-bias heads="8"></alibi-bias> <t5-buckets></t5-buckets>

- <rope-clock></rope-clock>
- two

::: aside A widget in an aside
<learned-overflow rows="64"></learned-overflow>
:::
`);
  assert.match(
    html,
    /<p>Before\.<\/p>\n<pe-heatmap max-len="64" d-model="64"><\/pe-heatmap>\n?<p>Text and <rope-clock><\/rope-clock> in one paragraph\.<\/p>/,
  );
  assert.match(html, /<p><alibi-bias heads="8"><\/alibi-bias> <t5-buckets><\/t5-buckets><\/p>/);
  assert.match(html, /<li><rope-clock><\/rope-clock><\/li>/);
  assert.match(html, /<div class="aside-body">\n<learned-overflow rows="64"><\/learned-overflow>\n?<\/div>/);
  assert.doesNotMatch(html, /<p>\s*<(pe-heatmap|learned-overflow)/);
});

test('citations in prose: author and year, a locator, the year alone', () => {
  const { html, renderer } = render(snippet);
  assert.match(html, /<a class="cite" href="#ref-vaswani2017">Vaswani et al\., 2017, Table 3<\/a>;/);
  assert.match(html, /Su et al\. \(<a class="cite" href="#ref-su2021">2021<\/a>\)/);
  assert.deepEqual([...renderer.cited].sort(), ['su2021', 'vaswani2017']);
});

test('citations in a quiz: question, options, feedback and explanation', () => {
  const { renderer } = render(snippet);
  const q = renderer.quizzes['snippet-quiz'];
  assert.match(q.question, /<a class="cite" href="#ref-vaswani2017">Vaswani et al\., 2017<\/a>/);
  assert.match(q.options[0].html, /href="#ref-vaswani2017"/);
  assert.match(q.options[0].feedback, /<a class="cite" href="#ref-vaswani2017">2017<\/a>/);
  assert.match(q.options[1].feedback, /Su et al\., 2021, Sec\. 3\.4/);
  assert.equal(
    q.explanation,
    'See <a class="cite" href="#ref-vaswani2017">Vaswani et al., 2017</a>; <a class="cite" href="#ref-su2021">Su et al., 2021</a>.',
  );
});

test('ordinary links and brackets are not citations', () => {
  const { html } = render('A [link](https://example.org), an [x], an e-mail [me@example.org] and [@ alone].');
  assert.match(html, /<a href="https:\/\/example.org">link<\/a>/);
  assert.doesNotMatch(html, /class="cite"/);
});

test('build errors: an unknown key, a quiz inside an aside, a container that is not one, an aside without a title', () => {
  const failsWith = (markdown, pattern) =>
    assert.throws(
      () => render(markdown),
      (e) => e instanceof BuildError && e.message.startsWith(`${FILE}: `) && pattern.test(e.message),
    );
  failsWith('As shown by [@nobody2020].', /unknown reference \[@nobody2020\]/);
  failsWith(
    '```quiz\nid: q1\nquestion: Who? [@nobody2020]\noptions:\n  - text: a\n    correct: true\n    feedback: b\n  - text: c\n    feedback: d\nexplanation: e\n```\n',
    /unknown reference/,
  );
  failsWith(
    '::: aside Details\n```quiz\nid: hidden-quiz\nquestion: Q?\noptions:\n  - text: a\n    correct: true\n    feedback: b\n  - text: c\n    feedback: d\nexplanation: e\n```\n:::\n',
    /quiz hidden-quiz is inside an aside/,
  );
  failsWith('::: warning Careful\ntext\n:::\n', /is not a container/);
  failsWith('::: aside\ntext\n:::\n', /needs a title/);
});

test('references.yaml: fields checked, never-cited keys listed, an error only when strict', () => {
  const yaml = (strict) =>
    `strict: ${strict}\nreferences:\n  vaswani2017:\n    authors: Vaswani et al.\n    year: 2017\n    title: Attention Is All You Need\n    url: https://arxiv.org/abs/1706.03762\n    venue: NeurIPS 2017\n  su2021:\n    authors: Su et al.\n    year: 2021\n    title: "RoFormer: Enhanced Transformer with Rotary Position Embedding"\n    url: https://arxiv.org/abs/2104.09864\n`;
  const lax = parseReferences(yaml(false), 'references.yaml');
  assert.equal(lax.strict, false);
  assert.deepEqual(checkCitations(lax, new Set(['vaswani2017']), 'references.yaml'), ['su2021']);
  const strict = parseReferences(yaml(true), 'references.yaml');
  assert.throws(
    () => checkCitations(strict, new Set(['vaswani2017']), 'references.yaml'),
    /references.yaml: never cited .*su2021/,
  );
  assert.deepEqual(checkCitations(strict, new Set(['vaswani2017', 'su2021']), 'references.yaml'), []);
  assert.throws(
    () => parseReferences('references:\n  x2020:\n    authors: X\n    year: 2020\n    title: T\n', 'r.yaml'),
    /r.yaml: reference x2020 needs url/,
  );
  assert.throws(
    () =>
      parseReferences(
        'references:\n  x2020:\n    authors: X\n    year: 2020\n    title: T\n    url: http://x\n',
        'r.yaml',
      ),
    /https/,
  );
  assert.throws(() => parseReferences('references:\n  x2020:\n    author: X\n', 'r.yaml'), /unknown field author/);
  const html = renderReferences(lax.references);
  assert.match(
    html,
    /^<section id="references" aria-labelledby="references-title">\n<h2 id="references-title">References/,
  );
  assert.match(
    html,
    /<li id="ref-su2021">Su et al\. \(2021\)\. <a href="https:\/\/arxiv.org\/abs\/2104.09864">RoFormer: Enhanced Transformer with Rotary Position Embedding\.<\/a><\/li>/,
  );
  assert.match(
    html,
    /<li id="ref-vaswani2017">Vaswani et al\. \(2017\)\. <a href="https:\/\/arxiv.org\/abs\/1706.03762">Attention Is All You Need\.<\/a> NeurIPS 2017\.<\/li>/,
  );
  assert.ok(html.indexOf('ref-su2021') < html.indexOf('ref-vaswani2017'), 'sorted by authors');
});

test("the lesson's references.yaml parses and every entry has an https address", () => {
  const file = new URL('../../lessons/positional-encoding/references.yaml', import.meta.url);
  const { references: refs } = parseReferences(readFileSync(file, 'utf8'), 'references.yaml');
  assert.ok(Object.keys(refs).length >= 24);
  for (const key of ['vaswani2017', 'su2021', 'press2022', 'peng2023', 'hf-rope-utils']) assert.ok(refs[key], key);
});

test('lesson stats: main path and aside words, formulas as one word, quizzes, exercises, widgets and samples', () => {
  const html =
    '<h3 id="x">Two words <a class="anchor" href="#x">#</a></h3>' +
    '<p>One <math><semantics><mi>x</mi><annotation encoding="application/x-tex">x + y</annotation></semantics></math> three.</p>' +
    '<table><tr><td>cell text</td></tr></table>' +
    '<div class="note" role="note"><p class="note-title">Notation</p><p>noted</p></div>' +
    '<details class="aside"><summary>Aside title</summary><div class="aside-body"><p>four more <math><mi>y</mi></math></p><rope-clock></rope-clock></div></details>' +
    '<pre>not counted at all</pre>' +
    '<pe-quiz quiz="q"><p>Check yourself: ignored</p></pe-quiz>' +
    '<pe-exercise exercise="e"><p>Exercise: ignored too</p></pe-exercise>' +
    '<pe-live-output sample="s"><pre>code</pre></pe-live-output>' +
    '<pe-heatmap d-model="8"></pe-heatmap>';
  assert.deepEqual(sectionStats(html), {
    mainWords: 2 + 3 + 2 + 2,
    asideWords: 2 + 3,
    quizzes: 1,
    exercises: 1,
    widgets: 2,
    samples: 1,
  });
});
