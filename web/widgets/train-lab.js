// <train-lab>: "train short, test long". The same tiny Transformer (encoder
// only, 2 layers, d_model 64, 4 heads) is trained on length-16 sequences of
// digits with several positional encodings side by side; the learner watches
// the loss curves, then reads the token accuracy at the training length and
// at 2x and 4x it.
//
// Training is costly (about 10 ms a step), so it never starts by itself: the
// learner presses Start. It runs in a small pool of module workers that load
// the trainer build of the core (web/workers/train-worker.js), started from a
// blob: worker that imports it where the page may not start it from its URL
// (a sandboxed frame, a widgets.js from another origin: base/worker-url.js);
// where no worker can run (a file:// page, a CSP without worker-src blob:)
// the same loop (web/lib/training/train-session.js) runs on the page in
// short slices. The widget itself does not need the main core (needsCore
// false): all its numbers come from the trainer.
//
// task="text" trains a character-level language model on a corpus (by
// default the lesson's own text, the module web/data/corpus.js, loaded on the
// first text run; `corpus` names a URL of another text) and plots the validation loss. With the recorded settings it draws the
// recorded runs (web/data/lm-results.js: mean and range over the seeds)
// behind the live curves: one seed re-run here retraces its recorded curve.
//
// This file holds the view: the controls, the buttons, the lines that say
// where a run is, the chart and the tables, drawn from what a TrainRunner
// (web/lib/training/train-runner.js) holds; Start, Pause, Resume and Reset
// are passed on to it, and its events come out as this element's
// train-lab-* events. The runner starts the workers or the page's loop and
// collects their results. The chart and its legend are
// web/lib/training/loss-chart.js, the tables web/lib/training/train-table.js.
import { PeElement, define, css, h, setAttr, setText, patchSpecs } from '../lib/base/pe-element.js';
import { tableSpec } from '../lib/base/dom.js';
import { parseColor, rgb, themeValue } from '../lib/drawing/colormap.js';
import { bindAxisCursor } from '../lib/drawing/grid-cursor.js';
import {
  ENCODINGS,
  ENCODING_LABELS as LABELS,
  TASKS,
  MODEL,
  TEXT,
  MULTIPLES,
  LAB_OPTIONS,
} from '../lib/training/train-session.js';
import { recordedFor, baselinesFor } from '../lib/training/text-task.js';
import {
  ENCODING_STYLES,
  lossLegend,
  digitsLoss,
  textLoss,
  lossPoints,
  lossReading,
  pointAtX,
} from '../lib/training/loss-chart.js';
import { accuracyTable, textLossTable, curveTable } from '../lib/training/train-table.js';
import { workerUrl } from '../lib/training/train-workers.js';
import { TrainRunner } from '../lib/training/train-runner.js';

const vocabOf = (task) => (task === 'text' ? TEXT.vocab : MODEL.vocab);
const ENC_PATTERN = new RegExp(`^\\s*(?:${ENCODINGS.join('|')})(?:\\s*,\\s*(?:${ENCODINGS.join('|')}))*\\s*$`);
const TEXT_EVERY_MS = 1000; // the live progress text is not rewritten more often
// the custom properties the chart draws with, read once per theme
const CHART_COLOURS = [
  '--pe-fg',
  '--pe-muted',
  '--pe-border',
  '--pe-bg',
  ...Object.values(ENCODING_STYLES).map((st) => st.color),
];
/** Encodings named in the attribute, each once, in the lab's fixed order. */
function parseEncodings(text) {
  const named = new Set(text.split(',').map((s) => s.trim()));
  return ENCODINGS.filter((e) => named.has(e));
}

// What to watch for on each task (the lesson's ablation section shows a run of each).
const TASK_HINTS = {
  reverse:
    'Reverse needs each position to know its index: with no encoding the model stays near chance, and no encoding carries the rule to longer sequences, because at a new length it is a new rule.',
  sort: 'Sort needs each output position to know which rank it holds: without an encoding the model can only guess from the bag of digits.',
  shift:
    'Shift (each position outputs its left neighbour) is one relative rule at every length: watch which encodings still get it right at 2× and 4×, and which cannot even tell left from right.',
  copy: 'Copy needs no positions at all: every encoding learns it, even none. Only the learned table cannot run past its rows.',
  text: "Text: each position predicts the next character of the lesson's own text, seeing only the characters before it (a causal mask). The curves are the loss on a held-out tenth of the text; lower is better.",
};

// The worker in the one form bundlers (Vite, webpack, rspack) recognise and
// build as a worker of its own: literally new Worker(new URL(...), {...}).
function spawnTrainWorker() {
  return new Worker(new URL('../workers/train-worker.js', import.meta.url), { type: 'module' });
}

