// The figures the docs quote (how many quizzes and exercises, the lesson's
// words, the packages' sizes), marked where they stand so that none is typed
// by hand and left to drift:
//
//   <!-- figure:quizzes -->29<!-- /figure -->
//
// (the comment is invisible on GitHub and in the package's README).
// Counts are computed from the built lesson (web/gen/lesson-data.js and
// buildLesson's stats) and must equal the docs exactly
// (tests/js/figures.test.mjs); sizes (names starting with size-) are measured
// on the files an export writes (built in a temporary folder) and must lie
// within SIZE_TOLERANCE of them (both in tests/js/figures.test.mjs).
//
//   node scripts/build/figures.mjs           writes the counts into the docs
//   node scripts/build/figures.mjs --sizes   also builds the exports (in a temporary
//                                      folder) and writes their sizes
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The files that quote figures. */
export const FIGURE_FILES = ['README.md', 'docs/embedding.md', 'lessons/README.md'];
/** How far a quoted size may be from the file's (sizes move with every change of the code). */
export const SIZE_TOLERANCE = 0.1;
const MARK = /<!-- figure:([a-z0-9-]+) -->([^<]*)<!-- \/figure -->/g;

const grouped = (n) => n.toLocaleString('en-US');

/** The counts, as the docs print them: { name: text }. */
export async function countFigures() {
  const lesson = await import(pathToFileURL(path.join(root, 'web/gen/lesson-data.js')).href);
  const { buildLesson } = await import('./build-lesson.mjs');
  const { lessonStats, quizTells } = await import('../lesson/lesson-stats.mjs');
  const built = await buildLesson();
  const { totals } = lessonStats(built.sections);
  const tells = quizTells(built.quizzes);
  const quizzes = Object.values(lesson.quizzes);
  const exercises = Object.values(lesson.exercises);
  return {
    quizzes: String(quizzes.length),
    'generated-quizzes': String(quizzes.filter((q) => q.generator).length),
    'written-exercises': String(exercises.filter((x) => x.definition).length),
    exercises: String(exercises.length),
    questions: String(lesson.questionIds.length),
    'exercise-sections': String(new Set(exercises.map((x) => x.section)).size),
    'main-words': grouped(Math.round(totals.mainWords / 100) * 100),
    'single-quizzes': String(tells.single.length),
    'right-longest': String(tells.single.filter((r) => r.rightLongest).length),
    'right-shortest': String(tells.single.filter((r) => r.rightShortest).length),
  };
}

/** The sizes of what the exports write, measured: { name: bytes }. Builds them in a temporary folder. */
export async function measureSizes() {
  const { exportLesson } = await import('../export/export.mjs');
  const { exportScorm } = await import('../export/export-scorm.mjs');
  const { exportCmi5 } = await import('../export/export-cmi5.mjs');
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'posenc-figures-'));
  try {
    const sizes = {};
    sizes['size-lesson-html'] = (await exportLesson({ out: path.join(tmp, 'lesson.html') })).bytes;
    sizes['size-lesson-rope'] = (await exportLesson({ out: path.join(tmp, 'rope.html'), sections: 'rope' })).bytes;
    for (const { version, bytes } of await exportScorm({ outDir: tmp }))
      sizes[version === '2004' ? 'size-scorm2004' : 'size-scorm12'] = bytes;
    sizes['size-cmi5'] = (
      await exportCmi5({ outDir: tmp, activityBase: 'https://lms.example.org/courses/posenc' })
    ).bytes;
    return sizes;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** A size as the docs print it: KiB under a MiB, else MB to one decimal. */
export function sizeText(bytes) {
  return bytes < 1024 * 1024 ? `${Math.round(bytes / 1024)} KiB` : `${(bytes / 1e6).toFixed(1)} MB`;
}

/** The bytes a printed size stands for. */
export function sizeBytes(text) {
  const m = /^([\d.,]+) (KiB|MB)$/.exec(text.trim());
  if (!m) throw new Error(`figures: "${text}" is not a size (123 KiB, 1.8 MB)`);
  return Number(m[1].replace(/,/g, '')) * (m[2] === 'KiB' ? 1024 : 1e6);
}

/** Every marked figure of the docs: [{ file, name, text }]. */
export function quotedFigures() {
  return FIGURE_FILES.flatMap((file) =>
    [...readFileSync(path.join(root, file), 'utf8').matchAll(MARK)].map((m) => ({ file, name: m[1], text: m[2] })),
  );
}

/** Fails (throws) unless the docs' quotes of size figure `name` are within SIZE_TOLERANCE of `bytes`. */
export function checkSize(name, bytes) {
  const quotes = quotedFigures().filter((f) => f.name === name);
  if (!quotes.length) throw new Error(`figures: no doc quotes ${name}`);
  for (const q of quotes) {
    const off = Math.abs(sizeBytes(q.text) - bytes) / bytes;
    if (off > SIZE_TOLERANCE)
      throw new Error(
        `${q.file} says ${name} is ${q.text}, the file is ${sizeText(bytes)} (${grouped(bytes)} bytes): run node scripts/build/figures.mjs --sizes`,
      );
  }
}

/** `text` with each marked figure in `values` written anew. */
export function withFigures(text, values) {
  return text.replace(MARK, (whole, name, old) =>
    Object.hasOwn(values, name) ? `<!-- figure:${name} -->${values[name]}<!-- /figure -->` : whole,
  );
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const values = await countFigures();
  if (process.argv.includes('--sizes'))
    for (const [name, bytes] of Object.entries(await measureSizes())) values[name] = sizeText(bytes);
  for (const file of FIGURE_FILES) {
    const full = path.join(root, file);
    const text = readFileSync(full, 'utf8');
    const next = withFigures(text, values);
    if (next !== text) writeFileSync(full, next);
  }
  console.log(
    `figures: ${Object.entries(values)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
  );
}
