// The loss chart of <train-lab>, drawn on a canvas: loss (or validation
// loss) against training step, a dotted line at chance, one curve per
// encoding in its own colour and dash, and for the text task the recorded
// runs behind the live ones. A chart is { ctx, W, H, pad, pw, ph, yMax,
// totalSteps, X(step), Y(loss), col(custom property) -> colour, fg, muted,
// grid, yLabel, chance }: lossChart() makes one and draws its frame, the
// draw* functions add to it; digitsLoss() and textLoss() draw a whole chart
// and say what a screen reader hears of it, lossLegend() names the lines.
// lossPoints() are the points a cursor stops at (the keyboard's, the
// pointer's) and the rows of the curves' table; lossReading() says one.
import { canvasContext, sideLabel } from '../drawing/canvas.js';
import { niceStep } from '../drawing/chart.js';
import { h } from '../base/dom.js';
import { fixed } from '../printing/pyformat.js';
import { ENCODINGS, ENCODING_LABELS as LABELS, MODEL, TEXT } from './train-session.js';
import { BASELINE_ROWS } from './train-table.js';

// one colour (a CSS custom property, for dark mode) and one dash pattern per encoding
export const ENCODING_STYLES = {
  none: { color: '--e-none', dash: [], width: 3.5 },
  sinusoidal: { color: '--e-sin', dash: [9, 4], width: 2 },
  learned: { color: '--e-learned', dash: [2, 3], width: 2.5 },
  rope: { color: '--e-rope', dash: [], width: 2 },
  alibi: { color: '--e-alibi', dash: [10, 3, 2, 3], width: 2 },
  t5: { color: '--e-t5', dash: [5, 2], width: 2 },
};
/** The chart's size { W, H } and plot area { pad, pw, ph } at `width` CSS px (at least 240). */
export function chartBox(width) {
  const W = Math.max(240, width);
  const H = W < 500 ? 220 : 260;
  const pad = { l: 40, r: 20, t: 10, b: 34 }; // room for the last step label
  return { W, H, pad, pw: W - pad.l - pad.r, ph: H - pad.t - pad.b };
}

/**
 * A chart on `canvas`, `width` CSS px wide (at least 240), with a loss axis
 * up to a little above max(maxLoss, chance) in halves (at most 6): its frame
 * and chance line drawn.
 */
export function lossChart(canvas, width, { totalSteps, maxLoss, yLabel, chance, col }) {
  const { W, H, pad, pw, ph } = chartBox(width);
  const ctx = canvasContext(canvas, W, H);
  const yMax = Math.min(6, Math.ceil((Math.max(maxLoss, chance) + 0.05) * 2) / 2); // a little room above chance, in halves
  const chart = {
    ctx,
    W,
    H,
    pad,
    pw,
    ph,
    yMax,
    totalSteps,
    col,
    yLabel,
    chance,
    fg: col('--pe-fg'),
    muted: col('--pe-muted'),
    grid: col('--pe-border'),
    X: (step) => pad.l + (step / totalSteps) * pw,
    Y: (loss) => pad.t + (1 - Math.min(loss, yMax) / yMax) * ph,
  };
  ctx.font = '11px system-ui, sans-serif';
  ctx.lineWidth = 1;
  drawFrame(chart);
  drawChance(chart);
  return chart;
}

/** "Press Start to train", across the lower part of an empty chart. */
export function pressStart({ ctx, pad, pw, ph, muted }) {
  ctx.fillStyle = muted;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.font = '13px system-ui, sans-serif';
  ctx.fillText('Press Start to train', pad.l + pw / 2, pad.t + ph * 0.7);
}

// y axis: loss, ticks every 0.5, with grid lines; x axis: steps; the labels.
export function drawFrame({ ctx, W, H, pad, pw, ph, yMax, totalSteps, X, Y, fg, muted, grid, yLabel }) {
  ctx.textAlign = 'right';
  ctx.textBaseline = 'middle';
  for (let v = 0; v <= yMax + 1e-9; v += 0.5) {
    ctx.strokeStyle = grid;
    ctx.beginPath();
    ctx.moveTo(pad.l, Y(v));
    ctx.lineTo(W - pad.r, Y(v));
    ctx.stroke();
    ctx.fillStyle = fg;
    ctx.fillText(fixed(v, 1), pad.l - 5, Y(v));
  }
  ctx.textAlign = 'center';
  ctx.textBaseline = 'top';
  const xs = Math.max(1, niceStep(Math.max(totalSteps, 1) / Math.max(2, Math.floor(pw / 70))));
  for (let s = 0; s <= totalSteps; s += xs) {
    ctx.strokeStyle = muted;
    ctx.beginPath();
    ctx.moveTo(X(s), pad.t + ph);
    ctx.lineTo(X(s), pad.t + ph + 4);
    ctx.stroke();
    ctx.fillStyle = fg;
    ctx.fillText(String(s), X(s), pad.t + ph + 6);
  }
  ctx.strokeStyle = muted;
  ctx.beginPath();
  ctx.moveTo(pad.l, pad.t);
  ctx.lineTo(pad.l, pad.t + ph);
  ctx.lineTo(W - pad.r, pad.t + ph);
  ctx.stroke();
  ctx.fillStyle = muted;
  ctx.fillText('training step', pad.l + pw / 2, H - 13);
  ctx.textBaseline = 'middle';
  sideLabel(ctx, yLabel, 11, pad.t + ph / 2);
}

