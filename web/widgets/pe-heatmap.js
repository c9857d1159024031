// <pe-heatmap max-len="64" d-model="64" base="10000">: the sinusoidal position
// table p_m[2i] = sin(m·θ_i), p_m[2i+1] = cos(m·θ_i),
// θ_i = base^(-2i/d_model) (Vaswani et al. 2017, §3.5) as a heatmap: rows are
// positions, columns are dimensions. Hover or the arrow keys read out one cell.
// Every value and frequency comes from the core (pe.sinusoidalRows,
// pe.sinusoidalFrequencies), and so does the picture, the table's box means
// (pe.sinusoidalPicture); this file only colours and labels them.
import { PeElement, define, css, h, canvasContext, setAttr, setText } from '../lib/base/pe-element.js';
import { ColorBar } from '../lib/drawing/color-bar.js';
import { sideLabel } from '../lib/drawing/canvas.js';
import { bindCellCursor } from '../lib/drawing/grid-cursor.js';
import { diverging, rgb } from '../lib/drawing/colormap.js';
import { fixed } from '../lib/printing/pyformat.js';
import { HeapBuffer } from '../lib/base/heap-buffer.js';

const LUT_SIZE = 512; // colour steps across -1..+1: finer than the eye can tell apart
const AXIS_LEFT = 44; // px for the position labels
const AXIS_TOP = 20; // px for the dimension labels
const TABLE_ROWS = 8; // the text alternative shows at most this many positions…
const TABLE_COLS = 8; // …and this many dimensions

class PeHeatmap extends PeElement {
  static tag = 'pe-heatmap';
  static description = 'The sinusoidal position table (positions × dimensions) as a heatmap, with a cell readout.';
  static params = {
    'max-len': { type: 'int', default: 64, min: 1, max: 1024, entry: true, live: true, label: 'positions' },
    // the slider steps through powers of two (a step of 2 at 512 shows nothing); the box takes any even value
    'd-model': {
      type: 'int',
      default: 64,
      min: 2,
      max: 1024,
      even: true,
      stops: [2, 4, 8, 16, 32, 64, 128, 256, 512, 1024],
      live: true,
      label: 'd_model',
    },
    base: { type: 'float', default: 10000, min: 2, max: 1e6, control: 'number', live: true, label: 'base' },
  };
  static styles = css`
    .plot { position: relative; margin-top: 4px; }
    .plot canvas { touch-action: none; cursor: crosshair; border-radius: 4px; }
    .legend { display: flex; align-items: center; gap: 8px; flex-wrap: wrap; font-size: .85em; color: var(--pe-muted); margin-top: 8px; }
    .readout { margin-top: 6px; color: var(--pe-fg); }
    .hint { color: var(--pe-muted); font-size: .92em; }
    .stripes { font-size: .88em; color: var(--pe-muted); margin: 4px 0 0; }
  `;

  build(root) {
    this.canvas = h('canvas', { tabindex: '0', role: 'img' });
    this.colorBar = new ColorBar({
      low: '−1',
      high: '+1',
      label: 'Colour scale: −1 blue, 0 background colour, +1 red',
    });
    this.readoutBox = h('p', { class: 'readout', 'aria-live': 'polite' });
    this.stripesBox = h('p', { class: 'stripes' });
    this.details = this.tableAlternative('Show the first rows and columns as numbers', { lazy: true });
    root.append(
      ...this.heading(
        'The sinusoidal position table',
        'Each row is the vector added at one position; each column is one dimension. ',
        'The left columns (fast pairs) swing from row to row; the right columns (slow pairs) barely change over these positions. ',
        'Raise positions, or lower the base, and the slow columns start to turn. Point at or tap a cell (or focus the picture and use the arrow keys) to read it.',
      ),
      this.controls(['max-len', 'd-model', 'base']),
      h('div', { class: 'plot' }, this.canvas),
      h(
        'div',
        { class: 'legend' },
        this.colorBar.el,
        h('span', {}, 'blue = negative, red = positive, background colour = 0'),
      ),
      this.stripesBox,
      this.readoutBox,
      this.details,
    );
    this.cursor = { row: 0, col: 0 };
    this.meansBuffer = this.own(new HeapBuffer());
    // the cursor always shows a cell: leaving the picture or Escape keeps it where it is
    bindCellCursor(this.canvas, {
      grid: () => this.geom && { rows: this.shape.maxLen, cols: this.shape.dModel },
      current: () => [this.cursor.row, this.cursor.col],
      moveTo: (cur) => cur && this._moveCursor(...cur),
      at: (e) => this._cellAt(e),
    });
    this.redrawOnResize(this);
  }

