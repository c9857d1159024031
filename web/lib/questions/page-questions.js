// The questions on a page: <pe-quiz quiz>, <pe-exercise exercise> and
// <pe-code-exercise exercise> elements, each either one of the registered lesson's questions by id or one
// its author wrote inside it (web/lib/questions/own-question.js). What the score board
// counts (<pe-quiz-score>) and what xAPI's `completed` waits for on a page
// that does not show the lesson (web/lib/reporting/xapi.js) both come from here.

/** Every question element. */
export const QUESTION_SELECTOR = 'pe-quiz[quiz], pe-exercise[exercise], pe-code-exercise[exercise]';
const ID_ATTRIBUTE = { 'pe-quiz': 'quiz', 'pe-exercise': 'exercise', 'pe-code-exercise': 'exercise' };

/** A question element's id (its quiz or exercise attribute). */
export const questionIdOf = (el) => el.getAttribute(ID_ATTRIBUTE[el.localName]) ?? '';

/**
 * Whether a question element holds a question of its own (its author's,
 * written inside it): a <script type="application/json"> child, or markup:
 * an options list (<ul> or <ol>) in a quiz, a [data-answer] in an exercise.
 * The lesson's own elements hold only a fallback paragraph.
 */
export function holdsOwnQuestion(el) {
  for (const child of el.children) {
    if (child.localName === 'script' && child.getAttribute('type') === 'application/json') return true;
    if (el.localName === 'pe-quiz' && (child.localName === 'ul' || child.localName === 'ol')) return true;
    if (el.localName === 'pe-exercise' && child.hasAttribute('data-answer')) return true;
  }
  return false;
}

// One-file builds (the exports, the bundles) carry no Python: a code
// exercise there says that running code needs the online page, and is not
// scored (the lesson's are left out of its questionIds there too)
/* global POSENC_ONE_FILE */
const scored = typeof POSENC_ONE_FILE === 'undefined' ? () => true : (el) => el.localName !== 'pe-code-exercise';

/**
 * The ids of the question elements among `nodes`, in order, each once: those
 * that hold their own question, and those `known` (the lesson's ids) has;
 * an element naming an id nobody has (it shows its own error) is left out.
 */
export function questionIdsOf(nodes, known = []) {
  const lesson = new Set(known);
  const ids = nodes
    .filter((el) => scored(el) && (holdsOwnQuestion(el) || lesson.has(questionIdOf(el))))
    .map(questionIdOf);
  return [...new Set(ids)];
}

/** The question elements inside `containers` (each, or its descendants). */
export const questionsIn = (containers) =>
  containers.flatMap((c) => [...(c.matches(QUESTION_SELECTOR) ? [c] : []), ...c.querySelectorAll(QUESTION_SELECTOR)]);
