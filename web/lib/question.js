// What <pe-quiz> and <pe-exercise> share: a question scored by
// web/lib/progress.js (1 at the first check, a third less per miss, nothing
// after "Show solution"), cleared when the score board resets it, with one
// result line after each check and the `pe-quiz-answered` event.
import { PeElement, css } from './pe-element.js';
import {
  loadProgress,
  onProgress,
  forgetUnknownQuizzes,
  afterCheck,
  creditAfter,
  formatPoints,
  earnedText,
} from './progress.js';
import { lessonQuestionIds } from '../gen/lesson-data.js';

/** The kicker, the button row, the result line and the box under it (.box). */
export const questionStyles = css`
  .kicker { font-size: .8em; text-transform: uppercase; letter-spacing: .06em; color: var(--pe-muted); margin: 0 0 4px; }
  .buttons { display: flex; flex-wrap: wrap; gap: 8px; }
  .result { margin: 8px 0 0; font-weight: 600; }
  .result.good { color: var(--pe-good); }
  .result.bad { color: var(--pe-bad); }
  .result.revealed { font-style: italic; }
  .box { margin-top: 8px; padding: 8px 10px; border-left: 3px solid var(--pe-accent); background: var(--pe-panel); }
  .box[hidden] { display: none; }
  math { font-size: 1.05em; }
`;

/**
 * A question element. A subclass names the attribute that holds its id
 * (static idAttribute), keeps its result line in this.result and its
 * identity of the shown question in forgetQuestion(), which a reset from the
 * score board calls before drawing again.
 */
// "⅔ point", "1 point", "no points" (was "0 point")
const pointsText = (x) => (x === 0 ? 'no points' : `${formatPoints(x)} point${x > 1 ? 's' : ''}`);

export class QuestionElement extends PeElement {
  connectedCallback() {
    // a page may hold questions without the score board: drop stale progress here too
    forgetUnknownQuizzes(lessonQuestionIds);
    super.connectedCallback();
    // a reset elsewhere on the page (the score board) starts this question afresh
    this._unsubscribe ??= onProgress((e) => {
      if (e.detail?.reset && (!e.detail.ids || e.detail.ids.includes(this.questionId))) {
        this.forgetQuestion();
        this.schedule();
      }
    });
  }

  disconnectedCallback() {
    super.disconnectedCallback();
    this._unsubscribe?.();
    this._unsubscribe = null;
  }

  get questionId() {
    return this.getAttribute(this.constructor.idAttribute) ?? '';
  }

  /**
   * Scores a check and writes the result line: right, right after the
   * solution was shown (no credit), or `wrong` followed by what a right
   * answer now earns. With save false (a restored view) it says what the
   * stored answer earned and scores nothing. -> { entry, earned, revealed }
   */
  scoreCheck({ right, response, save, wrong }) {
    const revealed = this._solutionShown;
    const before = loadProgress()[this.questionId];
    // a restored view says what the stored answer earned; a new check is scored now
    const { entry, earned } = save
      ? afterCheck(before, { right, response, seed: this._seed })
      : { entry: before, earned: before?.credit ?? 0 };
    this.result.className = `result ${right ? (revealed ? 'revealed' : 'good') : 'bad'}`;
    this.result.textContent = right
      ? revealed
        ? 'Revealed: right, but after Show solution, so it earns no credit.'
        : `Correct. ${earnedText(earned, entry.credit)}`
      : `${wrong}${!revealed && entry.credit < 1 ? ` A right answer now earns ${pointsText(creditAfter(entry.misses))}.` : ''}`;
    return { entry, earned, revealed };
  }

  /** `pe-quiz-answered` (bubbles, composed): the question's id, its own fields (kind, response, correct, ...), then the check's score. */
  announce({ entry, earned, revealed }, detail) {
    this.dispatchEvent(
      new CustomEvent('pe-quiz-answered', {
        bubbles: true,
        composed: true,
        detail: {
          quizId: this.questionId,
          ...detail,
          score: earned,
          credit: entry.credit,
          attempts: entry.attempts,
          revealed,
          latencyMs: performance.now() - this._shownAt,
        },
      }),
    );
  }
}
