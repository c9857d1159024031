// <pe-heatmap max-len="64" d-model="64" base="10000">: the sinusoidal position
// table p_m[2i] = sin(m·θ_i), p_m[2i+1] = cos(m·θ_i),
// θ_i = base^(-2i/d_model) (Vaswani et al. 2017, §3.5) as a heatmap: rows are
// positions, columns are dimensions. Hover or the arrow keys read out one cell.
// Every value and frequency comes from the core (pe.sinusoidal,
// pe.sinusoidalFrequencies); this file only colours and labels them.
import { PeElement, define, css, h, canvasContext } from '../lib/pe-element.js';
import { diverging, rgb, themeColors } from '../lib/colormap.js';
import { fixed } from '../lib/pyformat.js';

const LUT_SIZE = 512; // colour steps across -1..+1: finer than the eye can tell apart
const AXIS_LEFT = 44; // px for the position labels
const AXIS_TOP = 20; // px for the dimension labels
const TABLE_ROWS = 8; // the text alternative shows at most this many positions…
const TABLE_COLS = 8; // …and this many dimensions

class PeHeatmap extends PeElement {
  static tag = 'pe-heatmap';
  static params = {
    'max-len': { type: 'int', default: 64, min: 1, max: 1024, label: 'positions' },
    'd-model': { type: 'int', default: 64, min: 2, max: 1024, even: true, label: 'd_model' },
    base: { type: 'float', default: 10000, min: 2, max: 1e6, control: 'number', label: 'base' },
  };
  static styles = css`
    .plot { position: relative; margin-top: 4px; }
    .plot canvas { touch-action: none; cursor: crosshair; border-radius: 4px; }
    .legend { display: flex; align-items: center; gap: 8px; flex-wrap: wrap; font-size: .85em; color: var(--pe-muted); margin-top: 8px; }
    .legend canvas { width: 160px; height: 12px; border: 1px solid var(--pe-border); border-radius: 3px; }
    .readout { margin-top: 6px; color: var(--pe-fg); }
    .hint { color: var(--pe-muted); font-size: .92em; }
  `;

  build(root) {
    this.canvas = h('canvas', { tabindex: '0', role: 'img' });
    this.legendCanvas = h('canvas', { width: 160, height: 12, role: 'img', 'aria-label': 'Colour scale: −1 blue, 0 background colour, +1 red' });
    this.readoutBox = h('p', { class: 'readout', 'aria-live': 'polite' });
    this.details = this.tableAlternative('Show the first rows and columns as numbers');
    root.append(
      h('h3', {}, 'The sinusoidal position table'),
      h('p', { class: 'hint' },
        'Each row is the vector added at one position; each column is one dimension. ',
        'Point at a cell (or focus the picture and use the arrow keys) to read it; then raise d_model and watch the right-hand columns stop changing.'),
      this.controls(['max-len', 'd-model', 'base']),
      h('div', { class: 'plot' }, this.canvas),
      h('div', { class: 'legend' }, h('span', {}, '−1'), this.legendCanvas, h('span', {}, '+1'),
        h('span', {}, 'blue = negative, red = positive, background colour = 0')),
      this.readoutBox,
      this.details,
    );
    this.cursor = { row: 0, col: 0 };
    this.offscreen = document.createElement('canvas'); // one pixel per table cell
    this.canvas.addEventListener('pointermove', (e) => this._pointAt(e));
    this.canvas.addEventListener('pointerdown', (e) => this._pointAt(e));
    this.canvas.addEventListener('keydown', (e) => this._key(e));
    this._resize = new ResizeObserver(() => {
      if (this.clientWidth !== this._lastWidth) this.schedule();
    });
    this._resize.observe(this);
  }