// False where a bundler took this module in but did not follow the worker
// (esbuild): this module is no longer widgets/train-lab.js while the worker
// URL still names workers/train-worker.js next to it, a file that is not there.
// (webpack puts the module's own file: URL for import.meta.url: true.) The
// URL is read from spawnTrainWorker's one literal so that a bundler sees the
// worker once: a second new URL('../workers/train-worker.js', import.meta.url)
// is a plain asset to Vite, webpack and Rollup's assets plugin, which emitted
// (or inlined) an unbuilt copy of the worker beside the built one.
function workersFollowed() {
  // the path only: a dev server (Vite's) serves this module as train-lab.js?v=<hash>
  if (new URL(import.meta.url).pathname.endsWith('/widgets/train-lab.js')) return true;
  const worker = workerUrl(spawnTrainWorker);
  return worker !== null && !new URL(worker, document.baseURI).pathname.endsWith('/workers/train-worker.js');
}

class TrainLab extends PeElement {
  static tag = 'train-lab';
  static description =
    'Train short, test long: a tiny Transformer trained in the browser with several positional encodings side by side.';
  static events = {
    'train-lab-progress': 'Training advanced; detail: { steps, total }.',
    'train-lab-done': 'Training finished; detail: { results }.',
  };
  static needsCore = false;
  static params = {
    task: { type: 'enum', options: TASKS, default: LAB_OPTIONS.task.default, label: 'task' },
    encodings: {
      type: 'string',
      default: LAB_OPTIONS.encodings.default.join(','),
      pattern: ENC_PATTERN,
      patternMessage: `must be a comma-separated list of ${ENCODINGS.join(', ')}`,
      maxLength: 100,
    },
    steps: { type: 'int', ...LAB_OPTIONS.steps, control: 'number', label: 'steps per encoding' },
    seed: { type: 'int', ...LAB_OPTIONS.seed, control: 'number', label: 'seed' },
    lr: { type: 'float', ...LAB_OPTIONS.lr, control: 'number', label: 'learning rate' },
    'train-len': { type: 'int', ...LAB_OPTIONS.trainLen, control: 'number', label: 'train length' },
    corpus: {
      type: 'string',
      default: '',
      maxLength: 2000,
      label: "corpus URL (task text; empty: the lesson's own text)",
    },
  };

  static styles = css`
    :host {
      --e-none: #6b7280; --e-sin: #d55e00; --e-learned: #0072b2; --e-rope: #009e73; --e-alibi: #cc79a7; --e-t5: #b08600;
    }
    @media (prefers-color-scheme: dark) {
      :host { --e-none: #9aa4b1; --e-sin: #ff9e4a; --e-learned: #56b4e9; --e-rope: #3fd0a4; --e-alibi: #e6a0c8; --e-t5: #f0c43a; }
    }
    fieldset { border: 1px solid var(--pe-border); border-radius: 8px; margin: 0 0 10px; padding: 4px 10px 8px; }
    legend { font-size: .92em; padding: 0 4px; }
    .checks { display: flex; flex-wrap: wrap; gap: 4px 16px; }
    .checks label { display: inline-flex; align-items: center; gap: 6px; font-size: .92em; }
    details.more { margin: 0 0 10px; font-size: .92em; }
    details.more summary { cursor: pointer; color: var(--pe-muted); }
    details.more .controls { margin: 6px 0 0; }
    .buttons { display: flex; flex-wrap: wrap; gap: 8px; margin: 0 0 8px; }
    button:disabled { opacity: .5; cursor: default; }
    button:disabled:hover { border-color: var(--pe-border); }
    button.primary:not(:disabled) { border-color: var(--pe-accent); font-weight: 600; }
    .prog { display: flex; flex-wrap: wrap; align-items: center; gap: 4px 12px; margin: 0 0 4px; }
    progress { width: 16em; max-width: 100%; height: 1em; accent-color: var(--pe-accent); }
    .prog-text { font-size: .9em; font-variant-numeric: tabular-nums; }
    .mode { font-size: .88em; color: var(--pe-muted); margin: 0 0 6px; }
    .chart-wrap { margin-top: 6px; }
    .legend { display: flex; flex-wrap: wrap; gap: 4px 16px; font-size: .85em; margin: 4px 0 8px; padding: 0; list-style: none; }
    .legend li { display: inline-flex; align-items: center; gap: 6px; }
    .legend svg { display: inline-block; }
    .l-none { stroke: var(--e-none); } .l-sinusoidal { stroke: var(--e-sin); } .l-learned { stroke: var(--e-learned); }
    .l-rope { stroke: var(--e-rope); } .l-alibi { stroke: var(--e-alibi); } .l-t5 { stroke: var(--e-t5); } .l-chance { stroke: var(--pe-fg); }
    .l-baseline { stroke: var(--pe-muted); }
    .results tr.reference th, .results tr.reference td { color: var(--pe-muted); font-style: italic; }
    .results th:first-child { text-align: left; }
    .results td, .results tbody th { white-space: nowrap; }
    .results caption { font-family: system-ui, sans-serif; }
    .results thead th { white-space: nowrap; }
    .results sup { font-size: .75em; }
    .note { font-size: .88em; color: var(--pe-muted); }
    .note:empty { display: none; }
  `;