  update(pe, p) {
    const { maxLen, dModel, base } = p;
    // 1. the pair frequencies, from the core. The picture is the table's box
    //    means, computed without the table (pe.sinusoidalPicture, in _resample);
    //    every value printed comes from sinusoidalRows, PyTorch's bits.
    this._pe = pe;
    this._exactRows = new Map(); // row -> Float32Array (dModel), torch's bits
    this.freqs = pe.sinusoidalFrequencies(dModel, { base });
    this.shape = { maxLen, dModel, base };
    this.cursor.row = Math.min(this.cursor.row, maxLen - 1);
    this.cursor.col = Math.min(this.cursor.col, dModel - 1);

    // 2. the colour lookup table (made again only when the theme changes:
    //    theme() keeps one object until then)
    const colors = this.theme();
    if (colors !== this._lutColors) {
      this._lutColors = colors;
      this.scale = diverging(colors.neg, colors.zero, colors.pos);
      this.lut = makeLut(this.scale);
    }
    this.colorBar.paint((t) => this.scale(2 * t - 1), colors);

    // 3. size the canvas to the host: the row height follows the number of
    //    positions and the width, never d_model, so a wide table keeps its height
    //    (the width from a ResizeObserver, widthOf: an update never forces a layout)
    const pad = 30; // the host's padding and border
    const cssW = Math.max(200, Math.floor((this.widthOf() || 600) - pad));
    const plotW = cssW - AXIS_LEFT - 4;
    const rowPx = Math.min(6.5, plotW / 64);
    const plotH = Math.round(Math.min(420, Math.max(140, maxLen * rowPx)));
    this.geom = { cssW, cssH: plotH + AXIS_TOP + 4, plotW, plotH };
    this.colors = colors;
    this.plotImage = this._resample(pe);
    this._draw();
    this._explainStripes();
    setAttr(
      this.canvas,
      'aria-label',
      `Heatmap of the sinusoidal position table with base ${base}: ${maxLen} positions (rows, top is 0) by ${dModel} dimensions (columns). ` +
        'Left columns swing between −1 and +1 from one row to the next; the right-hand columns change slowly and stay near 0 (sin) or 1 (cos). ' +
        'Focus it and use the arrow keys to read single values.',
    );
    this._readout();

    // 4. the text alternative: the first rows, the first columns and the last pair
    const cols =
      dModel <= TABLE_COLS ? [...Array(dModel).keys()] : [...Array(TABLE_COLS - 2).keys(), dModel - 2, dModel - 1];
    const rows = Math.min(maxLen, TABLE_ROWS);
    const headers = ['pos', ...cols.map((c) => `d${c} ${c % 2 ? 'cos' : 'sin'} i=${c >> 1}`)];
    // the exact rows are computed when the reader opens the table
    const body = () => {
      const exact = pe.sinusoidalRows(maxLen, dModel, 0, rows, { base });
      return Array.from({ length: rows }, (_, r) => [String(r), ...cols.map((c) => fixed(exact[r * dModel + c], 4))]);
    };
    const caption =
      `Positions 0–${rows - 1}` +
      (dModel > TABLE_COLS ? `, dimensions 0–${TABLE_COLS - 3} and the last pair (${dModel - 2}, ${dModel - 1})` : '');
    this.setTable(this.details, caption, headers, body);
  }

