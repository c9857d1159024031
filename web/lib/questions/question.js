// What <pe-quiz> and <pe-exercise> share: a question scored by
// web/lib/reporting/progress.js (1 at the first check, a third less per miss, nothing
// after "Show solution"), cleared when the score board resets it, with one
// result line after each check and the `pe-quiz-answered` event.
import { PeElement, css, h, inputError } from '../base/pe-element.js';
import {
  loadProgress,
  saveEntry,
  onProgress,
  forgetUnknownQuizzes,
  afterCheck,
  afterNewDraw,
  creditAfter,
  pointsPhrase,
  earnedText,
  claimPageOnlyNote,
} from '../reporting/progress.js';
import { lessonNow, hasLesson, loadLesson } from '../lesson/lesson-registry.js';
import { holdsOwnQuestion } from './page-questions.js';
import { readOwnQuestion, fieldError } from './own-question.js';
import { deriveSeed } from './random.js';

// how many seeds drawUnlike tries before it shows a draw like the one it replaces
const REDRAWS = 16;

/**
 * An error the page's author can fix (an unknown id, a malformed question),
 * shown in the widget's box: it carries `kind`, as the core's errors do, so
 * PeElement tells it from a bug.
 */
export const questionError = (message) => inputError(message);

// progress of questions the lesson has dropped (removed or renamed since they
// were answered) would otherwise stay stored forever: forgotten once the
// lesson is here (../reporting/progress.js keeps the entries of authors' own questions)
function forgetDroppedQuestions(lesson) {
  if (lesson) forgetUnknownQuizzes(lesson.lessonQuestionIds);
}

/**
 * A node's text with each formula as its TeX between $ signs (the annotation
 * its MathML carries), so a report names "the wavelength of pair $i$", not
 * the flattened "pair i" of the MathML's text.
 */
export function texText(node) {
  const copy = node.cloneNode(true);
  for (const m of copy.querySelectorAll('.katex, math')) {
    const tex = m.querySelector('annotation')?.textContent;
    if (tex !== undefined) m.replaceWith(`$${tex}$`);
  }
  return copy.textContent.replace(/\s+/g, ' ').trim();
}

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
  .storage-note { margin: 8px 0 0; font-size: .85em; color: var(--pe-muted); }
  .storage-note:empty { display: none; }
  math { font-size: 1.05em; }