// chance: the loss of a uniform guess over the vocabulary
export function drawChance({ ctx, W, pad, Y, fg, chance: CHANCE_LOSS }) {
  ctx.strokeStyle = fg;
  ctx.setLineDash([1, 3]);
  ctx.beginPath();
  ctx.moveTo(pad.l, Y(CHANCE_LOSS));
  ctx.lineTo(W - pad.r, Y(CHANCE_LOSS));
  ctx.stroke();
  ctx.setLineDash([]);
  ctx.textAlign = 'right';
  ctx.textBaseline = 'bottom';
  ctx.fillStyle = fg;
  ctx.fillText(`chance ${fixed(CHANCE_LOSS, 2)}`, W - pad.r - 2, Y(CHANCE_LOSS) - 2);
}

// the curves: point i is the mean of steps [i*bucket, (i+1)*bucket)
export function drawCurves({ ctx, totalSteps, X, Y, col }, series) {
  ctx.lineJoin = 'round';
  for (const s of series) {
    if (s.curve.length === 0) continue;
    const st = ENCODING_STYLES[s.enc];
    ctx.strokeStyle = col(st.color);
    ctx.lineWidth = st.width;
    ctx.setLineDash(st.dash);
    ctx.beginPath();
    for (let i = 0; i < s.curve.length; i++) {
      const x = X(Math.min(totalSteps, (i + 0.5) * s.bucket));
      if (i === 0) ctx.moveTo(x, Y(s.curve[i]));
      else ctx.lineTo(x, Y(s.curve[i]));
    }
    if (s.curve.length === 1) ctx.lineTo(X(Math.min(totalSteps, s.bucket)), Y(s.curve[0]));
    ctx.stroke();
  }
  ctx.setLineDash([]);
}

// Text: each recorded encoding's range over the seeds (a band) and its mean
// (a thin line), at steps every, 2 every, ... Strong enough to read a live
// curve against (0.18 and 0.6 were too faint, issue 46), still under it.
const BAND_ALPHA = 0.3;
const MEAN_ALPHA = 0.9;
export function drawBands({ ctx, X, Y, col, totalSteps }, series, recorded, every) {
  for (const s of series) {
    const { min, max, mean } = recorded.results[s.enc].curve;
    const n = Math.min(mean.length, Math.floor(totalSteps / every));
    if (n === 0) continue;
    const c = col(ENCODING_STYLES[s.enc].color);
    ctx.globalAlpha = BAND_ALPHA;
    ctx.fillStyle = c;
    ctx.beginPath();
    for (let i = 0; i < n; i++) ctx.lineTo(X((i + 1) * every), Y(max[i]));
    for (let i = n - 1; i >= 0; i--) ctx.lineTo(X((i + 1) * every), Y(min[i]));
    ctx.closePath();
    ctx.fill();
    ctx.globalAlpha = MEAN_ALPHA;
    ctx.strokeStyle = c;
    ctx.lineWidth = 1.25;
    ctx.setLineDash([]);
    ctx.beginPath();
    for (let i = 0; i < n; i++) ctx.lineTo(X((i + 1) * every), Y(mean[i]));
    ctx.stroke();
    ctx.globalAlpha = 1;
  }
}

// Text: the n-gram baselines at the training length (text-task.js's
// baselinesFor), each a thin dashed line across the chart in the muted
// colour, drawn under the curves; their names go on top, at the right end,
// over a halo of the background so a curve under one cannot hide it (the
// names stay apart: the 1- to 4-gram losses are at least 0.4 nats apart)
export function drawBaselines({ ctx, W, pad, Y, muted }, baselines) {
  ctx.save();
  ctx.strokeStyle = muted;
  ctx.lineWidth = 1;
  ctx.setLineDash([6, 3]);
  for (const [name] of BASELINE_ROWS) {
    const y = Y(baselines.baselines[name][0]);
    ctx.beginPath();
    ctx.moveTo(pad.l, y);
    ctx.lineTo(W - pad.r, y);
    ctx.stroke();
  }
  ctx.restore();
}

