// Pass 3 of the lesson build (scripts/build/build-lesson.mjs): one lesson section's
// Markdown to HTML. createRenderer gives one renderer for the whole lesson
// (it also renders a snippet for the tests):
//   $math$ and $$math$$    MathML by KaTeX at build time (the page loads no
//                          math script and carries no inline styles)
//   ```python sample=id    <pe-live-output>: the code highlighted and the output
//                          the core computes for the default parameters
//   ```quiz / ```exercise  <pe-quiz> / <pe-exercise> (numbers drawn per learner
//                          by web/exercises/<generator>.js)
//   ```code-exercise       <pe-code-exercise>: Python the learner writes, from a
//                          definition in <lesson>/code-exercises/<name>.yaml
//                          (code-exercise.mjs), cases from web/code-cases/
//   ::: aside / ::: note and [@key] citations (lesson-format.mjs)
// plus heading anchors and the contents' subsections.
import MarkdownIt from 'markdown-it';
import katex from 'katex';
import yaml from 'js-yaml';
import hljs from 'highlight.js/lib/core';
import python from 'highlight.js/lib/languages/python';
import { pyLiteral } from '../../web/lib/printing/pyformat.js';
import { compileExercise } from '../../web/lib/questions/own-exercise.js';
import { PLACEHOLDER, defaultsOf } from './lesson-samples.mjs';
import { checkCodeExercise } from './code-exercise.mjs';
import {
  BuildError,
  fail,
  escapeHtml,
  slug,
  containerPlugin,
  citationPlugin,
  mathvariantLetters,
  mathmlProblems,
} from './lesson-format.mjs';

hljs.registerLanguage('python', python);

// ------------------------------------------------------------------ math
function renderMath(tex, displayMode, where) {
  try {
    // styled letters (ℝ) as Unicode characters: Chromium ignores mathvariant
    const mathml = mathvariantLetters(
      katex.renderToString(tex, { output: 'mathml', displayMode, throwOnError: true, strict: 'ignore' }),
    );
    // what the page's HTML parser will read: an msub/mfrac/... with the wrong
    // number of children is drawn wrong and reported by Firefox
    const problems = mathmlProblems(mathml);
    if (problems.length) throw new BuildError(`malformed MathML (${problems.join('; ')})`);
    return mathml;
  } catch (error) {
    return fail(where, `bad formula ${JSON.stringify(tex)}: ${error.message}`);
  }
}

// $...$ inline, $$...$$ inline-display; an opening $ must be followed, and a
// closing one preceded, by a non-space (so "costs $5 and $6" stays text).
function mathPlugin(md, where) {
  md.inline.ruler.after('escape', 'math_inline', (state, silent) => {
    const src = state.src;
    let pos = state.pos;
    if (src[pos] !== '$') return false;
    const display = src[pos + 1] === '$';
    const open = display ? 2 : 1;
    const start = pos + open;
    if (start >= src.length || /\s/.test(src[start])) return false;
    let end = start;
    for (;;) {
      end = src.indexOf(display ? '$$' : '$', end);
      if (end < 0) return false;
      if (src[end - 1] !== '\\' && !/\s/.test(src[end - 1])) break;
      end += 1;
    }
    if (!silent) {
      const token = state.push('math', 'math', 0);
      token.content = src.slice(start, end);
      token.meta = { display };
    }
    state.pos = end + open;
    return true;
  });
  md.block.ruler.before('fence', 'math_block', (state, startLine, endLine, silent) => {
    const lineText = (n) => state.src.slice(state.bMarks[n] + state.tShift[n], state.eMarks[n]);
    const first = lineText(startLine);
    if (!first.startsWith('$$')) return false;
    let body = first.slice(2);
    let line = startLine;
    let found = body.trimEnd().endsWith('$$');
    if (found) body = body.trimEnd().slice(0, -2);
    while (!found) {
      line += 1;
      if (line >= endLine) return false;
      const t = lineText(line);
      if (t.trimEnd().endsWith('$$')) {
        body += `\n${t.trimEnd().slice(0, -2)}`;
        found = true;
      } else body += `\n${t}`;
    }
    if (silent) return true;
    const token = state.push('math_block', 'math', 0);
    token.content = body.trim();
    token.map = [startLine, line + 1];
    state.line = line + 1;
    return true;
  });
  md.renderer.rules.math = (tokens, i) => renderMath(tokens[i].content, tokens[i].meta.display, where());
  md.renderer.rules.math_block = (tokens, i) =>
    `<div class="math-display">${renderMath(tokens[i].content, true, where())}</div>\n`;
}

