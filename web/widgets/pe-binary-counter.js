// <pe-binary-counter positions="32" d-model="16">: the sinusoidal table beside
// the binary counter it smooths (lesson 02, "Fast pairs and slow pairs").
// Each row is a position m. Left, m's bits, lowest first: bit k is a square
// wave that flips every 2^k positions. Right, the sine of each pair of the
// sinusoidal table, sin(m θ_i): a smooth wave whose sign changes every
// π/θ_i positions, the first pairs fast, the later ones ever slower. The
// table and the frequencies come from the core (pe.sinusoidal,
// pe.sinusoidalFrequencies); the bits are counting.
import { PeElement, define, css, h, canvasContext, setAttr, setText } from '../lib/base/pe-element.js';
import { diverging, sequential, rgb } from '../lib/drawing/colormap.js';
import { fixed } from '../lib/printing/pyformat.js';
import { bindCellCursor } from '../lib/drawing/grid-cursor.js';

const LABEL_W = 30; // the row labels (positions)
const HEAD_H = 30; // the two block titles and the column numbers
const GAP = 16; // between the bits and the sines

class PeBinaryCounter extends PeElement {
  static tag = 'pe-binary-counter';
  static description = 'Positions in binary beside the sines of the sinusoidal table: bits and pairs, fast to slow.';
  static params = {
    positions: { type: 'int', default: 32, min: 4, max: 128, label: 'positions' },
    'd-model': { type: 'int', default: 16, min: 4, max: 64, even: true, label: 'd_model' },
    base: { type: 'float', default: 10000, min: 2, max: 1e6, control: 'number', label: 'base' },
  };
  static styles = css`
    .hint { color: var(--pe-muted); font-size: .92em; }
    .plot-wrap canvas { display: block; max-width: 100%; }
    .periods { font-size: .9em; margin: 6px 0; }
  `;

  build(root) {
    this.canvas = h('canvas', { role: 'img', tabindex: '0' });
    this.readout = h('p', { class: 'readout', 'aria-live': 'polite' });
    this.plotWrap = h('div', { class: 'plot-wrap' }, this.canvas);
    this.periods = h('p', { class: 'periods' });
    this.details = this.tableAlternative('Show the bits and the sines as numbers', { lazy: true });
    root.append(
      ...this.heading(
        'Counting in bits, counting in waves',
        'Each row is a position. Left, its bits, the lowest first: each column flips twice as seldom as the one before. ',
        'Right, the sine of each pair of the sinusoidal table: fast pairs first, each slower than the last by the same factor, and smooth between the rows.',
      ),
      this.controls(['positions', 'd-model']),
      this.plotWrap,
      this.readout,
      this.periods,
      this.details,
    );
    this.redrawOnResize(this.plotWrap);
    // one cell: [position, column], the columns the bits and then the pairs
    this.cursor = null;
    bindCellCursor(this.canvas, {
      grid: () => this._state && { rows: this._state.n, cols: this._state.bits + this._state.pairs },
      current: () => this.cursor,
      moveTo: (cur) => {
        this.cursor = cur;
        this._draw();
        this._readout();
      },
      at: (e) => this._cellAt(e),
    });
  }

  update(pe, p) {
    const { positions: n, dModel, base } = p;
    const pairs = dModel / 2;
    const bits = Math.max(1, Math.ceil(Math.log2(n)));
    const table = pe.sinusoidal(n, dModel, { base });
    const freqs = pe.sinusoidalFrequencies(dModel, { base });
    const sine = (m, i) => table[m * dModel + 2 * i];
    const bit = (m, k) => (m >> k) & 1;

    // the geometry: one row per position, one column per bit and per pair
    const width = Math.max(240, Math.min(640, this.widthOf(this.plotWrap) || 600));
    const cell = Math.max(6, Math.min(28, Math.floor((width - LABEL_W - GAP) / (bits + pairs))));
    const row = Math.max(4, Math.min(14, Math.floor(360 / n)));
    const cssW = LABEL_W + (bits + pairs) * cell + GAP;
    const cssH = HEAD_H + n * row + 2;
    const colors = this.theme();
    // the cursor stays on its cell while the columns keep their meaning (the same number of bits)
    if (this.cursor && this._state?.bits !== bits) this.cursor = null;
    if (this.cursor) this.cursor = [Math.min(this.cursor[0], n - 1), Math.min(this.cursor[1], bits + pairs - 1)];
    this._state = { n, bits, pairs, sine, bit, freqs, cell, row, cssW, cssH, colors };
    this._draw();
    this._readout();

    // in words: how often each column changes, from the core's frequencies
    const flips = Array.from({ length: Math.min(bits, 4) }, (_, k) => String(2 ** k)).join(', ');
    const signs = Array.from({ length: Math.min(pairs, 4) }, (_, i) => fixed(Math.PI / freqs[i], 1)).join(', ');
    const ratio = fixed(freqs[0] / freqs[1], 3);
    setText(
      this.periods,
      `Bit k flips every 2ᵏ positions (${flips}, …): a factor 2 per bit. Pair i's sine changes sign every π/θᵢ positions (${signs}, …): a factor ${ratio} per pair, base to the power 2/d_model.`,
    );
    setAttr(
      this.canvas,
      'aria-label',
      `Positions 0 to ${n - 1} as rows. Left, the ${bits} bits of each position, lowest first; right, the sine of each of the ${pairs} pairs of a d_model ${dModel} sinusoidal table with base ${base}. ${this.periods.textContent} Focus it and use the arrow keys to read a cell; the table below has the numbers.`,
    );
    this.setTable(
      this.details,
      `Positions 0–${n - 1}: bits (lowest first) and sin(m·θᵢ) of each pair`,
      [
        'm',
        ...Array.from({ length: bits }, (_, k) => `bit ${k}`),
        ...Array.from({ length: pairs }, (_, i) => `sin, pair ${i}`),
      ],
      () =>
        Array.from({ length: n }, (_, m) => [
          String(m),
          ...Array.from({ length: bits }, (_, k) => String(bit(m, k))),
          ...Array.from({ length: pairs }, (_, i) => fixed(sine(m, i), 3)),
        ]),
    );
  }

