// `npm run export:cmi5` (issue 34 item 3): the lesson as a cmi5 course
// package, dist/posenc-cmi5.zip: cmi5.xml (the course structure) and
// lesson.html, the single-file lesson of `npm run export` with the cmi5 AU
// adapter (web/lib/reporting/cmi5.js) run before the lesson's script.
//
//   node scripts/export/export-cmi5.mjs --activity-base <IRI> [--mastery 80] [--out dist] [--sections a,b]
//
// One AU per section (every section of the lesson that has questions, or
// those --sections names), each launching lesson.html?sections=<id>, so it
// shows and scores only its own section (web/lib/lesson/sections.js); with
// --sections the page holds only those sections (scripts/build/build-lesson.mjs's
// chooseSections), as export:scorm's does. The course id
// is the xAPI activity base (configureXapi's; --activity-base sets it), each
// AU's id its section's IRI (xapi.js sectionIri), the parent the AU's
// answered statements name. CourseStructure.xsd (and the wrapper xmllint
// takes) go in the zip (lms/schemas.mjs).
//
// moveOn is "Passed": the mastery score is what the author grades on, so an
// AU is satisfied only when the learner reaches it; "CompletedOrPassed" would
// let a learner who reached the end below mastery move on.
import { readFileSync, writeFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { zipFiles } from '../../lms/zip.mjs';
import { courseStructure, requireActivityBase } from '../../lms/manifests.mjs';
import { schemaFiles } from '../../lms/schemas.mjs';
import { exportLesson, parseOptions } from './export.mjs';
import { lessonMeta } from './export-scorm.mjs';
import { parseSections } from '../../web/lib/lesson/section-ids.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const AU_PAGE = 'lesson.html';
export const CMI5_ZIP = 'posenc-cmi5.zip';
// fixed times in the zip, so the same lesson gives the same bytes
const MTIME = new Date('2025-01-01T00:00:00Z');

/** The AU page: the offline lesson (of `sections` only, if given) with the cmi5 adapter awaited before the lesson's script. */
export async function auHtml({ mastery, activityBase = null, sections = null }) {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'posenc-cmi5-'));
  try {
    const out = path.join(tmp, AU_PAGE);
    // the adapter reads the launch, the token and the saved progress before
    // the lesson reads its progress (each request gives up after 4 s)
    const prelude = `
    import { startCmi5 } from './lib/reporting/cmi5.js';
    import { questionIdsIn, selectedSections } from './lib/lesson/sections.js';
    await startCmi5({ questionIds: questionIdsIn(selectedSections()), mastery: ${mastery / 100} });`;
    await exportLesson({ out, prelude, activityBase, sections });
    return readFileSync(out);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** The AUs: one per section with questions (or per chosen section), [{ id, title, description, url }]. */
export function ausOf(sections, { base, chosen = null }) {
  const list = chosen
    ? sections.filter((s) => chosen.includes(s.id))
    : sections.filter((s) => s.questionIds.length > 0);
  return list.map((s) => ({
    id: `${base}/section/${encodeURIComponent(s.id)}`,
    title: s.title,
    description: `${s.title}: ${s.questionIds.length} question${s.questionIds.length === 1 ? '' : 's'}, scored on their credit.`,
    url: `${AU_PAGE}?sections=${encodeURIComponent(s.id)}`,
  }));
}

/** Writes dist/posenc-cmi5.zip; returns { file, bytes, entries: [{ name, bytes }], aus }. */
export { courseStructure };

export async function exportCmi5({
  outDir = path.join(root, 'dist'),
  mastery = 80,
  sections = null,
  activityBase = null,
} = {}) {
  if (!(Number.isFinite(mastery) && mastery >= 0 && mastery <= 100))
    throw new Error(`export:cmi5: --mastery must be a number from 0 to 100, not ${mastery}`);
  const { sections: all } = await import(pathToFileURL(path.join(root, 'web/gen/lesson-data.js')).href);
  let chosen = null;
  if (sections != null) {
    const { ids, error } = parseSections(
      Array.isArray(sections) ? sections.join(',') : String(sections),
      all.map((s) => s.id),
    );
    if (error) throw new Error(`export:cmi5: --sections: ${error}`);
    chosen = ids;
  }
  const base = requireActivityBase('export:cmi5', activityBase);
  const aus = ausOf(all, { base, chosen });
  if (aus.length === 0) throw new Error('export:cmi5: no section with questions to make an AU of');
  const meta = lessonMeta();
  const xml = courseStructure({ courseId: base, title: meta.title, description: meta.description, aus, mastery });
  const files = {
    'cmi5.xml': xml,
    [AU_PAGE]: await auHtml({ mastery, activityBase, sections: chosen }),
    ...schemaFiles('cmi5'),
  };
  const zip = zipFiles(files, { mtime: MTIME });
  mkdirSync(outDir, { recursive: true });
  const file = path.join(outDir, CMI5_ZIP);
  writeFileSync(file, zip);
  return {
    file,
    bytes: zip.length,
    entries: Object.entries(files).map(([name, b]) => ({ name, bytes: b.length })),
    aus,
  };
}

const parseArgs = (argv) =>
  parseOptions(argv, {
    command: 'export:cmi5',
    spec: {
      '--mastery': ['mastery', (v) => (v.trim() === '' ? NaN : Number(v))],
      '--out': ['outDir', (v) => path.resolve(v)],
      '--sections': ['sections', (v) => v],
      '--activity-base': ['activityBase', (v) => v],
    },
    usage: '--mastery <percent>, --out <dir>, --sections <ids>, --activity-base <IRI>',
  });

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    const { file, bytes, entries, aus } = await exportCmi5(parseArgs(process.argv.slice(2)));
    console.log(
      `export:cmi5: ${path.relative(root, file) || file} (${(bytes / 1024).toFixed(0)} KiB, ${aus.length} AU${aus.length === 1 ? '' : 's'}: ${aus.map((a) => a.url.split('=')[1]).join(', ')})`,
    );
    for (const e of entries)
      console.log(`  ${e.name} ${(e.bytes / 1024).toFixed(0)} KiB (${e.bytes.toLocaleString('en-US')} bytes)`);
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
}
