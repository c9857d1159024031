// The widgets' small chart kit: axis steps and ticks, and the plot of one
// value per rotated pair on a log scale (wavelengths, angles) that
// rope-scaling-lab and rope-config-lab draw. Everything returns specs for
// patchSpecs (../base/dom.js), the one way a widget writes its markup, so a redraw
// keeps the SVG's nodes and changes only the attributes that moved.
import { css } from './theme.js';
import { h } from '../base/dom.js';

/**
 * The classes of the SVG plots drawn from these specs: axes, grid lines,
 * reference lines (.ref), the cursor, and text (.muted; .reflabel keeps a
 * label readable over the lines).
 */
export const plotStyles = css`
  svg:focus-visible { outline: 3px solid var(--pe-accent); outline-offset: 2px; }
  .axis { stroke: var(--pe-muted); stroke-width: 1; fill: none; }
  .grid { stroke: var(--pe-border); stroke-width: 1; }
  .ref { stroke: var(--pe-fg); stroke-width: 1.2; }
  .cursor { stroke: var(--pe-accent); stroke-width: 1.5; stroke-dasharray: 3 3; }
  text { fill: var(--pe-fg); font: 11px system-ui, sans-serif; }
  text.muted { fill: var(--pe-muted); }
  text.reflabel { paint-order: stroke; stroke: var(--pe-bg); stroke-width: 3px; }
`;

/** 1, 2 or 5 times a power of ten, the nearest to `raw` (an axis step). */
export function niceStep(raw) {
  const p = 10 ** Math.floor(Math.log10(raw));
  const r = raw / p;
  return (r < 1.5 ? 1 : r < 3.5 ? 2 : r < 7.5 ? 5 : 10) * p;
}

/** Tick values from lo to hi, about `count` steps of niceStep; a tick near zero is 0. */
export function niceTicks(lo, hi, count = 4) {
  const step = niceStep((hi - lo) / count);
  const out = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) out.push(Math.abs(v) < step / 2 ? 0 : v);
  return out;
}

/** A tick's text with as many decimals as its step needs (0.25 steps: 2). */
export function tickText(v, step) {
  const digits = Math.max(0, -Math.floor(Math.log10(step)));
  return (Math.abs(v) < step / 2 ? 0 : v).toFixed(digits);
}

/** A power of ten as a log axis labels it: 0.01, 1, 10, 1k, 1M, 1G. */
export function powerText(e) {
  const units = [
    [9, 'G'],
    [6, 'M'],
    [3, 'k'],
  ];
  for (const [u, s] of units) if (e >= u) return `${10 ** (e - u)}${s}`;
  return e >= 0 ? String(10 ** e) : String(Number((10 ** e).toPrecision(1)));
}

/**
 * An SVG path through values[i] at (X(i), Y(values[i])): every value, or,
 * with more than two per pixel column of the width pw, the lowest and the
 * highest of each column in the order they come (the same picture at a
 * fraction of the path's length: a pasted head of 32768 pairs is redrawn on
 * every change of a control).
 */
export function curvePath(values, X, Y, pw) {
  const n = values.length;
  const parts = [];
  const point = (i) => parts.push(`${parts.length ? 'L' : 'M'}${X(i).toFixed(1)},${Y(values[i]).toFixed(1)}`);
  if (n <= 2 * pw) {
    for (let i = 0; i < n; i++) point(i);
    return parts.join('');
  }
  const cols = Math.max(1, Math.floor(pw));
  for (let c = 0, i = 0; c < cols; c++) {
    const end = c === cols - 1 ? n : Math.round(((c + 1) * n) / cols);
    let lo = i;
    let hi = i;
    for (let k = i; k < end; k++) {
      if (values[k] < values[lo]) lo = k;
      if (values[k] > values[hi]) hi = k;
    }
    point(Math.min(lo, hi));
    if (lo !== hi) point(Math.max(lo, hi));
    i = end;
  }
  return parts.join('');
}

/**
 * One value per pair i = 0..n-1 on a log y axis: the specs of the grid (a
 * line per power of ten), the pair-index ticks, the axes and their labels,
 * the reference lines ({ v, cls, label, right }), the curves ({ values, cls,
 * dash, d }: d, when given, is the curve's path already made with these
 * axes), and dots ({ values, flags, cls }: one per pixel column at most,
 * where flags[i]). The y range covers every curve and reference line.
 * Returns { specs, X, Y, pw, l0, l1 }.
 */
