// xAPI statements for the lesson's questions (quizzes and exercises), shaped
// like H5P's (its `answered` and its content-level `completed`), so an LRS or
// an LMS that reads H5P's statements reads ours the same way.
//
//   answered   verb http://adlnet.gov/expapi/verbs/answered; object an Activity
//              with a stable IRI per question and a cmi.interaction definition
//              that is the same for every learner, so an LRS aggregates one
//              activity: name (the question's short title: an exercise's or
//              an author's title, else the question with its formulas as
//              $TeX$), interactionType "choice" for a quiz, "numeric" for an
//              exercise with one number to type, "fill-in" for a formula or
//              several parts; for a written quiz its description (the
//              question), choices with ids and correctResponsesPattern. What
//              was drawn for this learner (an exercise's numbers, its prompt
//              and right answer; a generated quiz's options) goes into
//              result.extensions under <base>/extensions/draw, never into the
//              definition. result with the response (choice ids joined with
//              "[,]", the number, or the typed text), success (the answer is
//              right and the solution was not shown) and score (the credit
//              this answer earned: 1 at the first try, a third less per
//              earlier miss, 0 when wrong or after "Show solution"); context
//              parent the question's section, grouping the lesson
//   completed  verb http://adlnet.gov/expapi/verbs/completed; object the lesson;
//              result with the total score (the sum of credit), once every
//              question has an answer
//   initialized  verb http://adlnet.gov/expapi/verbs/initialized; object the
//              lesson; sent once when a page (or an embed) configured for an
//              LRS opens, so an LRS sees a learner who opened it and answered
//              nothing
//   attempted  verb http://adlnet.gov/expapi/verbs/attempted (as the SCORM
//              profile of xAPI starts an attempt); object the lesson; sent
//              when the learner presses "Reset my answers", which starts a
//              new attempt with new numbers (web/lib/reporting/progress.js)
//
// Every answered statement says the learner's attempt (1, 2, ... after each
// reset) in result.extensions under <base>/extensions/attempt, so an LRS
// tells a second attempt's answers from the first's.
//
// Every statement is complete when it is made (at the answer, not when it is
// sent): id (a UUID v4, so a retry is the same statement), timestamp, actor
// (the configured learner, else an anonymous account kept per browser),
// context.registration (the launch's, else one kept per browser),
// context.platform and context.language.
//
// Choice ids are the options' authored indices ("0", "1", ...): the order
// each learner sees is shuffled, the ids are not.
//
// This file makes the statements; web/lib/reporting/xapi.js configures where they go
// and sends them. `config` is the one configuration both read (configureXapi
// writes it, through xapi.js).
import { tally, attempt } from './progress.js';
import { lessonNow } from '../lesson/lesson-registry.js';
import { UUID, isPlainObject } from './xapi-checks.js';

/** The IRI base nobody configured: a placeholder, the same wherever the lesson runs. */
export const DEFAULT_ACTIVITY_BASE = 'https://posenc-course.example/positional-encoding';
export const LESSON_NAME = 'Positional encoding, computed live';
export const DEFAULT_PLATFORM = 'posenc-course';
export const DEFAULT_LANGUAGE = 'en-US';

// The base of every activity IRI (the lesson's own IRI), configurable with
// configureXapi({ activityBase }); these follow it (live bindings).
export let ACTIVITY_BASE = DEFAULT_ACTIVITY_BASE;
export let LESSON_IRI = ACTIVITY_BASE;
export let REVEALED_EXTENSION = `${ACTIVITY_BASE}/extensions/revealed`;
export let ATTEMPT_EXTENSION = `${ACTIVITY_BASE}/extensions/attempt`;
export let DRAW_EXTENSION = `${ACTIVITY_BASE}/extensions/draw`;
export const quizIri = (quizId) => `${ACTIVITY_BASE}/quiz/${encodeURIComponent(quizId)}`;
export const sectionIri = (sectionId) => `${ACTIVITY_BASE}/section/${encodeURIComponent(sectionId)}`;

const LEARNER_KEY = 'posenc-course:xapi-learner:v1';

// what configureXapi set; auth stays here only (never stored)
export const config = {
  endpoint: null,
  auth: null,
  actor: null,
  registration: null,
  language: DEFAULT_LANGUAGE,
  platform: DEFAULT_PLATFORM,
};

