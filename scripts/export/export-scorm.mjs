// `npm run export:scorm`: the lesson as two LMS packages,
// dist/posenc-scorm12.zip (SCORM 1.2) and dist/posenc-scorm2004.zip (SCORM
// 2004 4th edition). Each holds imsmanifest.xml and one SCO: the single-file
// lesson of `npm run export` with the SCORM adapter (web/lib/reporting/scorm.js) run
// before the lesson's script.
//
//   node scripts/export/export-scorm.mjs [--mastery 80] [--out dist] [--sections rope,long-context]
//                                 [--sco-per-section] [--activity-base <IRI>]
//
// --sections: the SCO holds only those sections (scripts/build/build-lesson.mjs's
// chooseSections: their text, quizzes, exercises, samples and widgets) and
// scores only their questions; the zips are named after them
// (posenc-scorm12-rope-long-context.zip) and the titles say which.
// --sco-per-section: one package, one item (SCO) per section (or per chosen
// section), each launching the same lesson.html with parameters
// "?sections=<id>", so each shows and scores only its own section
// (web/lib/lesson/sections.js); posenc-scorm12-by-section.zip.
// --activity-base: the xAPI IRI base (configureXapi), so also SCORM 2004's
// interaction ids.
//
// Both manifests carry the lesson's title and description (lesson.yaml) as
// inline LOM metadata: IMS MD 1.2.1 for 1.2, IEEE LOM for 2004.
//
// --mastery: the passing score in percent of the quizzes answered correctly
// (1.2: adlcp:masteryscore; 2004: imsss:minNormalizedMeasure, and the
// adapter's own fallback when the LMS passes none).
import { readFileSync, writeFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import yaml from 'js-yaml';
import { exportLesson, parseOptions } from './export.mjs';
import { schemaFiles } from '../../lms/schemas.mjs';
import { manifest12 as lmsManifest12, manifest2004 as lmsManifest2004 } from '../../lms/manifests.mjs';
import { zipFiles } from '../../lms/zip.mjs';
import { parseSections } from '../../web/lib/lesson/section-ids.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const TITLE = 'Positional encoding, computed live';
const SCO = 'lesson.html';
// fixed times in the zip, so the same lesson gives the same bytes
const MTIME = new Date('2025-01-01T00:00:00Z');

/** The lesson's title and description (lesson.yaml), for the manifests' LOM metadata. */
export function lessonMeta(lessonDir = path.join(root, 'lessons', 'positional-encoding')) {
  const lesson = yaml.load(readFileSync(path.join(lessonDir, 'lesson.yaml'), 'utf8'));
  return { title: String(lesson.title ?? TITLE).trim(), description: String(lesson.description ?? '').trim() };
}

// the manifests are lms/manifests.mjs's (shared with an author's page); the lesson's metadata by default
export const manifest12 = ({ meta = lessonMeta(), title = TITLE, ...rest }) =>
  lmsManifest12({ meta, title, sco: SCO, ...rest });
export const manifest2004 = ({ meta = lessonMeta(), title = TITLE, ...rest }) =>
  lmsManifest2004({ meta, title, sco: SCO, ...rest });

const VERSIONS = {
  1.2: { file: 'posenc-scorm12.zip', manifest: manifest12 },
  2004: { file: 'posenc-scorm2004.zip', manifest: manifest2004 },
};

/**
 * The SCO's page: the offline lesson (of `sections` only, if given) with the
 * adapter for `version` run first, scoring the questions of the sections
 * its launch chooses (?sections=, web/lib/lesson/sections.js), else all it holds.
 */
export async function scoHtml({ version, mastery, sections = null, activityBase = null }) {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'posenc-scorm-'));
  try {
    const out = path.join(tmp, SCO);
    const prelude = `
    import { startScorm } from './lib/reporting/scorm.js';
    import { questionIdsIn, selectedSections } from './lib/lesson/sections.js';
    startScorm({ version: ${JSON.stringify(version)}, questionIds: questionIdsIn(selectedSections()), mastery: ${mastery / 100}, log: (m) => console.info(m) });`;
    await exportLesson({ out, prelude, sections, activityBase });
    return readFileSync(out);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** The lesson's sections, [{ id, title }] in page order, as last built (web/gen/lesson-data.js). */
async function lessonSections() {
  const { sections } = await import(pathToFileURL(path.join(root, 'web/gen/lesson-data.js')).href);
  return sections.map(({ id, title }) => ({ id, title }));
}

/**
 * Writes both packages into `outDir`; returns [{ version, file, bytes }].
 * `sections`: section ids ("a,b" or a list) the SCO holds (null: all);
 * `scoPerSection`: one SCO item per section; `activityBase`: the xAPI IRI base.
 */
export async function exportScorm({
  outDir = path.join(root, 'dist'),
  mastery = 80,
  versions = ['1.2', '2004'],
  sections = null,
  scoPerSection = false,
  activityBase = null,
} = {}) {
  if (!(Number.isFinite(mastery) && mastery >= 0 && mastery <= 100))
    throw new Error(`export:scorm: --mastery must be a percentage from 0 to 100; got ${mastery}`);
  const all = await lessonSections();
  let chosen = null;
  if (sections != null) {
    const { ids, error } = parseSections(
      Array.isArray(sections) ? sections.join(',') : sections,
      all.map((s) => s.id),
    );
    if (error) throw new Error(`export:scorm: --sections: ${error}`);
    chosen = all.filter((s) => ids.includes(s.id));
  }
  const title = chosen ? `${TITLE}: ${chosen.map((s) => s.title).join(', ')}` : TITLE;
  const bySection = scoPerSection ? (chosen ?? all) : null;
  const suffix = `${chosen ? `-${chosen.map((s) => s.id).join('-')}` : ''}${scoPerSection ? '-by-section' : ''}`;
  mkdirSync(outDir, { recursive: true });
  const written = [];
  for (const version of versions) {
    const { file, manifest } = VERSIONS[version];
    const html = await scoHtml({ version, mastery, sections: chosen && chosen.map((s) => s.id), activityBase });
    const zip = zipFiles(
      {
        'imsmanifest.xml': manifest({ mastery, title, bySection }),
        [SCO]: html,
        // the control files the manifest's xsi:schemaLocation names, at the zip's root
        ...schemaFiles(version),
      },
      { mtime: MTIME },
    );
    const out = path.join(outDir, file.replace(/\.zip$/, `${suffix}.zip`));
    writeFileSync(out, zip);
    written.push({ version, file: out, bytes: zip.length });
  }
  return written;
}

const parseArgs = (argv) =>
  parseOptions(argv, {
    command: 'export:scorm',
    spec: {
      '--mastery': ['mastery', Number],
      '--out': ['outDir', (v) => path.resolve(v)],
      '--sections': ['sections', (v) => v],
      '--sco-per-section': ['scoPerSection'],
      '--activity-base': ['activityBase', (v) => v],
    },
    usage: '--mastery <percent>, --out <dir>, --sections <ids>, --sco-per-section, --activity-base <IRI>',
  });

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    for (const { version, file, bytes } of await exportScorm(parseArgs(process.argv.slice(2)))) {
      console.log(
        `export:scorm: ${path.relative(root, file)} (SCORM ${version === '2004' ? '2004 4th edition' : version}, ${(bytes / 1024).toFixed(0)} KiB)`,
      );
    }
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
}
