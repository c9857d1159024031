// <pe-quiz-score>: the score of the questions (quizzes and exercises) it
// counts: the points earned (each question's credit, which falls with every
// miss; the rule is stated above the score) out of the number of questions,
// how many were answered and how many revealed (solution shown, no credit),
// kept with the questions' progress (progress.js says where), and a button that
// resets the questions it counts.
//
// What it counts (the `scope` attribute):
//   page (default)  every <pe-quiz quiz> and <pe-exercise exercise> in the
//                   document, including ones added later: an author's page
//                   with one quiz scores "of 1"; the lesson page, which holds
//                   every question, scores the whole lesson
//   lesson          every question of the lesson, on the page or not
//   a CSS selector  the questions inside the elements it matches
//                   (scope="#week-2", scope="section.rope")
// "Reset my answers" starts a new attempt (progress.js, resetProgress): the
// questions draw new numbers, and an LMS or LRS hears of it.
// Questions an author wrote inside the elements count wherever they stand
// (web/lib/questions/page-questions.js); a lesson id the lesson does not know (a
// mistyped id, which shows its own error) is not counted, and a question on
// the page twice counts once.
import { PeElement, define, css, h, inputError, setText } from '../lib/base/pe-element.js';
import { lessonNow, hasLesson, loadLesson, onLesson } from '../lib/lesson/lesson-registry.js';
import { QUESTION_SELECTOR, holdsOwnQuestion, questionIdsOf, questionsIn } from '../lib/questions/page-questions.js';
import {
  loadProgress,
  onProgress,
  resetProgress,
  forgetUnknownQuizzes,
  tally,
  formatPoints,
  CREDIT_RULE,
  claimPageOnlyNote,
} from '../lib/reporting/progress.js';

const QUESTIONS = QUESTION_SELECTOR;
// whether page changes can change what is counted: a question (or an element
// holding one) came or went, or a question's id changed
const touchesQuestions = (records) =>
  records.some(
    (r) =>
      r.type === 'attributes' ||
      [...r.addedNodes, ...r.removedNodes].some(
        (n) => n.nodeType === 1 && (n.matches(QUESTIONS) || n.querySelector(QUESTIONS)),
      ),
  );

/**
 * The ids `scope` names in `doc`, in page order, each once: questions their
 * authors wrote inside the elements, and those the lesson has (`known`: the
 * registered lesson's questions); throws a readable Error for a scope that
 * is not a selector.
 */
export function countedIds(scope, doc = document, known = lessonNow()?.questionIds ?? []) {
  if (scope === 'lesson') return [...known];
  let nodes;
  if (scope === 'page') nodes = [...doc.querySelectorAll(QUESTIONS)];
  else {
    let containers;
    try {
      containers = [...doc.querySelectorAll(scope)];
    } catch {
      throw inputError(
        `scope must be page, lesson or a CSS selector; ${JSON.stringify(scope)} is not a valid selector`,
      );
    }
    nodes = questionsIn(containers);
  }
  return questionIdsOf(nodes, known);
}

// a scope the page's author got wrong is shown in the box (an error with a kind)

class PeQuizScore extends PeElement {
  static tag = 'pe-quiz-score';
  static description =
    'The score over the quizzes and exercises on its page (or those its scope names; credit falls with each miss), with the rule and a button that resets the questions it counts.';
  static params = {
    scope: {
      type: 'string',
      default: 'page',
      maxLength: 200,
      label: 'which questions count',
      patternMessage:
        'is page (every quiz and exercise in the document, the default), lesson (every question of the lesson) or a CSS selector (the questions inside the elements it matches)',
    },
  };
  static alwaysUpdate = true;
  static needsCore = false;
  static styles = css`
    :host { display: flex; flex-wrap: wrap; align-items: center; gap: 8px 14px; padding: 10px 14px; }
    .rule { flex-basis: 100%; margin: 0; font-size: .9em; color: var(--pe-muted); }
    .meter { flex: 1 1 140px; height: 10px; min-width: 100px; }
    .text { font-weight: 600; }
    .status { display: none; }
  `;

