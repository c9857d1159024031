// <pe-code-exercise exercise="sinusoidal-code-row">: one code exercise of the
// lesson, by id, or its author's own written inside it: the learner writes a
// Python function, runs it in the page, and Check runs it on cases drawn for
// them and compares each result with what the compute core gives (the
// float32 numbers PyTorch prints).
//
// - the exercise is plain data (lessons/<lesson>/code-exercises/<name>.yaml,
//   in web/gen/lesson-data.js's codeExercises): a signature, a docstring,
//   starter code, the name of its case generator (web/code-cases/), a
//   tolerance and why, known slips, a hint and a worked solution; an
//   author's is JSON with the same fields and its cases written as draws
//   and expressions of the core's functions (own-code-exercise.js);
// - Python is Pyodide in a worker (web/lib/python/python-runner.js,
//   web/workers/python-worker.js), loaded only when Run or Check is first
//   pressed, with a progress line; a run past RUN_LIMIT_MS is stopped by
//   ending the worker, and the next run starts a fresh one;
// - the editor is CodeMirror 6 (web/gen/code-editor.js, built from
//   web/lib/python/code-editor.js), loaded when the exercise first comes on
//   screen; until then, or if it cannot load, a plain text box;
// - Check shows the first failing case (its arguments, the expected and the
//   returned value, where they first differ), print() output, the
//   traceback trimmed to the learner's code, or the slip a known mistake
//   gives; Run runs the code and the function on the first case only;
// - credit as every question (web/lib/reporting/progress.js): a failed Check is a
//   miss, Run is not an attempt, an answer after Show solution earns
//   nothing; `pe-quiz-answered` with kind 'long-fill-in' and the code as
//   the response (SCORM, xAPI, cmi5, <pe-quiz-score>).
//
// What the learner types is only ever text: the editor's, a text node, or
// the worker's input. The page judges; the worker only runs.
import { define, css, h, setText, trustedFragment, plainText, inputError } from '../lib/base/pe-element.js';
import { QuestionElement, questionStyles } from '../lib/questions/question.js';
import { idParam } from '../lib/base/params.js';
import { lessonNow, hasLesson, loadLesson } from '../lib/lesson/lesson-registry.js';
import { loadProgress, learnerSeed, afterSolution, afterNewDraw } from '../lib/reporting/progress.js';
import { seededRandom, newSeed, deriveSeed } from '../lib/questions/random.js';
import { judgeCases, parameterNames, pyValue, pathText, composeCode } from '../lib/python/code-check.js';
import { runPython, pythonUnavailable, RUN_LIMIT_MS, MAX_OUTPUT } from '../lib/python/python-runner.js';

// One-file builds (the export, dist/posenc-widgets.js) define POSENC_ONE_FILE
// (scripts/export/export.mjs's ESBUILD_OPTIONS) and carry no Python runtime and no
// editor file: there the widget says that running code needs the online
// lesson, and these URLs, which would point nowhere, are left out.
/* global POSENC_ONE_FILE */
const ONE_FILE = typeof POSENC_ONE_FILE !== 'undefined';
// the literal new Worker(new URL(...)) stays here, where bundlers see it
// (typeof written out in each: esbuild folds it there, and drops the URL)
const spawn =
  typeof POSENC_ONE_FILE !== 'undefined'
    ? null
    : () => new Worker(new URL('../workers/python-worker.js', import.meta.url), { type: 'module' });

// the editor module, loaded with the first code exercise on screen (not for
// site bundlers to follow: it is a prebuilt file beside gen/lesson-data.js)
let editorModule = null;
const EDITOR_URL =
  typeof POSENC_ONE_FILE !== 'undefined' ? null : new URL('../gen/code-editor.js', import.meta.url).href;
const loadEditor = () => (editorModule ??= import(/* webpackIgnore: true */ /* @vite-ignore */ EDITOR_URL));

// what reads an author's own code exercise, loaded with the first one
let ownModule = null;
const loadOwn = () => import('../lib/questions/own-code-exercise.js').then((m) => (ownModule = m));

