// <train-lab>: "train short, test long". The same tiny Transformer (encoder
// only, 2 layers, d_model 64, 4 heads) is trained on length-16 sequences of
// digits with several positional encodings side by side; the learner watches
// the loss curves, then reads the token accuracy at the training length and
// at 2x and 4x it.
//
// Training is costly (about 10 ms a step), so it never starts by itself: the
// learner presses Start. It runs in a small pool of module workers that load
// the trainer build of the core (web/workers/train-worker.js); where no worker
// can run (a file:// page, a widgets.js from another origin, a CSP without
// worker-src) the same loop (web/lib/training/train-session.js) runs on the page in
// short slices. The widget itself does not need the main core (needsCore
// false): all its numbers come from the trainer.
//
// task="text" trains a character-level language model on a corpus (by
// default the lesson's own text, the module web/data/corpus.js, loaded on the
// first text run; `corpus` names a URL of another text) and plots the validation loss. With the recorded settings it draws the
// recorded runs (web/data/lm-results.js: mean and range over the seeds)
// behind the live curves: one seed re-run here retraces its recorded curve.
//
// This file holds the element: its controls and a run's course (start, the
// workers or the page, pause, progress, finish). The chart and its legend
// are web/lib/training/loss-chart.js, the results table web/lib/training/train-table.js, the
// worker pool web/lib/training/train-workers.js.
import { PeElement, define, css, h, dataTable } from '../lib/base/pe-element.js';
import { parseColor, rgb, themeValue } from '../lib/drawing/colormap.js';
import {
  ENCODINGS,
  ENCODING_LABELS as LABELS,
  TASKS,
  MODEL,
  TEXT,
  MULTIPLES,
  LAB_OPTIONS,
  SessionLoop,
} from '../lib/training/train-session.js';
import { loadCorpus, recordedFor, baselinesFor } from '../lib/training/text-task.js';
import { lossLegend, digitsLoss, textLoss } from '../lib/training/loss-chart.js';
import { accuracyTable, textLossTable } from '../lib/training/train-table.js';
import { startWorkers, workerUrl } from '../lib/training/train-workers.js';
import { TrainRun } from '../lib/training/train-run.js';

