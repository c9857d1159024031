// <pe-quiz quiz="sinusoidal-fastest-pair">: one question of the lesson, by id,
// or one its author wrote inside the element (markup or a <script
// type="application/json">: web/lib/questions/own-question.js, own-quiz.js).
//
// Check / try again / show solution; per-option feedback that explains;
// single or multiple answers; questions with a generator get fresh numbers
// from the compute core ("New question"). Progress is kept by
// web/lib/reporting/progress.js (in the browser, with an LMS, or for the page view where
// the frame may not store it). Everything works with the keyboard alone
// (native radio/checkbox groups and buttons; Enter on an option checks), and
// the result is announced by screen readers (a polite live region).
//
// Options are shown in an order of their own for each learner and quiz
// (seeded, kept with the progress, the same after a reload), so the place of
// the right answer tells nothing. Stored responses are indices in the
// authored order. Credit falls with each miss (web/lib/reporting/progress.js: 1 at the
// first check, a third less for each wrong check or shown solution before);
// a right answer given after "Show solution" earns no credit: it is recorded
// as revealed. "New question" keeps the credit earned.
//
// Events: `pe-quiz-answered` (bubbles, composed) after each check, with
// detail { quizId, kind: 'choice', response (option texts), correct (the
// response is right), score (the credit this check earned, 0 to 1), credit
// (the question's credit so far), attempts, revealed (the solution had been
// shown), latencyMs (since the question or the last try was shown), choices
// (the response as authored indices), correctChoices, multiple, question and
// options (plain texts, authored order) }.
import { define, css, h, core, trustedFragment, plainText, inputError, setText } from '../lib/base/pe-element.js';
import { QuestionElement, questionStyles, texText } from '../lib/questions/question.js';
import { idParam } from '../lib/base/params.js';
import { lessonNow } from '../lib/lesson/lesson-registry.js';
import { loadProgress, learnerSeed, afterSolution, afterNewDraw } from '../lib/reporting/progress.js';
import { seededRandom, newSeed, deriveSeed, seededOrder } from '../lib/questions/random.js';
import { quizTextToHtml, withoutLabel } from '../lib/questions/quiz-text.js';
import { compileQuiz } from '../lib/questions/own-quiz.js';

// the words of a node, its formulas left out
function textOutsideMath(node) {
  const copy = node.cloneNode(true);
  for (const m of copy.querySelectorAll('math')) m.remove();
  return copy.textContent.trim();
}

const MARKS = {
  correct: 'Right: ',
  wrong: 'Not this one: ',
  missed: 'Missed, this one is right too: ',
  other: 'Not this one: ',
};

class PeQuiz extends QuestionElement {
  static tag = 'pe-quiz';
  static idAttribute = 'quiz';
  static description =
    "One quiz question, the lesson's by id or one written inside the element (markup or JSON), with per-option feedback; progress kept in the browser.";
  static events = {
    'pe-quiz-answered':
      'A learner checked an answer; detail: { quizId, response, correct, score, attempts, revealed, choices, correctChoices, ... } (bubbles, composed).',
  };
  static params = { quiz: idParam('must be a quiz id (lowercase letters, digits and dashes)') };
  // a written quiz works before the wasm arrives; a generated one asks for the core itself
  static needsCore = false;
  static styles =
    questionStyles +
    css`
    fieldset { border: 0; padding: 0; margin: 0; min-width: 0; }
    legend { font-weight: 600; padding: 0; margin-bottom: 8px; }
    .options { display: grid; gap: 6px; margin: 0 0 10px; }
    .option { display: grid; grid-template-columns: auto 1fr; gap: 2px 8px; align-items: start;
      padding: 6px 10px; border: 1px solid var(--pe-border); border-radius: 8px; cursor: pointer; }
    .option:hover { border-color: var(--pe-accent); }
    /* 24 px: WCAG 2.2's smallest target (2.5.8); a phone's default radio is 13 px */
    .option input { inline-size: 24px; block-size: 24px; margin: 0; accent-color: var(--pe-accent); }
    .option.correct { border-color: var(--pe-good); border-width: 2px; }
    .option.wrong { border-color: var(--pe-bad); border-width: 2px; }
    .option.missed { border-color: var(--pe-good); border-width: 2px; border-style: dashed; }
    .feedback { grid-column: 2; font-size: .92em; color: var(--pe-muted); }
    .feedback:empty { display: none; }
    .mark { font-weight: 700; }
    .correct .mark { color: var(--pe-good); }
    .wrong .mark { color: var(--pe-bad); }
    .missed .mark { color: var(--pe-good); }
  `;

