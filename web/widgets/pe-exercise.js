// <pe-exercise exercise="sinusoidal-wavelength">: one exercise of the lesson,
// by id, or one its author wrote inside the element (markup or JSON: an
// exercise written as data, web/lib/questions/own-exercise.js), in which the learner
// types the answer: a number, a whole number or a
// formula, with numbers drawn for this learner and the right answer computed
// by the compute core (web/exercises/<generator>.js), never typed into the
// lesson. Like STACK and WeBWorK:
//
// - fresh numbers per learner: the first draw comes from the learner's seed
//   (stable across reloads, different for another learner); "New numbers"
//   draws again (practice: credit already earned stays);
// - a formula is parsed without eval (web/lib/questions/expression.js), shown typeset
//   as it was read while it is typed, and judged by evaluating it and the
//   reference at random points (web/lib/questions/answers.js), so every equivalent
//   form counts; a typo gets a message saying which, and runs nothing;
// - a wrong answer that matches a known slip (degrees for radians, one
//   position off, i for 2i, a missing 2π) is named, and a hint is offered;
//   "Show solution" gives the worked solution and the answer as a learner
//   would type it (part="solution-value"); an answer after it earns nothing;
// - scored like a quiz (web/lib/reporting/progress.js: 1 at the first check, a third
//   less per miss), kept in the learner's progress and counted by
//   <pe-quiz-score>, SCORM and xAPI (event `pe-quiz-answered`, kind
//   'numeric' or 'fill-in');
// - where the exercise asks for a prediction, the live PyTorch sample that
//   prints the number appears once the learner has answered (or shown the
//   solution), with the learner's numbers.
//
// Events: `pe-quiz-answered` (bubbles, composed) after each check, with
// detail { quizId, kind ('numeric' | 'fill-in'), response (the number, or the
// typed texts joined with "[,]"), texts (as typed, per part), correct, score
// (the credit this check earned), credit (the question's so far), attempts,
// revealed, latencyMs, question (plain text), correctPattern, correctValue }.
// HTML comes only from quizTextToHtml/blocksToHtml (trustedFragment); what the
// learner types only ever becomes text nodes or parsed, escaped TeX.
import { define, css, h, setText, trustedFragment, plainText, inputError } from '../lib/base/pe-element.js';
import { QuestionElement, questionStyles, texText } from '../lib/questions/question.js';
import { idParam } from '../lib/base/params.js';
import { lessonNow } from '../lib/lesson/lesson-registry.js';
import { loadProgress, learnerSeed, afterSolution, afterNewDraw } from '../lib/reporting/progress.js';
import { seededRandom, newSeed, deriveSeed } from '../lib/questions/random.js';
import { quizTextToHtml, blocksToHtml, texToMathML } from '../lib/questions/quiz-text.js';
import { authorInline, authorBlocks } from '../lib/questions/author-text.js';
// the answer reader (and the expression parser under it) load with the first exercise on screen
let answersModule = null;
const loadAnswers = () => (answersModule ??= import('../lib/questions/answers.js'));
// and what reads an exercise written as data (an author's own, or a lesson's written so)
let ownModule = null;
const loadOwn = () => (ownModule ??= import('../lib/questions/own-exercise.js'));

