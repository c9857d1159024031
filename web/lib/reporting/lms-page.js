// An author's own page exported as one file, or as a SCORM or cmi5 package
// (`npx posenc-course export`, lms/export.mjs): dist/posenc-lms.js runs this
// before it defines the widgets, so an LMS keeps the progress from the first
// question on, as the lesson's own packages do (scripts/export/export-scorm.mjs).
// The export writes what to do into the page:
//
//   <script type="application/json" id="posenc-export">
//     { "kind": "scorm2004", "mastery": 0.8, "activityBase": "https://lms.example.org/courses/pe" }
//   </script>
//
//   kind          html (no LMS: progress in the browser; a TinCan launch's
//                 xAPI parameters are read as on the lesson page), scorm12,
//                 scorm2004 (web/lib/reporting/scorm.js) or cmi5 (web/lib/reporting/cmi5.js)
//   mastery       the passing score, a fraction of the points there are
//   activityBase  the xAPI IRI base (configureXapi): the author's questions
//                 are <base>/quiz/<id>
//
// The questions scored are those on the page (web/lib/questions/page-questions.js):
// the author's own, and the lesson's asked for by id (the lesson is loaded
// first, so those count).
import { configureXapi, configureFromLaunch } from './xapi.js';
import { startScorm } from './scorm.js';
import { startCmi5 } from './cmi5.js';
import { hasLesson, lessonNow, loadLesson } from '../lesson/lesson-registry.js';
import { QUESTION_SELECTOR, holdsOwnQuestion, questionIdsOf } from '../questions/page-questions.js';

/** The id of the settings element the export writes. */
export const SETTINGS_ID = 'posenc-export';
/** What an export may ask for. */
export const EXPORT_KINDS = ['html', 'scorm12', 'scorm2004', 'cmi5'];

/** The page's settings, checked: { kind, mastery, activityBase }; a bad one is said on the console and read as html. */
export function exportSettings(doc = globalThis.document) {
  const el = doc?.getElementById(SETTINGS_ID);
  const fallback = { kind: 'html', mastery: 0.8, activityBase: null };
  if (!el) return fallback;
  try {
    const s = JSON.parse(el.textContent);
    if (!EXPORT_KINDS.includes(s.kind)) throw new Error(`kind must be one of ${EXPORT_KINDS.join(', ')}`);
    if (!(typeof s.mastery === 'number' && s.mastery >= 0 && s.mastery <= 1))
      throw new Error('mastery must be a fraction from 0 to 1');
    return { kind: s.kind, mastery: s.mastery, activityBase: s.activityBase ?? null };
  } catch (error) {
    console.warn(
      `posenc-course export: the page's settings (#${SETTINGS_ID}) are not readable (${error.message}); it runs as a plain page`,
    );
    return fallback;
  }
}

/**
 * Starts what the page's settings name, before any question reads its
 * progress: { kind, questionIds, session } (session: the adapter's, or null).
 */
export async function startExportedPage({ doc = globalThis.document, win = globalThis.window } = {}) {
  const settings = exportSettings(doc);
  if (settings.activityBase) {
    const { errors } = configureXapi({ activityBase: settings.activityBase });
    for (const e of errors) console.warn(`posenc-course export: ${e}`);
  }
  const elements = [...doc.querySelectorAll(QUESTION_SELECTOR)];
  // the lesson's questions named by id count once the lesson is here
  if (hasLesson() && elements.some((el) => !holdsOwnQuestion(el))) await loadLesson().catch(() => null);
  const questionIds = questionIdsOf(elements, lessonNow()?.questionIds ?? []);
  let session = null;
  const log = (m) => console.info(m);
  if (settings.kind === 'scorm12' || settings.kind === 'scorm2004')
    session = startScorm({
      version: settings.kind === 'scorm12' ? '1.2' : '2004',
      questionIds,
      mastery: settings.mastery,
      window: win,
      log,
    });
  else if (settings.kind === 'cmi5')
    session = await startCmi5({ questionIds, mastery: settings.mastery, window: win, log });
  else configureFromLaunch(win?.location?.search ?? '');
  return { kind: settings.kind, questionIds, session };
}
