// Turns the lesson data in lessons/ into the page (format: lessons/README.md).
//
//   node scripts/build/build-lesson.mjs            writes web/index.html and web/gen/lesson-data.js
//   node scripts/build/build-lesson.mjs --check    builds in memory, writes nothing (used by the tests)
//   node scripts/build/build-lesson.mjs --check --sections rope,long-context
//                                            checks the lesson of those sections only
//
// A lesson of some sections (--sections here, in scripts/export/export.mjs and
// scripts/export/export-scorm.mjs; chooseSections below) holds only their text,
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
// (scripts/lesson/lesson-stats.mjs; also `npm run lesson:stats`).
//
// Passes:
//   1. read lesson.yaml, references.yaml and the section files, in file-name order
//   2. replace {{num:name}} with numbers computed by the wasm core (web/numbers/*.js)
//   3. Markdown -> HTML: scripts/lesson/lesson-markdown.mjs (createRenderer, exported
//      here too): KaTeX math at build time, ```python sample=id blocks to
//      <pe-live-output>, ```quiz and ```exercise blocks, ::: aside / ::: note
//      containers and [@key] citations (../lesson/lesson-format.mjs)
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
import yaml from 'js-yaml';
import { loadPosenc } from '../../web/posenc.js';
import { BuildError, fail, escapeHtml, parseReferences, checkCitations, renderReferences } from '../lesson/lesson-format.mjs';
import { createRenderer } from '../lesson/lesson-markdown.mjs';
import { readCodeExercises } from '../lesson/code-exercise.mjs';
import { lessonStats, formatStats, quizTells, sampleGenerator, formatQuizTells } from '../lesson/lesson-stats.mjs';
import { parseSections } from '../../web/lib/lesson/section-ids.js';

// the renderer, for the tests and tools that import it from here
export { createRenderer } from '../lesson/lesson-markdown.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const LESSON_DIR = path.join(root, 'lessons/positional-encoding');
const webDir = path.join(root, 'web');

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
      .filter((t) => t.type === 'fence' && /^(quiz|exercise|code-exercise)$/.test(t.info.trim()))
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
function renderPage(lesson, sections, references, { inlineMd, quizzes, exercises, codeExercises }) {
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
    'question-count': questionCount(quizzes, exercises, codeExercises),
  };
  return template.replace(/\{\{([a-z-]+)\}\}/g, (m, k) =>
    k in fill ? fill[k] : fail('web/templates/lesson.html', `unknown slot ${m}`),
  );
}

const count = (n, one, many) => `${n} ${n === 1 ? one : many}`;
const questionCount = (quizzes, exercises, codeExercises) => {
  const n = Object.keys(codeExercises).length;
  const typed = count(Object.keys(exercises).length, 'exercise', 'exercises');
  return `${count(Object.keys(quizzes).length, 'quiz', 'quizzes')}${n ? `, ${typed} and ${count(n, 'code exercise', 'code exercises')}` : ` and ${typed}`}`;
};

