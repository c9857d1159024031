// <rope-scaling-lab>: what each RoPE context-extension method does to the
// frequencies. For every pair i the wavelength 2π/θ_i (seats per full turn)
// under no scaling, linear interpolation, dynamic NTK, YaRN and Llama 3,
// side by side on a log scale, and a table of what each method changes.
// Frequencies and YaRN's attention factor come from the core (ropeInvFreq,
// ropeAttentionFactor).
//
// The factor sits between the plot and the table it changes, in a bar that
// stays on screen while either is (on a phone the two never fit on one
// screen): it sticks to the bottom of the screen while the plot is read, to
// the top while the table is. A host page whose own bar covers the top of
// the screen sets --pe-sticky-top to that bar's height.
import { PeElement, define, css, h, setAttr, setText, patchSpecs, STICKY_TOP } from '../lib/base/pe-element.js';
import { fixed, exponential, grouped } from '../lib/printing/pyformat.js';
import { bindPairCursor, pairCursorHint, placeCursorLines } from '../lib/drawing/grid-cursor.js';
import { logPairPlot, cursorLine, plotStyles, plotLegend } from '../lib/drawing/chart.js';
import { pairChanged, onlyRounding } from '../lib/rope/rope-config.js';

const PLOT_H = 300;
const PAD = { l: 50, r: 14, t: 14, b: 38 };
const METHODS = [
  { key: 'none', short: 'none', label: 'no scaling', cls: 'm-none', dash: '' },
  { key: 'linear', short: 'linear', label: 'linear (position interpolation)', cls: 'm-linear', dash: '9 5' },
  { key: 'ntk', short: 'NTK-aware', label: 'NTK-aware (a larger base)', cls: 'm-ntk', dash: '6 2 1 2' },
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
// a stretch as a learner reads it: ×13, ×8.5 (two decimals, no trailing zeros)
const times = (x) => fixed(x, 2).replace(/\.?0+$/, '');
const plural = (n, one) => `${n} ${one}${n === 1 ? '' : 's'}`;

class RopeScalingLab extends PeElement {
  static tag = 'rope-scaling-lab';
  static cssProperties = ['--pe-sticky-top'];
  static description =
    'Wavelength per RoPE pair under linear, NTK-aware, dynamic NTK, YaRN and Llama 3 scaling, side by side.';
  static params = {
    dim: { type: 'int', default: 128, min: 4, max: 512, even: true, label: 'head dim' },
    base: { type: 'float', default: 10000, min: 2, max: 1e8, control: 'number', label: 'base' },
    factor: { type: 'float', default: 4, min: 1, max: 32, step: 0.5, label: 'factor' },
    'original-max-positions': {
      type: 'int',
      default: 8192,
      min: 16,
      max: 4194304,
      control: 'number',
      label: 'original context',
    },
    'seq-len': {
      type: 'int',
      default: 32768,
      min: 1,
      max: 16777216,
      control: 'number',
      label: 'current length (dynamic NTK)',
    },
  };

  static styles =
    plotStyles +
    css`
    :host { --m1: #6b7280; --m2: #d55e00; --m3: #0072b2; --m4: #009e73; --m5: #cc79a7; --m6: #b08600; }
    @media (prefers-color-scheme: dark) { :host { --m1: #9aa4b1; --m2: #ff9e4a; --m3: #56b4e9; --m4: #3fd0a4; --m5: #e6a0c8; --m6: #f0c43a; } }
    .plot-wrap { margin-top: 8px; }
    .ref2 { stroke: var(--pe-fg); stroke-width: 1.2; stroke-dasharray: 1 3; }
    path.m-none, line.m-none { stroke: var(--m1); stroke-width: 5; opacity: .55; fill: none; }
    path.m-linear, line.m-linear { stroke: var(--m2); stroke-width: 2; fill: none; }
    path.m-ntk, line.m-ntk { stroke: var(--m6); stroke-width: 2; fill: none; }
    path.m-dynamic, line.m-dynamic { stroke: var(--m3); stroke-width: 2.2; fill: none; }
    path.m-yarn, line.m-yarn { stroke: var(--m4); stroke-width: 2.2; fill: none; }
    path.m-llama3, line.m-llama3 { stroke: var(--m5); stroke-width: 2; fill: none; }
    .legend { display: flex; flex-wrap: wrap; gap: 4px 16px; font-size: .85em; margin: 4px 0 0; padding: 0; list-style: none; }
    .legend li { display: inline-flex; align-items: center; gap: 6px; }
    .legend svg { display: inline-block; }
    .note, .dynamic-note, .rounding { font-size: .88em; color: var(--pe-muted); }
    .rounding:empty { display: none; }
    .factor-bar {
      position: sticky; top: ${STICKY_TOP}; bottom: 0; z-index: 1;
      margin: 8px 0; padding: 6px 10px; background: var(--pe-panel); border: 1px solid var(--pe-border); border-radius: 8px;
    }
    /* the widget's main control: a longer slider, finer steps */
    @media (min-width: 600px) { .factor-bar input[type=range] { width: 20em; } }
    .summary { margin-top: 4px; container-type: inline-size; }
    .summary table { margin: 0; }
    .summary th:first-child { text-align: left; }
    .summary td, .summary tbody th { white-space: nowrap; }
    .summary th { overflow-wrap: normal; }
    .summary caption { font-family: system-ui, sans-serif; }
    /* a number is never broken across lines (the host breaks words
       anywhere): a table wider than the widget scrolls, with its cue */
    table { overflow-wrap: normal; }
    /* in a phone's width the table fits without scrolling sideways (its
       caption with it): smaller cells, the headers wrapped at their spaces */
    @container (max-width: 340px) {
      .summary table { font-size: .8em; }
      .summary th, .summary td { padding: 2px 4px; }
    }
  `;

  build(root) {
    this.svg = h('svg:svg', { role: 'img', tabindex: '0', height: PLOT_H, width: 300 });
    this.plotWrap = h('div', { class: 'plot-wrap' }, this.svg);
    this.readout = h('p', { class: 'readout', 'aria-live': 'polite' });
    this.summary = h('div', { class: 'table-wrap summary' });
    // dynamic NTK's stretch, explained beside the number in the table
    this.dynamicNote = h('p', { class: 'dynamic-note' });
    this.rounding = h('p', { class: 'rounding' });
    this.note = h('p', { class: 'note' });
    const factorBar = this.controls(['factor']);
    factorBar.classList.add('factor-bar');
    this.table = this.tableAlternative('Show every pair’s wavelength as a table', {
      fill: () => this._state && this._fillTable(),
    });
    const legend = plotLegend(
      [...METHODS, { cls: 'ref', label: 'original context' }, { cls: 'ref2', label: 'factor × original' }],
      36,
    );
    root.append(
      ...this.heading(
        'RoPE scaling: the wavelength of every pair under each method',
        'Drag the factor under the plot: linear stretches every pair, NTK-aware raises the base once so fast pairs barely move and the last pair stretches by exactly the factor, dynamic NTK raises it with the current length, YaRN and Llama 3 leave the fast pairs alone and stretch only those whose wavelength is long compared with the original context.',
      ),
      this.plotWrap,
      legend,
      this.readout,
      factorBar,
      this.summary,
      this.dynamicNote,
      this.rounding,
      this.note,
      this.controls(['dim', 'base', 'original-max-positions', 'seq-len']),
      this.table,
    );
    this.cursor = null; // pair under the pointer / keyboard cursor (transient)
    bindPairCursor(this.svg, {
      pad: PAD,
      geom: () => this._geom,
      pairs: () => this._state?.pairs ?? null,
      current: () => this.cursor,
      moveTo: (cur) => {
        this.cursor = cur;
        this._drawCursor();
      },
    });
    this.redrawOnResize(this.plotWrap);
  }

  update(pe, p) {
    // widths come from a ResizeObserver (widthOf) and are read before this
    // update writes anything: an update never forces a layout
    const plotWidth = this.widthOf(this.plotWrap);
    const orig = p.originalMaxPositions;
    const f = p.factor;
    // NTK-aware is not a scaling type of the core but a base: the one the lesson's
    // exercise derives, base * s^(d / (d - 2)) (HF's dynamic NTK computes the same
    // base with s growing with the length)
    const bases = { ntk: p.base * f ** (p.dim / (p.dim - 2)) };
    const scalings = {
      none: null,
      linear: { type: 'linear', factor: f },
      ntk: null,
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
      const base = bases[m.key] ?? p.base;
      const key = JSON.stringify([m.key, p.dim, base, scalings[m.key]]);
      let r = this._cache.get(key);
      if (r)
        this._cache.delete(key); // to the end: most recently used
      else {
        const mInv = pe.ropeInvFreq(p.dim, { base, scaling: scalings[m.key] });
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

    // summary table; a pair whose frequency differs only by float32
    // rounding (YaRN's and Llama 3's blends at factor 1) is not a change
    const rounded = [];
    const rows = METHODS.map((m) => {
      let changed = 0;
      let rounding = 0;
      for (let i = 0; i < pairs; i++) {
        if (pairChanged(inv.none[i], inv[m.key][i])) changed++;
        else if (onlyRounding(inv.none[i], inv[m.key][i])) rounding++;
      }
      if (rounding) rounded.push(`${m.short} ${plural(rounding, 'pair')}`);
      let lo = Infinity;
      let hi = 0;
      for (const v of wl[m.key]) {
        lo = Math.min(lo, v);
        hi = Math.max(hi, v);
      }
      return [m.short, fmtLen(lo), fmtLen(hi), `${changed}/${pairs}`];
    });
    patchSpecs(this.summary, [
      [
        'table',
        {},
        [
          [
            'caption',
            {},
            `Wavelength λ = 2π/θᵢ in positions per full turn; head dim ${p.dim}, base ${p.base}, factor ${f}, original context ${grouped(String(orig))}`,
          ],
          [
            'thead',
            {},
            [
              [
                'tr',
                {},
                ['method', 'shortest λ', 'longest λ', 'pairs changed'].map((x) => ['th', { scope: 'col' }, x]),
              ],
            ],
          ],
          [
            'tbody',
            {},
            rows.map((r) => ['tr', {}, r.map((x, i) => (i === 0 ? ['th', { scope: 'row' }, x] : ['td', {}, x]))]),
          ],
        ],
      ],
    ]);
    setText(this.dynamicNote, this._dynamicWhy(p));
    setText(
      this.rounding,
      rounded.length
        ? `Equal to the unscaled frequency up to float32 rounding, so counted as unchanged: ${rounded.join(', ')}.`
        : '',
    );
    // only YaRN has an attention factor: a sentence, not a column of ones
    const others = METHODS.filter((m) => m.key !== 'yarn' && attn[m.key] !== 1).map(
      (m) => `${m.short} ${fixed(attn[m.key], 4)}`,
    );
    setText(
      this.note,
      `YaRN uses β_fast 32 and β_slow 1 and multiplies cos and sin by its attention factor 0.1 ln s + 1 = ${fixed(attn.yarn, 4)}, so every attention logit by ${fixed(attn.yarn ** 2, 4)}` +
        `${others.length ? `; attention factors of the others: ${others.join(', ')}` : '; the other methods leave them as they are'}. Llama 3 uses low/high frequency factors 1 and 4, so pairs with wavelength above ${grouped(String(orig))} are divided by the factor and those below ${fmtLen(orig / 4)} are kept.`,
    );
    if (this.table.open) this._fillTable();
  }

  // Why dynamic NTK stretches more than s: Hugging Face's dynamic NTK raises
  // the base as NTK-aware scaling does with s replaced by sℓ/L − (s − 1) at
  // the current length ℓ (s² − s + 1 at ℓ = sL), and NTK's exponent
  // d/(d − 2) slows the last pair by exactly that factor. The factor shown is
  // the last pair's stretch from the core's frequencies.
  _dynamicWhy(p) {
    const { pairs, wl, orig, f } = this._state;
    const len = grouped(String(p.seqLen));
    const L = grouped(String(orig));
    if (p.seqLen <= orig)
      return `Dynamic NTK at the current length ℓ = ${len}, not past the original context L = ${L}, keeps the trained frequencies.`;
    const stretch = times(wl.dynamic[pairs - 1] / wl.none[pairs - 1]);
    const square = p.seqLen === f * orig ? ', which is s² − s + 1 at ℓ = sL' : '';
    const not = stretch === times(f) ? 'as much as s' : `not ${times(f)}×`;
    return `Dynamic NTK’s longest λ is ${stretch}× the unscaled one, ${not}: at the current length ℓ = ${len} Hugging Face uses the factor sℓ/L − (s − 1) = ${times(f)} · ${len}/${L} − ${times(f - 1)} = ${stretch}${square}.`;
  }

  _draw(width = this.widthOf(this.plotWrap)) {
    const { pairs, wl, orig, f } = this._state;
    const W = Math.max(260, width);
    setAttr(this.svg, 'width', W);
    const refs = [{ v: orig, cls: 'ref', label: `original context ${grouped(String(orig))}` }];
    if (f > 1) refs.push({ v: orig * f, cls: 'ref2', label: `${f} × original = ${fmtLen(orig * f)}` });
    const curves = METHODS.map((m) => ({ values: wl[m.key], cls: m.cls, dash: m.dash }));
    const {
      X,
      pw,
      specs: kids,
    } = logPairPlot({ W, H: PLOT_H, pad: PAD, n: pairs, curves, refs, yLabel: 'wavelength (positions, log scale)' });
    this._geom = { X, pw, W };
    // the cursor line where _drawCursor puts it (so it is written once)
    kids.push(cursorLine(PAD, PLOT_H, this.cursor === null ? null : X(Math.min(this.cursor, pairs - 1))));
    patchSpecs(this.svg, kids);
    this._cursorLine = this.svg.lastElementChild;
    const last = pairs - 1;
    setAttr(
      this.svg,
      'aria-label',
      `Wavelength of each of ${pairs} pairs on a log scale, without scaling and with ${METHODS.length - 1} methods. The last pair: ${METHODS.map((m) => `${m.label} ${fmtLen(wl[m.key][last])}`).join(', ')}. Reference line at the original context ${orig}. Focus it and use the arrow keys to read a pair.`,
    );
  }

  _drawCursor() {
    if (!this._state || !this._cursorLine) return;
    if (this.cursor === null) {
      placeCursorLines([this._cursorLine], null);
      setText(this.readout, pairCursorHint('the plot'));
      return;
    }
    const i = Math.min(this.cursor, this._state.pairs - 1);
    placeCursorLines([this._cursorLine], this._geom.X(i));
    const { wl } = this._state;
    setText(
      this.readout,
      `pair ${i} wavelength: ${METHODS.map((m) => `${m.short} ${fmtLen(wl[m.key][i])}`).join(' · ')}`,
    );
  }

  _fillTable() {
    const { pairs, wl, inv } = this._state;
    const rows = [];
    for (let i = 0; i < pairs; i++) {
      rows.push([String(i), exponential(inv.none[i], 3), ...METHODS.map((m) => fmtLen(wl[m.key][i]))]);
    }
    this.setTable(
      this.table,
      'Wavelength 2π/θᵢ of every pair (positions per full turn)',
      ['pair i', 'θᵢ unscaled', ...METHODS.map((m) => m.short)],
      rows,
    );
  }
}

define(RopeScalingLab);
