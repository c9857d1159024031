// <pe-quiz quiz="sinusoidal-fastest-pair">: one question of the lesson, by id.
//
// Check / try again / show solution; per-option feedback that explains;
// single or multiple answers; questions with a generator get fresh numbers
// from the compute core ("New question"). Progress is kept in localStorage
// (web/lib/progress.js) and survives a reload. Everything works with the
// keyboard alone (native radio/checkbox groups and buttons), and the result
// is announced by screen readers (a polite live region).
//
// Events: `pe-quiz-answered` (bubbles, composed) after each check, with
// detail { quizId, response (option texts), correct, score (0 or 1), attempts }.
import { PeElement, define, css, h, core } from '../lib/pe-element.js';
import { quizzes, quizGenerators } from '../gen/lesson-data.js';
import { loadProgress, saveEntry, onProgress, forgetUnknownQuizzes } from '../lib/progress.js';
import { seededRandom, newSeed } from '../lib/random.js';

// Build-time HTML (our own lesson text: Markdown and MathML rendered by
// scripts/build-lesson.mjs) goes in through a template; text from generators
// and from the learner only ever becomes text nodes.
function trustedFragment(html) {
  const t = document.createElement('template');
  t.innerHTML = html;
  return t.content;
}

class PeQuiz extends PeElement {
  static tag = 'pe-quiz';
  static params = {
    quiz: { type: 'string', default: '', maxLength: 80, pattern: /^[a-z0-9-]*$/, patternMessage: 'must be a quiz id (lowercase letters, digits and dashes)' },
  };
  // a written quiz works before the wasm arrives; a generated one asks for the core itself
  static needsCore = false;
  static styles = css`
    fieldset { border: 0; padding: 0; margin: 0; min-width: 0; }
    legend { font-weight: 600; padding: 0; margin-bottom: 8px; }
    .kicker { font-size: .8em; text-transform: uppercase; letter-spacing: .06em; color: var(--pe-muted); margin: 0 0 4px; }
    .options { display: grid; gap: 6px; margin: 0 0 10px; }
    .option { display: grid; grid-template-columns: auto 1fr; gap: 2px 8px; align-items: start;
      padding: 6px 10px; border: 1px solid var(--pe-border); border-radius: 8px; cursor: pointer; }
    .option:hover { border-color: var(--pe-accent); }
    .option input { margin: 4px 0 0; accent-color: var(--pe-accent); }
    .option.correct { border-color: var(--pe-good); border-width: 2px; }
    .option.wrong { border-color: var(--pe-bad); border-width: 2px; }
    .feedback { grid-column: 2; font-size: .92em; color: var(--pe-muted); }
    .feedback:empty { display: none; }
    .mark { font-weight: 700; }
    .correct .mark { color: var(--pe-good); }
    .wrong .mark { color: var(--pe-bad); }
    .buttons { display: flex; flex-wrap: wrap; gap: 8px; }
    .result { margin: 8px 0 0; font-weight: 600; }
    .result.good { color: var(--pe-good); }
    .result.bad { color: var(--pe-bad); }
    .explanation { margin-top: 8px; padding: 8px 10px; border-left: 3px solid var(--pe-accent); background: var(--pe-panel); }
    .explanation[hidden] { display: none; }
    math { font-size: 1.05em; }
  `;

  build(root) {
    // a page may hold quizzes without the score board: drop stale progress here too
    forgetUnknownQuizzes(Object.keys(quizzes));
    this.kicker = h('p', { class: 'kicker' }, 'Check yourself');
    this.legend = h('legend');
    this.optionsBox = h('div', { class: 'options' });
    this.fieldset = h('fieldset', {}, this.legend, this.optionsBox);
    this.checkButton = h('button', { type: 'button', onclick: () => this.check() }, 'Check');
    this.retryButton = h('button', { type: 'button', onclick: () => this.retry() }, 'Try again');
    this.solutionButton = h('button', { type: 'button', onclick: () => this.showSolution() }, 'Show solution');
    this.newButton = h('button', { type: 'button', onclick: () => this.newQuestion() }, 'New question');
    this.result = h('p', { class: 'result', role: 'status', 'aria-live': 'polite' });
    this.explanation = h('div', { class: 'explanation', hidden: true });
    const form = h('form', { onsubmit: (e) => (e.preventDefault(), this.check()) }, this.fieldset, h('div', { class: 'buttons' }, this.checkButton, this.retryButton, this.solutionButton, this.newButton));
    root.append(this.kicker, form, this.result, this.explanation);
    this._unsubscribe = null;
  }

