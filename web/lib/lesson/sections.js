// Which sections of the lesson a page, an export or a package holds: the one
// place that reads a choice of sections (`?sections=rope,alibi` at run time,
// `--sections rope,alibi` at build time) and turns it into the questions
// (quizzes and exercises) a score counts.
//
// Section ids are those of the section files' front matter, in page order
// (lesson-data.js `sections`, written by scripts/build/build-lesson.mjs), of the
// lesson the page registered (web/lib/lesson/lesson-registry.js; none: no
// sections). A lesson built with --sections knows only its own sections, so a
// page asking for one it was built without is told which it has.
import { lessonNow } from './lesson-registry.js';
import { parseSections as parseIds, questionIdsIn as questionsOf } from './section-ids.js';

const lessonSections = () => lessonNow()?.sections ?? [];
const ids = (sections = lessonSections()) => sections.map((s) => s.id);

/** parseSections of lib/lesson/section-ids.js, against this lesson's sections by default. */
export function parseSections(text, known = ids()) {
  return parseIds(text, known);
}

/**
 * The question ids (quizzes and exercises) of the given sections, in page
 * order; every question of the lesson when `sectionIds` is null.
 */
export function questionIdsIn(sectionIds, sections = lessonSections()) {
  return questionsOf(sectionIds, sections);
}

/**
 * The `sections` parameter of a query string: { ids, error }, ids null (and
 * error null) when there is none, so the whole lesson shows.
 */
export function sectionChoice(search = globalThis.location?.search ?? '', known = ids()) {
  const params = new URLSearchParams(search);
  if (!params.has('sections')) return { ids: null, error: null };
  return parseSections(params.get('sections'), known);
}

/** The sections `?sections=a,b` chooses, in page order, or null (none chosen, or a bad choice: the whole lesson). */
export function selectedSections(search = globalThis.location?.search ?? '', known = ids()) {
  return sectionChoice(search, known).ids;
}