  build(root) {
    this.kicker = h('p', { class: 'kicker' }, 'Check yourself');
    this.legend = h('legend');
    this.optionsBox = h('div', { class: 'options' });
    this.fieldset = h('fieldset', {}, this.legend, this.optionsBox);
    this.checkButton = h('button', { type: 'button', onclick: () => this.check() }, 'Check');
    this.retryButton = h('button', { type: 'button', onclick: () => this.retry() }, 'Try again');
    this.solutionButton = h('button', { type: 'button', onclick: () => this.showSolution() }, 'Show solution');
    this.newButton = h('button', { type: 'button', onclick: () => this.newQuestion() }, 'New question');
    this.result = h('p', { class: 'result', role: 'status', 'aria-live': 'polite' });
    this.explanation = h('div', { class: 'box explanation', hidden: true });
    // no <form>: a frame sandboxed without allow-forms blocks its submission; Enter on an option checks
    this.checkOnEnter(this.optionsBox, () => !this.checkButton.disabled && this.check());
    root.append(
      this.kicker,
      this.fieldset,
      h('div', { class: 'buttons' }, this.checkButton, this.retryButton, this.solutionButton, this.newButton),
      this.result,
      this.explanation,
    );
  }

  forgetQuestion() {
    this._question = null;
  }

  // what a generated question asks: its text and its options, right or wrong
  drawKey(q = this._question) {
    return q?.generated ? JSON.stringify([q.question, q.options]) : null;
  }

  update(pe, p) {
    if (this._question && this._questionFor === p.quiz) return; // already shown; state lives in the DOM
    // the author's own question, written inside the element, or the lesson's by id
    const data = this.holdsOwn ? this.ownQuestion(compileQuiz) : this.lessonEntry('quizzes', 'quiz');
    if (!data) return false; // the lesson is loading
    const saved = loadProgress()[p.quiz];
    if (data.generator) {
      if (!this._generator || !this._pe) {
        // the generator module and the core arrive asynchronously; draw again when both have
        Promise.all([lessonNow().quizGenerators[data.generator](), core()]).then(
          ([m, loaded]) => {
            this._generator = m.default ?? m;
            this._pe = loaded;
            this._question = null;
            this.schedule();
          },
          (error) =>
            this.waitFailed(`This question is computed by the core, which could not be loaded: ${error.message}`),
        );
        setText(this.legend, 'Preparing a question…');
        return false;
      }
      const { draw, seed } = this.drawUnlike(saved?.seed ?? newSeed(), (s) => {
        const q = this._generator.generate(this._pe, seededRandom(s));
        // generated texts are Markdown with $TeX$, typeset here as MathML
        return {
          generated: true,
          title: data.title || null,
          multiple: !!q.multiple,
          question: quizTextToHtml(q.question),
          options: q.options.map((o) => ({
            html: quizTextToHtml(o.text),
            correct: !!o.correct,
            feedback: quizTextToHtml(o.feedback ?? ''),
          })),
          explanation: quizTextToHtml(q.explanation ?? ''),
        };
      });
      this._seed = seed;
      this._question = draw;
      this._order = seededOrder(deriveSeed(seed, 'option-order'), draw.options.length);
    } else {
      // the learner's seed gives each quiz its own order; an answered quiz keeps the one it was answered in
      this._seed = saved?.seed ?? deriveSeed(learnerSeed(newSeed), p.quiz);
      this._question = { generated: false, ...data };
      this._order = seededOrder(this._seed, data.options.length);
    }
    this._questionFor = p.quiz;
    this._shownAt = performance.now();
    this.render(saved);
  }