export function logPairPlot({
  W,
  H,
  pad,
  n,
  curves,
  refs = [],
  dots = null,
  yLabel,
  xLabel = 'pair index i (fast → slow)',
}) {
  let lo = Infinity;
  let hi = 0;
  for (const c of curves)
    for (const v of c.values) {
      lo = Math.min(lo, v);
      hi = Math.max(hi, v);
    }
  for (const r of refs) {
    lo = Math.min(lo, r.v);
    hi = Math.max(hi, r.v);
  }
  const l0 = Math.floor(Math.log10(lo));
  const l1 = Math.max(l0 + 1, Math.ceil(Math.log10(hi)));
  const pw = W - pad.l - pad.r;
  const ph = H - pad.t - pad.b;
  const X = (i) => pad.l + (n === 1 ? 0 : (i / (n - 1)) * pw);
  const Y = (v) => pad.t + (1 - (Math.log10(v) - l0) / (l1 - l0)) * ph;
  const specs = [];
  const every = Math.max(1, Math.ceil((l1 - l0) / 8));
  for (let e = l0; e <= l1; e += every) {
    const y = Y(10 ** e);
    specs.push(['svg:line', { x1: pad.l, x2: W - pad.r, y1: y, y2: y, class: 'grid' }]);
    specs.push(['svg:text', { x: pad.l - 5, y: y + 4, 'text-anchor': 'end' }, powerText(e)]);
  }
  const step = Math.max(1, niceStep(n / Math.max(2, Math.floor(pw / 55))));
  for (let i = 0; i < n; i += step) {
    specs.push(['svg:line', { x1: X(i), x2: X(i), y1: H - pad.b, y2: H - pad.b + 4, class: 'axis' }]);
    specs.push(['svg:text', { x: X(i), y: H - pad.b + 16, 'text-anchor': 'middle' }, String(i)]);
  }
  specs.push(['svg:path', { d: `M${pad.l},${pad.t} V${H - pad.b} H${W - pad.r}`, class: 'axis' }]);
  specs.push(['svg:text', { x: pad.l + pw / 2, y: H - 3, 'text-anchor': 'middle', class: 'muted' }, xLabel]);
  specs.push([
    'svg:text',
    {
      x: 12,
      y: pad.t + ph / 2,
      'text-anchor': 'middle',
      class: 'muted',
      transform: `rotate(-90 12 ${pad.t + ph / 2})`,
    },
    yLabel,
  ]);
  for (const r of refs) {
    specs.push(['svg:line', { x1: pad.l, x2: W - pad.r, y1: Y(r.v), y2: Y(r.v), class: r.cls }]);
    // a second line's label sits at the right end, clear of the first's
    specs.push([
      'svg:text',
      {
        x: r.right ? W - pad.r - 4 : pad.l + 4,
        y: Y(r.v) - 4,
        class: 'reflabel',
        'text-anchor': r.right ? 'end' : null,
      },
      r.label,
    ]);
  }
  for (const c of curves)
    specs.push([
      'svg:path',
      { d: c.d ?? curvePath(c.values, X, Y, pw), class: c.cls, 'stroke-dasharray': c.dash || null },
    ]);
  if (dots) {
    let lastX = -Infinity;
    for (let i = 0; i < n; i++) {
      if (!dots.flags[i] || X(i) - lastX < 1) continue;
      lastX = X(i);
      specs.push(['svg:circle', { cx: lastX, cy: Y(dots.values[i]), r: 3.2, class: dots.cls }]);
    }
  }
  return { specs, X, Y, pw, l0, l1 };
}

/**
 * The spec of a plot's vertical cursor line at x, or hidden (x null): drawn
 * last, where the widget's _drawCursor then moves it, so a redraw writes it
 * once and keeps it where the reader left it.
 */
export function cursorLine(pad, H, x) {
  const at = x === null ? -10 : x;
  return [
    'svg:line',
    { class: 'cursor', y1: pad.t, y2: H - pad.b, x1: at, x2: at, visibility: x === null ? 'hidden' : 'visible' },
  ];
}

/**
 * A plot's legend (an element, built once): per entry a sample of its line
 * `width` px long, class cls and dashes dash, or with dot (a radius) its
 * marker, then its label. entries: [{ cls, label, dash?, dot? }].
 */
export function plotLegend(entries, width = 30) {
  return h(
    'ul',
    { class: 'legend' },
    entries.map((e) =>
      h(
        'li',
        {},
        h(
          'svg:svg',
          { width, height: 12, 'aria-hidden': 'true' },
          e.dot
            ? h('svg:circle', { cx: width / 2, cy: 6, r: e.dot, class: e.cls })
            : h('svg:line', { x1: 0, y1: 6, x2: width, y2: 6, class: e.cls, 'stroke-dasharray': e.dash || null }),
        ),
        e.label,
      ),
    ),
  );
}
