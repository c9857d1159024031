// The whole lesson as buildLesson() builds it (scripts/build/build-lesson.mjs),
// built once per content of what goes into it and kept in
// build/lesson-cache/<hash>.json (git-ignored, like the rest of build/):
// the tests that only read the built lesson (its exercises, words, quiz
// tells, MathML) each took a build of a second or more, one per test file.
// The tests of buildLesson itself (sections.test.mjs) still call it.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CACHE_DIR = path.join(root, 'build/lesson-cache');

// What a build reads: the lesson, everything under web/ (the core that
// computes its numbers, the samples, generators and templates, the modules
// the build imports) but what the build writes (index.html, gen/) and what
// build-python copies from npm (pyodide/, pinned by the lock), the build's
// own scripts, and the lock (markdown-it, KaTeX, ...).
const INPUTS = ['lessons', 'web', 'scripts/build/build-lesson.mjs', 'scripts/lesson', 'package-lock.json'];
const NOT_INPUTS = new Set(['web/index.html', 'web/gen', 'web/pyodide']);

function inputsHash() {
  const hash = createHash('sha256');
  const add = (rel) => {
    if (NOT_INPUTS.has(rel)) return;
    const abs = path.join(root, rel);
    if (statSync(abs).isDirectory()) {
      for (const name of readdirSync(abs).sort()) add(path.join(rel, name));
    } else hash.update(`${rel}\0`).update(readFileSync(abs)).update('\0');
  };
  for (const rel of INPUTS) add(rel);
  return hash.digest('hex').slice(0, 16);
}

let built = null;

/**
 * What buildLesson() returns for the whole lesson (page, data, sections,
 * quizzes, exercises, tells, ...: all of it plain data), from the cache when
 * nothing it reads has changed. One object per process: do not change it.
 */
export function builtLesson() {
  return (built ??= (async () => {
    const file = path.join(CACHE_DIR, `${inputsHash()}.json`);
    if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8'));
    const { buildLesson } = await import('../../scripts/build/build-lesson.mjs');
    const lesson = await buildLesson();
    mkdirSync(CACHE_DIR, { recursive: true });
    // older contents' builds go; written whole, then renamed, so a reader never sees half a file
    for (const old of readdirSync(CACHE_DIR)) rmSync(path.join(CACHE_DIR, old), { force: true });
    const partial = `${file}.${process.pid}`;
    writeFileSync(partial, JSON.stringify(lesson));
    renameSync(partial, file);
    return lesson;
  })());
}