// progress keeps typed answers as strings of at most MAX_TYPED (300)
// characters, 16 of them: the code is kept in such pieces, 4,800 characters
const PIECE = 300;
const PIECES = 16;
const toPieces = (code) => {
  const out = [];
  for (let i = 0; i < Math.min(code.length, PIECE * PIECES); i += PIECE) out.push(code.slice(i, i + PIECE));
  return out.length ? out : [''];
};
const fromPieces = (response) =>
  Array.isArray(response) && response.every((t) => typeof t === 'string') ? response.join('') : null;

class PeCodeExercise extends QuestionElement {
  static tag = 'pe-code-exercise';
  static idAttribute = 'exercise';
  static description =
    "One code exercise of the lesson, by id, or its author's own written as JSON inside it: the learner writes a Python function, run in the page (Pyodide in a worker) and checked against the compute core on cases drawn per learner.";
  static events = {
    'pe-quiz-answered':
      "A learner checked their code; detail: { quizId, kind ('long-fill-in'), response (the code), texts, correct, score, credit, attempts, revealed, latencyMs, failingCase, ... } (bubbles, composed).",
  };
  static params = { exercise: idParam('must be a code exercise id (lowercase letters, digits and dashes)') };
  static cssParts = {
    'solution-value': 'The worked solution as code, shown on request.',
  };
  static styles =
    questionStyles +
    css`
    .title { font-weight: 600; margin: 0 0 6px; }
    .prompt p, .tensors p, .solution p, .hint p, .rule p { margin: .45em 0; }
    .tensors, .rule { font-size: .92em; color: var(--pe-muted); }
    .rule summary { cursor: pointer; }
    .editor { margin: 10px 0 8px; }
    .editor textarea {
      box-sizing: border-box; inline-size: 100%; min-block-size: 12em; font: inherit; font-family: var(--pe-mono);
      font-size: 16px; color: inherit; background: var(--pe-panel); border: 1px solid var(--pe-border);
      border-radius: 6px; padding: 6px 8px; tab-size: 4;
    }
    .running { color: var(--pe-muted); font-size: .92em; margin: 6px 0 0; min-height: 1.4em; }
    .offline { border-left: 3px solid var(--pe-bad); padding: 4px 8px; margin: 8px 0; }
    .offline[hidden] { display: none; }
    button { min-height: 32px; }
    button[aria-disabled=true] { opacity: .6; }
    .report:empty { display: none; }
    .report { margin-top: 8px; }
    .report h4, .box h4 { margin: 8px 0 4px; font-size: .95em; }
    .report pre, .solution pre {
      margin: 0; padding: 6px 8px; background: var(--pe-panel); border: 1px solid var(--pe-border);
      border-radius: 4px; overflow-x: auto; font-family: var(--pe-mono); font-size: .9em; white-space: pre;
    }
    .report .traceback { color: var(--pe-bad); }
    .report dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 10px; margin: 0; }
    .report dt { font-weight: 600; }
    .report dd { margin: 0; font-family: var(--pe-mono); overflow-wrap: anywhere; }
    .slip { margin: 6px 0 0; color: var(--pe-bad); }
  `;