`;

/**
 * A question element. A subclass names the attribute that holds its id
 * (static idAttribute), keeps its result line in this.result and its
 * identity of the shown question in forgetQuestion(), which a reset from the
 * score board calls (through replaceDraw) before drawing again. A subclass
 * that draws numbers says what a draw asks in drawKey(draw) and draws
 * through drawUnlike.
 */
export class QuestionElement extends PeElement {
  constructor() {
    super();
    // a reset elsewhere on the page (the score board) starts this question
    // afresh, and so does a change to it in another tab of the same learner
    // (subscribed while the element is on the page)
    this.own(() =>
      onProgress((e) => {
        const d = e.detail ?? {};
        const reset = d.reset && (!d.ids || d.ids.includes(this.questionId));
        const elsewhere = d.external && this._built && JSON.stringify(this.storedEntry()) !== this._shownEntry;
        // a reset asks for new numbers; another tab's change (a check, new
        // numbers drawn there) is shown as it is stored
        if (reset) this.replaceDraw();
        else if (elsewhere) this.forgetQuestion();
        if (reset || elsewhere) this.schedule();
      }),
    );
  }

  connectedCallback() {
    // a page may hold questions without the score board: drop stale progress here too
    forgetDroppedQuestions(lessonNow());
    super.connectedCallback();
  }

  /**
   * Stores this question's entry (../reporting/progress.js) and notes it as shown; an
   * author's own question's entry is marked own, so a lesson that does not
   * know its id never forgets it (../reporting/progress.js, forgetUnknownQuizzes).
   */
  save(entry) {
    saveEntry(this.questionId, entry && this.holdsOwn ? { ...entry, own: true } : entry);
    this.shown();
  }

  /**
   * Forgets the shown question so the next update draws again (a reset, new
   * numbers), noting what it asked (drawKey) so the new draw asks something
   * else (drawUnlike).
   */
  replaceDraw() {
    this._replaced = this.drawKey?.() ?? null;
    this.forgetQuestion();
  }

  /**
   * `draw(seed)`; where that asks exactly what the draw it replaces asked
   * (`drawKey` equal: a generator with few outcomes repeats itself, as
   * sinusoidal-wavelength's 116 do about once in 60 draws), `draw` again with
   * seeds derived from `seed`, up to REDRAWS times, so a solution shown
   * before a reset or new numbers cannot be typed back after it. A seed
   * other than `seed` is stored with the question's progress (credit and
   * misses kept, the draw's own fields cleared, as afterNewDraw does), so a
   * reload shows the same draw; where every try asks the same (nothing is
   * drawn) `seed` stays and nothing is stored. Returns { draw, seed }.
   */
  drawUnlike(seed, draw) {
    const replaced = this._replaced;
    this._replaced = null;
    const first = draw(seed);
    if (replaced == null || this.drawKey(first) !== replaced) return { draw: first, seed };
    for (let k = 1; k <= REDRAWS; k++) {
      const s = deriveSeed(seed, `redraw ${k}`);
      const d = draw(s);
      if (this.drawKey(d) === replaced) continue;
      this.save(afterNewDraw(this.storedEntry(), { seed: s }));
      return { draw: d, seed: s };
    }
    return { draw: first, seed };
  }

  /** Whether the element holds its author's own question (page-questions.js), not one of the lesson's by id. */
  get holdsOwn() {
    return holdsOwnQuestion(this);
  }

  /**
   * This element's own question, read from its children (own-question.js)
   * or given (`definition`: a lesson question written the same way), made by
   * `compile`; whatever is wrong with it is thrown as a questionError that
   * names the element and the field.
   */
  ownQuestion(compile, definition) {
    const id = this.questionId;
    const tag = this.constructor.tag;
    try {
      if (definition === undefined) {
        if (
          ['quizzes', 'exercises', 'codeExercises'].some((t) => lessonNow() && Object.hasOwn(lessonNow()[t] ?? {}, id))
        )
          throw fieldError('', `"${id}" is a question of the registered lesson; give your own question another id`);
        definition = readOwnQuestion(this).definition;
      }
      return compile(definition);
    } catch (error) {
      if (error.field === undefined) throw error; // a bug, not the author's question
      throw questionError(`${tag} "${id}": ${error.message}`);
    }
  }

  /**
   * Runs `check` when Enter is pressed in `box` (a text field, an option):
   * what a form's submission did, without a form, which a frame sandboxed
   * without allow-forms refuses to submit (docs/embedding.md).
   */
  checkOnEnter(box, check) {
    box.addEventListener('keydown', (e) => {
      if (e.key !== 'Enter' || e.isComposing || e.target.localName === 'button') return;
      e.preventDefault();
      check();
    });
  }

  /** The stored entry of this question (undefined if none). */
  storedEntry() {
    return loadProgress()[this.questionId];
  }

  /**
   * Notes what this question now shows, as stored (a change from another tab
   * is one that differs), and, the first time on a page that keeps progress
   * in memory only, says so under the question.
   */
  shown() {
    this._shownEntry = JSON.stringify(this.storedEntry());
    const note = claimPageOnlyNote();
    if (note) {
      this._storageNote ??= this.shadowRoot.appendChild(h('p', { class: 'storage-note' }));
      this._storageNote.textContent = note;
    }
  }

  /**
   * The registered lesson's entry for this question in `table` ('quizzes' or
   * 'exercises'): the entry; undefined while the lesson loads (the element
   * updates again once it is here); throws a questionError when no lesson is
   * registered or it has no such question.
   */
  lessonEntry(table, noun) {
    const id = this.questionId;
    const tag = this.constructor.tag;
    const lesson = lessonNow();
    if (!lesson) {
      if (!hasLesson())
        throw questionError(
          `${tag}: there is no ${noun} with id "${id}": this page registers no lesson, and the element holds no question of its own (docs/embedding.md, "Questions of your own")`,
        );
      loadLesson().then(
        (loaded) => {
          forgetDroppedQuestions(loaded);
          this.schedule();
        },
        (error) => this.waitFailed(`The lesson's questions could not be loaded: ${error.message}`),
      );
      return undefined;
    }
    if (!Object.hasOwn(lesson[table], id)) throw questionError(`${tag}: there is no ${noun} with id "${id}"`);
    return lesson[table][id];
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
    const before = this.storedEntry();
    // a restored view says what the stored answer earned; a new check is scored now
    const { entry, earned } = save
      ? afterCheck(before, { right, response, seed: this._seed })
      : { entry: before, earned: before?.credit ?? 0 };
    this.result.className = `result ${right ? (revealed ? 'revealed' : 'good') : 'bad'}`;
    this.result.textContent = right
      ? revealed
        ? 'Revealed: right, but after Show solution, so it earns no credit.'
        : `Correct. ${earnedText(earned, entry.credit)}`
      : `${wrong}${!revealed && entry.credit < 1 ? ` A right answer now earns ${pointsPhrase(creditAfter(entry.misses))}.` : ''}`;
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
