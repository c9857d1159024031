// <alibi-bias>: ALiBi's per-head slopes α_j and the bias −α_j·|n − m| each head
// adds to its attention scores, as small multiples (one matrix per head) and
// one selected head drawn large with its values. Slopes and biases come from
// the core (alibiSlopes, alibiBias); this file only draws them.
import {
  PeElement,
  define,
  css,
  h,
  patchSpecs,
  canvasContext,
  offPageCanvas,
  setAttr,
  setText,
  replaceChildrenIfChanged,
} from '../lib/base/pe-element.js';
import { ColorBar } from '../lib/drawing/color-bar.js';
import { rgb, inkOn } from '../lib/drawing/colormap.js';
import { matrixAxes, frameCell } from '../lib/drawing/canvas.js';
import { bindCellCursor } from '../lib/drawing/grid-cursor.js';
import { fixed, numpyScalar } from '../lib/printing/pyformat.js';

const MINI = 76; // small-multiple size, CSS px

// 2^−k for a slope: k as short text ("1", "0.5", "2.75")
function powerOfTwo(slope) {
  const k = -Math.log2(slope);
  return String(Number(k.toFixed(3)));
}
const minus = (s) => s.replace(/^-/, '−');
// a bias value as text; the diagonal's −0 reads as 0
const val = (v, d) => (v === 0 ? '0' : minus(fixed(v, d)));

// one sRGB channel (0..255) to linear light (0..1), and back
const toLinear = (c) => {
  const s = c / 255;
  return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
};
const toSrgb = (l) => Math.round(255 * (l <= 0.0031308 ? 12.92 * l : 1.055 * l ** (1 / 2.4) - 0.055));

class AlibiBias extends PeElement {
  static tag = 'alibi-bias';
  static description = "ALiBi's per-head slopes and the bias matrices they add to attention scores.";
  static params = {
    heads: { type: 'int', default: 8, min: 1, max: 32, label: 'heads' },
    'seq-len': { type: 'int', default: 8, min: 1, max: 64, label: 'sequence length' },
    causal: { type: 'bool', default: false, label: 'causal mask' },
    head: { type: 'int', default: 1, min: 1, max: 32, label: 'selected head' },
    scale: {
      type: 'enum',
      default: 'shared',
      options: ['shared', 'per-head'],
      optionLabels: { shared: 'one scale for all heads', 'per-head': 'each head its own scale' },
      label: 'colours',
    },
  };

  static styles = css`
    .minis { display: grid; grid-template-columns: repeat(auto-fill, minmax(96px, 1fr)); gap: 6px; margin: 8px 0; }
    .mini { display: flex; flex-direction: column; align-items: center; gap: 2px; padding: 4px; font-size: .78em; line-height: 1.25; }
    .mini[aria-pressed=true] { border: 2px solid var(--pe-accent); background: var(--pe-bg); }
    .mini canvas { width: ${MINI}px; height: ${MINI}px; image-rendering: pixelated; }
    .mini .m { font-family: var(--pe-mono); }
    .big-wrap { margin-top: 10px; }
    .big-wrap canvas { cursor: crosshair; }
    .legend { display: flex; flex-wrap: wrap; align-items: center; gap: 6px 14px; font-size: .85em; color: var(--pe-muted); margin: 6px 0; }
    .swatch-masked { display: inline-block; width: 16px; height: 12px; vertical-align: middle; border: 1px solid var(--pe-border);
      background: repeating-linear-gradient(45deg, var(--pe-panel) 0 3px, var(--pe-muted) 3px 4px); }
    h4 { margin-top: 8px; }
    .faint-note { font-size: .88em; color: var(--pe-muted); margin: 4px 0; }
    .faint-note:empty { display: none; }
    sup { font-size: .75em; }
  `;

  build(root) {
    this.minis = h('div', {
      class: 'minis',
      role: 'group',
      'aria-label': 'One bias matrix per head; press one to show it large',
    });
    this.bigTitle = h('h4', {}, 'The head shown large'); // its words come with the first update
    this.big = h('canvas', { role: 'img', tabindex: '0' });
    this.bigWrap = h('div', { class: 'big-wrap' }, this.bigTitle, this.big);
    this.colorBar = new ColorBar({ low: '0', high: '' });
    this.readout = h('p', { class: 'readout', 'aria-live': 'polite' });
    this.faint = h('p', { class: 'faint-note' });
    this.table = this.tableAlternative(undefined, { fill: () => this._state && this._fillTable() });
    root.append(
      ...this.heading(
        'ALiBi: each head subtracts its slope times the distance',
        'Head j adds −αⱼ·|n − m| to the score of query m for key n: a steep head looks only nearby, a gentle one far back. Try 12 heads (not a power of two) to see the interleaved slopes; pick a head to read its matrix.',
      ),
      this.controls(['heads', 'seq-len', 'causal', 'scale']),
      this.minis,
      this.faint,
      h(
        'div',
        { class: 'legend' },
        h('span', {}, 'colour:'),
        this.colorBar.el,
        h('span', {}, h('span', { class: 'swatch-masked' }), ' masked (−∞)'),
      ),
      this.bigWrap,
      this.readout,
      this.table,
    );
    this._minis = [];
    this._cur = null; // [i, j] under the pointer / keyboard cursor (transient)
    bindCellCursor(this.big, {
      grid: () => this._state && { rows: this._state.L, cols: this._state.L, geom: this._geom },
      current: () => this._cur,
      moveTo: (cur) => {
        this._cur = cur;
        this._drawBig();
      },
    });
    this.redrawOnResize(this.bigWrap);
  }