// The text an inline token reads as, markup and formulas left as their source
// letters (a table header: "scheme", "where position enters").
function plainOf(inline) {
  if (!inline || inline.type !== 'inline') return '';
  return (inline.children ?? [])
    .filter((c) => c.type === 'text' || c.type === 'code_inline' || c.type === 'math_inline')
    .map((c) => c.content)
    .join('')
    .trim();
}

// ------------------------------------------------------------------ pass 3: Markdown -> HTML
// One renderer for the whole lesson (quiz ids, samples and citations are
// collected across sections). pe is needed only by live samples; a snippet
// without samples renders with pe = null.
export function createRenderer({
  pe = null,
  sampleModules = {},
  generatorModules = {},
  exerciseModules = {},
  codeDefinitions = {},
  caseModules = {},
  references = {},
} = {}) {
  const quizzes = {};
  const exercises = {};
  const codeExercises = {};
  const questionIds = []; // quizzes and exercises, in page order
  const samples = {};
  const usedSamples = new Set();
  const cited = new Set();
  let where = '';

  const md = new MarkdownIt({ html: true, linkify: false, typographer: true });
  mathPlugin(md, () => where);
  containerPlugin(md, { where: () => where });
  citationPlugin(md, { where: () => where, references, cited });
  const inlineMd = (text) => md.renderInline(String(text ?? ''));
  // every body cell names its column (data-label: the header cell's text), so
  // a table of sentences can be laid out as cards on a phone (.stack-table,
  // web/lesson.css) without losing what each cell is
  md.core.ruler.push('cell_labels', (state) => {
    let header = [];
    let column = 0;
    const tokens = state.tokens;
    for (let i = 0; i < tokens.length; i++) {
      const t = tokens[i];
      if (t.type === 'thead_open') header = [];
      else if (t.type === 'th_open') header.push(plainOf(tokens[i + 1]));
      else if (t.type === 'tr_open') column = 0;
      else if (t.type === 'td_open') {
        if (header[column]) t.attrSet('data-label', header[column]);
        column++;
      }
    }
  });

  const defaultFence = md.renderer.rules.fence;
  md.renderer.rules.fence = (tokens, i, options, env, self) => {
    const token = tokens[i];
    const info = token.info.trim();
    if (info === 'quiz') return renderQuiz(token.content, env);
    if (info === 'exercise') return renderExercise(token.content, env);
    if (info === 'code-exercise') return renderCodeExercise(token.content, env);
    const m = info.match(/^python\s+sample=([a-z0-9-]+)$/);
    if (m) return renderSample(m[1], token.content, env);
    if (info.startsWith('python')) {
      // tabindex: a code block wider than the screen scrolls, and keyboard users must reach it
      return `<pre class="code" tabindex="0"><code class="language-python">${hljs.highlight(token.content, { language: 'python' }).value}</code></pre>\n`;
    }
    return defaultFence(tokens, i, options, env, self).replace('<pre>', '<pre tabindex="0">');
  };

  // a ```quiz or ```exercise block's YAML, with an id no other question has
  function questionYaml(source, kind, named) {
    let q;
    try {
      q = yaml.load(source);
    } catch (error) {
      fail(where, `${kind} YAML does not parse: ${error.message}`);
    }
    if (!q?.id || !/^[a-z0-9-]+$/.test(q.id))
      fail(where, `${named} needs an id of lowercase letters, digits and dashes (got ${q?.id})`);
    if (quizzes[q.id] || exercises[q.id] || codeExercises[q.id]) fail(where, `question id ${q.id} is used twice`);
    return q;
  }

  function renderQuiz(source, env) {
    const q = questionYaml(source, 'quiz', 'a quiz');
    const quiz = { id: q.id, section: env.section };
    if (q.generator) {
      const gen = generatorModules[q.generator];
      if (!gen || typeof gen.generate !== 'function')
        fail(where, `quiz ${q.id}: no generator web/quizzes/${q.generator}.js exporting generate()`);
      quiz.generator = q.generator;
      quiz.title = q.title ? inlineMd(q.title) : '';
    } else {
      if (!q.question || !Array.isArray(q.options) || q.options.length < 2)
        fail(where, `quiz ${q.id} needs a question and at least two options`);
      const correct = q.options.filter((o) => o.correct === true).length;
      if (correct === 0) fail(where, `quiz ${q.id} has no correct option`);
      if (correct > 1 && !q.multiple) fail(where, `quiz ${q.id} has ${correct} correct options; add multiple: true`);
      for (const o of q.options)
        if (!o.text || !o.feedback) fail(where, `quiz ${q.id}: every option needs text and feedback`);
      if (!q.explanation) fail(where, `quiz ${q.id} needs an explanation`);
      quiz.multiple = !!q.multiple;
      quiz.question = inlineMd(q.question);
      quiz.options = q.options.map((o) => ({
        html: inlineMd(o.text),
        correct: o.correct === true,
        feedback: inlineMd(o.feedback),
      }));
      quiz.explanation = inlineMd(q.explanation);
    }
    quizzes[q.id] = quiz;
    questionIds.push(q.id);
    // The question in light DOM paints before any script runs; the element
    // replaces it with the interactive quiz.
    const fallback = quiz.question
      ? `<p class="quiz-fallback"><strong>Check yourself:</strong> ${quiz.question}</p>`
      : `<p class="quiz-fallback"><strong>Check yourself:</strong> a question generated by the compute core.</p>`;
    return `<pe-quiz quiz="${q.id}">${fallback}</pe-quiz>\n`;
  }

  // ```exercise: { id, generator, title }, or { id, title, ... } with the
  // rest an exercise written as data, as an author writes one
  // (web/lib/questions/own-exercise.js, docs/embedding.md); the widget draws the numbers
  function renderExercise(source, env) {
    const x = questionYaml(source, 'exercise', 'an exercise');
    if (x.generator === undefined) return renderWrittenExercise(x, env);
    const gen = exerciseModules[x.generator];
    if (!gen || typeof gen.generate !== 'function')
      fail(where, `exercise ${x.id}: no generator web/exercises/${x.generator}.js exporting generate()`);
    if (gen.section && gen.section !== env.section)
      fail(
        where,
        `exercise ${x.id}: web/exercises/${x.generator}.js says it is written for section ${gen.section}, but section ${env.section} uses it`,
      );
    if (!x.title) fail(where, `exercise ${x.id} needs a title (what it asks, in a few words)`);
    for (const k of Object.keys(x))
      if (!['id', 'generator', 'title'].includes(k))
        fail(where, `exercise ${x.id}: unknown field ${k} (id, generator, title)`);
    exercises[x.id] = { id: x.id, section: env.section, generator: x.generator, title: inlineMd(x.title) };
    questionIds.push(x.id);
    // the title in light DOM paints before any script runs
    return `<pe-exercise exercise="${x.id}"><p class="quiz-fallback"><strong>Exercise:</strong> ${exercises[x.id].title} (with numbers drawn for you by the compute core).</p></pe-exercise>\n`;
  }

  // ```code-exercise: { id, definition, title }; the definition is plain data
  // (code-exercise.mjs checks it), its texts rendered here as the lesson's are
  function renderCodeExercise(source, env) {
    const x = questionYaml(source, 'code-exercise', 'a code exercise');
    for (const k of Object.keys(x))
      if (!['id', 'definition', 'title'].includes(k))
        fail(where, `code exercise ${x.id}: unknown field ${k} (id, definition, title)`);
    if (!x.title) fail(where, `code exercise ${x.id} needs a title (what it asks, in a few words)`);
    const def = codeDefinitions[x.definition];
    if (!def) fail(where, `code exercise ${x.id}: no definition code-exercises/${x.definition}.yaml`);
    const problems = checkCodeExercise(def, caseModules);
    if (problems.length) fail(`code-exercises/${x.definition}.yaml`, problems.join('; '));
    if (def.section !== env.section)
      fail(
        where,
        `code exercise ${x.id}: code-exercises/${x.definition}.yaml says it is written for section ${def.section}, but section ${env.section} uses it`,
      );
    const block = (text) => md.render(String(text));
    codeExercises[x.id] = {
      id: x.id,
      section: env.section,
      definition: x.definition,
      title: inlineMd(x.title),
      imports: def.imports ?? '',
      signature: def.signature,
      docstring: def.docstring,
      starter: def.starter,
      solution: def.solution,
      cases: def.cases,
      tolerance: def.tolerance,
      html: {
        prompt: block(def.prompt),
        tensors: block(def.tensors),
        tolerance: block(def.tolerance_why),
        hint: block(def.hint),
        notes: block(def.solution_notes),
      },
      slips: def.slips.map((s) => ({ id: s.id, html: inlineMd(s.message) })),
    };
    questionIds.push(x.id);
    // the title in light DOM paints before any script runs
    return `<pe-code-exercise exercise="${x.id}"><p class="quiz-fallback"><strong>Exercise:</strong> ${codeExercises[x.id].title} (write it in Python, checked against the compute core).</p></pe-code-exercise>\n`;
  }

  // an exercise written as data: checked (and drawn) now by the widget's own
  // compiler, so a mistake fails the build naming the field; the definition
  // goes into lesson-data.js, where <pe-exercise exercise="id"> finds it
  function renderWrittenExercise(x, env) {
    const { id, ...definition } = x;
    if (!x.title) fail(where, `exercise ${id} needs a title (what it asks, in a few words)`);
    if (!pe) fail(where, `exercise ${id}: an exercise written as data needs the core to be checked`);
    try {
      compileExercise(definition, { pe, samples: sampleModules });
    } catch (error) {
      if (error.field === undefined) throw error;
      fail(where, `exercise ${id}: ${error.message}`);
    }
    exercises[id] = { id, section: env.section, title: inlineMd(x.title), definition };
    questionIds.push(id);
    return `<pe-exercise exercise="${id}"><p class="quiz-fallback"><strong>Exercise:</strong> ${exercises[id].title} (with numbers drawn for you by the compute core).</p></pe-exercise>\n`;
  }

  function renderSample(id, code, env) {
    const mod = sampleModules[id];
    if (!mod || typeof mod.run !== 'function')
      fail(where, `sample ${id}: web/samples/${id}.js must export default { params, run }`);
    if (mod.section && mod.section !== env.section)
      fail(
        where,
        `sample ${id}: web/samples/${id}.js says it is written for section ${mod.section}, but section ${env.section} uses it`,
      );
    if (usedSamples.has(id)) fail(where, `sample ${id} is used twice`);
    usedSamples.add(id);
    const params = mod.params ?? {};
    const names = [...code.matchAll(PLACEHOLDER)].map((x) => x[1]);
    for (const n of names)
      if (!params[n])
        fail(where, `sample ${id}: code uses {{${n}}} but web/samples/${id}.js declares no such parameter`);
    const defaults = defaultsOf(params);
    // placeholders become identifiers the highlighter leaves alone, then spans
    const marked = code.replace(PLACEHOLDER, (_, n) => `PEPARAM${n}PEEND`);
    let html = hljs.highlight(marked, { language: 'python' }).value;
    html = html.replace(
      /PEPARAM([a-z_][a-z0-9_]*)PEEND/gi,
      (_, n) => `<span class="param" data-param="${n}">${escapeHtml(pyLiteral(params[n], defaults[n]))}</span>`,
    );
    let output;
    try {
      output = mod.run(pe, defaults);
    } catch (error) {
      fail(where, `sample ${id} fails with its default parameters: ${error.stack}`);
    }
    if (typeof output !== 'string') fail(where, `sample ${id}: run() must return the printed text`);
    samples[id] = { code, codeHtml: html };
    return (
      `<pe-live-output sample="${id}">` +
      `<pre class="code"><code class="language-python">${html}</code></pre>` +
      `<pre class="output" data-label="Output">${escapeHtml(output)}</pre>` +
      `</pe-live-output>\n`
    );
  }

  // heading ids: section-id + heading slug; ## in a section file is a
  // subsection, listed in the contents unless it sits in a (closed) aside
  md.core.ruler.push('heading_ids', (state) => {
    const env = state.env;
    let asideDepth = 0;
    for (let i = 0; i < state.tokens.length; i++) {
      const t = state.tokens[i];
      if (t.type === 'container_aside_open') asideDepth += 1;
      if (t.type === 'container_aside_close') asideDepth -= 1;
      if (t.type !== 'heading_open') continue;
      const text = state.tokens[i + 1].children
        .filter((c) => c.type === 'text' || c.type === 'code_inline')
        .map((c) => c.content)
        .join('');
      if (t.tag === 'h1') fail(where, 'use ## and below inside a section (the section title is the page heading)');
      const level = Number(t.tag.slice(1)) + 1; // ## in a section file renders as <h3>
      t.tag = `h${level}`;
      tokens_close(state.tokens, i).tag = t.tag;
      const id = `${env.section}-${slug(text)}`;
      if (env.ids.has(id)) fail(where, `two headings make the anchor #${id}`);
      env.ids.add(id);
      t.attrSet('id', id);
      if (level === 3 && asideDepth === 0) env.subsections.push({ id, title: text });
    }
  });
  // A widget on a line of its own (`<pe-heatmap ...></pe-heatmap>`) is a
  // block of the section, not a paragraph: CommonMark wraps a line that opens
  // and closes an unknown tag in <p>. Unwrapped, each of the section's blocks
  // can skip layout while far from the screen (lesson.css) without the
  // widget's margins changing: they collapsed through the <p> before, and a
  // block that skips establishes its own formatting context.
  md.core.ruler.push('widget_blocks', (state) => {
    const tokens = state.tokens;
    for (let i = 0; i + 2 < tokens.length; i++) {
      if (tokens[i].type !== 'paragraph_open' || tokens[i + 2].type !== 'paragraph_close') continue;
      const parts = tokens[i + 1].children.filter(
        (c) => !(c.type === 'text' && c.content.trim() === '') && c.type !== 'softbreak',
      );
      const open = parts[0]?.type === 'html_inline' && parts[0].content.match(/^<([a-z][a-z0-9]*-[a-z0-9-]*)[\s>]/);
      if (!open || parts.length !== 2 || parts[1].type !== 'html_inline' || parts[1].content.trim() !== `</${open[1]}>`)
        continue;
      tokens[i].hidden = true;
      tokens[i + 2].hidden = true;
    }
  });
  function tokens_close(tokens, i) {
    for (let j = i + 1; j < tokens.length; j++) if (tokens[j].type === 'heading_close') return tokens[j];
    return fail(where, 'unclosed heading');
  }
  md.renderer.rules.heading_open = (tokens, i, options, env, self) => `${self.renderToken(tokens, i, options)}`;
  md.renderer.rules.heading_close = (tokens, i) => {
    const id = tokens[i - 2].attrGet('id');
    return ` <a class="anchor" href="#${id}" aria-label="Link to this part">#</a></${tokens[i].tag}>\n`;
  };

  /** Renders one section's Markdown; ids is the page-wide set of anchors. */
  function render(markdown, { file, section, ids = new Set() }) {
    where = file;
    const env = { section, ids, subsections: [] };
    return { html: md.render(markdown, env), subsections: env.subsections };
  }

  return { render, inlineMd, quizzes, exercises, codeExercises, questionIds, samples, usedSamples, cited };
}