const VERBS = {
  answered: 'http://adlnet.gov/expapi/verbs/answered',
  completed: 'http://adlnet.gov/expapi/verbs/completed',
  attempted: 'http://adlnet.gov/expapi/verbs/attempted',
  initialized: 'http://adlnet.gov/expapi/verbs/initialized',
};
const verb = (name) => ({ id: VERBS[name], display: { [config.language]: name } });
const round = (x) => Math.round(x * 10000) / 10000;
const lessonActivity = () => ({ id: LESSON_IRI, objectType: 'Activity' });

/** The section of the registered lesson that holds a quiz or an exercise, or null (an author's own question, or no lesson). */
export function sectionOf(questionId) {
  const { quizzes = {}, exercises = {} } = lessonNow() ?? {};
  const q = Object.hasOwn(quizzes, questionId)
    ? quizzes[questionId]
    : Object.hasOwn(exercises, questionId)
      ? exercises[questionId]
      : null;
  return typeof q?.section === 'string' && q.section ? q.section : null;
}

// parent the section where known, with the lesson as grouping; else the lesson
function contextActivities(section) {
  return section
    ? { parent: [{ id: sectionIri(section), objectType: 'Activity' }], grouping: [lessonActivity()] }
    : { parent: [lessonActivity()] };
}

// the fields every statement carries, fixed now (at the answer)
function envelope(statement, activities) {
  const context = {
    registration: config.registration ?? learner().registration,
    platform: config.platform,
    language: config.language,
  };
  if (activities) context.contextActivities = activities;
  return {
    id: uuid(),
    timestamp: new Date().toISOString(),
    actor: config.actor ?? anonymousActor(),
    ...statement,
    context,
  };
}

/**
 * The `answered` statement for one checked question, from the detail of a
 * `pe-quiz-answered` event: { quizId, kind ('choice' | 'numeric' |
 * 'fill-in' | 'long-fill-in': code), question, correct, revealed, score (the credit this answer
 * earned), and for a quiz options, choices, correctChoices; for an exercise
 * response (the typed text, or the number) and correctPattern }; `section`
 * (optional) names the lesson section, else the lesson data says.
 */
export function answeredStatement(d) {
  const ids = (list) => list.map(String).join('[,]');
  const lang = config.language;
  const kind = d.kind ?? 'choice';
  const credit = d.correct === true && d.revealed !== true ? Math.max(0, Math.min(1, Number(d.score) || 0)) : 0;
  const definition = {
    name: { [lang]: clip(d.title || d.question || d.quizId, 1000) },
    type: 'http://adlnet.gov/expapi/activities/cmi.interaction',
    interactionType: kind,
  };
  // what this learner was shown that another learner is not: never in the definition
  const draw = {};
  let response;
  if (kind === 'choice') {
    const pattern = [ids(d.correctChoices ?? [])];
    const choices = (d.options ?? []).map((text, i) => ({
      id: String(i),
      description: { [lang]: clip(text, 1000) },
    }));
    if (d.generated === true)
      Object.assign(draw, { question: clip(d.question ?? '', 1000), choices, correctResponsesPattern: pattern });
    else {
      if (d.question && d.title && d.title !== d.question) definition.description = { [lang]: clip(d.question, 1000) };
      definition.correctResponsesPattern = pattern;
      definition.choices = choices;
    }
    response = ids(d.choices ?? []);
  } else {
    Object.assign(draw, { question: clip(d.question ?? '', 1000) });
    // code (long-fill-in) has no one right text: no pattern
    if (d.correctPattern != null) draw.correctResponsesPattern = [clip(String(d.correctPattern), 1000)];
    if (isPlainObject(d.numbers)) draw.numbers = d.numbers;
    response = clip(String(d.response ?? ''), 1000);
  }
  if (Number.isInteger(d.seed)) draw.seed = d.seed;
  const extensions = { [REVEALED_EXTENSION]: d.revealed === true, [ATTEMPT_EXTENSION]: attempt() };
  if (Object.keys(draw).length && (kind !== 'choice' || d.generated === true)) extensions[DRAW_EXTENSION] = draw;
  const section = typeof d.section === 'string' && d.section ? d.section : sectionOf(d.quizId);
  return envelope(
    {
      verb: verb('answered'),
      object: { objectType: 'Activity', id: quizIri(d.quizId), definition },
      result: {
        response,
        success: d.correct === true && d.revealed !== true,
        completion: true,
        score: { raw: round(credit), min: 0, max: 1, scaled: round(credit) },
        extensions,
      },
    },
    contextActivities(section),
  );
}

