// xAPI statements for the lesson's questions (quizzes and exercises), shaped
// like H5P's (its `answered` and its content-level `completed`), so an LRS or
// an LMS that reads H5P's statements reads ours the same way. The actor is
// left out: whoever sends a statement to an LRS adds the learner.
//
//   answered   verb http://adlnet.gov/expapi/verbs/answered; object an Activity
//              with a stable IRI per question and a cmi.interaction definition
//              (name, interactionType "choice" for a quiz, "numeric" for an
//              exercise with one number to type, "fill-in" for a formula or
//              several parts; correctResponsesPattern; a quiz's choices with
//              ids); result with the response (choice ids joined with "[,]",
//              the number, or the typed text), success (the answer is right
//              and the solution was not shown) and score (the credit this
//              answer earned: 1 at the first try, a third less per earlier
//              miss, 0 when wrong or after "Show solution")
//   completed  verb http://adlnet.gov/expapi/verbs/completed; object the lesson;
//              result with the total score (the sum of credit), once every
//              question has an answer
//
// Choice ids are the options' authored indices ("0", "1", ...): the order
// each learner sees is shuffled, the ids are not.
import { tally } from './progress.js';

/** The base of every activity IRI: the same wherever the lesson runs (page, embed, SCORM package). */
export const ACTIVITY_BASE = 'https://posenc-course.example/positional-encoding';
export const LESSON_IRI = ACTIVITY_BASE;
export const quizIri = (quizId) => `${ACTIVITY_BASE}/quiz/${encodeURIComponent(quizId)}`;
export const REVEALED_EXTENSION = `${ACTIVITY_BASE}/extensions/revealed`;
export const LESSON_NAME = 'Positional encoding, computed live';

const LANG = 'en-US';
const VERBS = {
  answered: { id: 'http://adlnet.gov/expapi/verbs/answered', display: { [LANG]: 'answered' } },
  completed: { id: 'http://adlnet.gov/expapi/verbs/completed', display: { [LANG]: 'completed' } },
};
const parent = () => ({ contextActivities: { parent: [{ id: LESSON_IRI, objectType: 'Activity' }] } });
const round = (x) => Math.round(x * 10000) / 10000;

/**
 * The `answered` statement for one checked question, from the detail of a
 * `pe-quiz-answered` event: { quizId, kind ('choice' | 'numeric' |
 * 'fill-in'), question, correct, revealed, score (the credit this answer
 * earned), and for a quiz options, choices, correctChoices; for an exercise
 * response (the typed text, or the number) and correctPattern }.
 */
export function answeredStatement(d) {
  const ids = (list) => list.map(String).join('[,]');
  const kind = d.kind ?? 'choice';
  const credit = d.correct === true && d.revealed !== true ? Math.max(0, Math.min(1, Number(d.score) || 0)) : 0;
  const definition = {
    name: { [LANG]: clip(d.question || d.quizId, 1000) },
    type: 'http://adlnet.gov/expapi/activities/cmi.interaction',
    interactionType: kind,
  };
  let response;
  if (kind === 'choice') {
    definition.correctResponsesPattern = [ids(d.correctChoices ?? [])];
    definition.choices = (d.options ?? []).map((text, i) => ({ id: String(i), description: { [LANG]: clip(text, 1000) } }));
    response = ids(d.choices ?? []);
  } else {
    definition.correctResponsesPattern = [clip(String(d.correctPattern ?? ''), 1000)];
    response = clip(String(d.response ?? ''), 1000);
  }
  return {
    verb: VERBS.answered,
    object: { objectType: 'Activity', id: quizIri(d.quizId), definition },
    result: {
      response,
      success: d.correct === true && d.revealed !== true,
      completion: true,
      score: { raw: round(credit), min: 0, max: 1, scaled: round(credit) },
      extensions: { [REVEALED_EXTENSION]: d.revealed === true },
    },
    context: parent(),
  };
}

/**
 * The lesson-level `completed` statement: `points` (the sum of credit) out of
 * `total` questions; `passed` when a mastery score is known (omitted
 * otherwise).
 */
export function completedStatement({ points, total, mastery = null }) {
  const scaled = total > 0 ? round(points / total) : 0;
  const result = { completion: true, score: { raw: round(points), min: 0, max: total, scaled } };
  if (mastery !== null) result.success = scaled >= mastery;
  return {
    verb: VERBS.completed,
    object: {
      objectType: 'Activity',
      id: LESSON_IRI,
      definition: { name: { [LANG]: LESSON_NAME }, type: 'http://adlnet.gov/expapi/activities/lesson' },
    },
    result,
  };
}

/**
 * Calls `send(statement)` for each answer, and once with `completed` when the
 * answer just given was the last question without one. `progress()` returns
 * the stored progress (after the answer has been saved); `questionIds` are the
 * lesson's quizzes and exercises.
 */
export function statementTracker({ questionIds, progress, send, mastery = () => null }) {
  let wasComplete = tally(questionIds, progress()).answered === questionIds.length;
  return (detail) => {
    send(answeredStatement(detail));
    const t = tally(questionIds, progress());
    const complete = questionIds.length > 0 && t.answered === questionIds.length;
    if (complete && !wasComplete) send(completedStatement({ points: t.points, total: t.total, mastery: mastery() }));
    wasComplete = complete;
  };
}

function clip(text, n) {
  const s = String(text);
  return s.length <= n ? s : `${s.slice(0, n - 1)}…`;
}
