// <rope-scaling-lab>: what each RoPE context-extension method does to the
// frequencies. For every pair i the wavelength 2π/θ_i (seats per full turn)
// under no scaling, linear interpolation, dynamic NTK, YaRN and Llama 3,
// side by side on a log scale. Frequencies and YaRN's attention factor come
// from the core (ropeInvFreq, ropeAttentionFactor).
import { PeElement, define, css, h, setAttr, setText, patchSpecs } from '../lib/pe-element.js';
import { fixed, exponential, grouped } from '../lib/pyformat.js';
import { pairAt, movePairCursor } from '../lib/grid-cursor.js';

const PLOT_H = 300;
const PAD = { l: 50, r: 14, t: 14, b: 38 };
const METHODS = [
  { key: 'none', short: 'none', label: 'no scaling', cls: 'm-none', dash: '' },
  { key: 'linear', short: 'linear', label: 'linear (position interpolation)', cls: 'm-linear', dash: '9 5' },
  { key: 'dynamic', short: 'dynamic NTK', label: 'dynamic NTK', cls: 'm-dynamic', dash: '2 4' },
  { key: 'yarn', short: 'YaRN', label: 'YaRN', cls: 'm-yarn', dash: '10 4 2 4' },
  { key: 'llama3', short: 'Llama 3', label: 'Llama 3', cls: 'm-llama3', dash: '4 3' },
];

function fmtLen(x) {
  if (!Number.isFinite(x)) return String(x);
  if (x >= 1e7) return exponential(x, 2);
  // grouped() writes what toLocaleString('en-US') does for these integers, a
  // hundred times faster (it is called for every table cell and label)
  if (x >= 100) return grouped(String(Math.round(x)));
  return fixed(x, 2);
}

class RopeScalingLab extends PeElement {
  static tag = 'rope-scaling-lab';
  static description = 'Wavelength per RoPE pair under linear, dynamic NTK, YaRN and Llama 3 scaling, side by side.';
  static params = {
    dim: { type: 'int', default: 128, min: 4, max: 512, even: true, label: 'head dim' },
    base: { type: 'float', default: 10000, min: 2, max: 1e8, control: 'number', label: 'base' },
    factor: { type: 'float', default: 4, min: 1, max: 32, step: 0.5, label: 'factor' },
    'original-max-positions': { type: 'int', default: 8192, min: 16, max: 4194304, control: 'number', label: 'original context' },
    'seq-len': { type: 'int', default: 32768, min: 1, max: 16777216, control: 'number', label: 'current length (dynamic NTK)' },
  };

  static styles = css`
    :host { --m1: #6b7280; --m2: #d55e00; --m3: #0072b2; --m4: #009e73; --m5: #cc79a7; }
    @media (prefers-color-scheme: dark) { :host { --m1: #9aa4b1; --m2: #ff9e4a; --m3: #56b4e9; --m4: #3fd0a4; --m5: #e6a0c8; } }
    .plot-wrap { margin-top: 8px; }
    svg:focus-visible { outline: 3px solid var(--pe-accent); outline-offset: 2px; }
    .axis { stroke: var(--pe-muted); stroke-width: 1; fill: none; }
    .grid { stroke: var(--pe-border); stroke-width: 1; }
    .ref { stroke: var(--pe-fg); stroke-width: 1.2; }
    .ref2 { stroke: var(--pe-fg); stroke-width: 1.2; stroke-dasharray: 1 3; }
    .cursor { stroke: var(--pe-accent); stroke-width: 1.5; stroke-dasharray: 3 3; }
    text { fill: var(--pe-fg); font: 11px system-ui, sans-serif; }
    text.muted { fill: var(--pe-muted); }
    text.reflabel { paint-order: stroke; stroke: var(--pe-bg); stroke-width: 3px; }
    path.m-none, line.m-none { stroke: var(--m1); stroke-width: 5; opacity: .55; fill: none; }
    path.m-linear, line.m-linear { stroke: var(--m2); stroke-width: 2; fill: none; }
    path.m-dynamic, line.m-dynamic { stroke: var(--m3); stroke-width: 2.2; fill: none; }
    path.m-yarn, line.m-yarn { stroke: var(--m4); stroke-width: 2.2; fill: none; }
    path.m-llama3, line.m-llama3 { stroke: var(--m5); stroke-width: 2; fill: none; }
    .legend { display: flex; flex-wrap: wrap; gap: 4px 16px; font-size: .85em; margin: 4px 0 0; padding: 0; list-style: none; }
    .legend li { display: inline-flex; align-items: center; gap: 6px; }
    .legend svg { display: inline-block; }
    .note { font-size: .88em; color: var(--pe-muted); }
    .summary th:first-child { text-align: left; }
    .summary td, .summary tbody th { white-space: nowrap; }
    .summary th { overflow-wrap: normal; }
    .summary caption { font-family: system-ui, sans-serif; }
  `;