  update(pe, p) {
    // widths come from a ResizeObserver (widthOf) and are read before this
    // update writes anything: an update never forces a layout
    const width = this.widthOf(this.bigWrap);
    const H = p.heads;
    const L = p.seqLen;
    const slopes = pe.alibiSlopes(H);
    const need = H * L * L;
    if (!this._bias || this._bias.length !== need) this._bias = new Float32Array(need);
    const bias = pe.alibiBias(H, L, { causal: p.causal, out: this._bias });
    const sel = Math.min(p.head, H) - 1;
    // colour limits: the largest |bias| (shared) or per head
    const limits = new Float64Array(H);
    let shared = 0;
    for (let hh = 0; hh < H; hh++) {
      let mx = 0;
      const o = hh * L * L;
      for (let t = 0; t < L * L; t++) if (Number.isFinite(bias[o + t])) mx = Math.max(mx, -bias[o + t]);
      limits[hh] = mx || 1;
      shared = Math.max(shared, mx);
    }
    if (p.scale === 'shared') limits.fill(shared || 1);
    const colors = this.theme();
    this._state = { H, L, slopes, bias, sel, limits, colors, causal: p.causal, scale: p.scale };
    this._state.lut = this._lut();

    // small multiples, one button per head (reused)
    while (this._minis.length < H) this._minis.push(this._makeMini(this._minis.length));
    const buttons = this._minis.slice(0, H).map((x) => x.button);
    replaceChildrenIfChanged(this.minis, buttons);
    // Each head's L x L image goes through one off-page canvas of that size;
    // the small multiples keep a backing store of their displayed size and
    // get it scaled up without smoothing. Resizing eight on-page canvases at
    // every sequence-length step cost more than all the painting (31-46 ms
    // of frame work per step at 4x CPU). The selected head's image is
    // kept for the large map (_drawBig).
    if (!this._img || this._img.width !== L) {
      this._img = new ImageData(L, L);
      this._source = offPageCanvas(L, L);
      this._selected = offPageCanvas(L, L);
    }
    const img = this._img;
    const side = Math.round(MINI * (window.devicePixelRatio || 1));
    const sourceCtx = this._source.getContext('2d');
    for (let hh = 0; hh < H; hh++) {
      const mini = this._minis[hh];
      this._paint(img, hh);
      sourceCtx.putImageData(img, 0, 0);
      if (hh === sel) this._selected.getContext('2d').putImageData(img, 0, 0);
      if (mini.canvas.width !== side) {
        mini.canvas.width = side;
        mini.canvas.height = side;
      }
      const miniCtx = mini.canvas.getContext('2d');
      miniCtx.imageSmoothingEnabled = false;
      miniCtx.drawImage(this._source, 0, 0, side, side);
      // a head's label changes with its slope and whether it is selected, not with the mask or the length
      const label = `${slopes[hh]}|${hh === sel}`;
      if (mini.label === label) continue;
      mini.label = label;
      setAttr(mini.button, 'aria-pressed', String(hh === sel));
      const pow = powerOfTwo(slopes[hh]);
      setText(mini.m, `α = ${numpyScalar(slopes[hh])}`);
      patchSpecs(mini.pow, ['= 2', ['sup', {}, `−${pow}`]]);
      setAttr(
        mini.button,
        'aria-label',
        `Head ${hh + 1}, slope ${numpyScalar(slopes[hh])} = 2 to the power −${pow}${hh === sel ? ', shown below' : ''}`,
      );
    }

    // the key: 0 (the background colour) to the most negative bias shown
    this.colorBar.paint((t) => this._color(-t), colors);
    this.colorBar.setHigh(p.scale === 'shared' ? minus(fixed(-shared, 3)) : '−(largest |bias| of the head)');
    // on one scale the gentle heads are faint, not empty: say so, with their largest penalty
    const faintFrom =
      p.scale === 'shared' && shared > 0 ? [...limits.keys()].find((hh) => this._headMax(hh) < shared / 8) : undefined;
    setText(
      this.faint,
      faintFrom === undefined
        ? ''
        : `Head${faintFrom === H - 1 ? '' : `s ${faintFrom + 1}–`}${faintFrom === H - 1 ? ` ${H}` : H} subtract${faintFrom === H - 1 ? 's' : ''} at most ${fixed(this._headMax(faintFrom), 3)} over ${L} positions: faint on one scale, not empty. “Each head its own scale” shows their shape.`,
    );
    patchSpecs(this.bigTitle, [
      `Head ${sel + 1} of ${H}: slope α = ${numpyScalar(slopes[sel])} = 2`,
      ['sup', {}, `−${powerOfTwo(slopes[sel])}`],
      `; bias[m, n] = −α·|n − m|${p.causal ? ', keys after the query masked' : ''}`,
    ]);
    this._drawBig(width);
    if (this.table.open) this._fillTable();
  }