  connectedCallback() {
    super.connectedCallback();
    // a reset elsewhere on the page (the score board) clears this quiz too
    this._unsubscribe ??= onProgress((e) => {
      if (e.detail?.reset) {
        this._question = null;
        this.schedule();
      }
    });
  }

  disconnectedCallback() {
    super.disconnectedCallback();
    this._unsubscribe?.();
    this._unsubscribe = null;
  }

  get quizId() {
    return this.getAttribute('quiz') ?? '';
  }

  update(pe, p) {
    const data = quizzes[p.quiz];
    if (!data) throw new Error(`pe-quiz: there is no quiz with id "${p.quiz}"`);
    if (this._question && this._questionFor === p.quiz) return; // already shown; state lives in the DOM
    const saved = loadProgress()[p.quiz];
    if (data.generator) {
      const seed = saved?.seed ?? newSeed();
      this._seed = seed;
      if (!this._generator || !this._pe) {
        // the generator module and the core arrive asynchronously; draw again when both have
        Promise.all([quizGenerators[data.generator](), core()]).then(
          ([m, loaded]) => {
            this._generator = m.default ?? m;
            this._pe = loaded;
            this._question = null;
            this.schedule();
          },
          (error) => {
            this.errorBox.textContent = `This question is computed by the core, which could not be loaded: ${error.message}`;
          },
        );
        this.legend.textContent = 'Preparing a question…';
        return false;
      }
      const q = this._generator.generate(this._pe, seededRandom(seed));
      this._question = {
        generated: true,
        multiple: !!q.multiple,
        question: q.question,
        options: q.options.map((o) => ({ text: String(o.text), correct: !!o.correct, feedback: String(o.feedback ?? '') })),
        explanation: String(q.explanation ?? ''),
      };
    } else {
      this._question = { generated: false, ...data };
    }
    this._questionFor = p.quiz;
    this.render(saved);
  }

  render(saved) {
    const q = this._question;
    const name = `q-${this.quizId}`;
    this.kicker.textContent = q.generated ? 'Check yourself (numbers computed by the core)' : 'Check yourself';
    if (q.generated) this.legend.replaceChildren(q.question);
    else this.legend.replaceChildren(trustedFragment(q.question));
    this.optionsBox.replaceChildren(
      ...q.options.map((o, i) => {
        const id = `${name}-${i}`;
        const input = h('input', { type: q.multiple ? 'checkbox' : 'radio', name, id, value: String(i), 'aria-describedby': `${id}-fb` });
        input.addEventListener('change', () => this.clearMarks());
        const text = h('span', { class: 'text' });
        if (q.generated) text.append(o.text);
        else text.append(trustedFragment(o.html));
        const feedback = h('span', { class: 'feedback', id: `${id}-fb` });
        return h('label', { class: 'option', for: id }, input, text, feedback);
      }),
    );
    this.newButton.hidden = !q.generated;
    this.explanation.hidden = true;
    this.explanation.replaceChildren(q.generated ? q.explanation : trustedFragment(q.explanation));
    this.result.textContent = '';
    this.result.className = 'result';
    this.retryButton.hidden = true;
    this.setInputsDisabled(false);
    if (saved && saved.attempts > 0) {
      // restore the last answer as it was checked
      for (const i of saved.response) {
        const input = this.optionsBox.querySelectorAll('input')[i];
        if (input) input.checked = true;
      }
      if (saved.solutionShown) this.showSolution({ save: false });
      else this.check({ save: false });
    }
  }

  selected() {
    return [...this.optionsBox.querySelectorAll('input')].flatMap((input, i) => (input.checked ? [i] : []));
  }

  clearMarks() {
    for (const label of this.optionsBox.children) {
      label.classList.remove('correct', 'wrong');
      label.querySelector('.feedback').textContent = '';
      label.querySelector('.mark')?.remove();
    }
    this.result.textContent = '';
    this.result.className = 'result';
  }