  update(pe, p) {
    const { maxLen, dModel, base } = p;
    const n = maxLen * dModel;
    // 1. the table and the pair frequencies, from the core (buffer reused while the size holds)
    if (!this.table || this.table.length !== n) this.table = new Float32Array(n);
    pe.sinusoidal(maxLen, dModel, { base, out: this.table });
    this.freqs = pe.sinusoidalFrequencies(dModel, { base });
    this.shape = { maxLen, dModel, base };
    this.cursor.row = Math.min(this.cursor.row, maxLen - 1);
    this.cursor.col = Math.min(this.cursor.col, dModel - 1);

    // 2. colour every cell through a lookup table into a one-pixel-per-cell image
    const colors = themeColors(this);
    const key = [colors.neg, colors.zero, colors.pos].join('|');
    if (key !== this._lutKey) {
      this._lutKey = key;
      this.scale = diverging(colors.neg, colors.zero, colors.pos);
      this.lut = makeLut(this.scale);
      this._drawLegend();
    }
    if (this.offscreen.width !== dModel || this.offscreen.height !== maxLen || !this.image) {
      this.offscreen.width = dModel;
      this.offscreen.height = maxLen;
      this.image = new ImageData(dModel, maxLen);
      this.pixels = new Uint32Array(this.image.data.buffer);
    }
    const { lut, pixels, table } = this;
    const scale = (LUT_SIZE - 1) / 2;
    for (let i = 0; i < n; i++) {
      let k = Math.round((table[i] + 1) * scale);
      k = k < 0 ? 0 : k >= LUT_SIZE ? LUT_SIZE - 1 : k;
      pixels[i] = lut[k];
    }
    this.offscreen.getContext('2d').putImageData(this.image, 0, 0);

    // 3. size the visible canvas to the host and draw
    this._lastWidth = this.clientWidth;
    const pad = 30; // the host's padding and border
    const cssW = Math.max(200, Math.floor((this.clientWidth || 600) - pad));
    const plotW = cssW - AXIS_LEFT - 4;
    const plotH = Math.round(Math.min(420, Math.max(140, (plotW * maxLen) / dModel)));
    this.geom = { cssW, cssH: plotH + AXIS_TOP + 4, plotW, plotH };
    this.colors = colors;
    this._draw();
    this.canvas.setAttribute(
      'aria-label',
      `Heatmap of the sinusoidal position table with base ${base}: ${maxLen} positions (rows, top is 0) by ${dModel} dimensions (columns). ` +
        'Left columns swing between −1 and +1 from one row to the next; the right-hand columns change slowly and stay near 0 (sin) or 1 (cos). ' +
        'Focus it and use the arrow keys to read single values.',
    );
    this._readout();

    // 4. the text alternative: the first rows, the first columns and the last pair
    const cols = dModel <= TABLE_COLS ? [...Array(dModel).keys()] : [...Array(TABLE_COLS - 2).keys(), dModel - 2, dModel - 1];
    const rows = Math.min(maxLen, TABLE_ROWS);
    const headers = ['pos', ...cols.map((c) => `d${c} ${c % 2 ? 'cos' : 'sin'} i=${c >> 1}`)];
    const body = [];
    for (let r = 0; r < rows; r++) body.push([String(r), ...cols.map((c) => fixed(table[r * dModel + c], 4))]);
    const caption = `Positions 0–${rows - 1}` + (dModel > TABLE_COLS ? `, dimensions 0–${TABLE_COLS - 3} and the last pair (${dModel - 2}, ${dModel - 1})` : '');
    this.setTable(this.details, caption, headers, body);
  }

  _drawLegend() {
    const ctx = this.legendCanvas.getContext('2d');
    const w = this.legendCanvas.width;
    for (let x = 0; x < w; x++) {
      ctx.fillStyle = rgb(this.scale((x / (w - 1)) * 2 - 1));
      ctx.fillRect(x, 0, 1, this.legendCanvas.height);
    }
  }