  // intensity in [−1, 0] → colour from background to the negative colour
  // the largest penalty |bias| of head hh over the finite cells
  _headMax(hh) {
    const { L, bias } = this._state;
    let mx = 0;
    for (let t = hh * L * L; t < (hh + 1) * L * L; t++) if (Number.isFinite(bias[t])) mx = Math.max(mx, -bias[t]);
    return mx;
  }

  // From the zero colour to the negative one, mixed in linear light rather
  // than in sRGB: on the dark theme's near-black zero an sRGB mix hardly
  // brightens for small biases, and the gentle heads' thumbnails read as
  // empty squares (issue 46); mixed in light, a tenth of the way is visible
  // in both themes.
  _color(t) {
    const { zero, neg } = this._state?.colors ?? this.theme();
    const a = Math.min(1, Math.max(0, -t));
    return [0, 1, 2].map((c) => toSrgb(toLinear(zero[c]) + (toLinear(neg[c]) - toLinear(zero[c])) * a));
  }

  // 256-step colour table for the current theme (no per-cell allocation)
  _lut() {
    const lut = new Uint8ClampedArray(256 * 3);
    for (let k = 0; k < 256; k++) lut.set(this._color(-k / 255), 3 * k);
    return lut;
  }

  _paint(img, hh) {
    const { L, bias, limits, colors, lut } = this._state;
    const o = hh * L * L;
    const masked = colors.border;
    const inv = 255 / limits[hh];
    const d = img.data;
    for (let t = 0; t < L * L; t++) {
      const v = bias[o + t];
      if (Number.isFinite(v)) {
        const k = 3 * Math.min(255, Math.round(-v * inv));
        d[4 * t] = lut[k];
        d[4 * t + 1] = lut[k + 1];
        d[4 * t + 2] = lut[k + 2];
      } else {
        d[4 * t] = masked[0];
        d[4 * t + 1] = masked[1];
        d[4 * t + 2] = masked[2];
      }
      d[4 * t + 3] = 255;
    }
  }

  _makeMini(hh) {
    const canvas = h('canvas', { width: 1, height: 1, 'aria-hidden': 'true' });
    const m = h('span', { class: 'm' });
    const pow = h('span', { class: 'm' });
    const button = h(
      'button',
      { type: 'button', class: 'mini', 'aria-pressed': 'false' },
      h('span', {}, `head ${hh + 1}`),
      canvas,
      m,
      pow,
    );
    button.addEventListener('click', () => this.setParam('head', hh + 1));
    return { button, canvas, m, pow };
  }