const vocabOf = (task) => (task === 'text' ? TEXT.vocab : MODEL.vocab);
const ENC_PATTERN = new RegExp(`^\\s*(?:${ENCODINGS.join('|')})(?:\\s*,\\s*(?:${ENCODINGS.join('|')}))*\\s*$`);
const MAX_WORKERS = 3;
const WORKER_READY_TIMEOUT_MS = 30000;
const PAGE_SLICE_MS = 12; // work per slice when training on the page (keeps frames coming)
const TEXT_EVERY_MS = 1000; // the live progress text is not rewritten more often

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

  build(root) {
    this.hint = h('p', { class: 'hint' });
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

    this.canvas = h('canvas', { role: 'img', width: 300, height: 240 });
    this.chartWrap = h('div', { class: 'chart-wrap' }, this.canvas);
    // its items are hidden when their encoding is not chosen; the chance label names the task's ln N
    const { legend, items, chanceLabel, baselineItem } = lossLegend();
    this._legendItems = items;
    this._chanceLabel = chanceLabel;
    this._baselineItem = baselineItem;
    this.tableWrap = h('div', { class: 'table-wrap results' });
    this.footnote = h('p', { class: 'note' });
    root.append(
      (this._heading = h('h3', {}, 'Train short, test long')),
      this.hint,
      this.controls(['task', 'steps']),
      fieldset,
      more,
      h('div', { class: 'buttons' }, this.startBtn, this.pauseBtn, this.resumeBtn, this.resetBtn),
      h('div', { class: 'prog' }, this.progress, this.progText),
      this.modeLine,
      this.chartWrap,
      legend,
      this.tableWrap,
      this.footnote,
    );

    /** Set before Start to cap the worker pool (the measuring script compares 1 and 2). */
    this.maxWorkers = MAX_WORKERS;
    this.results = null; // [{ encoding, acc1x, acc2x, acc4x, reason2x?, reason4x?, finalLoss, solved }]
    this.runInfo = null; // { mode, workers, loadMs, wallMs, msPerStep } of the last run
    this.run = null; // the run in progress (or finished), see start()
    this._note = ''; // a one-off message for the mode line (settings changed, ...)
    this.redrawOnResize(this.chartWrap);
    this._buttons();
  }

  disconnectedCallback() {
    super.disconnectedCallback();
    this._stop(); // no training (and no workers) for an element that has left the page
    this.run = null;
    this._buttons();
  }

  attributeChangedCallback(name, oldValue, newValue) {
    super.attributeChangedCallback(name, oldValue, newValue);
    if (!this.startBtn) return; // not built yet (attributes of an element being upgraded)
    // a run belongs to the settings it started with: a new setting stops it
    if (oldValue !== newValue && this.run) {
      this._stop();
      this.run = null;
      this.results = null;
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
      this.modeLine.textContent = this._note;
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
    const run = this.run;
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

  // ------------------------------------------------------------ running

  /** Starts a fresh run with the current settings (what the Start button does). */
  async start() {
    const { values: p, errors } = this.readParams();
    if (errors.length) return;
    this._stop();
    const encodings = parseEncodings(p.encodings);
    const config = { task: p.task, encodings, steps: p.steps, seed: p.seed, lr: p.lr, trainLen: p.trainLen };
    if (p.task === 'text') {
      const marker = {};
      this._loadingCorpus = marker;
      this.modeLine.textContent = 'Loading the text…';
      try {
        config.text = await loadCorpus(p.corpus);
      } catch (error) {
        this.errorBox.textContent = String(error.message);
        return;
      }
      if (this._loadingCorpus !== marker) return; // started again, or reset, meanwhile
    }
    // each worker gets every n-th encoding; each part reports on its own
    const n = Math.max(1, Math.min(navigator.hardwareConcurrency || 2, MAX_WORKERS, encodings.length, this.maxWorkers));
    const parts = Array.from({ length: n }, (_, k) => ({
      encodings: encodings.filter((_, i) => i % n === k),
      snap: null,
      results: null,
    }));
    const run = new TrainRun(config, parts, performance.now());
    this.run = run;
    this.results = null;
    this.runInfo = null;
    this._note = '';
    this.modeLine.textContent = 'Loading the trainer…';
    this.progText.textContent = '';
    this._buttons();
    this.schedule();

    const ok = await this._startWorkers(run).catch(() => false);
    if (this.run !== run) return; // reset (or restarted) while the workers loaded
    if (ok) {
      run.mode = 'workers';
    } else {
      for (const w of run.workers) w.terminate();
      run.workers = [];
      await this._startOnPage(run);
      if (this.run !== run) return;
    }
    if (!run.to('loaded')) return; // failed (or finished) while loading
    run.tStart = performance.now();
    this._modeText();
    this._buttons();
  }

  // Resolves true once every worker has loaded the trainer and got its share, false if any cannot.
  _startWorkers(run) {
    if (!workersFollowed()) return Promise.resolve(false); // train on the page, no failing request
    return startWorkers(run, spawnTrainWorker, (k, msg) => this._message(run, k, msg), WORKER_READY_TIMEOUT_MS);
  }

  // The fallback: one session for every encoding, on this thread, in short slices.
  async _startOnPage(run) {
    run.mode = 'page';
    run.parts = [{ encodings: run.config.encodings, snap: null, results: null }];
    try {
      const { loadPosenc } = await import('../posenc.js');
      const pe = await loadPosenc({ trainer: true });
      if (this.run !== run) return;
      run.simd = pe.simd;
      run.loop = new SessionLoop((msg) => this._message(run, 0, msg), { sliceMs: PAGE_SLICE_MS, progressMs: 150 });
      run.loop.start(pe, run.config);
      if (run.paused) run.loop.pause();
    } catch (error) {
      this._message(run, 0, { type: 'error', message: `the trainer could not be loaded: ${error.message}` });
    }
  }

  pause() {
    this._control('pause');
  }

  resume() {
    this._control('resume');
  }

  // 'pause' or 'resume' to each worker and to the loop on the page; a run
  // paused while loading starts paused in each of them
  _control(type) {
    const run = this.run;
    if (!run?.to(type)) return;
    for (const w of run.workers) w.postMessage({ type });
    run.loop?.[type]();
    this._progressText(true);
    this._buttons();
  }

  /** Stops training, ends the workers and clears the results (the Reset button). */
  reset() {
    this._loadingCorpus = null;
    this._stop();
    this.run = null;
    this.results = null;
    this.runInfo = null;
    this._note = '';
    this.progText.textContent = '';
    this._buttons();
    this.schedule();
  }

  _stop() {
    const run = this.run;
    if (!run) return;
    for (const w of run.workers) w.terminate();
    run.workers = [];
    run.loop?.reset();
    run.loop = null;
    run.to('stop');
  }

  // A message from part k (a worker, or the loop on the page).
  _message(run, k, msg) {
    if (this.run !== run || typeof msg !== 'object' || msg === null) return;
    const part = run.parts[k];
    if (msg.type === 'progress' || msg.type === 'done') {
      part.snap = msg;
      if (msg.type === 'done') part.results = msg.results;
      const { steps, total } = run.steps();
      this.dispatchEvent(new CustomEvent('train-lab-progress', { detail: { steps, total } }));
      if (run.parts.every((p) => p.results)) this._finish(run);
      else this._progressText(false);
      this.schedule();
    } else if (msg.type === 'error') {
      this._stop();
      run.to('fail');
      this.errorBox.textContent = `Training stopped: ${String(msg.message).slice(0, 300)}`;
      this._buttons();
    }
  }

  _finish(run) {
    const byEnc = new Map(run.parts.flatMap((p) => p.results.map((r) => [r.encoding, r])));
    this.results = run.config.encodings.map((e) => byEnc.get(e));
    const stepTime = run.parts.map((p) => p.snap.msPerStep);
    this.runInfo = {
      mode: run.mode,
      workers: run.mode === 'workers' ? run.parts.length : 0,
      simd: run.simd,
      loadMs: run.tStart - run.t0,
      wallMs: performance.now() - run.tStart,
      msPerStep: stepTime, // per part (worker): mean time of one training step
    };
    for (const w of run.workers) w.terminate(); // done: free their memory
    run.workers = [];
    run.loop = null;
    run.to('finish');
    this.progress.value = this.progress.max;
    this._modeText(); // "Trained in ...": the run no longer trains
    this._progressText(true);
    this._buttons();
    this.dispatchEvent(new CustomEvent('train-lab-done', { detail: { results: this.results } }));
  }

  _modeText() {
    if (this.run?.mode) this.modeLine.textContent = this.run.modeLine();
  }

  // The progress line: rewritten at most once a second (it is a live region) unless `now`.
  _progressText(now) {
    const run = this.run;
    if (!run) return;
    const t = performance.now();
    if (!now && t - run.lastText < TEXT_EVERY_MS) return;
    run.lastText = t;
    this.progText.textContent = run.progressLine(this.runInfo?.wallMs);
  }

  // ------------------------------------------------------------ drawing

  update(_pe, p) {
    this._syncChecks();
    this._buttons();
    const [a, b, c] = MULTIPLES.map((m) => m * p.trainLen);
    const heading = p.task === 'text' ? 'A small language model: train short, test long' : 'Train short, test long';
    if (this._heading.textContent !== heading) this._heading.textContent = heading;
    const what = p.task === 'text' ? 'windows of' : 'sequences of';
    const unit = p.task === 'text' ? 'characters' : 'digits';
    this.hint.textContent =
      `Train the same tiny Transformer with each positional encoding on ${what} ${a} ${unit}, then test it on ${a}, ${b} and ${c}. ` +
      TASK_HINTS[p.task];
    const run = this.run;
    const encodings = run ? run.config.encodings : parseEncodings(p.encodings);
    for (const [enc, li] of this._legendItems) li.hidden = !encodings.includes(enc);
    const chanceText = `chance (ln ${vocabOf(run ? run.config.task : p.task)})`;
    if (this._chanceLabel.textContent !== chanceText) this._chanceLabel.textContent = chanceText;
    if (run) {
      const { value, max } = run.bar();
      this.progress.max = max;
      this.progress.value = value;
    } else {
      this.progress.max = 1;
      this.progress.value = 0;
      this.modeLine.textContent =
        this._note ||
        `Ready: ${encodings.length} encoding${encodings.length === 1 ? '' : 's'} × ${p.steps} steps on ${p.task}. Press Start (it takes a while; nothing runs until then).`;
    }
    const series = this._series(encodings);
    const shown = run ? run.config : { ...p, text: undefined };
    const baselines = shown.task === 'text' ? baselinesFor(shown, p.corpus) : null;
    this._baselineItem.hidden = !baselines;
    if (shown.task === 'text') {
      const recorded = recordedFor(shown, p.corpus);
      this.canvas.setAttribute(
        'aria-label',
        textLoss(this.canvas, this._chartFrame(), series, shown.steps, recorded, baselines),
      );
      this._showTable(textLossTable(series, shown.trainLen, recorded, { done: !!this.results, baselines }), series);
    } else {
      this.canvas.setAttribute('aria-label', digitsLoss(this.canvas, this._chartFrame(), series, shown.steps));
      const task = this.run ? this.run.config.task : p.task;
      const table = accuracyTable(series, shown.trainLen, {
        done: !!this.results,
        task,
        steps: this.run?.config.steps,
      });
      this._showTable(table, series);
    }
  }

  // Per encoding: { enc, curve: Float32Array (points, one mean per `bucket` steps), bucket, steps, lastLoss, acc1x, result }.
  _series(encodings) {
    const run = this.run;
    const snaps = new Map();
    if (run)
      for (const part of run.parts)
        for (const r of part.snap?.runs ?? []) snaps.set(r.encoding, { ...r, bucket: part.snap.bucket });
    const results = new Map((this.results ?? []).map((r) => [r.encoding, r]));
    return encodings.map((enc) => ({
      enc,
      ...(snaps.get(enc) ?? { curve: new Float32Array(0), bucket: 1, steps: 0, lastLoss: NaN, acc1x: null, val: null }),
      result: results.get(enc) ?? null,
    }));
  }

  // The chart's width (remembered: a new width redraws), colours and whether a run is drawn.
  _chartFrame() {
    this._width = this.chartWrap.clientWidth;
    const style = getComputedStyle(this);
    const col = (name) => rgb(parseColor(themeValue(style, name)));
    return { width: this._width, col, running: !!this.run };
  }

  // The results table (rows tagged with their encoding, reference rows after them) and its footnote.
  _showTable({ caption, headers, rows, footnote }, series) {
    const table = dataTable(caption, headers, rows, (j) =>
      j < series.length ? { 'data-encoding': series[j].enc } : { class: 'reference' },
    );
    this.tableWrap.replaceChildren(table);
    this.footnote.textContent = footnote ? `* ${footnote}` : '';
  }
}

define(TrainLab);
