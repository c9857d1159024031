// Which sections of the lesson a page, an export or a package holds: the one
// place that reads a choice of sections (`?sections=rope,alibi` at run time,
// `--sections rope,alibi` at build time) and turns it into the questions
// (quizzes and exercises) a score counts.
//
// Section ids are those of the section files' front matter, in page order
// (lesson-data.js `sections`, written by scripts/build-lesson.mjs). A lesson
// built with --sections knows only its own sections, so a page asking for
// one it was built without is told which it has.
import { sections as lessonSections } from '../gen/lesson-data.js';

const ids = (sections) => sections.map((s) => s.id);

/**
 * Reads a list of section ids ("rope, long-context"; commas or spaces) against
 * `known` (ids in page order). Returns { ids, error }: ids in page order, each
 * once, or null with error a sentence naming what is wrong and the known ids.
 */
export function parseSections(text, known = ids(lessonSections)) {
  const asked = String(text ?? '')
    .split(/[\s,]+/)
    .filter(Boolean);
  const list = known.join(', ');
  if (!asked.length) return { ids: null, error: `No section named: give one or more section ids, separated by commas (${list}).` };
  const unknown = [...new Set(asked.filter((id) => !known.includes(id)))];
  if (unknown.length) {
    const names = unknown.map((id) => JSON.stringify(id)).join(', ');
    return { ids: null, error: `Unknown section${unknown.length === 1 ? '' : 's'} ${names}: this lesson has ${list}.` };
  }
  const chosen = new Set(asked);
  return { ids: known.filter((id) => chosen.has(id)), error: null };
}

/**
 * The question ids (quizzes and exercises) of the given sections, in page
 * order; every question of the lesson when `sectionIds` is null.
 */
export function questionIdsIn(sectionIds, sections = lessonSections) {
  const chosen = sectionIds == null ? null : new Set(sectionIds);
  return sections.filter((s) => !chosen || chosen.has(s.id)).flatMap((s) => s.questionIds);
}

/**
 * The `sections` parameter of a query string: { ids, error }, ids null (and
 * error null) when there is none, so the whole lesson shows.
 */
export function sectionChoice(search = globalThis.location?.search ?? '', known = ids(lessonSections)) {
  const params = new URLSearchParams(search);
  if (!params.has('sections')) return { ids: null, error: null };
  return parseSections(params.get('sections'), known);
}

/** The sections `?sections=a,b` chooses, in page order, or null (none chosen, or a bad choice: the whole lesson). */
export function selectedSections(search = globalThis.location?.search ?? '', known = ids(lessonSections)) {
  return sectionChoice(search, known).ids;
}