  constructor() {
    super();
    this.ids = [];
    // while on the page: an answer, a reset, or a change in another tab of the same learner
    this.own(() => onProgress(() => this.schedule()));
    // the lesson's questions are known once it is registered or loaded
    this.own(() => onLesson(() => this.schedule()));
    // questions added, removed or renamed later (a page that builds itself,
    // a notebook cell run again) change what is counted
    this.own(() => {
      const observer = new MutationObserver((records) => touchesQuestions(records) && this.schedule());
      observer.observe(document, {
        childList: true,
        subtree: true,
        attributes: true,
        attributeFilter: ['quiz', 'exercise'],
      });
      return observer;
    });
  }

  // the scope is the author's choice, not something a shared link sets
  acceptsParam() {
    return false;
  }

  build(root) {
    // progress of quizzes the lesson has dropped would otherwise stay stored forever
    const lesson = lessonNow();
    if (lesson) forgetUnknownQuizzes(lesson.lessonQuestionIds);
    this.rule = h('p', { class: 'rule' }, CREDIT_RULE);
    this.text = h('span', { class: 'text', role: 'status', 'aria-live': 'polite' });
    this.meter = h('progress', { class: 'meter', max: '1', value: '0', 'aria-label': 'Points earned' });
    this.reset = h('button', { type: 'button', onclick: () => this.confirmReset() }, 'Reset my answers');
    root.append(this.rule, this.text, this.meter, this.reset);
  }

  confirmReset() {
    if (this.reset.dataset.armed === 'yes') {
      delete this.reset.dataset.armed;
      setText(this.reset, 'Reset my answers');
      // only the questions counted here; every question when that is all there is
      const counted = new Set(this.ids);
      const all = Object.keys(loadProgress()).every((id) => counted.has(id));
      resetProgress(all ? undefined : this.ids);
    } else {
      // a second press confirms, so a stray click or key press loses nothing
      this.reset.dataset.armed = 'yes';
      setText(
        this.reset,
        `Press again to reset ${this.ids.length === 1 ? 'this question' : `these ${this.ids.length} questions`}`,
      );
    }
  }

  update(_pe, p) {
    // a lesson registered with a loader is loaded when it is counted: the
    // whole lesson, or questions on the page that name it
    if (
      !lessonNow() &&
      hasLesson() &&
      (p.scope === 'lesson' || [...document.querySelectorAll(QUESTIONS)].some((el) => !holdsOwnQuestion(el)))
    ) {
      loadLesson().then(
        (lesson) => {
          forgetUnknownQuizzes(lesson.lessonQuestionIds);
          this.schedule();
        },
        (error) => this.waitFailed(`The lesson's questions could not be loaded: ${error.message}`),
      );
      return false;
    }
    this.ids = countedIds(p.scope);
    const t = tally(this.ids, loadProgress());
    this.reset.disabled = t.total === 0;
    if (t.total === 0) {
      setText(
        this.text,
        p.scope === 'page'
          ? 'Score: no quizzes or exercises on this page yet'
          : `Score: no quizzes or exercises in ${JSON.stringify(p.scope)}`,
      );
    } else {
      setText(
        this.text,
        `Score: ${formatPoints(t.points)} of ${t.total} point${t.total === 1 ? '' : 's'} (${t.answered} of ${t.total} question${t.total === 1 ? '' : 's'} answered${t.revealed ? `, ${t.revealed} revealed` : ''})`,
      );
    }
    const note = claimPageOnlyNote();
    if (note) setText(this.rule, `${CREDIT_RULE} ${note}`);
    this.meter.max = Math.max(1, t.total);
    this.meter.value = t.points;
  }
}

define(PeQuizScore);
