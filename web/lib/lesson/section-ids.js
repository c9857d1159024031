// The pure half of lib/lesson/sections.js, with no import of the lesson data, so
// the build (scripts/build/build-lesson.mjs, which writes that data) reads a
// choice of sections the same way the page does.

/**
 * Reads a list of section ids ("rope, long-context"; commas or spaces) against
 * `known` (ids in page order). Returns { ids, error }: ids in page order, each
 * once, or null with error a sentence naming what is wrong and the known ids.
 */
export function parseSections(text, known) {
  const asked = String(text ?? '')
    .split(/[\s,]+/)
    .filter(Boolean);
  const list = known.join(', ');
  if (!asked.length)
    return { ids: null, error: `No section named: give one or more section ids, separated by commas (${list}).` };
  const unknown = [...new Set(asked.filter((id) => !known.includes(id)))];
  if (unknown.length) {
    const names = unknown.map((id) => JSON.stringify(id)).join(', ');
    return { ids: null, error: `Unknown section${unknown.length === 1 ? '' : 's'} ${names}: this lesson has ${list}.` };
  }
  const chosen = new Set(asked);
  return { ids: known.filter((id) => chosen.has(id)), error: null };
}

/**
 * The question ids (quizzes and exercises) of the given sections
 * ([{ id, questionIds }] in page order), in page order; every question when
 * `sectionIds` is null.
 */
export function questionIdsIn(sectionIds, sections) {
  const chosen = sectionIds == null ? null : new Set(sectionIds);
  return sections.filter((s) => !chosen || chosen.has(s.id)).flatMap((s) => s.questionIds);
}