class PeExercise extends QuestionElement {
  static tag = 'pe-exercise';
  static idAttribute = 'exercise';
  static description =
    "One exercise, the lesson's by id or one written inside the element (markup or JSON): the learner types a number or a formula, with numbers drawn per learner and the answer computed by the core.";
  static events = {
    'pe-quiz-answered':
      "A learner checked an answer; detail: { quizId, kind ('numeric' | 'fill-in'), response, texts, correct, score, credit, attempts, revealed, latencyMs, ... } (bubbles, composed).",
  };
  static params = { exercise: idParam('must be an exercise id (lowercase letters, digits and dashes)') };
  static cssParts = {
    'solution-value': 'The answer as a learner would type it, shown under the worked solution (one per part).',
  };
  static styles =
    questionStyles +
    css`
    .title { font-weight: 600; margin: 0 0 6px; }
    .prompt p, .solution p, .hint p { margin: .45em 0; }
    .prompt ul, .solution ul, .solution ol { margin: .4em 0; padding-left: 1.4em; }
    .code { counter-reset: line; padding-left: 0; }
    .code .line { display: block; padding-left: 3.2em; text-indent: -2.6em; white-space: pre; }
    .code .line::before { counter-increment: line; content: counter(line); display: inline-block; width: 2em; margin-right: .6em; text-align: right; color: var(--pe-muted); }
    .parts { display: grid; gap: 12px; margin: 10px 0; }
    .part { display: grid; gap: 4px; }
    .entry { display: flex; flex-wrap: wrap; align-items: center; gap: 6px 8px; }
    .entry label { font-weight: 600; }
    .entry input {
      font: inherit; font-family: var(--pe-mono); color: inherit; background: var(--pe-panel);
      border: 1px solid var(--pe-border); border-radius: 6px; padding: 4px 8px; min-height: 32px;
      inline-size: min(22em, 100%);
    }
    .entry input[aria-invalid=true] { border-color: var(--pe-bad); }
    .part.right .entry input { border-color: var(--pe-good); border-width: 2px; }
    .part.wrong .entry input { border-color: var(--pe-bad); border-width: 2px; }
    .unit { color: var(--pe-muted); }
    .rule { font-size: .85em; color: var(--pe-muted); margin: 0; }
    .read { font-size: .92em; min-height: 1.5em; margin: 0; }
    .read .says { color: var(--pe-muted); }
    .read.problem { color: var(--pe-bad); }
    .feedback { font-size: .92em; margin: 0; }
    .feedback:empty { display: none; }
    .part.right .feedback { color: var(--pe-good); }
    .part.wrong .feedback { color: var(--pe-bad); }
    button { min-height: 32px; }
    .box h4 { margin: 0 0 4px; font-size: .95em; }
    [part~="solution-value"] { font-family: var(--pe-mono); background: var(--pe-bg); border: 1px solid var(--pe-border); border-radius: 4px; padding: 0 4px; }
    .reveal:empty { display: none; }
    .reveal pe-live-output { margin: 8px 0 0; }
  `;

  build(root) {
    this.kicker = h('p', { class: 'kicker' }, 'Exercise: your own numbers, checked by the compute core');
    this.titleBox = h('p', { class: 'title' });
    this.prompt = h('div', { class: 'prompt' });
    this.code = h('pre', { class: 'code scroll-cue', tabindex: '0', 'data-keep-tabindex': '', hidden: true });
    this.partsBox = h('div', { class: 'parts' });
    this.checkButton = h('button', { type: 'button', onclick: () => this.check() }, 'Check');
    this.hintButton = h(
      'button',
      { type: 'button', 'aria-expanded': 'false', onclick: () => this.toggleHint() },
      'Hint',
    );
    this.solutionButton = h('button', { type: 'button', onclick: () => this.showSolution() }, 'Show solution');
    this.newButton = h('button', { type: 'button', onclick: () => this.newNumbers() }, 'New numbers');
    // no <form>: a frame sandboxed without allow-forms blocks its submission; Enter in a box checks
    this.form = h(
      'div',
      { class: 'answer-form' },
      this.partsBox,
      h('div', { class: 'buttons' }, this.checkButton, this.hintButton, this.solutionButton, this.newButton),
    );
    this.checkOnEnter(this.partsBox, () => this.check());
    this.result = h('p', { class: 'result', role: 'status', 'aria-live': 'polite' });
    this.hint = h('div', { class: 'box hint', id: 'hint', hidden: true });
    this.hintButton.setAttribute('aria-controls', 'hint');
    this.solution = h('div', { class: 'box solution', hidden: true });
    this.reveal = h('div', { class: 'reveal' });
    root.append(
      this.kicker,
      this.titleBox,
      this.prompt,
      this.code,
      this.form,
      this.result,
      this.hint,
      this.solution,
      this.reveal,
    );
  }

  forgetQuestion() {
    this._draw = null;
  }

  // what a draw asks: its prompt, and each part's label and answer
  drawKey(draw = this._draw) {
    return draw && JSON.stringify([draw.prompt, draw.parts.map((p) => [p.label, p.solutionValue])]);
  }

