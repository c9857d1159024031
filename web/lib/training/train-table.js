// <train-lab>'s tables. The results: what a run measured at the training
// length and at 2x and 4x it, as { caption, headers, rows, footnote } for
// ../base/dom.js's tableSpec (the first cell of a row is its header; a cell
// is text or a list of child specs). The digit tasks show token accuracy,
// the text task validation loss; a cell is '…' until measured, and '—' with
// a footnote where a learned table has no row for the length (the model
// cannot run there at all). The curves: the loss chart's points as rows.
//
// series: per encoding { enc, curve, val, acc1x, result } (TrainRunner's
// series()); L: the training length.
import { fixed } from '../printing/pyformat.js';
import { ENCODING_LABELS as LABELS, MODEL, TEXT, MULTIPLES, EVAL_EVERY } from './train-session.js';

const CHANCE_ACC = 1 / MODEL.vocab;
/** The n-gram baselines the text task shows (the uniform guess is the chart's chance line), and their names. */
export const BASELINE_ROWS = [
  ['1-gram', '1-gram (letter frequencies)'],
  ['2-gram', '2-gram (the current character)'],
  ['3-gram', '3-gram'],
  ['4-gram', '4-gram'],
];
const chanceLoss = (vocab) => Math.log(vocab); // cross-entropy of a uniform guess

const pct = (x) => (x === null || x === undefined ? '…' : `${fixed(100 * x, 1)}`);

// '—*' for a length the model cannot run at; the reason is read aloud
const noRow = (short) => [
  ['span', { title: short }, ['—', ['sup', {}, '*'], ['span', { class: 'visually-hidden' }, ` ${short}`]]],
];

/**
 * Digit tasks: token accuracy (%) per encoding and multiple, and the loss.
 * `done`: the run finished (its results are in the series); `task` and
 * `steps`: what the caption names.
 */
export function accuracyTable(series, L, { done, task, steps }) {
  const headers = ['encoding', 'loss', ...MULTIPLES.map((m) => `${m}× (${m * L})`)];
  let footnote = '';
  const rows = series.map((s) => {
    // the first cell is the row's header
    const r = s.result;
    const loss = r ? r.finalLoss : s.curve.length ? s.curve[s.curve.length - 1] : null;
    const cells = [LABELS[s.enc], loss === null ? '…' : fixed(loss, 3)];
    for (const m of MULTIPLES) {
      const key = `acc${m}x`;
      if (r && r[key] === null) {
        // a learned table past its rows (it has L, one per trained position):
        // the model cannot run at this length at all
        const full = r[`reason${m}x`] ?? '';
        const short = `no row past ${L - 1}`;
        footnote ||= `${LABELS[s.enc]}: ${short}. ${full.charAt(0).toUpperCase()}${full.slice(1)}.`;
        cells.push(noRow(short));
      } else if (r) cells.push(pct(r[key]));
      else if (m === 1 && s.acc1x !== null && s.acc1x !== undefined) cells.push(pct(s.acc1x));
      else cells.push('…');
    }
    return cells;
  });
  const caption = done
    ? `Token accuracy (%) on ${task}, trained ${steps} steps at length ${L}; chance is ${100 * CHANCE_ACC}%. Loss: mean of the last 50 steps.`
    : `Token accuracy (%) on ${task}; chance is ${100 * CHANCE_ACC}%. While training, 1× is measured every ${EVAL_EVERY} steps and the loss is the latest; 2× and 4× come at the end.`;
  return { caption, headers, rows, footnote };
}

/**
 * Text: validation loss per encoding and multiple, and where the settings
 * are the recorded ones (`recorded`, else null) the recorded runs' 1x mean
 * and range. `done`: the run finished. `baselines` (text-task.js's
 * baselinesFor, or null): the n-gram models' losses as reference rows after
 * the encodings' (`references` says how many).
 */
export function textLossTable(series, L, recorded, { done, baselines = null }) {
  const fmt = (x) => (x === null || x === undefined ? '…' : fixed(x, 3));
  const span = (st) => (st.mean === null ? '—' : `${fixed(st.mean, 3)} (${fixed(st.min, 3)}–${fixed(st.max, 3)})`);
  const headers = ['encoding', ...MULTIPLES.map((m) => `${m}× (${m * L})`)];
  if (recorded) headers.push(`recorded, 1× (mean, range of ${recorded.seeds.length} seeds)`);
  let footnote = '';
  const rows = series.map((s) => {
    const r = s.result;
    const cells = [LABELS[s.enc]];
    for (const m of MULTIPLES) {
      if (r && r[`loss${m}x`] === null) {
        const short = `no row past ${L - 1}`;
        footnote ||= `${LABELS[s.enc]}: ${short}.`;
        cells.push(noRow(short));
      } else if (r) cells.push(fmt(r[`loss${m}x`]));
      else if (m === 1 && s.val?.length) cells.push(fmt(s.val[s.val.length - 1]));
      else cells.push('…');
    }
    if (recorded) cells.push(span(recorded.results[s.enc].loss1x));
    return cells;
  });
  let references = 0;
  if (baselines)
    for (const [name, label] of BASELINE_ROWS) {
      rows.push([label, ...baselines.baselines[name].map((x) => fixed(x, 3)), ...(recorded ? [''] : [])]);
      references++;
    }
  const caption =
    `Validation loss (nats per character; a uniform guess: ${fixed(chanceLoss(TEXT.vocab), 2)}) on held-out windows of the text at the training length and at 2× and 4× it.` +
    (baselines ? ' Last rows: n-gram models counted on the same training text, for reference.' : '') +
    (done ? '' : ` While training, 1× is measured every ${TEXT.evalEvery} steps; 2× and 4× come at the end.`);
  return { caption, headers, rows, footnote, references };
}

/**
 * The loss chart's curves as a table (its text alternative): a row per point
 * of loss-chart.js's lossPoints (the steps it covers), a column per
 * encoding, '…' where an encoding has not got there yet. Rows as a function:
 * the table is built only while open.
 */
export function curveTable(points, series, task) {
  const caption =
    task === 'text'
      ? `Validation loss (nats per character) every ${TEXT.evalEvery} steps, as the chart draws it.`
      : 'Training loss, as the chart draws it: each point is the mean loss over its steps.';
  const headers = [task === 'text' ? 'step' : 'steps', ...series.map((s) => LABELS[s.enc])];
  const rows = () =>
    Array.from({ length: points.count }, (_, i) => [
      points.span(i).replace(/^steps? /, ''),
      ...series.map((s) => (points.value(s, i) === undefined ? '…' : fixed(points.value(s, i), 3))),
    ]);
  return { caption, headers, rows };
}
