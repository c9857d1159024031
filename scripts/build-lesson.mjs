// Turns the lesson data in lessons/ into the page (format: lessons/README.md).
//
//   node scripts/build-lesson.mjs            writes web/index.html and web/gen/lesson-data.js
//   node scripts/build-lesson.mjs --check    builds in memory, writes nothing (used by the tests)
//   node scripts/build-lesson.mjs --check --sections rope,long-context
//                                            checks the lesson of those sections only
//
// A lesson of some sections (--sections here, in scripts/export.mjs and
// scripts/export-scorm.mjs; chooseSections below) holds only their text,
// quizzes, exercises, live samples and generators. It is never written over
// web/index.html, the lesson the site serves: the exports build it in
// memory, and the served page shows a choice with ?sections=a,b.
//
// Samples (web/samples/) and exercise generators (web/exercises/) declare
// the section they are written for (`section: 'rope'`). One that no rendered
// section uses is an error, as a leftover, unless its section is not in the
// lesson (its file was removed: it is dropped with a note) or was left out
// by --sections (dropped silently); one with no declaration is an error only
// when the whole lesson is built.
//
// Both print, after building, each section's words, quizzes and widgets, and
// what in each quiz's options could give the answer away without reading
// (scripts/lesson-stats.mjs; also `npm run lesson:stats`).
//
// Passes:
//   1. read lesson.yaml, references.yaml and the section files, in file-name order
//   2. replace {{num:name}} with numbers computed by the wasm core (web/numbers/*.js)
//   3. Markdown -> HTML (createRenderer, which also renders a snippet for the
//      tests): $math$ to MathML (KaTeX, at build time: the page loads no math
//      script and carries no inline styles), ```python sample=id blocks to
//      <pe-live-output> with the code highlighted and the output the core
//      computes for the default parameters, ```quiz blocks to <pe-quiz>,
//      ```exercise blocks to <pe-exercise> (typed answers, numbers drawn per
//      learner by web/exercises/<generator>.js),
//      ::: aside / ::: note containers and [@key] citations (lesson-format.mjs)
//   4. citations against references.yaml: an unknown key fails in pass 3; a
//      reference never cited fails when references.yaml says strict: true
//   5. the page from web/templates/lesson.html, with the table of contents
//      and the final References part
//   6. web/gen/lesson-data.js: quizzes, exercises, the ids of both in page
//      order (questionIds: what the score counts), sample code, and lazy
//      imports of the sample runners and the quiz and exercise generators,
//      for the widgets
import { readFileSync, readdirSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import MarkdownIt from 'markdown-it';
import katex from 'katex';
import yaml from 'js-yaml';
import hljs from 'highlight.js/lib/core';
import python from 'highlight.js/lib/languages/python';
import { loadPosenc } from '../web/posenc.js';
import { pyLiteral } from '../web/lib/pyformat.js';
import { PLACEHOLDER, defaultsOf } from './lesson-samples.mjs';
import {
  BuildError,
  fail,
  escapeHtml,
  slug,
  containerPlugin,
  citationPlugin,
  parseReferences,
  checkCitations,
  renderReferences,
  mathvariantLetters,
  mathmlProblems,
} from './lesson-format.mjs';
import { lessonStats, formatStats, quizTells, sampleGenerator, formatQuizTells } from './lesson-stats.mjs';
import { parseSections } from '../web/lib/section-ids.js';

hljs.registerLanguage('python', python);

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const LESSON_DIR = path.join(root, 'lessons/positional-encoding');
const webDir = path.join(root, 'web');

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

// ------------------------------------------------------------------ inputs
function readFrontMatter(text, file) {
  const m = text.match(/^---\n([\s\S]*?)\n---\n/);
  if (!m) fail(file, 'missing front matter (--- id: ..., title: ... ---)');
  const meta = yaml.load(m[1]);
  if (!meta?.id || !meta?.title) fail(file, 'front matter needs id and title');
  if (!/^[a-z][a-z0-9-]*$/.test(meta.id))
    fail(file, `section id ${meta.id} must be lowercase letters, digits and dashes`);
  return { meta, body: text.slice(m[0].length) };
}

async function importAll(dir) {
  const out = {};
  if (!existsSync(dir)) return out;
  for (const f of readdirSync(dir)
    .filter((f) => f.endsWith('.js'))
    .sort()) {
    const mod = await import(pathToFileURL(path.join(dir, f)).href);
    out[f.slice(0, -3)] = mod.default ?? mod; // a default export, or the named exports (generate)
  }
  return out;
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
  references = {},
} = {}) {
  const quizzes = {};
  const exercises = {};
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

  const defaultFence = md.renderer.rules.fence;
  md.renderer.rules.fence = (tokens, i, options, env, self) => {
    const token = tokens[i];
    const info = token.info.trim();
    if (info === 'quiz') return renderQuiz(token.content, env);
    if (info === 'exercise') return renderExercise(token.content, env);
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
    if (quizzes[q.id] || exercises[q.id]) fail(where, `question id ${q.id} is used twice`);
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

  // ```exercise: { id, generator, title }; the widget draws the numbers
  function renderExercise(source, env) {
    const x = questionYaml(source, 'exercise', 'an exercise');
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

  return { render, inlineMd, quizzes, exercises, questionIds, samples, usedSamples, cited };
}

// ------------------------------------------------------------------ build
// pass 1: the lesson's metadata, its bibliography and its section files
// (each read, front matter checked: parts in page order, numbered from 1)
function readInputs(lessonDir) {
  const rel = (f) => path.relative(root, path.join(lessonDir, f));
  const lesson = yaml.load(readFileSync(path.join(lessonDir, 'lesson.yaml'), 'utf8'));
  const referencesFile = rel('references.yaml');
  const bibliography = existsSync(path.join(lessonDir, 'references.yaml'))
    ? parseReferences(readFileSync(path.join(lessonDir, 'references.yaml'), 'utf8'), referencesFile)
    : { strict: false, references: {} };
  const files = readdirSync(lessonDir)
    .filter((f) => /^\d+-.*\.md$/.test(f))
    .sort();
  if (!files.length) fail(lessonDir, 'no section files');
  const ids = new Set(['references', 'references-title']);
  const parts = files.map((file, n) => {
    const where = rel(file);
    const { meta, body } = readFrontMatter(readFileSync(path.join(lessonDir, file), 'utf8'), where);
    if (ids.has(meta.id)) fail(where, `section id ${meta.id} is used twice (or is reserved)`);
    ids.add(meta.id);
    return { where, meta, body, number: n + 1 };
  });
  return { lesson, bibliography, referencesFile, parts };
}

// The question ids of sections, without rendering them: a lesson of some
// sections still knows the others' questions, so that a learner's progress in
// them (the same browser, another export) is kept
function questionIdsOf(parts) {
  const md = new MarkdownIt();
  return parts.flatMap(({ body }) =>
    md
      .parse(body, {})
      .filter((t) => t.type === 'fence' && /^(quiz|exercise)$/.test(t.info.trim()))
      .map((t) => yaml.load(t.content)?.id),
  );
}

/**
 * The one filter for a lesson of some sections: the parts `only` names
 * (section ids, as text "a,b" or a list; null: all), in page order. An
 * unknown id fails, naming the sections there are.
 */
export function chooseSections(parts, only) {
  if (only == null) return parts;
  const { ids, error } = parseSections(
    Array.isArray(only) ? only.join(',') : only,
    parts.map((p) => p.meta.id),
  );
  if (error) throw new BuildError(`--sections: ${error}`);
  return parts.filter((p) => ids.includes(p.meta.id));
}

// pass 2: {{num:name}} -> text computed by the core (web/numbers/*.js), each
// name computed once; returns number(name, where) and the table it fills
async function numberResolver(pe) {
  const numberFns = {};
  for (const [file, table] of Object.entries(await importAll(path.join(webDir, 'numbers')))) {
    for (const [name, fn] of Object.entries(table ?? {})) {
      if (numberFns[name]) fail(`web/numbers/${file}.js`, `number ${name} is defined twice`);
      numberFns[name] = fn;
    }
  }
  const numbers = {};
  const number = (name, where) => {
    if (!(name in numbers)) {
      if (!numberFns[name]) fail(where, `unknown number {{num:${name}}} (define it in web/numbers/)`);
      const v = numberFns[name](pe);
      if (typeof v !== 'string' || v === '') fail(where, `number ${name} must compute a non-empty string`);
      numbers[name] = v;
    }
    return numbers[name];
  };
  return { number, numbers };
}

// pass 3: the chosen section files through the one renderer, numbers filled
// in; each keeps its number in the whole lesson
function renderSections(parts, renderer, number) {
  const ids = new Set(['references', 'references-title', ...parts.map((p) => p.meta.id)]);
  return parts.map(({ where, meta, body, number: n }) => {
    const withNumbers = body.replace(/\{\{num:([a-z0-9-]+)\}\}/g, (_, name) => escapeHtml(number(name, where)));
    const { html, subsections } = renderer.render(withNumbers, { file: where, section: meta.id, ids });
    return { id: meta.id, title: meta.title, number: n, html, subsections };
  });
}

/**
 * Samples or generators (`modules`, by id) that no rendered section uses:
 * an error for a leftover (see the top of this file); dropped with a note
 * when their section is not in the lesson, silently when --sections left it
 * out. Returns the notes.
 */
function checkUnused(modules, used, { dir, what }, { present, chosen, whole }) {
  const notes = [];
  for (const [id, mod] of Object.entries(modules)) {
    if (used.has(id)) continue;
    const section = mod.section;
    if (section && !present.has(section))
      notes.push(`web/${dir}/${id}.js: dropped, its section ${section} is not in the lesson`);
    else if (section ? chosen.has(section) : whole) fail(`web/${dir}/${id}.js`, `${what} is not used by any lesson`);
  }
  return notes;
}

// pass 5: the page from web/templates/lesson.html, with the table of
// contents and the References part
function renderPage(lesson, sections, references, { inlineMd, quizzes, exercises }) {
  const referencesHtml = renderReferences(references);
  const toc =
    sections
      .map(
        (s) =>
          `<li><a href="#${s.id}">${s.number}. ${inlineMd(s.title)}</a>` +
          (s.subsections.length
            ? `<ol>${s.subsections.map((x) => `<li><a href="#${x.id}">${inlineMd(x.title)}</a></li>`).join('')}</ol>`
            : '') +
          `</li>`,
      )
      .join('\n') + (referencesHtml ? `\n<li><a href="#references">References</a></li>` : '');
  const content =
    sections
      .map(
        (s) =>
          `<section id="${s.id}" aria-labelledby="${s.id}-title">\n<h2 id="${s.id}-title"><span class="section-number">${s.number}.</span> ${inlineMd(s.title)} <a class="anchor" href="#${s.id}" aria-label="Link to this section">#</a></h2>\n${s.html}</section>`,
      )
      .join('\n') + (referencesHtml ? `\n${referencesHtml}` : '');
  const template = readFileSync(path.join(webDir, 'templates/lesson.html'), 'utf8');
  const fill = {
    title: escapeHtml(lesson.title),
    subtitle: inlineMd(lesson.subtitle ?? ''),
    description: escapeHtml(lesson.description ?? ''),
    toc,
    content,
    'question-count': questionCount(quizzes, exercises),
  };
  return template.replace(/\{\{([a-z-]+)\}\}/g, (m, k) =>
    k in fill ? fill[k] : fail('web/templates/lesson.html', `unknown slot ${m}`),
  );
}

const count = (n, one, many) => `${n} ${n === 1 ? one : many}`;
const questionCount = (quizzes, exercises) =>
  `${count(Object.keys(quizzes).length, 'quiz', 'quizzes')} and ${count(Object.keys(exercises).length, 'exercise', 'exercises')}`;

// pass 6: web/gen/lesson-data.js, what the widgets import
function lessonDataModule(
  { quizzes, exercises, questionIds },
  sections,
  lessonQuestionIds,
  samples,
  generatorModules,
  exerciseModules,
) {
  // each section's questions, in page order: what web/lib/sections.js scores
  // for a choice of sections
  const sectionList = sections.map((s) => ({
    id: s.id,
    title: s.title,
    questionIds: questionIds.filter((id) => (quizzes[id] ?? exercises[id]).section === s.id),
  }));
  return (
    `// Generated by scripts/build-lesson.mjs from lessons/: do not edit.\n` +
    `// the sections, in page order, with their questions (web/lib/sections.js)\n` +
    `export const sections = ${JSON.stringify(sectionList, null, 1)};\n` +
    `export const quizzes = ${JSON.stringify(quizzes, null, 1)};\n` +
    `export const exercises = ${JSON.stringify(exercises, null, 1)};\n` +
    `// every question the score counts, quizzes and exercises, in page order\n` +
    `export const questionIds = ${JSON.stringify(questionIds)};\n` +
    `// every question of the whole lesson, with the sections this build left\n` +
    `// out: progress kept for any of these is never forgotten as unknown\n` +
    `export const lessonQuestionIds = ${JSON.stringify(lessonQuestionIds)};\n` +
    `export const samples = ${JSON.stringify(samples, null, 1)};\n` +
    `export const sampleRunners = {\n${Object.keys(samples)
      .map((id) => `  '${id}': () => import('../samples/${id}.js'),`)
      .join('\n')}\n};\n` +
    `export const quizGenerators = {\n${Object.keys(generatorModules)
      .filter((id) => Object.values(quizzes).some((q) => q.generator === id))
      .map((id) => `  '${id}': () => import('../quizzes/${id}.js'),`)
      .join('\n')}\n};\n` +
    `export const exerciseGenerators = {\n${Object.keys(exerciseModules)
      .filter((id) => Object.values(exercises).some((x) => x.generator === id))
      .map((id) => `  '${id}': () => import('../exercises/${id}.js'),`)
      .join('\n')}\n};\n`
  );
}

/**
 * Builds the lesson in memory. `lessonDir`: the folder of lesson.yaml and
 * the section files; `sections`: the ids of the sections to build ("a,b" or
 * a list; null: all). Returns the page, lesson-data.js's text and what went
 * into them; `notes` says what was dropped with a removed section.
 */
export async function buildLesson({ lessonDir = LESSON_DIR, sections: only = null } = {}) {
  const pe = await loadPosenc();
  const { lesson, bibliography, referencesFile, parts } = readInputs(lessonDir);
  const chosenParts = chooseSections(parts, only);
  const whole = chosenParts.length === parts.length;
  const { number, numbers } = await numberResolver(pe);
  const sampleModules = await importAll(path.join(webDir, 'samples'));
  const generatorModules = await importAll(path.join(webDir, 'quizzes'));
  const exerciseModules = await importAll(path.join(webDir, 'exercises'));
  const renderer = createRenderer({
    pe,
    sampleModules,
    generatorModules,
    exerciseModules,
    references: bibliography.references,
  });
  const sections = renderSections(chosenParts, renderer, number);
  const scope = { present: new Set(parts.map((p) => p.meta.id)), chosen: new Set(sections.map((s) => s.id)), whole };
  const usedGenerators = new Set(Object.values(renderer.exercises).map((x) => x.generator));
  const notes = [
    ...checkUnused(sampleModules, renderer.usedSamples, { dir: 'samples', what: 'sample' }, scope),
    ...checkUnused(exerciseModules, usedGenerators, { dir: 'exercises', what: 'exercise generator' }, scope),
  ];
  // pass 4: citations against references.yaml. A lesson of some sections,
  // or one whose samples show a section was removed, lists only the
  // references it cites (strict: true cannot tell a forgotten citation from
  // one that left with its section).
  const removed = Object.values({ ...sampleModules, ...exerciseModules }).some(
    (mod) => mod.section && !scope.present.has(mod.section),
  );
  const uncitedReferences = whole && !removed ? checkCitations(bibliography, renderer.cited, referencesFile) : [];
  const references =
    whole && !removed
      ? bibliography.references
      : Object.fromEntries(Object.entries(bibliography.references).filter(([key]) => renderer.cited.has(key)));
  if (whole && removed) {
    const left = Object.keys(bibliography.references).filter((key) => !renderer.cited.has(key));
    if (left.length) notes.push(`${referencesFile}: not cited by the sections left, so not listed: ${left.join(', ')}`);
  }
  const page = renderPage(lesson, sections, references, renderer);
  const data = lessonDataModule(
    renderer,
    sections,
    whole ? renderer.questionIds : questionIdsOf(parts),
    renderer.samples,
    generatorModules,
    exerciseModules,
  );
  const { quizzes, exercises, samples } = renderer;
  // the generated quizzes are measured on draws from their generators
  const draws = Object.fromEntries(
    Object.values(quizzes)
      .filter((q) => q.generator)
      .map((q) => [q.generator, sampleGenerator(generatorModules[q.generator].generate, pe)]),
  );
  const tells = quizTells(quizzes, draws);
  return {
    page,
    data,
    sections,
    quizzes,
    exercises,
    questionIds: renderer.questionIds,
    samples,
    numbers,
    references: bibliography,
    uncitedReferences,
    tells,
    notes,
  };
}

function parseArgs(argv) {
  const opts = { check: false, sections: null };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split('=', 2);
    if (flag === '--check') opts.check = true;
    else if (flag === '--sections') opts.sections = inline ?? argv[++i] ?? '';
    else throw new BuildError(`unknown option ${argv[i]} (options: --check, --sections <ids>)`);
  }
  // web/index.html is the lesson the site serves: a choice of sections is
  // checked here, written by the exports, shown by the page with ?sections=
  if (opts.sections !== null && !opts.check) {
    throw new BuildError(
      '--sections goes with --check (web/index.html stays the whole lesson): write a lesson of some sections with node scripts/export.mjs --sections, or open the page with ?sections=',
    );
  }
  return opts;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    const { check: checkOnly, sections: only } = parseArgs(process.argv.slice(2));
    const { page, data, sections, quizzes, exercises, samples, references, uncitedReferences, tells, notes } =
      await buildLesson({ sections: only });
    for (const note of notes) console.log(`lesson: ${note}`);
    if (!checkOnly) {
      mkdirSync(path.join(webDir, 'gen'), { recursive: true });
      writeFileSync(path.join(webDir, 'index.html'), page);
      writeFileSync(path.join(webDir, 'gen/lesson-data.js'), data);
    }
    console.log(
      `lesson: ${sections.length} sections, ${Object.keys(quizzes).length} quizzes, ${Object.keys(exercises).length} exercises, ${Object.keys(samples).length} live samples${checkOnly ? ' (checked, nothing written)' : ' -> web/index.html'}`,
    );
    if (uncitedReferences.length) {
      console.log(
        `lesson: ${uncitedReferences.length} of ${Object.keys(references.references).length} references not cited yet (an error once references.yaml says strict: true): ${uncitedReferences.join(', ')}`,
      );
    }
    console.log(formatStats(lessonStats(sections)));
    console.log(formatQuizTells(tells));
  } catch (error) {
    console.error(error instanceof BuildError ? `lesson build failed: ${error.message}` : error);
    process.exit(1);
  }
}