  update(pe, p) {
    if (this._draw && this._drawFor === p.exercise) return; // already shown; its state lives in the DOM
    // the author's own exercise, written inside the element, or the lesson's by id
    // (a generator of web/exercises/, or a definition written as an author writes one)
    const own = this.holdsOwn;
    const data = own ? { own } : this.lessonEntry('exercises', 'exercise');
    if (!data) return false; // the lesson is loading
    const declarative = own || data.definition !== undefined;
    const key = declarative ? `own:${p.exercise}` : data.generator;
    if (!this._generator || this._generatorFor !== key) {
      if (!declarative || !this.answers || !this._own) {
        if (data.title) this.titleBox.replaceChildren(trustedFragment(data.title));
        setText(this.prompt, 'Drawing your numbers…');
        Promise.all([loadAnswers(), declarative ? loadOwn() : lessonNow().exerciseGenerators[data.generator]()]).then(
          ([answers, m]) => {
            this.answers = answers;
            if (declarative) this._own = m;
            else [this._generator, this._generatorFor, this._title] = [m.default ?? m, key, data.title];
            this.schedule();
          },
          (error) => {
            this.waitFailed(`This exercise could not be loaded: ${error.message}`);
          },
        );
        return false;
      }
      if (declarative) {
        // checked and drawn once here: a mistake in it is named in the box
        const compiled = this.ownQuestion(
          (definition) => this._own.compileExercise(definition, { pe, samples: lessonNow()?.samples ?? null }),
          own ? undefined : data.definition,
        );
        [this._generator, this._generatorFor, this._title] = [compiled.generator, key, compiled.title];
      }
    }
    const saved = loadProgress()[p.exercise];
    // the learner's own numbers: from their seed until they ask for new ones
    const { draw, seed } = this.drawUnlike(
      saved?.seed ?? deriveSeed(learnerSeed(newSeed), `exercise:${p.exercise}`),
      (s) => this.answers.drawExercise(this._generator, pe, seededRandom(s)),
    );
    this._seed = seed;
    this._pe = pe;
    this._draw = draw;
    this._drawFor = p.exercise;
    this._shownAt = performance.now();
    this.render(saved);
  }

  // the random points at which formulas are compared: the same for the same numbers
  judgeRandom() {
    return seededRandom(deriveSeed(this._seed, 'judge'));
  }

  // an exercise written as data (an author's) has Markdown texts (author-text.js); a generator's, quiz text
  inlineHtml(text) {
    return this._draw?.markdown ? authorInline(text) : quizTextToHtml(text);
  }

  blocksHtml(text) {
    return this._draw?.markdown ? authorBlocks(text) : blocksToHtml(text);
  }

  render(saved) {
    const x = this._draw;
    this.titleBox.replaceChildren(trustedFragment(this._title));
    this.prompt.replaceChildren(trustedFragment(this.blocksHtml(x.prompt)));
    if (x.code) {
      this.code.hidden = false;
      this.code.setAttribute('aria-label', 'Code, with line numbers');
      this.code.replaceChildren(
        h(
          'code',
          {},
          x.code.split('\n').map((line) => h('span', { class: 'line' }, line || ' ')),
        ),
      );
    } else {
      this.code.hidden = true;
      this.code.replaceChildren();
    }
    this.parts = x.parts.map((part, i) => this.buildPart(part, i, x.parts.length));
    this.partsBox.replaceChildren(...this.parts.map((p) => p.box));
    this.hint.hidden = true;
    this.hintButton.setAttribute('aria-expanded', 'false');
    // an author's exercise may come without a hint
    this.hintButton.hidden = !x.hint;
    this.hint.replaceChildren(h('h4', {}, 'Hint'), trustedFragment(x.hint ? this.blocksHtml(x.hint) : ''));
    this.solution.hidden = true;
    this.solution.replaceChildren();
    this.reveal.replaceChildren();
    setText(this.result, '');
    this.result.className = 'result';
    this._solutionShown = !!saved?.solutionShown;
    this._revealed = false;
    if (saved && Array.isArray(saved.response) && saved.response.every((t) => typeof t === 'string')) {
      saved.response.forEach((text, i) => {
        if (this.parts[i]) {
          this.parts[i].input.value = text;
          this.showReading(i);
        }
      });
    }
    if (saved && (saved.attempts > 0 || saved.solutionShown)) {
      if (saved.view === 'solution' || saved.solutionShown) this.showSolution({ save: false });
      if (saved.view !== 'solution' && saved.response?.length) this.check({ save: false });
    }
    this.shown();
  }

