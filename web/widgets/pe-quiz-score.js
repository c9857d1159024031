// <pe-quiz-score>: the page-wide score of the lesson's questions, quizzes
// and exercises: the points earned (each question's credit, which falls with
// every miss; the rule is stated above the score) out of the number of
// questions, how many were answered and how many revealed (solution shown,
// no credit), kept in localStorage with the questions' progress, and a
// button that resets every question.
import { PeElement, define, css, h } from '../lib/pe-element.js';
import { questionIds } from '../gen/lesson-data.js';
import { loadProgress, onProgress, resetProgress, forgetUnknownQuizzes, tally, formatPoints, CREDIT_RULE } from '../lib/progress.js';

class PeQuizScore extends PeElement {
  static tag = 'pe-quiz-score';
  static description = "The page's score over its quizzes and exercises (credit falls with each miss), with the rule and a button that resets every question.";
  static params = {};
  static alwaysUpdate = true;
  static needsCore = false;
  static styles = css`
    :host { display: flex; flex-wrap: wrap; align-items: center; gap: 8px 14px; padding: 10px 14px; }
    .rule { flex-basis: 100%; margin: 0; font-size: .9em; color: var(--pe-muted); }
    .meter { flex: 1 1 140px; height: 10px; min-width: 100px; }
    .text { font-weight: 600; }
    .status { display: none; }
  `;

  build(root) {
    // progress of quizzes the lesson has dropped would otherwise stay stored forever
    forgetUnknownQuizzes(questionIds);
    this.rule = h('p', { class: 'rule' }, CREDIT_RULE);
    this.text = h('span', { class: 'text', role: 'status', 'aria-live': 'polite' });
    this.meter = h('progress', { class: 'meter', max: '1', value: '0', 'aria-label': 'Points earned' });
    this.reset = h('button', { type: 'button', onclick: () => this.confirmReset() }, 'Reset my answers');
    root.append(this.rule, this.text, this.meter, this.reset);
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
      this.reset.textContent = 'Press again to reset every question';
    }
  }

  update() {
    const t = tally(questionIds, loadProgress());
    this.text.textContent = `Score: ${formatPoints(t.points)} of ${t.total} points (${t.answered} of ${t.total} questions answered${t.revealed ? `, ${t.revealed} revealed` : ''})`;
    this.meter.max = Math.max(1, t.total);
    this.meter.value = t.points;
  }
}

define(PeQuizScore);