export function labelBaselines({ ctx, W, pad, Y, muted, col }, baselines) {
  ctx.save();
  ctx.textAlign = 'right';
  ctx.textBaseline = 'bottom';
  ctx.lineJoin = 'round';
  ctx.lineWidth = 3;
  ctx.strokeStyle = col('--pe-bg');
  ctx.fillStyle = muted;
  for (const [name] of BASELINE_ROWS) {
    const y = Y(baselines.baselines[name][0]) - 2;
    const text = `${name} ${fixed(baselines.baselines[name][0], 2)}`;
    ctx.strokeText(text, W - pad.r - 2, y);
    ctx.fillText(text, W - pad.r - 2, y);
  }
  ctx.restore();
}

// Text: this run's validation losses, a line through dots
export function drawPoints({ ctx, X, Y, col }, series, every) {
  for (const s of series) {
    if (!s.val?.length) continue;
    const st = ENCODING_STYLES[s.enc];
    ctx.strokeStyle = ctx.fillStyle = col(st.color);
    ctx.lineWidth = st.width;
    ctx.setLineDash(st.dash);
    ctx.beginPath();
    for (let i = 0; i < s.val.length; i++) ctx.lineTo(X((i + 1) * every), Y(s.val[i]));
    ctx.stroke();
    ctx.setLineDash([]);
    for (let i = 0; i < s.val.length; i++) {
      ctx.beginPath();
      ctx.arc(X((i + 1) * every), Y(s.val[i]), 2.5, 0, 2 * Math.PI);
      ctx.fill();
    }
  }
}

/**
 * The points of the curves drawn so far, where a cursor stops: digit tasks,
 * each mean over a bucket of steps (point i drawn at the bucket's middle);
 * text, each validation loss (point i at step (i + 1) x TEXT.evalEvery).
 * { count, totalSteps, at(i): the step it is drawn at, span(i): its steps in words,
 * value(s, i): series s's loss there (undefined before it is measured),
 * index(step): the point nearest a step, what: what the values are }.
 */
export function lossPoints(series, task, totalSteps) {
  if (task === 'text') {
    const every = TEXT.evalEvery;
    return {
      count: Math.max(0, ...series.map((s) => s.val?.length ?? 0)),
      totalSteps,
      at: (i) => (i + 1) * every,
      span: (i) => `step ${(i + 1) * every}`,
      value: (s, i) => s.val?.[i],
      index: (step) => Math.round(step / every) - 1,
      what: 'validation loss',
    };
  }
  const bucket = series.find((s) => s.curve.length)?.bucket ?? 1;
  return {
    count: Math.max(0, ...series.map((s) => s.curve.length)),
    totalSteps,
    at: (i) => Math.min(totalSteps, (i + 0.5) * bucket),
    span: (i) => (bucket === 1 ? `step ${i + 1}` : `steps ${i * bucket + 1}–${Math.min(totalSteps, (i + 1) * bucket)}`),
    value: (s, i) => s.curve[i],
    index: (step) => Math.floor(step / bucket),
    what: bucket === 1 ? 'loss' : 'mean loss',
  };
}

/** The cursor's readout at point i: "steps 191–200, mean loss: none 2.302, RoPE 0.851". */
export function lossReading(points, series, i) {
  const values = series
    .filter((s) => points.value(s, i) !== undefined)
    .map((s) => `${LABELS[s.enc]} ${fixed(points.value(s, i), 3)}`);
  return `${points.span(i)}, ${points.what}: ${values.join(', ')}`;
}

/** The point under a pointer at `x` CSS px from the canvas's left edge, or null when there is none. */
export function pointAtX(points, width, x) {
  if (points.count === 0) return null;
  const { pad, pw } = chartBox(width);
  const i = points.index(((x - pad.l) / pw) * points.totalSteps);
  return Math.max(0, Math.min(points.count - 1, i));
}

// the cursor: a vertical line at `step`, over the curves
function drawCursor({ ctx, pad, ph, X, fg }, step) {
  ctx.save();
  ctx.strokeStyle = fg;
  ctx.lineWidth = 1;
  ctx.setLineDash([]);
  ctx.beginPath();
  ctx.moveTo(Math.round(X(step)) + 0.5, pad.t);
  ctx.lineTo(Math.round(X(step)) + 0.5, pad.t + ph);
  ctx.stroke();
  ctx.restore();
}

const encodingCount = (n) => `${n} encoding${n === 1 ? '' : 's'}`;

/**
 * Digit tasks: training loss against step, one curve per encoding of
 * `series` ({ enc, curve, bucket }), on `canvas`, `width` CSS px wide, in
 * the colours `col` reads; "Press Start" unless `running`; the cursor at
 * step `cursor` unless null. Returns the canvas's aria-label.
 */