  mark(label, good, feedback, isHtml) {
    label.classList.add(good ? 'correct' : 'wrong');
    const fb = label.querySelector('.feedback');
    fb.replaceChildren(h('span', { class: 'mark' }, good ? 'Right: ' : 'Not this one: '));
    fb.append(isHtml ? trustedFragment(feedback) : feedback);
  }

  check({ save = true } = {}) {
    const q = this._question;
    if (!q) return;
    const chosen = this.selected();
    if (!chosen.length) {
      this.result.className = 'result bad';
      this.result.textContent = q.multiple ? 'Choose one or more answers first.' : 'Choose an answer first.';
      return;
    }
    this.clearMarks();
    const labels = [...this.optionsBox.children];
    for (const i of chosen) this.mark(labels[i], q.options[i].correct, q.generated ? q.options[i].feedback : q.options[i].feedback, !q.generated);
    const correctSet = q.options.flatMap((o, i) => (o.correct ? [i] : []));
    const correct = correctSet.length === chosen.length && correctSet.every((i) => chosen.includes(i));
    const missed = q.multiple && !correct && chosen.every((i) => q.options[i].correct);
    this.result.className = `result ${correct ? 'good' : 'bad'}`;
    this.result.textContent = correct
      ? 'Correct.'
      : missed
        ? 'Partly: every answer you chose is right, but one or more right answers are missing.'
        : 'Not quite: read the feedback under your answer, then try again or show the solution.';
    this.setInputsDisabled(true);
    this.retryButton.hidden = false;
    // the Check button is now disabled: keep keyboard focus inside the quiz
    if (save) this.retryButton.focus();
    const before = loadProgress()[this.quizId];
    const attempts = save ? (before?.attempts ?? 0) + 1 : (before?.attempts ?? 1);
    if (save) {
      saveEntry(this.quizId, {
        correct: correct || (before?.correct ?? false),
        solutionShown: before?.solutionShown ?? false,
        attempts,
        response: chosen,
        ...(q.generated ? { seed: this._seed } : {}),
      });
      this.dispatchEvent(
        new CustomEvent('pe-quiz-answered', {
          bubbles: true,
          composed: true,
          detail: {
            quizId: this.quizId,
            response: chosen.map((i) => this.optionsBox.children[i].querySelector('.text').textContent.trim()),
            correct,
            score: correct ? 1 : 0,
            attempts,
          },
        }),
      );
    }
  }

  retry() {
    this.clearMarks();
    for (const input of this.optionsBox.querySelectorAll('input')) input.checked = false;
    this.setInputsDisabled(false);
    this.retryButton.hidden = true;
    this.explanation.hidden = true;
    this.optionsBox.querySelector('input')?.focus();
  }

  showSolution({ save = true } = {}) {
    const q = this._question;
    if (!q) return;
    this.clearMarks();
    const labels = [...this.optionsBox.children];
    q.options.forEach((o, i) => {
      labels[i].querySelector('input').checked = o.correct;
      this.mark(labels[i], o.correct, o.feedback, !q.generated);
    });
    this.explanation.hidden = false;
    this.result.className = 'result';
    this.result.textContent = 'Solution shown: the right answers are marked, with why each option is right or wrong.';
    this.setInputsDisabled(true);
    this.retryButton.hidden = false;
    if (save) {
      this.retryButton.focus();
      const before = loadProgress()[this.quizId];
      saveEntry(this.quizId, {
        correct: before?.correct ?? false,
        solutionShown: true,
        attempts: before?.attempts ?? 0,
        response: q.options.flatMap((o, i) => (o.correct ? [i] : [])),
        ...(q.generated ? { seed: this._seed } : {}),
      });
    }
  }

  newQuestion() {
    saveEntry(this.quizId, null);
    this._question = null;
    this.schedule();
    this.updateNow().then(() => this.optionsBox.querySelector('input')?.focus());
  }

  setInputsDisabled(disabled) {
    for (const input of this.optionsBox.querySelectorAll('input')) input.disabled = disabled;
    this.checkButton.disabled = disabled;
  }
}

define(PeQuiz);
