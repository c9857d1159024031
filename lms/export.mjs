// `npx posenc-course export <kind> <page>` (bin/posenc-course.mjs): an
// author's own page, with its widgets, its questions and its score, as one
// file or as an LMS package, from the npm package alone: the prebuilt
// dist/posenc-lms.js carries the widgets and both builds of the core, so
// there is no clone, no Emscripten and no build.
//
//   kind       what is written (default name: <page>-<kind>.html or .zip, in the current folder)
//   html       one self-contained page (lms/page.mjs): open it from disk, upload it anywhere
//   scorm12    a SCORM 1.2 package: imsmanifest.xml, index.html (the page with the SCORM adapter), the schemas
//   scorm2004  the same for SCORM 2004 4th edition
//   cmi5       a cmi5 course: cmi5.xml (one AU, the page), index.html with the cmi5 adapter, the schema
//
// Every package carries posenc-validate.xsd (lms/schemas.mjs): unzipped, it
// validates with `xmllint --noout --nonet --schema posenc-validate.xsd
// imsmanifest.xml` (cmi5: cmi5.xml). The questions the page writes as JSON
// are checked (and drawn) now, with the core, so a mistake fails the export
// naming the question and the field; questions written as markup are checked
// when the page opens.
import { readFileSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { selfContainedPage, questionsOf } from './page.mjs';
import { manifest12, manifest2004, courseStructure, requireActivityBase } from './manifests.mjs';
import { schemaFiles, VALIDATION_SCHEMA } from './schemas.mjs';
import { zipFiles } from './zip.mjs';

const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const LMS_BUNDLE = path.join(packageRoot, 'dist/posenc-lms.js');
/** What `export` writes. */
export const KINDS = {
  html: { what: 'one self-contained page', ext: 'html' },
  scorm12: { what: 'SCORM 1.2', ext: 'zip', version: '1.2', manifest: manifest12 },
  scorm2004: { what: 'SCORM 2004 4th edition', ext: 'zip', version: '2004', manifest: manifest2004 },
  cmi5: { what: 'cmi5', ext: 'zip' },
};
const PAGE = 'index.html';
const MTIME = new Date('2025-01-01T00:00:00Z');
const ID = /^[a-z0-9-]{1,80}$/;

/** Checks the page's questions written as JSON with the widgets' own compilers; throws naming the first wrong one. */
async function checkQuestions(questions, file) {
  const seen = new Set();
  for (const q of questions) {
    if (!ID.test(q.id))
      throw new Error(
        `export: ${file}: <${q.tag}> has the id ${JSON.stringify(q.id)}: an id is lowercase letters, digits and dashes`,
      );
    if (seen.has(q.id) && (q.json || q.markup))
      throw new Error(`export: ${file}: the question id ${q.id} is used twice`);
    seen.add(q.id);
  }
  const own = questions.filter((q) => q.json !== null);
  if (!own.length) return;
  const [{ compileQuiz }, { compileExercise }, { compileCodeExercise }, { loadPosenc }] = await Promise.all([
    import('../web/lib/questions/own-quiz.js'),
    import('../web/lib/questions/own-exercise.js'),
    import('../web/lib/questions/own-code-exercise.js'),
    import('../web/posenc.js'),
  ]);
  const pe = own.some((q) => q.tag !== 'pe-quiz') ? await loadPosenc() : null;
  for (const q of own) {
    try {
      let definition;
      try {
        definition = JSON.parse(q.json);
      } catch (error) {
        throw new Error(`its JSON does not parse: ${error.message}`);
      }
      if (q.tag === 'pe-quiz') compileQuiz(definition);
      else if (q.tag === 'pe-exercise') compileExercise(definition, { pe });
      else compileCodeExercise(definition, { pe });
    } catch (error) {
      throw new Error(`export: ${file}: ${q.tag} "${q.id}": ${error.message}`);
    }
  }
}

/**
 * Writes `page` (an .html or .md file) as `kind`; returns { out, bytes,
 * kind, questions: [ids], dropped, notes }. `mastery`: the passing score in
 * percent (SCORM, cmi5); `activityBase`: the xAPI IRI base (required for
 * cmi5: the course's and the AU's ids lie under it); `title`: the course's
 * title in the manifest (default: the page's <title>).
 */
export async function exportPage({ kind, page, out = null, mastery = 80, activityBase = null, title = null }) {
  const spec = KINDS[kind];
  if (!spec)
    throw new Error(`export: what to write is one of ${Object.keys(KINDS).join(', ')}; got ${JSON.stringify(kind)}`);
  if (!page) throw new Error('export: name the page to export (an .html or .md file)');
  if (!(Number.isFinite(mastery) && mastery >= 0 && mastery <= 100))
    throw new Error(`export: --mastery must be a percentage from 0 to 100; got ${mastery}`);
  if (kind === 'cmi5') activityBase = requireActivityBase('export cmi5', activityBase);
  else if (activityBase !== null && !/^https?:\/\/[^\s?#]+$/.test(activityBase))
    throw new Error(`export: --activity-base must be an http(s) IRI without query or fragment; got ${activityBase}`);
  if (!existsSync(LMS_BUNDLE))
    throw new Error(
      `export: ${path.relative(process.cwd(), LMS_BUNDLE)} is missing (in a checkout of the repository, run npm run build first)`,
    );
  const name = path.basename(page).replace(/\.[^.]+$/, '');
  const target = path.resolve(out ?? `${name}-${kind}.${spec.ext}`);

  const settings = { kind, mastery: mastery / 100, activityBase: activityBase?.replace(/\/+$/, '') ?? null };
  const built = selfContainedPage(page, { settings, script: readFileSync(LMS_BUNDLE, 'utf8') });
  const all = questionsOf(built.html);
  await checkQuestions(all, path.basename(page));
  // the one file carries no Python: its code exercises are shown (saying that
  // running code needs the online lesson) and left out of the score, as
  // web/lib/questions/page-questions.js leaves them out in one-file builds
  const questions = all.filter((q) => q.tag !== 'pe-code-exercise');
  const codeIds = [...new Set(all.filter((q) => q.tag === 'pe-code-exercise').map((q) => q.id))];
  if (codeIds.length)
    built.notes.push(
      `<pe-code-exercise> ${codeIds.join(', ')}: shown, not scored (running Python needs the online page; a one-file package carries no Python runtime)`,
    );
  const meta = {
    title: title ?? built.title,
    description:
      built.description ||
      `${built.title}: ${questions.length} question${questions.length === 1 ? '' : 's'}, scored on their credit.`,
  };

  let bytes;
  if (kind === 'html') bytes = Buffer.from(built.html);
  else if (kind === 'cmi5') {
    const base = settings.activityBase;
    const xml = courseStructure({
      courseId: base,
      title: meta.title,
      description: meta.description,
      aus: [
        { id: `${base}/page/${encodeURIComponent(name)}`, title: meta.title, description: meta.description, url: PAGE },
      ],
      mastery,
    });
    bytes = zipFiles({ 'cmi5.xml': xml, [PAGE]: built.html, ...schemaFiles('cmi5') }, { mtime: MTIME });
  } else {
    const manifest = spec.manifest({
      mastery,
      meta,
      title: meta.title,
      sco: PAGE,
      identifier: `${name.replace(/[^A-Za-z0-9_.-]/g, '-')}-${kind}`,
    });
    bytes = zipFiles(
      { 'imsmanifest.xml': manifest, [PAGE]: built.html, ...schemaFiles(spec.version) },
      { mtime: MTIME },
    );
  }
  mkdirSync(path.dirname(target), { recursive: true });
  writeFileSync(target, bytes);
  return {
    out: target,
    bytes: bytes.length,
    kind,
    what: spec.what,
    questions: [...new Set(questions.map((q) => q.id))],
    dropped: built.dropped,
    notes: built.notes,
    validate:
      kind === 'html'
        ? null
        : `xmllint --noout --nonet --schema ${VALIDATION_SCHEMA} ${kind === 'cmi5' ? 'cmi5.xml' : 'imsmanifest.xml'}`,
  };
}
