// <rope-offset-check>'s plot: the score q·k against the offset n − m, for
// q at position m and at m + shift, RoPE beside an additive encoding, with a
// marker at the current offset and the cursor line last. Drawn as marks
// ([tag, attrs, text or child marks]) for ../base/dom.js's patchSpecs, so the
// widget keeps the plot's nodes and sets only what changed.
//
// state: { lo, hi, count, off, rope, m, shift, series }, series[key] a
// Float64Array of `count` scores for offsets lo..hi (NaN where the key's
// position would be negative).
import { niceStep, tickText, cursorLine } from '../drawing/chart.js';
import { fixed } from '../printing/pyformat.js';

export const PLOT_H = 230;
export const PAD = { l: 46, r: 12, t: 22, b: 34 };
export const SERIES = [
  { key: 'rope', label: 'RoPE, q at position m', cls: 's-rope', line: true },
  { key: 'ropeShift', label: 'RoPE, q at position m + shift', cls: 's-rope-shift', line: false },
  { key: 'add', label: 'additive, q at position m', cls: 's-add', line: true },
  { key: 'addShift', label: 'additive, q at position m + shift', cls: 's-add-shift', line: true },
];

/**
 * The plot `width` CSS px wide (at least 240) with the cursor at offset
 * `cursor` (null: hidden): { specs, geom: { X(offset) -> x, pw, W }, label
 * (the svg's aria-label) }.
 */
export function offsetPlot(state, width, cursor) {
  const { lo, hi, count, off, rope, m, shift, series } = state;
  const W = Math.max(240, width);
  let yLo = Infinity;
  let yHi = -Infinity;
  for (const s of SERIES)
    for (const v of series[s.key])
      if (Number.isFinite(v)) {
        yLo = Math.min(yLo, v);
        yHi = Math.max(yHi, v);
      }
  yLo = Math.min(yLo, 0);
  yHi = Math.max(yHi, 0);
  if (yHi - yLo < 1e-6) {
    yHi += 1;
    yLo -= 1;
  }
  const padY = (yHi - yLo) * 0.06;
  yLo -= padY;
  yHi += padY;
  const pw = W - PAD.l - PAD.r;
  const ph = PLOT_H - PAD.t - PAD.b;
  const X = (d) => PAD.l + ((d - lo) / (hi - lo)) * pw;
  const Y = (v) => PAD.t + (1 - (v - yLo) / (yHi - yLo)) * ph;
  // the marks as [tag, attrs, text or child marks]; patchSpecs keeps the
  // plot's nodes and sets only what changed (no throwaway nodes per update)
  const kids = [];
  // y grid and ticks
  const step = niceStep((yHi - yLo) / 4);
  for (let v = Math.ceil(yLo / step) * step; v <= yHi; v += step) {
    const y = Y(v);
    kids.push([
      'svg:line',
      { x1: PAD.l, x2: W - PAD.r, y1: y, y2: y, class: Math.abs(v) < step / 2 ? 'zero' : 'grid' },
    ]);
    kids.push(['svg:text', { x: PAD.l - 5, y: y + 4, 'text-anchor': 'end' }, tickText(v, step)]);
  }
  // x ticks
  const xs = niceStep((hi - lo) / Math.max(2, Math.floor(pw / 60)));
  for (let d = Math.ceil(lo / xs) * xs; d <= hi; d += xs) {
    kids.push(['svg:line', { x1: X(d), x2: X(d), y1: PLOT_H - PAD.b, y2: PLOT_H - PAD.b + 4, class: 'axis' }]);
    kids.push(['svg:text', { x: X(d), y: PLOT_H - PAD.b + 16, 'text-anchor': 'middle' }, String(d)]);
  }
  kids.push(['svg:g', { class: 'axis' }, [['svg:path', { d: `M${PAD.l},${PAD.t} V${PLOT_H - PAD.b} H${W - PAD.r}` }]]]);
  kids.push([
    'svg:text',
    { x: PAD.l + pw / 2, y: PLOT_H - 2, 'text-anchor': 'middle', class: 'muted' },
    'offset n − m (positions)',
  ]);
  kids.push(['svg:text', { x: 4, y: PAD.t - 10, class: 'muted' }, 'score']);
  for (const s of SERIES) {
    const v = series[s.key];
    if (s.line) {
      let d = '';
      let pen = false;
      for (let i = 0; i < count; i++) {
        if (!Number.isFinite(v[i])) {
          pen = false;
          continue;
        }
        d += `${pen ? 'L' : 'M'}${X(lo + i).toFixed(1)},${Y(v[i]).toFixed(1)}`;
        pen = true;
      }
      kids.push(['svg:path', { d, class: s.cls }]);
    } else {
      const every = Math.max(1, Math.ceil(count / 60));
      for (let i = 0; i < count; i += every) {
        if (Number.isFinite(v[i]))
          kids.push(['svg:circle', { cx: X(lo + i).toFixed(1), cy: Y(v[i]).toFixed(1), r: 3, class: s.cls }]);
      }
    }
  }
  // the current offset
  kids.push(['svg:circle', { cx: X(off), cy: Y(rope), r: 7, class: 'marker' }]);
  kids.push([
    'svg:text',
    { x: Math.min(X(off) + 10, W - 70), y: Math.max(Y(rope) - 12, PAD.t + 10), class: 'marker-label' },
    `n − m = ${off}`,
  ]);
  // the cursor line where _drawCursor puts it (so it is written once)
  kids.push(cursorLine(PAD, PLOT_H, cursor === null ? null : X(cursor)));
  const label = `Line plot of the score against the offset n − m from ${lo} to ${hi}. RoPE at position ${m} and at position ${m + shift} give one curve; the two additive curves differ. Marker at offset ${off}, RoPE score ${fixed(rope, 5)}.`;
  return { specs: kids, geom: { X, pw, W }, label };
}