  build(root) {
    this.svg = h('svg:svg', { role: 'img', tabindex: '0', height: PLOT_H, width: 300 });
    this.plotWrap = h('div', { class: 'plot-wrap' }, this.svg);
    this.readout = h('p', { class: 'readout', 'aria-live': 'polite' });
    this.summary = h('div', { class: 'table-wrap summary' });
    this.note = h('p', { class: 'note' });
    this.table = this.tableAlternative('Show every pair’s wavelength as a table');
    this.table.addEventListener('toggle', () => this.table.open && this._state && this._fillTable());
    const legend = h(
      'ul',
      { class: 'legend' },
      METHODS.map((m) =>
        h('li', {}, h('svg:svg', { width: 36, height: 12, 'aria-hidden': 'true' }, h('svg:line', { x1: 0, y1: 6, x2: 36, y2: 6, class: m.cls, 'stroke-dasharray': m.dash || null })), m.label),
      ),
    );
    legend.append(
      h('li', {}, h('svg:svg', { width: 36, height: 12, 'aria-hidden': 'true' }, h('svg:line', { x1: 0, y1: 6, x2: 36, y2: 6, class: 'ref' })), 'original context'),
      h('li', {}, h('svg:svg', { width: 36, height: 12, 'aria-hidden': 'true' }, h('svg:line', { x1: 0, y1: 6, x2: 36, y2: 6, class: 'ref2' })), 'factor × original'),
    );
    root.append(
      h('h3', {}, 'RoPE scaling: the wavelength of every pair under five methods'),
      h('p', { class: 'hint' }, 'Drag the factor: linear stretches every pair, dynamic NTK raises the base so fast pairs barely move, YaRN and Llama 3 leave the fast pairs alone and stretch only those whose wavelength is long compared with the original context.'),
      this.controls(['factor', 'dim', 'base', 'original-max-positions', 'seq-len']),
      this.plotWrap,
      legend,
      this.readout,
      this.summary,
      this.note,
      this.table,
    );
    this.cursor = null; // pair under the pointer / keyboard cursor (transient)
    this.svg.addEventListener('pointermove', (e) => this._pointer(e));
    this.svg.addEventListener('pointerleave', () => { this.cursor = null; this._drawCursor(); });
    this.svg.addEventListener('keydown', (e) => this._key(e));
    this._width = 0;
    this._ro = new ResizeObserver(() => this.plotWrap.clientWidth !== this._width && this.schedule());
    this._ro.observe(this.plotWrap);
  }