  // Blits the table image and the axes, then the cursor.
  _draw() {
    const { cssW, cssH, plotW, plotH } = this.geom;
    const { maxLen, dModel } = this.shape;
    const ctx = canvasContext(this.canvas, cssW, cssH);
    const dpr = this.canvas.width / cssW;
    ctx.putImageData(this.plotImage, Math.round(AXIS_LEFT * dpr), Math.round(AXIS_TOP * dpr));
    ctx.fillStyle = rgb(this.colors.muted);
    ctx.font = '11px system-ui, sans-serif';
    ctx.textBaseline = 'middle';
    ctx.textAlign = 'right';
    ctx.fillText('0', AXIS_LEFT - 4, AXIS_TOP + Math.min(6, plotH / maxLen / 2 + 2));
    ctx.fillText(String(maxLen - 1), AXIS_LEFT - 4, AXIS_TOP + plotH - 6);
    sideLabel(ctx, 'position ↓', 12, AXIS_TOP + plotH / 2);
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

  // The table as device pixels of the plot, drawn straight into the canvas:
  // each pixel is the mean of the cells it covers (several when the table has
  // more columns or rows than the plot has pixels, so nothing aliases into
  // moiré), and each cell covers whole pixels (so equal cells stay equal).
  // The core averages (pe.sinusoidalPicture, boxDownsample's spans in closed
  // form) down to a grid of at most one value per cell: where the plot has
  // more pixels than the table has cells, a pixel shows the one cell it
  // covers, cell k = floor(pixel · cells / pixels) (the span there is that one
  // cell), so the grid is coloured once and stretched here.
  _resample(pe) {
    const { maxLen, dModel, base } = this.shape;
    const dpr = window.devicePixelRatio || 1;
    const pw = Math.max(1, Math.round(this.geom.plotW * dpr));
    const ph = Math.max(1, Math.round(this.geom.plotH * dpr));
    if (!this.plotImage || this.plotImage.width !== pw || this.plotImage.height !== ph) {
      this.plotImage = new ImageData(pw, ph);
    }
    const gw = Math.min(pw, dModel);
    const gh = Math.min(ph, maxLen);
    // the means stay in the core's heap, read in place
    const means = pe.sinusoidalPicture(maxLen, dModel, gh, gw, { base, out: this.meansBuffer.take(pe, gw * gh) }).array;
    const { lut } = this;
    const scale = (LUT_SIZE - 1) / 2;
    const pixels = new Uint32Array(this.plotImage.data.buffer);
    // a grid row is coloured straight into its pixel row when the widths
    // match, else into `line` and then stretched
    const gx = gw === pw ? null : stretch(pw, gw);
    const gy = stretch(ph, gh);
    const line = gx ? new Uint32Array(gw) : pixels;
    let last = -1;
    for (let y = 0; y < ph; y++) {
      const row = y * pw;
      const g = gy[y];
      // a pixel row over the same grid row as the one above: a copy
      if (g === last) {
        pixels.copyWithin(row, row - pw, row);
        continue;
      }
      last = g;
      const src = g * gw;
      const at = gx ? 0 : row;
      for (let i = 0; i < gw; i++) {
        // Math.round for the x >= 0 that finite means give, without the call
        let k = ((means[src + i] + 1) * scale + 0.5) | 0;
        k = k < 0 ? 0 : k >= LUT_SIZE ? LUT_SIZE - 1 : k;
        line[at + i] = lut[k];
      }
      if (gx) for (let x = 0; x < pw; x++) pixels[row + x] = line[gx[x]];
    }
    return this.plotImage;
  }

  // Says which columns form the stripes on the right (red and the background
  // colour, white or dark by theme): the
  // pairs whose angle m·θ_i stays small over every position shown.
  _explainStripes() {
    const { maxLen, dModel } = this.shape;
    const last = maxLen - 1;
    const slow = this.freqs.findIndex((theta) => last * theta < 0.5);
    if (slow < 0) {
      setText(
        this.stripesBox,
        `Over positions 0–${last} every pair turns by at least half a radian, so no column stays still.`,
      );
      return;
    }
    setText(
      this.stripesBox,
      `The stripes on the right, red columns between background-coloured ones (dimensions ${2 * slow}–${dModel - 1}, pairs ${slow}–${dModel / 2 - 1}) are the slow pairs: ` +
        `over positions 0–${last} their angle m·θᵢ stays under half a radian, so each sin column stays near 0 (background colour) and each cos column near 1 (red).`,
    );
  }

  _readout() {
    const { row, col } = this.cursor;
    const { dModel } = this.shape;
    const i = col >> 1;
    const omega = this.freqs[i];
    if (!this._exactRows.has(row)) {
      const { maxLen, base } = this.shape;
      if (this._exactRows.size >= 64) this._exactRows.clear();
      this._exactRows.set(row, this._pe.sinusoidalRows(maxLen, dModel, row, 1, { base }));
    }
    const value = this._exactRows.get(row)[col];
    const fn = col % 2 ? 'cos' : 'sin';
    setText(
      this.readoutBox,
      `position ${row}, dimension ${col} = ${fn} of pair i = ${i}: value ${fixed(value, 4)}; ` +
        `θ = ${omega.toPrecision(4)} rad/position, wavelength 2π/θ = ${fixed((2 * Math.PI) / omega, 2)} positions`,
    );
  }

  _moveCursor(row, col) {
    if (row === this.cursor.row && col === this.cursor.col) return;
    this.cursor = { row, col };
    this._draw();
    this._readout();
  }

  // The [row, col] under a pointer, or null off the cells (the cells are not
  // square, and the canvas may be shrunk by CSS: cellAt's layout does not fit).
  _cellAt(e) {
    const rect = this.canvas.getBoundingClientRect();
    const sx = rect.width / this.geom.cssW; // CSS scaling when max-width shrinks the canvas
    const x = (e.clientX - rect.left) / sx - AXIS_LEFT;
    const y = (e.clientY - rect.top) / sx - AXIS_TOP;
    if (x < 0 || y < 0 || x >= this.geom.plotW || y >= this.geom.plotH) return null;
    return [
      Math.floor((y / this.geom.plotH) * this.shape.maxLen),
      Math.floor((x / this.geom.plotW) * this.shape.dModel),
    ];
  }
}

// For each of `pixels` pixels, the one of `cells` (<= pixels) cells it shows:
// min(cells - 1, floor(x · cells / pixels)), box_spans' first cell
// (cpp/core/downsample.h), the only one when cells <= pixels.
function stretch(pixels, cells) {
  const map = new Int32Array(pixels);
  for (let x = 0; x < pixels; x++) map[x] = Math.min(cells - 1, Math.floor((x * cells) / pixels));
  return map;
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