  // The bits, the sines and the cursor's box, from the last update's state.
  _draw() {
    const { n, bits, pairs, sine, bit, cell, row, cssW, cssH, colors } = this._state;
    const ctx = canvasContext(this.canvas, cssW, cssH);
    const on = sequential(colors.zero, colors.accent);
    const wave = diverging(colors.neg, colors.zero, colors.pos);
    const x0 = LABEL_W;
    const x1 = LABEL_W + bits * cell + GAP;
    for (let m = 0; m < n; m++) {
      const y = HEAD_H + m * row;
      for (let k = 0; k < bits; k++) {
        ctx.fillStyle = rgb(on(bit(m, k)));
        ctx.fillRect(x0 + k * cell, y, cell, row);
      }
      for (let i = 0; i < pairs; i++) {
        ctx.fillStyle = rgb(wave(sine(m, i)));
        ctx.fillRect(x1 + i * cell, y, cell, row);
      }
    }
    ctx.strokeStyle = rgb(colors.border);
    ctx.lineWidth = 1;
    ctx.strokeRect(x0 + 0.5, HEAD_H + 0.5, bits * cell - 1, n * row - 1);
    ctx.strokeRect(x1 + 0.5, HEAD_H + 0.5, pairs * cell - 1, n * row - 1);
    // titles, column numbers and every eighth position
    ctx.fillStyle = rgb(colors.fg);
    ctx.font = '11px system-ui, sans-serif';
    ctx.textBaseline = 'top';
    ctx.textAlign = 'left';
    ctx.fillText('bit k of m', x0, 0);
    ctx.fillText('sin(m·θᵢ), pair i', x1, 0);
    ctx.textAlign = 'center';
    ctx.textBaseline = 'bottom';
    const every = Math.ceil(14 / cell);
    for (let k = 0; k < bits; k += every) ctx.fillText(String(k), x0 + (k + 0.5) * cell, HEAD_H - 2);
    for (let i = 0; i < pairs; i += every) ctx.fillText(String(i), x1 + (i + 0.5) * cell, HEAD_H - 2);
    ctx.textAlign = 'right';
    ctx.textBaseline = 'middle';
    const step = Math.max(1, Math.ceil(12 / row)) * 4;
    for (let m = 0; m < n; m += step) ctx.fillText(String(m), LABEL_W - 4, HEAD_H + (m + 0.5) * row);

    if (this.cursor) {
      const [m, c] = this.cursor;
      const x = (c < bits ? x0 : x1 - bits * cell) + c * cell;
      const y = HEAD_H + m * row;
      ctx.lineWidth = 2;
      ctx.strokeStyle = rgb(colors.bg);
      ctx.strokeRect(x - 1, y - 1, cell + 2, row + 2);
      ctx.lineWidth = 1.5;
      ctx.strokeStyle = rgb(colors.fg);
      ctx.strokeRect(x, y, cell, row);
    }
  }

  // The [position, column] under a pointer, or null off the cells.
  _cellAt(e) {
    const { n, bits, pairs, cell, row, cssW } = this._state;
    const rect = this.canvas.getBoundingClientRect();
    const scale = rect.width / cssW; // CSS shrinks the canvas on a narrow screen
    const x = (e.clientX - rect.left) / scale;
    const y = (e.clientY - rect.top) / scale;
    const m = Math.floor((y - HEAD_H) / row);
    if (m < 0 || m >= n) return null;
    const x1 = LABEL_W + bits * cell + GAP;
    if (x >= LABEL_W && x < LABEL_W + bits * cell) return [m, Math.floor((x - LABEL_W) / cell)];
    if (x >= x1 && x < x1 + pairs * cell) return [m, bits + Math.floor((x - x1) / cell)];
    return null;
  }

  _readout() {
    if (!this.cursor) {
      setText(this.readout, 'Point at or tap a cell (or focus the picture and use the arrow keys) to read it.');
      return;
    }
    const { bits, sine, bit, freqs } = this._state;
    const [m, c] = this.cursor;
    if (c < bits) {
      setText(this.readout, `position ${m}, bit ${c} = ${bit(m, c)} (bit ${c} flips every ${2 ** c} positions)`);
      return;
    }
    const i = c - bits;
    setText(
      this.readout,
      `position ${m}, pair ${i}: sin(m·θᵢ) = ${fixed(sine(m, i), 4)} (its sign changes every π/θᵢ = ${fixed(Math.PI / freqs[i], 1)} positions)`,
    );
  }
}

define(PeBinaryCounter);
