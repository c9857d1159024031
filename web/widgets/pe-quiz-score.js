// <pe-quiz-score>: the page-wide score of the lesson's quizzes (answered
// correctly / total, and how many were revealed: solution shown before any
// right answer, so no credit), kept in localStorage with the quizzes'
// progress, and a button that resets every quiz.
import { PeElement, define, css, h } from '../lib/pe-element.js';
import { quizzes } from '../gen/lesson-data.js';
import { loadProgress, onProgress, resetProgress, forgetUnknownQuizzes } from '../lib/progress.js';

class PeQuizScore extends PeElement {
  static tag = 'pe-quiz-score';
  static description = "The page's quiz score, with a button that resets every quiz.";
  static params = {};
  static alwaysUpdate = true;
  static needsCore = false;
  static styles = css`
    :host { display: flex; flex-wrap: wrap; align-items: center; gap: 8px 14px; padding: 10px 14px; }
    .meter { flex: 1 1 140px; height: 10px; min-width: 100px; }
    .text { font-weight: 600; }
    .status { display: none; }
  `;

  build(root) {
    // progress of quizzes the lesson has dropped would otherwise stay stored forever
    forgetUnknownQuizzes(Object.keys(quizzes));
    this.text = h('span', { class: 'text', role: 'status', 'aria-live': 'polite' });
    this.meter = h('progress', { class: 'meter', max: '1', value: '0', 'aria-label': 'Quizzes answered correctly' });
    this.reset = h('button', { type: 'button', onclick: () => this.confirmReset() }, 'Reset my answers');
    root.append(this.text, this.meter, this.reset);
    this._off = onProgress(() => this.schedule());
    this._onStorage = (e) => e.key?.startsWith('posenc-course:') && this.schedule();
    globalThis.addEventListener('storage', this._onStorage);
  }

  confirmReset() {
    if (this.reset.dataset.armed === 'yes') {
      delete this.reset.dataset.armed;
      this.reset.textContent = 'Reset my answers';
      resetProgress();
    } else {
      // a second press confirms, so a stray click or key press loses nothing
      this.reset.dataset.armed = 'yes';
      this.reset.textContent = 'Press again to reset every quiz';
    }
  }

  update() {
    const ids = Object.keys(quizzes);
    const progress = loadProgress();
    const answered = ids.filter((id) => progress[id]?.attempts > 0 || progress[id]?.solutionShown).length;
    const correct = ids.filter((id) => progress[id]?.correct).length;
    // a right answer earned before the solution was shown still counts as correct
    const revealed = ids.filter((id) => progress[id]?.solutionShown && !progress[id].correct).length;
    this.text.textContent = `Quizzes: ${correct} of ${ids.length} answered correctly${revealed ? `, ${revealed} revealed` : ''} (${answered} attempted)`;
    this.meter.max = Math.max(1, ids.length);
    this.meter.value = correct;
  }
}

define(PeQuizScore);