  render(saved) {
    const q = this._question;
    const name = `q-${this.questionId}`;
    setText(this.kicker, q.generated ? 'Check yourself (numbers computed by the core)' : 'Check yourself');
    this.legend.replaceChildren(trustedFragment(q.question));
    // labels by authored index; the DOM holds them in the displayed order
    this.labels = q.options.map((o, i) => {
      const id = `${name}-${i}`;
      const input = h('input', {
        type: q.multiple ? 'checkbox' : 'radio',
        name,
        id,
        value: String(i),
        'aria-describedby': `${id}-fb`,
      });
      input.addEventListener('change', () => this.clearMarks());
      const text = h('span', { class: 'text' }, trustedFragment(o.html));
      // an option that is only a formula gets its text as a name too: not every
      // accessibility checker (axe) names a control from MathML
      if (!textOutsideMath(text)) input.setAttribute('aria-label', plainText(text).replace(/\s*([=<>])\s*/g, ' $1 '));
      const feedback = h('span', { class: 'feedback', id: `${id}-fb` });
      return h('label', { class: 'option', for: id }, input, text, feedback);
    });
    this.optionsBox.replaceChildren(...this._order.map((i) => this.labels[i]));
    this.newButton.hidden = !q.generated;
    this.explanation.hidden = true;
    this.explanation.replaceChildren(trustedFragment(q.explanation));
    setText(this.result, '');
    this.result.className = 'result';
    this.retryButton.hidden = true;
    this.setInputsDisabled(false);
    this._solutionShown = !!saved?.solutionShown;
    if (saved && (saved.attempts > 0 || saved.solutionShown)) {
      // restore the last answer and what was shown with it
      for (const i of saved.response) {
        const input = this.labels[i]?.querySelector('input');
        if (input) input.checked = true;
      }
      const view = saved.view ?? (saved.solutionShown ? 'solution' : 'check');
      if (view === 'solution') this.showSolution({ save: false });
      else if (this.selected().length) this.check({ save: false });
    }
    this.shown();
  }

  /** The chosen options, as indices in the authored order. */
  selected() {
    return this.labels.flatMap((label, i) => (label.querySelector('input').checked ? [i] : []));
  }

  clearMarks() {
    for (const label of this.labels ?? []) {
      label.classList.remove('correct', 'wrong', 'missed', 'other');
      label.querySelector('.feedback').replaceChildren();
    }
    setText(this.result, '');
    this.result.className = 'result';
  }

  // kind: correct | wrong (a wrong pick) | missed (a right option not picked) | other (a wrong option not picked, in the solution)
  mark(i, kind, { yours = false } = {}) {
    const label = this.labels[i];
    label.classList.add(kind);
    const text = yours ? `${MARKS[kind].slice(0, -2)} (your answer): ` : MARKS[kind];
    // the mark is the label: feedback that starts with one of its own ("Right.") loses it;
    // an option without feedback (an author may leave it out) gets the mark alone
    const feedback = this._question.options[i].feedback;
    label
      .querySelector('.feedback')
      .replaceChildren(
        h('span', { class: 'mark' }, feedback ? text : `${text.replace(/:\s*$/, '')}.`),
        trustedFragment(feedback ? withoutLabel(feedback) : ''),
      );
  }