  build(root) {
    this.kicker = h('p', { class: 'kicker' }, 'Code exercise: your function, checked against the compute core');
    this.titleBox = h('p', { class: 'title' });
    this.prompt = h('div', { class: 'prompt' });
    this.tensors = h('div', { class: 'tensors' });
    this.rule = h(
      'details',
      { class: 'rule' },
      h('summary', {}, 'How it is checked'),
      h('div', { class: 'rule-body' }),
    );
    this.offline = h('p', { class: 'offline', role: 'note', hidden: true });
    this.editorBox = h('div', { class: 'editor' });
    // CodeMirror watches its box (a ResizeObserver) until its view is
    // destroyed: the editor lives while the widget is on the page, and the
    // code in it comes back, in a new one, when the widget does
    this.own(() => {
      if (this._codeAway !== undefined) this.showEditor(this._codeAway);
      this._codeAway = undefined;
      return () => {
        if (!this._editor) return;
        this._codeAway = this._editor.getCode();
        this._editor.view.destroy();
        this._editor = null;
      };
    });
    // `pending`: the run a button started (tests and host pages may await it)
    this.runButton = h('button', { type: 'button', onclick: () => (this.pending = this.run()) }, 'Run');
    this.checkButton = h('button', { type: 'button', onclick: () => (this.pending = this.check()) }, 'Check');
    this.hintButton = h(
      'button',
      { type: 'button', 'aria-expanded': 'false', 'aria-controls': 'hint', onclick: () => this.toggleHint() },
      'Hint',
    );
    this.solutionButton = h('button', { type: 'button', onclick: () => this.showSolution() }, 'Show solution');
    this.newButton = h('button', { type: 'button', onclick: () => this.newCases() }, 'New cases');
    this.resetButton = h('button', { type: 'button', onclick: () => this.startOver() }, 'Start over');
    this.running = h('p', { class: 'running', role: 'status', 'aria-live': 'polite' });
    this.report = h('div', { class: 'report' });
    this.result = h('p', { class: 'result', role: 'status', 'aria-live': 'polite' });
    this.hint = h('div', { class: 'box hint', id: 'hint', hidden: true });
    this.solution = h('div', { class: 'box solution', hidden: true });
    root.append(
      this.kicker,
      this.titleBox,
      this.prompt,
      this.tensors,
      this.rule,
      this.offline,
      this.editorBox,
      h(
        'div',
        { class: 'buttons' },
        this.runButton,
        this.checkButton,
        this.hintButton,
        this.solutionButton,
        this.newButton,
        this.resetButton,
      ),
      this.running,
      this.result,
      this.report,
      this.hint,
      this.solution,
    );
  }

  forgetQuestion() {
    this._cases = null;
  }

  update(pe, p) {
    if (this._cases && this._casesFor === p.exercise) return; // shown; its state lives in the DOM
    const exercise = this.holdsOwn ? this.ownExercise(pe) : this.lessonExercise(p.exercise);
    if (!exercise) return false; // loading: scheduled again when it is here
    const [data, generator] = exercise;
    const saved = loadProgress()[p.exercise];
    // the learner's own cases: from their seed until they ask for new ones
    this._seed = saved?.seed ?? deriveSeed(learnerSeed(newSeed), `exercise:${p.exercise}`);
    this._cases = generator.cases(pe, seededRandom(this._seed));
    this._casesFor = p.exercise;
    this._data = data;
    this._shownAt = performance.now();
    this.render(data, saved);
  }

  // the registered lesson's code exercise (lesson-registry.js) and its case
  // generator (web/code-cases/, loaded on first use), or undefined while loading
  lessonExercise(id) {
    const lesson = lessonNow();
    if (!lesson) {
      if (!hasLesson())
        throw inputError(
          `pe-code-exercise: there is no code exercise with id "${id}": this page registers no lesson, and the element holds no exercise of its own (docs/embedding.md, "Code exercises of your own")`,
        );
      loadLesson().then(
        () => this.schedule(),
        (error) => this.waitFailed(`The lesson's exercises could not be loaded: ${error.message}`),
      );
      return undefined;
    }
    const data = Object.hasOwn(lesson.codeExercises, id) ? lesson.codeExercises[id] : null;
    if (!data) throw inputError(`pe-code-exercise: there is no code exercise with id "${id}"`);
    if (this._generator && this._generatorFor === data.cases) return [data, this._generator];
    this.titleBox.replaceChildren(trustedFragment(data.title));
    setText(this.prompt, 'Drawing your cases…');
    lesson.codeCaseGenerators[data.cases]().then(
      (m) => {
        [this._generator, this._generatorFor] = [m.default ?? m, data.cases];
        this.schedule();
      },
      (error) => this.waitFailed(`This exercise could not be loaded: ${error.message}`),
    );
    return undefined;
  }

  // the author's own, written as JSON inside the element (own-code-exercise.js):
  // compiled once, a mistake in it named in the box
  ownExercise(pe) {
    const key = `own:${this.questionId}`;
    if (this._generatorFor === key) return [this._ownData, this._generator];
    if (!ownModule) {
      setText(this.prompt, 'Drawing your cases…');
      loadOwn().then(
        () => this.schedule(),
        (error) => this.waitFailed(`This exercise could not be loaded: ${error.message}`),
      );
      return undefined;
    }
    const compiled = this.ownQuestion((definition) => ownModule.compileCodeExercise(definition, { pe }));
    [this._ownData, this._generator, this._generatorFor] = [compiled.data, compiled.generator, key];
    return [compiled.data, compiled.generator];
  }