  // Blits the table image and the axes, then the cursor.
  _draw() {
    const { cssW, cssH, plotW, plotH } = this.geom;
    const { maxLen, dModel } = this.shape;
    const ctx = canvasContext(this.canvas, cssW, cssH);
    // shrinking many cells into few pixels: smooth; enlarging: keep the cells crisp
    ctx.imageSmoothingEnabled = plotW < dModel || plotH < maxLen;
    ctx.drawImage(this.offscreen, AXIS_LEFT, AXIS_TOP, plotW, plotH);
    ctx.fillStyle = rgb(this.colors.muted);
    ctx.font = '11px system-ui, sans-serif';
    ctx.textBaseline = 'middle';
    ctx.textAlign = 'right';
    ctx.fillText('0', AXIS_LEFT - 4, AXIS_TOP + Math.min(6, plotH / maxLen / 2 + 2));
    ctx.fillText(String(maxLen - 1), AXIS_LEFT - 4, AXIS_TOP + plotH - 6);
    ctx.save();
    ctx.translate(12, AXIS_TOP + plotH / 2);
    ctx.rotate(-Math.PI / 2);
    ctx.textAlign = 'center';
    ctx.fillText('position ↓', 0, 0);
    ctx.restore();
    ctx.textBaseline = 'alphabetic';
    ctx.textAlign = 'left';
    ctx.fillText('0', AXIS_LEFT, AXIS_TOP - 6);
    ctx.textAlign = 'center';
    ctx.fillText('dimension →', AXIS_LEFT + plotW / 2, AXIS_TOP - 6);
    ctx.textAlign = 'right';
    ctx.fillText(String(dModel - 1), AXIS_LEFT + plotW, AXIS_TOP - 6);
    // the cursor: a box around the cell (at least 5 px so it stays visible)
    const cw = plotW / dModel;
    const ch = plotH / maxLen;
    const bw = Math.max(cw, 5);
    const bh = Math.max(ch, 5);
    const x = AXIS_LEFT + (this.cursor.col + 0.5) * cw - bw / 2;
    const y = AXIS_TOP + (this.cursor.row + 0.5) * ch - bh / 2;
    ctx.lineWidth = 2;
    ctx.strokeStyle = rgb(this.colors.bg);
    ctx.strokeRect(x - 1, y - 1, bw + 2, bh + 2);
    ctx.lineWidth = 1.5;
    ctx.strokeStyle = rgb(this.colors.fg);
    ctx.strokeRect(x, y, bw, bh);
  }

  _readout() {
    const { row, col } = this.cursor;
    const { dModel } = this.shape;
    const i = col >> 1;
    const omega = this.freqs[i];
    const value = this.table[row * dModel + col];
    const fn = col % 2 ? 'cos' : 'sin';
    this.readoutBox.textContent =
      `position ${row}, dimension ${col} = ${fn} of pair i = ${i}: value ${fixed(value, 4)}; ` +
      `θ = ${omega.toPrecision(4)} rad/position, wavelength 2π/θ = ${fixed((2 * Math.PI) / omega, 2)} positions`;
  }

  _moveCursor(row, col) {
    if (!this.shape) return;
    const r = Math.max(0, Math.min(this.shape.maxLen - 1, row));
    const c = Math.max(0, Math.min(this.shape.dModel - 1, col));
    if (r === this.cursor.row && c === this.cursor.col) return;
    this.cursor = { row: r, col: c };
    this._draw();
    this._readout();
  }

  _pointAt(e) {
    if (!this.geom) return;
    const rect = this.canvas.getBoundingClientRect();
    const sx = rect.width / this.geom.cssW; // CSS scaling when max-width shrinks the canvas
    const x = (e.clientX - rect.left) / sx - AXIS_LEFT;
    const y = (e.clientY - rect.top) / sx - AXIS_TOP;
    if (x < 0 || y < 0 || x >= this.geom.plotW || y >= this.geom.plotH) return;
    this._moveCursor(Math.floor((y / this.geom.plotH) * this.shape.maxLen), Math.floor((x / this.geom.plotW) * this.shape.dModel));
  }

  _key(e) {
    const step = e.shiftKey ? 10 : 1;
    const { row, col } = this.cursor;
    const moves = {
      ArrowUp: [row - step, col],
      ArrowDown: [row + step, col],
      ArrowLeft: [row, col - step],
      ArrowRight: [row, col + step],
      PageUp: [row - 10, col],
      PageDown: [row + 10, col],
      Home: [row, 0],
      End: [row, Infinity],
    };
    const m = moves[e.key];
    if (!m) return;
    e.preventDefault();
    this._moveCursor(...m);
  }
}

// Colours of LUT_SIZE values evenly spread over -1..+1, packed as the
// little-endian RGBA words an ImageData's Uint32Array view expects.
function makeLut(scale) {
  const lut = new Uint32Array(LUT_SIZE);
  for (let k = 0; k < LUT_SIZE; k++) {
    const [r, g, b] = scale((k / (LUT_SIZE - 1)) * 2 - 1);
    lut[k] = (255 << 24) | (b << 16) | (g << 8) | r;
  }
  return lut;
}

define(PeHeatmap);