/**
 * The lesson-level `completed` statement: `points` (the sum of credit) out of
 * `total` questions, `scaled` their share (progress.js's tally; by default
 * points / total); `passed` when a mastery score is known (omitted
 * otherwise). With `section`, the section is the object and the lesson its
 * parent.
 */
export function completedStatement({ points, total, scaled: share, mastery = null, section = null }) {
  const scaled = round(share ?? (total > 0 ? points / total : 0));
  const result = { completion: true, score: { raw: round(points), min: 0, max: total, scaled } };
  if (mastery !== null) result.success = scaled >= mastery;
  const object = section
    ? {
        objectType: 'Activity',
        id: sectionIri(section),
        definition: { type: 'http://adlnet.gov/expapi/activities/module' },
      }
    : {
        objectType: 'Activity',
        id: LESSON_IRI,
        definition: { name: { [config.language]: LESSON_NAME }, type: 'http://adlnet.gov/expapi/activities/lesson' },
      };
  return envelope({ verb: verb('completed'), object, result }, section ? { parent: [lessonActivity()] } : null);
}

/** The `initialized` statement: a learner opened a page configured for an LRS (the lesson is its object). */
export function initializedStatement() {
  return envelope({ verb: verb('initialized'), object: lessonActivity() });
}

/**
 * The `attempted` statement of "Reset my answers": the lesson, and the
 * attempt it starts (progress.js's reset event: { attempt, ids? }).
 */
export function attemptedStatement({ attempt: n }) {
  return envelope({
    verb: verb('attempted'),
    object: lessonActivity(),
    result: { extensions: { [ATTEMPT_EXTENSION]: n } },
  });
}

/**
 * Calls `send(statement)` for each answer, and once with `completed` when the
 * answer just given was the last question without one. `progress()` returns
 * the stored progress (after the answer has been saved); `questionIds` are the
 * lesson's quizzes and exercises, or a function that says them at each
 * answer (a page whose questions come and go).
 */
export function statementTracker({ questionIds, progress, send, mastery = () => null }) {
  const idsNow = typeof questionIds === 'function' ? questionIds : () => questionIds;
  const first = idsNow();
  let wasComplete = first.length > 0 && tally(first, progress()).answered === first.length;
  return (detail) => {
    send(answeredStatement(detail));
    const ids = idsNow();
    const t = tally(ids, progress());
    const complete = ids.length > 0 && t.answered === ids.length;
    if (complete && !wasComplete) send(completedStatement({ ...t, mastery: mastery() }));
    wasComplete = complete;
  };
}

/** Sets the base of every activity IRI (configureXapi's activityBase). */
export function setBase(base) {
  ACTIVITY_BASE = base;
  LESSON_IRI = base;
  REVEALED_EXTENSION = `${base}/extensions/revealed`;
  ATTEMPT_EXTENSION = `${base}/extensions/attempt`;
  DRAW_EXTENSION = `${base}/extensions/draw`;
}

// ------------------------------------------------------------ the learner

/** A UUID v4 (crypto.randomUUID where the page is a secure context). */
export function uuid() {
  const c = globalThis.crypto;
  if (typeof c?.randomUUID === 'function') return c.randomUUID();
  const b = c.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

// who answers when nobody said: an anonymous id and a registration, kept per
// browser (or per page where storage is refused: a sandboxed iframe)
let learnerOnce = null;
function learner() {
  if (learnerOnce) return learnerOnce;
  let kept = null;
  try {
    kept = JSON.parse(globalThis.localStorage?.getItem(LEARNER_KEY) ?? 'null');
  } catch {
    kept = null;
  }
  if (isPlainObject(kept) && UUID.test(kept.id ?? '') && UUID.test(kept.registration ?? ''))
    return (learnerOnce = kept);
  learnerOnce = { id: uuid(), registration: uuid() };
  try {
    globalThis.localStorage?.setItem(LEARNER_KEY, JSON.stringify(learnerOnce));
  } catch {
    // kept for this page only
  }
  return learnerOnce;
}
const anonymousActor = () => ({ objectType: 'Agent', account: { homePage: ACTIVITY_BASE, name: learner().id } });

function clip(text, n) {
  const s = String(text);
  return s.length <= n ? s : `${s.slice(0, n - 1)}…`;
}