// pass 6: web/gen/lesson-data.js, what the widgets import
function lessonDataModule(
  { quizzes, exercises, codeExercises, questionIds },
  sections,
  lessonQuestionIds,
  samples,
  generatorModules,
  exerciseModules,
  caseModules,
) {
  // each section's questions, in page order: what web/lib/lesson/sections.js scores
  // for a choice of sections
  const sectionList = (ids) =>
    sections.map((s) => ({
      id: s.id,
      title: s.title,
      questionIds: ids.filter((id) => (quizzes[id] ?? exercises[id] ?? codeExercises[id]).section === s.id),
    }));
  // a one-file copy (scripts/export/export.mjs defines POSENC_ONE_FILE) runs no
  // Python: its code exercises show, but no score counts them
  const runnable = questionIds.filter((id) => !codeExercises[id]);
  const unlessOneFile = (all, without) =>
    `typeof POSENC_ONE_FILE === 'undefined' ? ${JSON.stringify(all, null, 1)} : ${JSON.stringify(without, null, 1)}`;
  return (
    `// Generated by scripts/build/build-lesson.mjs from lessons/: do not edit.\n` +
    `/* global POSENC_ONE_FILE */\n` +
    `// the sections, in page order, with their questions (web/lib/lesson/sections.js);\n` +
    `// in a one-file copy, without the code exercises (no Python there)\n` +
    `export const sections = ${unlessOneFile(sectionList(questionIds), sectionList(runnable))};\n` +
    `export const quizzes = ${JSON.stringify(quizzes, null, 1)};\n` +
    `export const exercises = ${JSON.stringify(exercises, null, 1)};\n` +
    `// the code exercises (<pe-code-exercise>): their definitions, as data\n` +
    `export const codeExercises = ${JSON.stringify(codeExercises, null, 1)};\n` +
    `// every question the score counts, quizzes and exercises, in page order\n` +
    `export const questionIds = ${unlessOneFile(questionIds, runnable)};\n` +
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
      .join('\n')}\n};\n` +
    `export const codeCaseGenerators = {\n${Object.keys(caseModules)
      .filter((id) => Object.values(codeExercises).some((x) => x.cases === id))
      .map((id) => `  '${id}': () => import('../code-cases/${id}.js'),`)
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
  const caseModules = await importAll(path.join(webDir, 'code-cases'));
  let codeDefinitions;
  try {
    codeDefinitions = readCodeExercises(path.join(lessonDir, 'code-exercises'));
  } catch (error) {
    fail(path.relative(root, lessonDir), error.message);
  }
  const renderer = createRenderer({
    pe,
    sampleModules,
    generatorModules,
    exerciseModules,
    codeDefinitions,
    caseModules,
    references: bibliography.references,
  });
  const sections = renderSections(chosenParts, renderer, number);
  const scope = { present: new Set(parts.map((p) => p.meta.id)), chosen: new Set(sections.map((s) => s.id)), whole };
  const usedGenerators = new Set(Object.values(renderer.exercises).map((x) => x.generator));
  const usedCases = new Set(Object.values(renderer.codeExercises).map((x) => x.cases));
  const usedDefinitions = new Set(Object.values(renderer.codeExercises).map((x) => x.definition));
  const notes = [
    ...checkUnused(sampleModules, renderer.usedSamples, { dir: 'samples', what: 'sample' }, scope),
    ...checkUnused(exerciseModules, usedGenerators, { dir: 'exercises', what: 'exercise generator' }, scope),
    ...checkUnused(caseModules, usedCases, { dir: 'code-cases', what: 'code exercise case generator' }, scope),
  ];
  // a code exercise's definition, like a generator: a leftover fails, one of a removed section is dropped
  for (const [name, def] of Object.entries(codeDefinitions)) {
    if (usedDefinitions.has(name)) continue;
    if (def?.section && !scope.present.has(def.section))
      notes.push(`code-exercises/${name}.yaml: dropped, its section ${def.section} is not in the lesson`);
    else if (def?.section ? scope.chosen.has(def.section) : whole)
      fail(`code-exercises/${name}.yaml`, 'code exercise definition is not used by any lesson');
  }
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
    caseModules,
  );
  const { quizzes, exercises, codeExercises, samples } = renderer;
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
    codeExercises,
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
      '--sections goes with --check (web/index.html stays the whole lesson): write a lesson of some sections with node scripts/export/export.mjs --sections, or open the page with ?sections=',
    );
  }
  return opts;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    const { check: checkOnly, sections: only } = parseArgs(process.argv.slice(2));
    const built = await buildLesson({ sections: only });
    const { page, data, sections, quizzes, exercises, codeExercises, samples, references, tells, notes } = built;
    for (const note of notes) console.log(`lesson: ${note}`);
    if (!checkOnly) {
      mkdirSync(path.join(webDir, 'gen'), { recursive: true });
      writeFileSync(path.join(webDir, 'index.html'), page);
      writeFileSync(path.join(webDir, 'gen/lesson-data.js'), data);
    }
    console.log(
      `lesson: ${sections.length} sections, ${Object.keys(quizzes).length} quizzes, ${Object.keys(exercises).length} exercises, ${Object.keys(codeExercises).length} code exercises, ${Object.keys(samples).length} live samples${checkOnly ? ' (checked, nothing written)' : ' -> web/index.html'}`,
    );
    const { uncitedReferences } = built;
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