  buildPart(part, i, count) {
    const id = `answer-${i}`;
    const input = h('input', {
      id,
      type: 'text',
      autocomplete: 'off',
      autocapitalize: 'off',
      spellcheck: 'false',
      // a number may be negative or arithmetic (2*pi): a text keyboard, not a number pad
      inputmode: 'text',
      maxlength: String(this.answers.MAX_INPUT + 1),
      'aria-describedby': `rule-${i} read-${i} feedback-${i}`,
    });
    const label = h(
      'label',
      { for: id },
      trustedFragment(this.inlineHtml(part.label ?? (count > 1 ? `Part ${i + 1}` : 'Your answer'))),
    );
    const unit = part.answer.unit ? h('span', { class: 'unit' }, part.answer.unit) : null;
    const rule = h(
      'p',
      { class: 'rule', id: `rule-${i}` },
      `Type ${this.answers.answerRule(part.answer)}.${part.answer.digits !== undefined ? ` The answer has ${part.answer.digits} decimal place${part.answer.digits === 1 ? '' : 's'}.` : ''}`,
    );
    const read = h('p', { class: 'read', id: `read-${i}`, 'aria-live': 'polite' });
    const feedback = h('p', { class: 'feedback', id: `feedback-${i}` });
    const box = h('div', { class: 'part' }, h('div', { class: 'entry' }, label, input, unit), rule, read, feedback);
    // the reading follows the typing, at most once a frame
    input.addEventListener('input', () => {
      box.classList.remove('right', 'wrong');
      setText(feedback, '');
      if (this._readFrame) return;
      this._readFrame = requestAnimationFrame(() => {
        this._readFrame = 0;
        this.parts?.forEach((_, j) => this.showReading(j));
      });
    });
    return { part, input, read, feedback, box };
  }

  // "Read as: <formula>" under the box, or what is wrong with the text
  showReading(i) {
    const p = this.parts[i];
    const r = this.answers.readAnswer(p.part.answer, p.input.value);
    p.read.classList.toggle('problem', !r.ok && !r.empty);
    if (r.ok) {
      p.input.removeAttribute('aria-invalid');
      p.read.replaceChildren(h('span', { class: 'says' }, 'Read as: '), trustedFragment(texToMathML(r.tex)));
    } else {
      if (r.empty) p.input.removeAttribute('aria-invalid');
      else p.input.setAttribute('aria-invalid', 'true');
      setText(p.read, r.empty ? '' : r.message);
    }
    return r;
  }