  update(pe, p) {
    // widths come from a ResizeObserver (widthOf) and are read before this
    // update writes anything: an update never forces a layout
    const plotWidth = this.widthOf(this.plotWrap);
    const orig = p.originalMaxPositions;
    const f = p.factor;
    const scalings = {
      none: null,
      linear: { type: 'linear', factor: f },
      dynamic: { type: 'dynamic', factor: f, maxPositions: orig, seqLen: p.seqLen },
      yarn: { type: 'yarn', factor: f, originalMaxPositions: orig },
      llama3: { type: 'llama3', factor: f, originalMaxPositions: orig },
    };
    const pairs = p.dim / 2;
    const inv = {};
    const wl = {};
    const attn = {};
    // each method's frequencies depend on its own parameters only: kept per
    // parameters (a slider dragged back and forth, or the factor, which
    // leaves "none" alone, recomputes only what changed)
    if (this._cacheCore !== pe) {
      this._cache = new Map();
      this._cacheCore = pe;
    }
    for (const m of METHODS) {
      const key = JSON.stringify([m.key, p.dim, p.base, scalings[m.key]]);
      let r = this._cache.get(key);
      if (r) this._cache.delete(key); // to the end: most recently used
      else {
        const mInv = pe.ropeInvFreq(p.dim, { base: p.base, scaling: scalings[m.key] });
        const w = new Float64Array(pairs);
        for (let i = 0; i < pairs; i++) w[i] = (2 * Math.PI) / mInv[i];
        r = { inv: mInv, attn: pe.ropeAttentionFactor(scalings[m.key]), wl: w };
      }
      this._cache.set(key, r);
      inv[m.key] = r.inv;
      attn[m.key] = r.attn;
      wl[m.key] = r.wl;
    }
    while (this._cache.size > 40) this._cache.delete(this._cache.keys().next().value);
    this._state = { pairs, wl, inv, attn, orig, f, p };
    this._draw(plotWidth);
    this._drawCursor();

    // summary table
    const rows = METHODS.map((m) => {
      let changed = 0;
      for (let i = 0; i < pairs; i++) if (inv[m.key][i] !== inv.none[i]) changed++;
      let lo = Infinity;
      let hi = 0;
      for (const v of wl[m.key]) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
      return [m.short, fmtLen(lo), fmtLen(hi), `${changed}/${pairs}`, fixed(attn[m.key], 4)];
    });
    patchSpecs(this.summary, [
      ['table', {}, [
        ['caption', {}, `Wavelength λ = 2π/θᵢ in seats per full turn, head dim ${p.dim}, base ${p.base}, factor ${f}, original context ${orig}`],
        ['thead', {}, [['tr', {}, ['method', 'shortest λ', 'longest λ', 'pairs changed', 'attention factor'].map((x) => ['th', { scope: 'col' }, x])]]],
        ['tbody', {}, rows.map((r) => ['tr', {}, r.map((x, i) => (i === 0 ? ['th', { scope: 'row' }, x] : ['td', {}, x]))])],
      ]],
    ]);
    setText(this.note,
      `Dynamic NTK is shown at a current length of ${p.seqLen} (it only changes anything once the length passes ${orig}). ` +
      `YaRN uses β_fast 32 and β_slow 1 and multiplies cos and sin by its attention factor; Llama 3 uses low/high frequency factors 1 and 4, so pairs with wavelength above ${orig} are divided by the factor and those below ${orig / 4} are kept.`);
    if (this.table.open) this._fillTable();
  }

  _draw(width = this.plotWrap.clientWidth) {
    const { pairs, wl, orig, f } = this._state;
    this._width = width;
    const W = Math.max(260, this._width);
    setAttr(this.svg, 'width', W);
    let hi = orig * f;
    let lo = Infinity;
    for (const m of METHODS) for (const v of wl[m.key]) { hi = Math.max(hi, v); lo = Math.min(lo, v); }
    lo = Math.min(lo, orig);
    const l0 = Math.floor(Math.log10(lo));
    const l1 = Math.ceil(Math.log10(hi));
    const pw = W - PAD.l - PAD.r;
    const ph = PLOT_H - PAD.t - PAD.b;
    const X = (i) => PAD.l + (pairs === 1 ? 0 : (i / (pairs - 1)) * pw);
    const Y = (v) => PAD.t + (1 - (Math.log10(v) - l0) / Math.max(1, l1 - l0)) * ph;
    this._geom = { X, Y, pw, W };
    // the marks as [tag, attrs, text]; patchSpecs keeps the plot's nodes and
    // sets only what changed (no throwaway nodes per update)
    const kids = [];
    for (let e = l0; e <= l1; e++) {
      const y = Y(10 ** e);
      kids.push(['svg:line', { x1: PAD.l, x2: W - PAD.r, y1: y, y2: y, class: 'grid' }]);
      kids.push(['svg:text', { x: PAD.l - 5, y: y + 4, 'text-anchor': 'end' }, compact(10 ** e)]);
    }
    const xs = Math.max(1, niceStep(pairs / Math.max(2, Math.floor(pw / 55))));
    for (let i = 0; i < pairs; i += xs) {
      kids.push(['svg:line', { x1: X(i), x2: X(i), y1: PLOT_H - PAD.b, y2: PLOT_H - PAD.b + 4, class: 'axis' }]);
      kids.push(['svg:text', { x: X(i), y: PLOT_H - PAD.b + 16, 'text-anchor': 'middle' }, String(i)]);
    }
    kids.push(['svg:path', { d: `M${PAD.l},${PAD.t} V${PLOT_H - PAD.b} H${W - PAD.r}`, class: 'axis' }]);
    kids.push(['svg:text', { x: PAD.l + pw / 2, y: PLOT_H - 3, 'text-anchor': 'middle', class: 'muted' }, 'pair index i (fast → slow)']);
    kids.push(['svg:text', { x: 12, y: PAD.t + ph / 2, 'text-anchor': 'middle', class: 'muted', transform: `rotate(-90 12 ${PAD.t + ph / 2})` }, 'wavelength (seats, log scale)']);
    // reference lines
    kids.push(['svg:line', { x1: PAD.l, x2: W - PAD.r, y1: Y(orig), y2: Y(orig), class: 'ref' }]);
    kids.push(['svg:text', { x: PAD.l + 4, y: Y(orig) - 4, class: 'reflabel' }, `original context ${grouped(String(orig))}`]);
    if (f > 1) {
      kids.push(['svg:line', { x1: PAD.l, x2: W - PAD.r, y1: Y(orig * f), y2: Y(orig * f), class: 'ref2' }]);
      kids.push(['svg:text', { x: PAD.l + 4, y: Y(orig * f) - 4, class: 'reflabel' }, `${f} × original = ${fmtLen(orig * f)}`]);
    }
    // a method's curve is kept with its wavelengths (cached per parameters)
    // while the axes stay the same: the factor leaves "none" where it is
    this._curves ??= new WeakMap();
    const axes = `${W},${l0},${l1}`;
    for (const m of METHODS) {
      const w = wl[m.key];
      let d = this._curves.get(w)?.axes === axes ? this._curves.get(w).d : null;
      if (d === null) {
        d = '';
        for (let i = 0; i < pairs; i++) d += `${i ? 'L' : 'M'}${X(i).toFixed(1)},${Y(w[i]).toFixed(1)}`;
        this._curves.set(w, { axes, d });
      }
      kids.push(['svg:path', { d, class: m.cls, 'stroke-dasharray': m.dash || null }]);
    }
    // the cursor line where _drawCursor puts it (so it is written once)
    const cx = this.cursor === null ? -10 : X(Math.min(this.cursor, pairs - 1));
    kids.push(['svg:line', { class: 'cursor', y1: PAD.t, y2: PLOT_H - PAD.b, x1: cx, x2: cx, visibility: this.cursor === null ? 'hidden' : 'visible' }]);
    patchSpecs(this.svg, kids);
    this._cursorLine = this.svg.lastElementChild;
    const last = pairs - 1;
    setAttr(this.svg,
      'aria-label',
      `Wavelength of each of ${pairs} pairs on a log scale for five methods. The last pair: ${METHODS.map((m) => `${m.label} ${fmtLen(wl[m.key][last])}`).join(', ')}. Reference line at the original context ${orig}. Focus it and use the arrow keys to read a pair.`,
    );
  }