  constructor() {
    super();
    // made with the element, not with its DOM: maxWorkers may be set before it is built
    this._runner = new TrainRunner();
    this._note = ''; // a one-off message for the mode line (settings changed, ...)
    this._failure = ''; // the message of a failed run, kept in the error box
    this._lastText = 0; // when the progress line was last written
    this._cursor = null; // the chart's cursor: a point of lossPoints, or null
    this._points = null; // the points of the chart last drawn (lossPoints)
    this._runner.addEventListener('change', () => this._runChanged());
    this._runner.addEventListener('progress', (e) => this._progressed(e.detail));
    this._runner.addEventListener('done', (e) => this._done(e.detail));
    this._runner.addEventListener('error', (e) => this._failed(e.detail.message));
    // PeElement empties the error box after each update that draws: a failed
    // run's message is written back until the run is cleared
    this.addEventListener('pe-update', () => this._failure && setText(this.errorBox, this._failure));
  }

  /** Set before Start to cap the worker pool (the measuring script compares 1 and 2). */
  get maxWorkers() {
    return this._runner.maxWorkers;
  }

  set maxWorkers(n) {
    this._runner.maxWorkers = n;
  }

  /** The run in progress (or finished, or failed), a TrainRun; null before Start and after Reset. */
  get run() {
    return this._runner.run;
  }

  /** [{ encoding, acc1x, acc2x, acc4x, reason2x?, reason4x?, finalLoss, solved, ... }] once a run is done, else null. */
  get results() {
    return this._runner.results;
  }

  /** { mode, workers, simd, loadMs, wallMs, msPerStep } of the last finished run, else null. */
  get runInfo() {
    return this._runner.runInfo;
  }

  build(root) {
    const [heading, hint] = this.heading('Train short, test long');
    this._heading = heading;
    this.hint = hint;
    this.checks = new Map(); // encoding -> checkbox
    const boxes = ENCODINGS.map((enc) => {
      const input = h('input', { type: 'checkbox', id: `enc-${enc}`, value: enc });
      input.addEventListener('change', () => this._encodingToggled(input));
      this.checks.set(enc, input);
      return h('label', { for: `enc-${enc}` }, input, LABELS[enc]);
    });
    const fieldset = h(
      'fieldset',
      {},
      h('legend', {}, 'Positional encodings to compare'),
      h('div', { class: 'checks' }, boxes),
    );
    const more = h(
      'details',
      { class: 'more' },
      h('summary', {}, 'More settings (seed, learning rate, train length)'),
      this.controls(['seed', 'lr', 'train-len']),
    );

    this.startBtn = h('button', { type: 'button', class: 'primary', onclick: () => this.start() }, 'Start');
    this.pauseBtn = h('button', { type: 'button', onclick: () => this.pause() }, 'Pause');
    this.resumeBtn = h('button', { type: 'button', onclick: () => this.resume() }, 'Resume');
    this.resetBtn = h('button', { type: 'button', onclick: () => this.reset() }, 'Reset');
    this.progress = h('progress', { max: 1, value: 0, 'aria-label': 'training progress' });
    this.progText = h('span', { class: 'prog-text', 'aria-live': 'polite' });
    this.modeLine = h('p', { class: 'mode' });

    this.canvas = h('canvas', { role: 'img', tabindex: '0', width: 300, height: 240 });
    this.chartWrap = h('div', { class: 'chart-wrap' }, this.canvas);
    this.readout = h('p', { class: 'readout', 'aria-live': 'polite' });
    // its items are hidden when their encoding is not chosen; the chance label names the task's ln N
    const { legend, items, chanceLabel, baselineItem } = lossLegend();
    this._legendItems = items;
    this._chanceLabel = chanceLabel;
    this._baselineItem = baselineItem;
    this.tableWrap = h('div', { class: 'table-wrap results' });
    this.footnote = h('p', { class: 'note' });
    this.curves = this.tableAlternative('Show the loss curves as a table', { lazy: true });
    root.append(
      heading,
      hint,
      this.controls(['task', 'steps']),
      fieldset,
      more,
      h('div', { class: 'buttons' }, this.startBtn, this.pauseBtn, this.resumeBtn, this.resetBtn),
      h('div', { class: 'prog' }, this.progress, this.progText),
      this.modeLine,
      this.chartWrap,
      this.readout,
      legend,
      this.tableWrap,
      this.footnote,
      this.curves,
    );

    bindAxisCursor(this.canvas, {
      at: (e) =>
        this._points && pointAtX(this._points, this._chartWidth, e.clientX - this.canvas.getBoundingClientRect().left),
      range: () => (this._points?.count ? [0, this._points.count - 1, 10] : null),
      current: () => this._cursor,
      moveTo: (i) => {
        this._cursor = i;
        this.schedule();
      },
    });
    this.redrawOnResize(this.chartWrap);
    this._buttons();
  }