  render(data, saved) {
    this.titleBox.replaceChildren(trustedFragment(data.title));
    this.prompt.replaceChildren(trustedFragment(data.html.prompt));
    this.tensors.replaceChildren(trustedFragment(data.html.tensors));
    this.rule
      .querySelector('.rule-body')
      .replaceChildren(
        h(
          'p',
          {},
          `Check calls your function on ${this._cases.length} cases, drawn for you (New cases draws others), and compares each result with the compute core's: ${toleranceText(data.tolerance)}. A run may take ${RUN_LIMIT_MS / 1000} s.`,
        ),
        trustedFragment(data.html.tolerance),
      );
    const why = pythonUnavailable();
    this.offline.hidden = !why;
    setText(this.offline, why ?? '');
    const code = fromPieces(saved?.response) || composeCode(data, data.starter);
    this.showEditor(code);
    this.hint.hidden = true;
    this.hintButton.setAttribute('aria-expanded', 'false');
    this.hint.replaceChildren(h('h4', {}, 'Hint'), trustedFragment(data.html.hint));
    this.solution.hidden = true;
    this.solution.replaceChildren();
    this.report.replaceChildren();
    setText(this.result, '');
    this.result.className = 'result';
    this._solutionShown = !!saved?.solutionShown;
    if (saved && (saved.attempts > 0 || saved.solutionShown)) {
      if (saved.view === 'solution' || saved.solutionShown) this.showSolution({ save: false });
      if (saved.view !== 'solution' && saved.attempts > 0)
        this.scoreCheck({
          right: saved.correct,
          save: false,
          wrong: 'Your last check did not pass. Check again to see the first failing case.',
        });
    }
    this.shown();
  }

  // the text box at once, CodeMirror when it has loaded (the text carried over)
  showEditor(code) {
    const label = `Python code of ${this._data.signature.replace(/^def /, '').replace(/\(.*$/, '')}`;
    this._editor?.view.destroy(); // the one of earlier cases (New cases draws again)
    this._editor = null;
    this.textarea = h('textarea', {
      'aria-label': label,
      spellcheck: 'false',
      autocapitalize: 'off',
      autocomplete: 'off',
      rows: String(Math.min(24, code.split('\n').length + 1)),
    });
    this.textarea.value = code;
    this.editorBox.replaceChildren(this.textarea);
    if (ONE_FILE) return; // no editor file beside a one-file copy: the text box works
    loadEditor().then(
      (m) => {
        if (!this.isConnected || !this.textarea?.isConnected) return;
        const hadFocus = this.shadowRoot.activeElement === this.textarea;
        const text = this.textarea.value;
        const host = h('div');
        this.editorBox.replaceChildren(host);
        this._editor = m.createEditor({
          parent: host,
          root: this.shadowRoot,
          doc: text,
          label,
          onEscape: () => this.runButton.focus(),
        });
        this.textarea = null;
        if (hadFocus) this._editor.focus();
      },
      () => {
        // no editor file (a copy without it): the text box stays, and works
      },
    );
  }

  code() {
    return this._editor ? this._editor.getCode() : (this.textarea?.value ?? '');
  }

  setCode(text) {
    if (this._editor) this._editor.setCode(text);
    else if (this.textarea) this.textarea.value = text;
  }

  get functionName() {
    return /def\s+([A-Za-z_]\w*)/.exec(this._data.signature)[1];
  }

  callText(args) {
    const names = parameterNames(this._data.signature);
    return `${this.functionName}(${args.map((a, i) => `${names[i] ?? `arg${i}`}=${pyValue(a, 17)}`).join(', ')})`;
  }

  busy(on) {
    this._busy = on;
    for (const b of [this.runButton, this.checkButton]) b.setAttribute('aria-disabled', String(on));
  }