  _pointer(e) {
    if (!this._geom) return;
    this.cursor = pairAt(e, this.svg, { l: PAD.l, pw: this._geom.pw }, this._state.pairs);
    this._drawCursor();
  }

  _key(e) {
    if (!this._state) return;
    const moved = movePairCursor(e, this.cursor, this._state.pairs);
    if (!moved) return;
    if (moved.cur !== null) e.preventDefault();
    this.cursor = moved.cur;
    this._drawCursor();
  }

  _drawCursor() {
    if (!this._state || !this._cursorLine) return;
    if (this.cursor === null) {
      setAttr(this._cursorLine, 'visibility', 'hidden');
      setText(this.readout, 'Point at the plot, or focus it and use the arrow keys (Shift: 8 at a time), to read one pair.');
      return;
    }
    const i = Math.min(this.cursor, this._state.pairs - 1);
    const x = this._geom.X(i);
    setAttr(this._cursorLine, 'x1', x);
    setAttr(this._cursorLine, 'x2', x);
    setAttr(this._cursorLine, 'visibility', 'visible');
    const { wl } = this._state;
    setText(this.readout, `pair ${i} wavelength: ${METHODS.map((m) => `${m.short} ${fmtLen(wl[m.key][i])}`).join(' · ')}`);
  }

  _fillTable() {
    const { pairs, wl, inv } = this._state;
    const rows = [];
    for (let i = 0; i < pairs; i++) {
      rows.push([String(i), exponential(inv.none[i], 3), ...METHODS.map((m) => fmtLen(wl[m.key][i]))]);
    }
    this.setTable(this.table, 'Wavelength 2π/θᵢ of every pair (seats per full turn)', ['pair i', 'θᵢ unscaled', ...METHODS.map((m) => m.short)], rows);
  }
}

// 1, 10, 100, 1k, 10k, 100k, 1M, ... for log-axis ticks
function compact(x) {
  const units = [[1e9, 'G'], [1e6, 'M'], [1e3, 'k']];
  for (const [u, s] of units) if (x >= u) return `${x / u}${s}`;
  return String(x);
}

function niceStep(raw) {
  const p = 10 ** Math.floor(Math.log10(raw));
  const r = raw / p;
  return (r < 1.5 ? 1 : r < 3.5 ? 2 : r < 7.5 ? 5 : 10) * p;
}

define(RopeScalingLab);
