// xAPI statements for the lesson's quizzes, shaped like H5P's (its
// multiple-choice `answered` and its content-level `completed`), so an LRS or
// an LMS that reads H5P's statements reads ours the same way. The actor is
// left out: whoever sends a statement to an LRS adds the learner.
//
//   answered   verb http://adlnet.gov/expapi/verbs/answered; object an Activity
//              with a stable IRI per quiz and a cmi.interaction definition
//              (name, interactionType "choice", choices with ids,
//              correctResponsesPattern); result with the response as choice
//              ids joined with "[,]", success and score (the credit: a right
//              answer after "Show solution" has success false and score 0)
//   completed  verb http://adlnet.gov/expapi/verbs/completed; object the lesson;
//              result with the total score, once every quiz has an answer
//
// Choice ids are the options' authored indices ("0", "1", ...): the order
// each learner sees is shuffled, the ids are not.

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
 * The `answered` statement for one checked quiz, from the detail of a
 * `pe-quiz-answered` event: { quizId, question, options, choices,
 * correctChoices, correct, revealed, score }.
 */
export function answeredStatement(d) {
  const ids = (list) => list.map(String).join('[,]');
  const credit = d.correct === true && d.revealed !== true;
  return {
    verb: VERBS.answered,
    object: {
      objectType: 'Activity',
      id: quizIri(d.quizId),
      definition: {
        name: { [LANG]: clip(d.question || d.quizId, 1000) },
        type: 'http://adlnet.gov/expapi/activities/cmi.interaction',
        interactionType: 'choice',
        correctResponsesPattern: [ids(d.correctChoices ?? [])],
        choices: (d.options ?? []).map((text, i) => ({ id: String(i), description: { [LANG]: clip(text, 1000) } })),
      },
    },
    result: {
      response: ids(d.choices ?? []),
      success: credit,
      completion: true,
      score: { raw: credit ? 1 : 0, min: 0, max: 1, scaled: credit ? 1 : 0 },
      extensions: { [REVEALED_EXTENSION]: d.revealed === true },
    },
    context: parent(),
  };
}

/**
 * The lesson-level `completed` statement: `correct` quizzes answered
 * correctly (with credit) out of `total`; `passed` when a mastery score is
 * known (omitted otherwise).
 */
export function completedStatement({ correct, total, mastery = null }) {
  const scaled = total > 0 ? round(correct / total) : 0;
  const result = { completion: true, score: { raw: correct, min: 0, max: total, scaled } };
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

/** Counts over the lesson's quizzes from stored progress: answered (checked or solution shown), correct (with credit). */
export function tally(quizIds, progress) {
  const answered = quizIds.filter((id) => progress[id]?.attempts > 0 || progress[id]?.solutionShown).length;
  const correct = quizIds.filter((id) => progress[id]?.correct).length;
  return { answered, correct, total: quizIds.length };
}

/**
 * Calls `send(statement)` for each answer, and once with `completed` when the
 * answer just given was the last quiz without one. `progress()` returns the
 * stored progress (after the answer has been saved).
 */
export function statementTracker({ quizIds, progress, send, mastery = () => null }) {
  let wasComplete = tally(quizIds, progress()).answered === quizIds.length;
  return (detail) => {
    send(answeredStatement(detail));
    const t = tally(quizIds, progress());
    const complete = quizIds.length > 0 && t.answered === quizIds.length;
    if (complete && !wasComplete) send(completedStatement({ correct: t.correct, total: t.total, mastery: mastery() }));
    wasComplete = complete;
  };
}

function clip(text, n) {
  const s = String(text);
  return s.length <= n ? s : `${s.slice(0, n - 1)}…`;
}