  // Python in the worker; null when it cannot start (said in the status line)
  async execute(cases) {
    this.busy(true);
    const started = performance.now();
    try {
      setText(this.running, 'Running…');
      const r = await runPython(
        spawn,
        { code: this.code(), call: { name: this.functionName, cases: cases.map((c) => c.args) } },
        { onStatus: (text) => setText(this.running, text) },
      );
      this._lastMs = performance.now() - started;
      setText(this.running, r.timedOut ? '' : `Ran in ${(r.ms / 1000).toFixed(2)} s.`);
      return r;
    } catch (error) {
      setText(this.running, '');
      this.offline.hidden = false;
      setText(this.offline, error.message);
      return null;
    } finally {
      this.busy(false);
    }
  }

  // the draft kept with the question's progress (not an attempt), so a reload keeps it
  saveDraft() {
    const before = loadProgress()[this.questionId];
    const response = toPieces(this.code());
    this.save({ ...(before ?? afterNewDraw(null, { seed: this._seed })), response });
  }

  async run() {
    if (!this._cases || this._busy) return;
    this.saveDraft();
    const first = this._cases[0];
    const r = await this.execute([first]);
    if (!r) return;
    const parts = this.outputParts(r);
    if (!r.timedOut && !r.error && r.returns.length)
      parts.push(
        h('h4', {}, 'Your function on the first case'),
        h('pre', { class: 'returned' }, `${this.callText(first.args)}\n→ ${r.reprs?.[0] ?? pyValue(r.returns[0])}`),
      );
    else if (r.error?.kind === 'exception' && r.error.case === 0)
      parts.push(
        h('h4', {}, 'Your function on the first case raised an error'),
        h('pre', {}, this.callText(first.args)),
        h('pre', { class: 'traceback' }, r.error.traceback),
      );
    this.report.replaceChildren(...parts);
    // a printout wider than the box scrolls: it gets a tab stop (the base class's marking)
    this._markScrollables();
  }

  // printed output, the time limit, the traceback
  outputParts(r) {
    const parts = [];
    if (r.timedOut) {
      parts.push(
        h(
          'p',
          { class: 'traceback' },
          `Stopped: your code ran longer than ${r.limitMs / 1000} s (a loop that never ends?). Python starts afresh on the next run.`,
        ),
      );
      return parts;
    }
    if (r.stdout) {
      parts.push(h('h4', {}, 'Printed'), h('pre', { class: 'printed' }, r.stdout));
      if (r.stdoutChars > r.stdout.length)
        parts.push(
          h(
            'p',
            {},
            `(${r.stdoutChars.toLocaleString('en-US')} characters printed; the first ${MAX_OUTPUT.toLocaleString('en-US')} are shown.)`,
          ),
        );
    }
    const e = r.error;
    if (e?.kind === 'syntax' || (e?.kind === 'exception' && e.case === undefined))
      parts.push(
        h('h4', {}, e.kind === 'syntax' ? 'Your code does not parse' : 'Your code raised an error'),
        h('pre', { class: 'traceback' }, e.traceback),
      );
    else if (e?.kind === 'missing')
      parts.push(
        h(
          'p',
          { class: 'traceback' },
          `Your code defines no function ${e.name}: keep the line ${this._data.signature}`,
        ),
      );
    else if (e?.kind === 'crash')
      parts.push(h('p', { class: 'traceback' }, `Python stopped (${e.traceback}); it starts afresh on the next run.`));
    return parts;
  }