  disconnectedCallback() {
    super.disconnectedCallback(); // releases what is owned: the chart's size observers among them
    this._runner.reset(); // no training (and no workers) for an element that has left the page
  }

  attributeChangedCallback(name, oldValue, newValue) {
    super.attributeChangedCallback(name, oldValue, newValue);
    if (!this.startBtn) return; // not built yet (attributes of an element being upgraded)
    // a run belongs to the settings it started with: a new setting stops it
    if (oldValue !== newValue && this._runner.run) {
      this._runner.reset();
      this._note = 'Settings changed: press Start to train with them.';
    }
    this._buttons();
  }

  // ------------------------------------------------------------ controls

  _encodingToggled(input) {
    const chosen = ENCODINGS.filter((e) => this.checks.get(e).checked);
    if (chosen.length === 0) {
      input.checked = true; // at least one encoding stays chosen
      this._note = 'Keep at least one encoding.';
      setText(this.modeLine, this._note);
      return;
    }
    this.setAttribute('encodings', chosen.join(','));
  }

  _syncChecks() {
    const { values, errors } = this.readParams();
    const chosen = new Set(errors.some((e) => e.startsWith('encodings')) ? [] : parseEncodings(values.encodings));
    for (const [enc, input] of this.checks) input.checked = chosen.has(enc);
  }

  _buttons() {
    const run = this._runner.run;
    const invalid = this.readParams().errors.length > 0;
    const active = !!run?.active;
    const paused = !!run?.paused;
    const set = (btn, enabled) => {
      // a button that goes away under the keyboard focus hands it on
      if (!enabled && this.shadowRoot.activeElement === btn) this._focusNext = true;
      btn.disabled = !enabled;
    };
    set(this.startBtn, !active && !paused && !invalid);
    set(this.pauseBtn, active);
    set(this.resumeBtn, paused);
    set(this.resetBtn, !!run);
    if (this._focusNext) {
      this._focusNext = false;
      const next = [this.pauseBtn, this.resumeBtn, this.startBtn, this.resetBtn].find((b) => !b.disabled);
      next?.focus();
    }
  }

  // ------------------------------------------------------------ intents

  /** Starts a fresh run with the current settings (what the Start button does). */
  start() {
    const { values: p, errors } = this.readParams();
    if (errors.length) return Promise.resolve();
    this._note = '';
    this._runner.spawn = workersFollowed() ? spawnTrainWorker : null; // else: trains on the page, no failing request
    const { task, steps, seed, lr, trainLen, corpus } = p;
    return this._runner.start({ task, encodings: parseEncodings(p.encodings), steps, seed, lr, trainLen, corpus });
  }

  pause() {
    this._runner.pause();
  }

  resume() {
    this._runner.resume();
  }

  /** Stops training, ends the workers and clears the results (the Reset button). */
  reset() {
    this._note = '';
    this._runner.reset();
  }

  // ------------------------------------------------------------ what the runner says

  // A run started, loaded, paused, resumed, finished, failed or was cleared.
  _runChanged() {
    if (!this.startBtn) return;
    const run = this._runner.run;
    if (run?.state !== 'error') this._failure = '';
    if (run) setText(this.modeLine, run.modeLine());
    this._progressText(true);
    this._buttons();
    this.schedule();
  }

  _progressed(detail) {
    this.dispatchEvent(new CustomEvent('train-lab-progress', { detail }));
    this._progressText(false);
    this.schedule();
  }

  _done(detail) {
    this.dispatchEvent(new CustomEvent('train-lab-done', { detail }));
  }