export function digitsLoss(canvas, { width, col, running, cursor = null }, series, totalSteps) {
  const chance = Math.log(MODEL.vocab); // cross-entropy of a uniform guess
  let maxLoss = chance;
  for (const s of series) for (const v of s.curve) if (v > maxLoss) maxLoss = v;
  const c = lossChart(canvas, width, { totalSteps, maxLoss, yLabel: 'loss', chance, col });
  drawCurves(c, series);
  if (cursor !== null) drawCursor(c, cursor);
  if (!running) pressStart(c);
  const losses = series
    .filter((s) => s.curve.length)
    .map((s) => `${LABELS[s.enc]} ${fixed(s.curve[s.curve.length - 1], 2)}`);
  return (
    `Training loss against step for ${encodingCount(series.length)} over ${totalSteps} steps; chance level ${fixed(chance, 2)}. ` +
    (losses.length ? `Latest loss: ${losses.join(', ')}.` : 'Not trained yet.') +
    ' The tables below have the numbers; the arrow keys read the curves point by point.'
  );
}

/**
 * Text: validation loss against step (`series`: { enc, val }). Behind the
 * live curves, where the settings are the recorded ones (`recorded`, else
 * null), each encoding's recorded range over the seeds (a band) and mean (a
 * thin line); where the text is the lesson's (`baselines`, else null), the
 * n-gram baselines as dashed lines. Returns the canvas's aria-label.
 */
export function textLoss(
  canvas,
  { width, col, running, cursor = null },
  series,
  totalSteps,
  recorded,
  baselines = null,
) {
  const chance = Math.log(TEXT.vocab);
  let maxLoss = 0;
  for (const s of series) for (const v of s.val ?? []) maxLoss = Math.max(maxLoss, v);
  if (recorded) for (const s of series) maxLoss = Math.max(maxLoss, ...recorded.results[s.enc].curve.max);
  const c = lossChart(canvas, width, { totalSteps, maxLoss, yLabel: 'validation loss', chance, col });
  const every = TEXT.evalEvery;
  if (baselines) drawBaselines(c, baselines);
  if (recorded) drawBands(c, series, recorded, every);
  drawPoints(c, series, every);
  if (baselines) labelBaselines(c, baselines);
  if (cursor !== null) drawCursor(c, cursor);
  if (!running && !recorded) pressStart(c);
  const live = series
    .filter((s) => s.val?.length)
    .map((s) => `${LABELS[s.enc]} ${fixed(s.val[s.val.length - 1], 2)} at step ${s.val.length * every}`);
  return (
    `Validation loss (nats per character) against step for ${encodingCount(series.length)} over ${totalSteps} steps; a uniform guess scores ${fixed(chance, 2)}. ` +
    (recorded ? `Shaded: the recorded runs, seeds ${recorded.seeds.join(', ')}. ` : '') +
    (baselines
      ? `Dashed: n-gram baselines, ${BASELINE_ROWS.map(([name]) => `${name} ${fixed(baselines.baselines[name][0], 2)}`).join(', ')}. `
      : '') +
    (live.length ? `This run: ${live.join(', ')}.` : 'Not trained here yet.') +
    ' The tables below have the numbers; the arrow keys read the curves point by point.'
  );
}

// a legend's sample of a line: an SVG line drawn with the class's stroke
const sample = (cls, width, dash) =>
  h(
    'svg:svg',
    { width: 36, height: 12 },
    h('svg:line', { x1: 0, y1: 6, x2: 36, y2: 6, class: cls, 'stroke-width': width, 'stroke-dasharray': dash || null }),
  );

/**
 * The chart's legend: a sample of each encoding's line (class l-<encoding>,
 * coloured by the widget's styles) and of the chance line. Returns the
 * list, its items by encoding (to hide the ones not chosen) and the chance
 * item's label (its ln N depends on the task).
 */
export function lossLegend() {
  const items = new Map(); // encoding -> <li>
  let baselineItem; // shown when the chart draws the n-gram baselines
  const chanceLabel = h('span', {}, 'chance (ln 10)');
  const legend = h(
    'ul',
    { class: 'legend', 'aria-hidden': 'true' }, // the table and the canvas's label carry the same names
    ENCODINGS.map((enc) => {
      const st = ENCODING_STYLES[enc];
      const li = h('li', {}, sample(`l-${enc}`, st.width, st.dash.join(' ')), LABELS[enc]);
      items.set(enc, li);
      return li;
    }),
    h('li', {}, sample('l-chance', 1.2, '1 3'), chanceLabel),
    (baselineItem = h('li', { hidden: true }, sample('l-baseline', 1, '6 3'), 'n-gram baselines (text)')),
  );
  return { legend, items, chanceLabel, baselineItem };
}
