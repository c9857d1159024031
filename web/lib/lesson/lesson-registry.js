// The lesson a page shows, registered by the page instead of imported by the
// library (as Shoelace's icon and localization registries are): nothing in
// web/lib or web/widgets imports a generated file, so the widgets carry no
// lesson of their own, and a page that registers none works with the
// questions its author wrote (web/lib/questions/own-question.js) and no others.
//
// Two ways to register, each by a page's own script:
//   registerLesson(data)        the page shows this lesson (web/lesson.js,
//                               web/embed.js, the exports): its sections and
//                               questions are what "the lesson" means for the
//                               score's scope="lesson", an LMS's completion
//                               and the xAPI completed statement
//   registerLessonLoader(load)  its questions, samples and generators may be
//                               asked for by id (<pe-quiz quiz="rope-what-
//                               rotates">), and are loaded on the first such
//                               ask: web/widgets.js and the bundles do this,
//                               so an author's page that names the lesson's
//                               questions keeps working without paying for
//                               the data until one is on the page
// A later registration replaces an earlier one (web/lesson.js imports
// widgets.js, whose loader it then replaces with the data itself).
//
// What a lesson holds (scripts/build/build-lesson.mjs writes it as web/gen/lesson-data.js):
//   sections            [{ id, title, questionIds }] in page order
//   quizzes, exercises  { id: { id, section, ... } }
//   questionIds         the questions a score counts, in page order
//   lessonQuestionIds   those of the whole lesson (a build of some sections keeps the others')
//   samples, sampleRunners, quizGenerators, exerciseGenerators
//                       the live samples, and loaders of their runners and of the generators
export const LESSON_FIELDS = Object.freeze([
  'sections',
  'quizzes',
  'exercises',
  'questionIds',
  'lessonQuestionIds',
  'samples',
  'sampleRunners',
  'quizGenerators',
  'exerciseGenerators',
  'codeExercises',
  'codeCaseGenerators',
]);
const ARRAYS = new Set(['sections', 'questionIds', 'lessonQuestionIds']);

let data = null; // the registered lesson, once it is here
let load = null; // the loader of one registered by registerLessonLoader, until it has loaded
let loading = null;
let shown = false;
let generation = 0; // which registration a load in flight belongs to

/** The lesson as registered, checked: every field of LESSON_FIELDS, of its kind; throws a TypeError naming the first wrong one. */
function checked(lesson, what) {
  if (lesson === null || typeof lesson !== 'object')
    throw new TypeError(
      `${what}: a lesson is an object with ${LESSON_FIELDS.join(', ')}; got ${lesson === null ? 'null' : typeof lesson}`,
    );
  for (const field of LESSON_FIELDS) {
    const v = lesson[field];
    const ok = ARRAYS.has(field) ? Array.isArray(v) : v !== null && typeof v === 'object' && !Array.isArray(v);
    if (!ok)
      throw new TypeError(
        `${what}: the lesson's ${field} must be ${ARRAYS.has(field) ? 'an array' : 'an object'}; got ${v === undefined ? 'nothing' : Array.isArray(v) ? 'an array' : typeof v}`,
      );
  }
  const out = {};
  for (const field of LESSON_FIELDS) out[field] = lesson[field];
  return Object.freeze(out);
}

/** Registers the lesson this page shows (an object with LESSON_FIELDS, e.g. the module web/gen/lesson-data.js). */
export function registerLesson(lesson) {
  data = checked(lesson, 'registerLesson');
  load = null;
  loading = null;
  shown = true;
  generation++;
  announce();
}

/**
 * Registers a lesson whose questions may be asked for by id, loaded by
 * `loader()` (a promise of the lesson: `() => import('./gen/lesson-data.js')`)
 * the first time one is.
 */
export function registerLessonLoader(loader) {
  if (typeof loader !== 'function')
    throw new TypeError(
      `registerLessonLoader: takes a function that returns a promise of the lesson; got ${typeof loader}`,
    );
  data = null;
  load = loader;
  loading = null;
  shown = false;
  generation++;
}

/** Whether a lesson is registered (loaded or not). */
export const hasLesson = () => data !== null || load !== null;

/** The registered lesson if it is here, else null (nothing registered, or not loaded yet). */
export const lessonNow = () => data;

/** Whether the page shows the registered lesson (registerLesson), rather than only lending its questions (registerLessonLoader). */
export const lessonShown = () => shown && data !== null;

/**
 * The registered lesson, loaded if it was registered with a loader: a
 * promise of the lesson, or of null when none is registered. A loader that
 * fails or gives something that is not a lesson rejects, with what went wrong.
 */
export function loadLesson() {
  if (data) return Promise.resolve(data);
  if (!load) return Promise.resolve(null);
  const mine = generation;
  loading ??= Promise.resolve()
    .then(() => load())
    .then((lesson) => {
      const ready = checked(lesson, 'registerLessonLoader');
      if (mine === generation) {
        data = ready;
        load = null;
        announce();
      }
      return ready;
    })
    .catch((error) => {
      if (mine === generation) loading = null; // a later ask tries again
      throw error;
    });
  return loading;
}

// elements waiting for the lesson hear of it (its question ids, for a score)
const listeners = new Set();
function announce() {
  for (const fn of listeners) fn(data);
}

/** Calls `fn(lesson)` whenever a lesson arrives (registered or loaded); returns the unsubscribe. */
export function onLesson(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}