  _drawBig(width = this.widthOf(this.bigWrap)) {
    const s = this._state;
    if (!s) return;
    const { L, bias, sel, colors } = s;
    const total = Math.max(140, Math.min(width, 580));
    const M = 30; // margin for the axis labels
    const size = total - M;
    const cell = size / L;
    this._geom = { M, cell };
    const ctx = canvasContext(this.big, total, total);
    // axis labels: key n across the top, query m down the side (the lesson's letters)
    matrixAxes(ctx, { M, cell, rows: L, cols: L, across: 'key n', down: 'query m', gap: 14, color: rgb(colors.muted) });
    ctx.translate(M, M);
    // cells: the selected head's L x L image, scaled up without smoothing
    ctx.imageSmoothingEnabled = false;
    ctx.drawImage(this._selected, 0, 0, size, size);
    const o = sel * L * L;
    // masked cells: background with hatching (one clip path), so masking is not just a colour
    const maskPath = new Path2D();
    let anyMasked = false;
    // one rectangle per run of masked cells in a row (the same region as a
    // rectangle per cell, a 64th of the path at 64 positions)
    for (let i = 0; i < L; i++) {
      for (let j = 0; j < L; j++) {
        if (Number.isFinite(bias[o + i * L + j])) continue;
        let end = j + 1;
        while (end < L && !Number.isFinite(bias[o + i * L + end])) end++;
        maskPath.rect(j * cell, i * cell, (end - j) * cell, cell);
        anyMasked = true;
        j = end;
      }
    }
    if (anyMasked) {
      ctx.save();
      ctx.clip(maskPath);
      ctx.fillStyle = rgb(colors.bg);
      ctx.fillRect(0, 0, size, size);
      ctx.strokeStyle = rgb(colors.border);
      ctx.lineWidth = 1;
      const step = Math.max(4, Math.min(cell / 4, 10));
      ctx.beginPath();
      for (let d = -size; d < size; d += step) {
        ctx.moveTo(d, size);
        ctx.lineTo(d + size, 0);
      }
      ctx.stroke();
      ctx.restore();
    }
    if (cell >= 34) {
      ctx.font = `${cell >= 48 ? 11 : 9.5}px ui-monospace, "DejaVu Sans Mono", monospace`;
      for (let i = 0; i < L; i++) {
        for (let j = 0; j < L; j++) {
          const v = bias[o + i * L + j];
          if (Number.isFinite(v)) {
            const k = 3 * Math.min(255, Math.round((-v * 255) / s.limits[sel]));
            ctx.fillStyle = inkOn(s.lut, k);
            ctx.fillText(val(v, 3), j * cell + cell / 2, i * cell + cell / 2);
          } else {
            ctx.fillStyle = rgb(colors.muted);
            ctx.fillText('−∞', j * cell + cell / 2, i * cell + cell / 2);
          }
        }
      }
    }
    // grid lines when cells are large enough to separate
    if (cell >= 6) {
      ctx.strokeStyle = rgb(colors.border);
      ctx.lineWidth = 0.5;
      ctx.beginPath();
      for (let t = 0; t <= L; t++) {
        ctx.moveTo(t * cell, 0);
        ctx.lineTo(t * cell, size);
        ctx.moveTo(0, t * cell);
        ctx.lineTo(size, t * cell);
      }
      ctx.stroke();
    }
    if (this._cur) {
      const [ci, cj] = this._cur;
      frameCell(ctx, cj * cell, ci * cell, cell, rgb(colors.accent));
    }
    setAttr(
      this.big,
      'aria-label',
      `Bias matrix of head ${sel + 1}, ${L} queries (rows) by ${L} keys (columns): 0 on the diagonal, falling by ${numpyScalar(s.slopes[sel])} per step of distance${s.causal ? '; keys after the query are masked' : ''}. Focus it and use the arrow keys to read cells.`,
    );
    this._readout();
  }

  _readout() {
    const s = this._state;
    if (!this._cur) {
      setText(
        this.readout,
        'Point at the matrix, or focus it and use the arrow keys: rows are queries m, columns keys n.',
      );
      return;
    }
    const [m, n] = this._cur;
    const v = s.bias[s.sel * s.L * s.L + m * s.L + n];
    const alpha = numpyScalar(s.slopes[s.sel]);
    setText(
      this.readout,
      Number.isFinite(v)
        ? `head ${s.sel + 1}, query m = ${m}, key n = ${n}: bias = −${alpha} × |${n} − ${m}| = ${val(v, 6)}`
        : `head ${s.sel + 1}, query m = ${m}, key n = ${n}: the key comes after the query, masked (−inf)`,
    );
  }

  _fillTable() {
    const s = this._state;
    const details = this.table;
    const wrap = details.querySelector('.table-wrap');
    // table 1: slopes; table 2: the selected head's matrix
    this.setTable(
      details,
      `ALiBi slopes for ${s.H} heads`,
      ['head', 'slope α', 'as a power of 2'],
      Array.from(s.slopes, (m, hh) => [String(hh + 1), numpyScalar(m), `2^−${powerOfTwo(m)}`]),
    );
    const slopesTable = wrap.firstChild;
    const o = s.sel * s.L * s.L;
    const rows = [];
    for (let i = 0; i < s.L; i++) {
      const r = [`m = ${i}`];
      for (let j = 0; j < s.L; j++) {
        const v = s.bias[o + i * s.L + j];
        r.push(Number.isFinite(v) ? val(v, 4) : '−inf');
      }
      rows.push(r);
    }
    this.setTable(
      details,
      `Bias of head ${s.sel + 1} (rows: query m, columns: key n)`,
      ['m ↓ n →', ...Array.from({ length: s.L }, (_, n) => `n = ${n}`)],
      rows,
    );
    wrap.prepend(slopesTable);
  }
}

define(AlibiBias);