  check({ save = true } = {}) {
    const x = this._draw;
    if (!x) return;
    const texts = this.parts.map((p) => p.input.value);
    // text that cannot be read is not an attempt: say what is wrong, count nothing
    const readings = this.parts.map((_, i) => this.showReading(i));
    const unreadable = readings.findIndex((r) => !r.ok);
    const random = this.judgeRandom();
    if (unreadable >= 0) {
      this.result.className = 'result bad';
      setText(
        this.result,
        readings[unreadable].empty
          ? this.parts.length > 1
            ? `Part ${unreadable + 1} has no answer yet.`
            : 'Type an answer first.'
          : `${this.parts.length > 1 ? `Part ${unreadable + 1}: ` : ''}${readings[unreadable].message}`,
      );
      // the parts that can be read still get their verdict; nothing is counted
      // until every part can be read (issue 46: they got none)
      readings.forEach(
        (r, i) => r.ok && this._verdict(i, this.answers.judgePart(this.parts[i].part, texts[i], random)),
      );
      if (save) this.parts[unreadable].input.focus();
      return;
    }
    const judged = this.parts.map((p, i) => this.answers.judgePart(p.part, texts[i], random));
    const right = judged.every((j) => j.right);
    judged.forEach((j, i) => this._verdict(i, j));
    const scored = this.scoreCheck({
      right,
      response: texts.map((t) => t.slice(0, 300)),
      save,
      wrong: `Not right yet${this.parts.length > 1 ? `: ${judged.filter((j) => !j.right).length} of ${this.parts.length} parts` : ''}. Read the note under the box, use the hint, or show the solution.`,
    });
    if (right || scored.revealed) this.showReveal();
    if (!save) return;
    this.save(scored.entry);
    const interaction = this.answers.interactionOf(x.parts, texts, judged);
    this.announce(scored, {
      kind: interaction.kind,
      response: interaction.response,
      texts: texts.map((t) => t.slice(0, 300)),
      correct: right,
      question: plainText(this.prompt),
      // the same for every learner (xAPI's activity name); the numbers this learner drew go apart
      title: texText(this.titleBox),
      numbers: x.numbers ?? null,
      seed: this._seed,
      correctPattern: interaction.correctPattern,
      correctValue: interaction.correctValue,
    });
    this._shownAt = performance.now();
  }

  // one part's verdict: its box marked right or wrong, its message under it
  _verdict(i, j) {
    const p = this.parts[i];
    p.box.classList.toggle('right', j.right);
    p.box.classList.toggle('wrong', !j.right);
    // a slip's message is the exercise's own text (with $TeX$); the parser's is plain text
    if (j.slip) p.feedback.replaceChildren(trustedFragment(this.inlineHtml(j.message)));
    else setText(p.feedback, j.right ? (this.parts.length > 1 ? 'Right.' : '') : j.message || 'Not this.');
  }

  toggleHint() {
    this.hint.hidden = !this.hint.hidden;
    this.hintButton.setAttribute('aria-expanded', String(!this.hint.hidden));
  }

  showSolution({ save = true } = {}) {
    const x = this._draw;
    if (!x) return;
    const values = x.parts.map((part, i) =>
      // the part's label without its own closing "=" or ":", then the answer as a learner would type it
      h(
        'p',
        {},
        trustedFragment(
          this.inlineHtml(
            `${x.parts.length > 1 ? `${(part.label ?? `Part ${i + 1}`).replace(/\s*[=:]\s*$/, '')}: ` : 'Answer: '}`,
          ),
        ),
        h('code', { part: 'solution-value', 'data-part': String(i) }, part.solutionValue),
      ),
    );
    this.solution.replaceChildren(
      h('h4', {}, 'Worked solution'),
      trustedFragment(this.blocksHtml(x.solution)),
      ...values,
    );
    this.solution.hidden = false;
    this._solutionShown = true;
    this.showReveal();
    if (!save) return;
    this.result.className = 'result';
    setText(
      this.result,
      'Solution shown. An answer checked for these numbers now earns no credit; New numbers gives you fresh ones to practise on.',
    );
    this.save(
      afterSolution(this.storedEntry(), {
        response: this.parts.map((p) => p.input.value.slice(0, 300)),
        seed: this._seed,
      }),
    );
  }

  // the live sample that prints what the learner predicted, with their numbers
  showReveal() {
    const r = this._draw?.reveal;
    if (!r || this._revealed) return;
    this._revealed = true;
    const attrs = { sample: r.sample };
    for (const [k, v] of Object.entries(r.params ?? {})) attrs[k] = Array.isArray(v) ? v.join(',') : String(v);
    this.reveal.replaceChildren(
      h('p', { class: 'kicker' }, r.caption ?? 'The same numbers in PyTorch, printed live'),
      h('pe-live-output', attrs),
    );
    if (!customElements.get('pe-live-output')) import('./pe-live-output.js');
  }

  newNumbers() {
    // new numbers are practice: credit and misses stay with the question
    this.save(afterNewDraw(this.storedEntry(), { seed: newSeed() }));
    this.replaceDraw();
    this.schedule();
    this.updateNow().then(() => this.parts?.[0]?.input.focus());
  }
}

define(PeExercise);