  check({ save = true } = {}) {
    const q = this._question;
    if (!q) return;
    const chosen = this.selected();
    if (!chosen.length) {
      this.result.className = 'result bad';
      setText(this.result, q.multiple ? 'Choose one or more answers first.' : 'Choose an answer first.');
      return;
    }
    this.clearMarks();
    q.options.forEach((o, i) => {
      if (chosen.includes(i)) this.mark(i, o.correct ? 'correct' : 'wrong');
      else if (q.multiple && o.correct) this.mark(i, 'missed');
    });
    const correctSet = q.options.flatMap((o, i) => (o.correct ? [i] : []));
    const correct = correctSet.length === chosen.length && correctSet.every((i) => chosen.includes(i));
    const missed = q.multiple && !correct && chosen.every((i) => q.options[i].correct);
    const scored = this.scoreCheck({
      right: correct,
      response: chosen,
      save,
      wrong: missed
        ? 'Partly: every answer you chose is right, but the ones marked "Missed" are right too.'
        : q.multiple
          ? 'Not quite: read the feedback under the marked answers, then try again or show the solution.'
          : 'Not quite: read the feedback under your answer, then try again or show the solution.',
    });
    this.explanation.hidden = !correct;
    this.setInputsDisabled(true);
    this.retryButton.hidden = false;
    // the Check button is now disabled: keep keyboard focus inside the quiz
    if (save) this.retryButton.focus();
    if (save) {
      this.save(scored.entry);
      this.announce(scored, {
        kind: 'choice',
        response: chosen.map((i) => this.optionText(i)),
        correct,
        // for xAPI statements and LMS interactions (web/lib/reporting/xapi.js): authored indices and plain texts
        choices: chosen,
        correctChoices: correctSet,
        multiple: q.multiple,
        question: plainText(this.legend),
        title: this.titleText(),
        // a generated quiz's options are this learner's numbers (xAPI keeps them out of the definition)
        generated: q.generated,
        seed: this._seed,
        options: q.options.map((o, i) => this.optionText(i)),
      });
    }
  }

  // the question's short name for reports (xAPI): its title where it has one
  // (an author's, a generated quiz's), else the question with its formulas as TeX
  titleText() {
    const title = this._question?.title;
    if (title) return plainText(h('span', {}, trustedFragment(title)));
    return texText(this.legend);
  }

  // an option's text as read, without the TeX annotations of its formulas
  optionText(i) {
    return plainText(this.labels[i].querySelector('.text'));
  }

  retry() {
    this._shownAt = performance.now();
    this.clearMarks();
    for (const label of this.labels) label.querySelector('input').checked = false;
    this.setInputsDisabled(false);
    this.retryButton.hidden = true;
    this.explanation.hidden = true;
    this.optionsBox.querySelector('input')?.focus();
  }

  showSolution({ save = true } = {}) {
    const q = this._question;
    if (!q) return;
    // the learner's own picks stay checked and marked beside the right answers
    const picks = this.selected();
    this.clearMarks();
    q.options.forEach((o, i) => {
      const yours = picks.includes(i);
      this.mark(i, o.correct ? 'correct' : yours ? 'wrong' : 'other', { yours });
    });
    this.explanation.hidden = false;
    this.result.className = 'result';
    setText(
      this.result,
      'Solution shown: the right answers are marked, with why each option is right or wrong. An answer checked from now on is recorded as revealed, with no credit.',
    );
    this.setInputsDisabled(true);
    this.retryButton.hidden = false;
    this._solutionShown = true;
    if (save) {
      this.retryButton.focus();
      this.save(afterSolution(this.storedEntry(), { response: picks, seed: this._seed }));
    }
  }

  newQuestion() {
    // new numbers are practice: the credit earned stays, and so do the misses
    this.save(afterNewDraw(this.storedEntry(), { seed: newSeed() }));
    this.replaceDraw();
    this.schedule();
    this.updateNow().then(() => this.optionsBox.querySelector('input')?.focus());
  }

  setInputsDisabled(disabled) {
    for (const input of this.optionsBox.querySelectorAll('input')) input.disabled = disabled;
    this.checkButton.disabled = disabled;
  }
}

define(PeQuiz);