  async check({ save = true } = {}) {
    if (!this._cases || this._busy) return;
    const code = this.code();
    const r = await this.execute(this._cases);
    if (!r) return;
    const parts = this.outputParts(r);
    let verdict;
    let wrong;
    // code that never reached the cases (a syntax error, an endless loop) is still a check
    if (r.timedOut || (r.error && r.error.case === undefined)) {
      verdict = { right: false, failing: null };
      wrong = r.timedOut ? 'Not right yet: the run was stopped.' : 'Not right yet: your code did not run.';
    } else {
      verdict = judgeCases(this._cases, r.returns, this._data, r.error?.case ?? null);
      wrong = verdict.right ? '' : `Not right yet: case ${verdict.failing.index + 1} of ${this._cases.length} fails.`;
      if (!verdict.right) parts.push(...this.failingParts(verdict.failing, r));
      else parts.push(h('p', {}, `All ${this._cases.length} cases agree with the core.`));
    }
    this.report.replaceChildren(...parts);
    // a printout wider than the box scrolls: it gets a tab stop (the base class's marking)
    this._markScrollables();
    const scored = this.scoreCheck({ right: verdict.right, response: toPieces(code), save, wrong });
    if (!save) return;
    this.save(scored.entry);
    const f = verdict.failing;
    this.announce(scored, {
      kind: 'long-fill-in',
      response: code.slice(0, 4000),
      texts: [code.slice(0, PIECE * PIECES)],
      correct: verdict.right,
      question: plainText(this.prompt),
      correctPattern: null,
      correctValue: null,
      failingCase: f ? f.index : null,
      slip: f?.slip?.id ?? null,
    });
    this._shownAt = performance.now();
  }

  failingParts(f, r) {
    const c = f.case;
    const out = [
      h('h4', {}, `First failing case: ${f.index + 1} of ${this._cases.length}`),
      h('pre', {}, this.callText(c.args)),
    ];
    if (f.raised) {
      out.push(h('p', {}, 'raised:'), h('pre', { class: 'traceback' }, r.error.traceback));
      return out;
    }
    if (f.missing) {
      out.push(h('p', {}, 'was not reached.'));
      return out;
    }
    const d = f.diff;
    const float = !this._data.tolerance.exact;
    const where = d.path.length ? `at ${pathText(d.path)}` : '';
    out.push(
      h(
        'dl',
        {},
        h('dt', {}, 'Expected'),
        h('dd', { class: 'expected' }, pyValue(c.expected, 8, float)),
        h('dt', {}, 'Returned'),
        h('dd', { class: 'returned' }, r.reprs?.[f.index] ?? pyValue(f.got)),
        h('dt', {}, 'First difference'),
        h(
          'dd',
          { class: 'difference' },
          d.reason === 'too far' || d.reason === 'not equal'
            ? `${where}: expected ${pyValue(d.expected, 8, float)}, got ${pyValue(d.got)}`
            : `${where ? `${where}: ` : ''}${d.reason}`,
        ),
      ),
    );
    if (f.slip) {
      const slip = this._data.slips.find((s) => s.id === f.slip.id);
      out.push(h('p', { class: 'slip' }, trustedFragment(slip.html)));
    }
    return out;
  }

  toggleHint() {
    this.hint.hidden = !this.hint.hidden;
    this.hintButton.setAttribute('aria-expanded', String(!this.hint.hidden));
  }

  showSolution({ save = true } = {}) {
    if (!this._data) return;
    this.solution.replaceChildren(
      h('h4', {}, 'Worked solution'),
      h('pre', { part: 'solution-value' }, composeCode(this._data, this._data.solution)),
      trustedFragment(this._data.html.notes),
    );
    this.solution.hidden = false;
    this._solutionShown = true;
    if (!save) return;
    this.result.className = 'result';
    setText(
      this.result,
      'Solution shown. A check of these cases now earns no credit; New cases gives you fresh ones to practise on.',
    );
    this.save(afterSolution(loadProgress()[this.questionId], { response: toPieces(this.code()), seed: this._seed }));
  }

  newCases() {
    const before = loadProgress()[this.questionId];
    const code = this.code();
    const seed = newSeed();
    // new cases, same code
    this.save({ ...afterNewDraw(before, { seed }), response: toPieces(code) });
    this._cases = null;
    this.schedule();
    this.updateNow().then(() => setText(this.running, `New cases drawn: ${this._cases?.length ?? 0} of them.`));
  }

  startOver() {
    if (!this._data) return;
    this.setCode(composeCode(this._data, this._data.starter));
    this.report.replaceChildren();
  }
}

const toleranceText = (t) =>
  t.exact
    ? 'a result must be exactly the right whole number'
    : `a number counts when it is within ${[t.abs !== undefined ? `±${t.abs}` : '', t.rel !== undefined ? `${t.rel} of its size` : ''].filter(Boolean).join(' plus ')} of the core's`;

define(PeCodeExercise);