  _failed(message) {
    this._failure = message;
    if (this.errorBox) setText(this.errorBox, message);
  }

  // The progress line: rewritten at most once a second (it is a live region)
  // unless `now`; empty while the trainer loads (unless paused) and without a run.
  _progressText(now) {
    const run = this._runner.run;
    const t = performance.now();
    if (!now && t - this._lastText < TEXT_EVERY_MS) return;
    this._lastText = t;
    const shown = run && (run.mode || run.paused) ? run.progressLine(this._runner.runInfo?.wallMs) : '';
    setText(this.progText, shown);
  }

  // ------------------------------------------------------------ drawing

  update(_pe, p) {
    // every read before the first write: no layout forced inside the update
    const width = this.widthOf(this.chartWrap);
    const col = this._colours();
    this._syncChecks();
    this._buttons();
    const run = this._runner.run;
    const shown = run ? run.config : p; // a run is drawn with the settings it started with
    const [a, b, c] = MULTIPLES.map((m) => m * p.trainLen);
    setText(
      this._heading,
      p.task === 'text' ? 'A small language model: train short, test long' : 'Train short, test long',
    );
    const what = p.task === 'text' ? 'windows of' : 'sequences of';
    const unit = p.task === 'text' ? 'characters' : 'digits';
    setText(
      this.hint,
      `Train the same tiny Transformer with each positional encoding on ${what} ${a} ${unit}, then test it on ${a}, ${b} and ${c}. ` +
        TASK_HINTS[p.task],
    );
    const series = this._runner.series(parseEncodings(p.encodings));
    const encodings = series.map((s) => s.enc);
    for (const [enc, li] of this._legendItems) {
      const hidden = !encodings.includes(enc);
      if (li.hidden !== hidden) li.hidden = hidden;
    }
    setText(this._chanceLabel, `chance (ln ${vocabOf(shown.task)})`);
    const { value, max } = run ? run.bar() : { value: 0, max: 1 };
    setAttr(this.progress, 'max', max);
    setAttr(this.progress, 'value', value);
    if (!run)
      setText(
        this.modeLine,
        this._note ||
          `Ready: ${encodings.length} encoding${encodings.length === 1 ? '' : 's'} × ${p.steps} steps on ${p.task}. Press Start (it takes a while; nothing runs until then).`,
      );

    // the chart, its cursor and readout, and the curves' table
    const points = lossPoints(series, shown.task, shown.steps);
    this._points = points;
    if (this._cursor !== null) this._cursor = points.count ? Math.min(this._cursor, points.count - 1) : null;
    this._chartWidth = width; // the pointer's x is read against the width drawn
    const frame = { width, col, running: !!run, cursor: this._cursor === null ? null : points.at(this._cursor) };
    const done = !!this._runner.results;
    const baselines = shown.task === 'text' ? baselinesFor(shown, p.corpus) : null;
    if (this._baselineItem.hidden !== !baselines) this._baselineItem.hidden = !baselines;
    let table;
    if (shown.task === 'text') {
      const recorded = recordedFor(shown, p.corpus);
      setAttr(this.canvas, 'aria-label', textLoss(this.canvas, frame, series, shown.steps, recorded, baselines));
      table = textLossTable(series, shown.trainLen, recorded, { done, baselines });
    } else {
      setAttr(this.canvas, 'aria-label', digitsLoss(this.canvas, frame, series, shown.steps));
      table = accuracyTable(series, shown.trainLen, { done, task: shown.task, steps: run?.config.steps });
    }
    setText(this.readout, this._cursor === null ? '' : lossReading(points, series, this._cursor));
    const curves = curveTable(points, series, shown.task);
    this.setTable(this.curves, curves.caption, curves.headers, curves.rows);

    // the results table (rows tagged with their encoding, reference rows after them) and its footnote
    const rowAttrs = (j) => (j < series.length ? { 'data-encoding': series[j].enc } : { class: 'reference' });
    patchSpecs(this.tableWrap, [tableSpec(table.caption, table.headers, table.rows, rowAttrs)]);
    setText(this.footnote, table.footnote ? `* ${table.footnote}` : '');
  }

  // The chart's colours by custom property, read from the computed style once
  // per theme (PeElement's theme() is a new object when the colours change).
  _colours() {
    const theme = this.theme();
    if (this._coloursOf !== theme) {
      const style = getComputedStyle(this);
      this._colourMap = new Map(CHART_COLOURS.map((name) => [name, rgb(parseColor(themeValue(style, name)))]));
      this._coloursOf = theme;
    }
    const map = this._colourMap;
    return (name) => map.get(name);
  }
}

define(TrainLab);
