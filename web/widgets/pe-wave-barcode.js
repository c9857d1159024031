// <pe-wave-barcode sentence="the dog bit the man" d-model="16">: one "seat
// card" per word. Each card shows the word's position, the (sin, cos) values
// of a fast, a medium and a slow frequency pair at that position (drawn as a
// small wave over positions 0..11 with the word's seat marked; the medium and
// slow waves on a y-axis zoomed to their own range, since on −1..1 they are
// flat lines that look alike on every card), and the whole
// sinusoidal vector as a barcode: one cell per dimension, colour = value.
// Values and frequencies come from the core (pe.sinusoidal,
// pe.sinusoidalFrequencies); this file only lays them out.
import { PeElement, define, css, h } from '../lib/pe-element.js';
import { diverging, rgb, themeColors } from '../lib/colormap.js';
import { fixed } from '../lib/pyformat.js';

const MAX_WORDS = 12;
const STRIP_LEN = MAX_WORDS; // the mini waves span positions 0..11 on every card
// Mini-wave geometry in SVG user units (the SVG scales uniformly to the card).
const SW = 132;
const SH = 34;
const PAD = 4;

class PeWaveBarcode extends PeElement {
  static tag = 'pe-wave-barcode';
  static description = 'One seat card per word: the sin/cos values of a fast, a medium and a slow frequency pair at its position.';
  static params = {
    sentence: {
      type: 'string',
      default: 'the dog bit the man',
      maxLength: 120,
      pattern: /^\s*\S+(?:\s+\S+){0,11}\s*$/,
      patternMessage: 'must have 1 to 12 words',
      label: 'sentence',
      size: 26,
    },
    'd-model': { type: 'int', default: 16, min: 4, max: 128, even: true, label: 'd_model' },
    base: { type: 'float', default: 10000, min: 2, max: 1e6, control: 'number', live: true, label: 'base' },
  };
  static styles = css`
    .hint { color: var(--pe-muted); font-size: .92em; }
    .pairs { margin: 6px 0 10px; padding: 0; list-style: none; font-size: .9em; display: flex; flex-wrap: wrap; gap: 4px 18px; }
    .pairs b { font-weight: 600; }
    .cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(150px, 1fr)); gap: 10px; }
    .card { border: 1px solid var(--pe-border); border-radius: 8px; padding: 8px; background: var(--pe-panel); min-width: 0; }
    .card .word { font-weight: 700; font-size: 1.1em; overflow-wrap: anywhere; }
    .card .seat { color: var(--pe-muted); font-size: .85em; }
    .wave { margin-top: 6px; }
    .wave .lab { font-size: .78em; color: var(--pe-muted); display: flex; justify-content: space-between; gap: 4px; }
    .wave svg { width: 100%; height: auto; }
    .plotrow { display: grid; grid-template-columns: auto minmax(0, 1fr); gap: 3px; align-items: stretch; }
    .yaxis { display: flex; flex-direction: column; justify-content: space-between; text-align: right; font-family: var(--pe-mono); font-size: .74em; color: var(--pe-muted); line-height: 1; border-right: 1px solid var(--pe-border); padding-right: 2px; }
    .zoom { font-size: .74em; color: var(--pe-muted); }
    .wave .vals { font-family: var(--pe-mono); font-size: .78em; }
    .bar-lab { font-size: .78em; color: var(--pe-muted); margin-top: 8px; }
    canvas.barcode { width: 100%; height: 18px; image-rendering: pixelated; border: 1px solid var(--pe-border); border-radius: 3px; }
    .key { display: flex; flex-wrap: wrap; gap: 4px 14px; font-size: .82em; color: var(--pe-muted); margin-top: 10px; align-items: center; }
    .key span { white-space: nowrap; }
    .key span.wrap { white-space: normal; }
    .key svg, .key canvas { display: inline-block; vertical-align: middle; }
    .key canvas { width: 120px; height: 10px; border: 1px solid var(--pe-border); border-radius: 3px; vertical-align: middle; }
  `;

  build(root) {
    this.pairList = h('ul', { class: 'pairs' });
    this.cards = h('div', { class: 'cards' });
    this.legend = h('canvas', { width: 120, height: 1, role: 'img', 'aria-label': 'Barcode colours: −1 blue, 0 background colour, +1 red' });
    this.details = this.tableAlternative('Show every vector as numbers');
    root.append(
      h('h3', {}, 'Seat cards: what each word gets added for its position'),
      h('p', { class: 'hint' },
        'Every word gets the vector of its seat, whatever the word is. Compare the two cards of "the": same word, different barcodes. ',
        'Type your own sentence (up to 12 words) or change d_model.'),
      this.controls(['sentence', 'd-model']),
      this.pairList,
      h('div', { class: 'key' },
        h('span', {}, keyLine('solid'), ' sin'),
        h('span', {}, keyLine('dashed'), ' cos'),
        h('span', {}, 'small dots: positions 0–11'),
        h('span', {}, 'ring (sin) and filled dot (cos): this word’s seat'),
        h('span', { class: 'wrap' }, 'y-axis: the value; medium and slow waves zoomed to their own range'),
        h('span', {}, 'barcode: −1 ', this.legend, ' +1')),
      this.cards,
      this.details,
    );
  }

  update(pe, p) {
    const { dModel, base } = p;
    const words = p.sentence.trim().split(/\s+/);
    const n = words.length;
    // 1. the table for positions 0..11 and the pair frequencies, from the core
    const rows = Math.max(n, STRIP_LEN);
    const table = pe.sinusoidal(rows, dModel, { base });
    const freqs = pe.sinusoidalFrequencies(dModel, { base });
    const half = dModel / 2;
    const picks = [
      ['fast', 0],
      ['medium', Math.floor(dModel / 4)],
      ['slow', half - 1],
    ].filter(([, i], k, all) => all.findIndex(([, j]) => j === i) === k);
    const wavelength = (i) => (2 * Math.PI) / freqs[i];

    // 2. which pairs are fast and slow, with their wavelengths
    this.pairList.replaceChildren(
      ...picks.map(([name, i]) =>
        h('li', {}, h('b', {}, `${name}`), ` pair i = ${i} (dims ${2 * i}, ${2 * i + 1}): θ = ${freqs[i].toPrecision(4)}, wavelength ${fixed(wavelength(i), 2)} positions`),
      ),
    );

    // 3. one card per word
    const colors = themeColors(this);
    const scale = diverging(colors.neg, colors.zero, colors.pos);
    this._drawLegend(scale);
    const col = (pos, c) => table[pos * dModel + c];
    const cards = words.map((word, pos) => {
      const waves = picks.map(([name, i], k) => {
        const s = col(pos, 2 * i);
        const c = col(pos, 2 * i + 1);
        const wave = miniWave(table, dModel, i, pos, colors, k > 0);
        return h('div', { class: 'wave' },
          h('div', { class: 'lab', 'aria-hidden': 'true' }, h('span', {}, `${name} i=${i}`), h('span', {}, `λ ${fixed(wavelength(i), 1)}`)),
          h('div', { class: 'plotrow', 'aria-hidden': 'true' },
            h('div', { class: 'yaxis' }, h('span', {}, tick(wave.hi)), h('span', {}, tick(wave.lo))),
            wave.svg),
          wave.zoomed ? h('div', { class: 'zoom', 'aria-hidden': 'true' }, 'zoomed: sin only') : null,
          h('div', { class: 'vals', 'aria-hidden': 'true' }, `sin ${value(s)}  cos ${value(c)}`));
      });
      const bar = h('canvas', { class: 'barcode', width: dModel, height: 1, 'aria-hidden': 'true' });
      const ctx = bar.getContext('2d');
      const img = ctx.createImageData(dModel, 1);
      for (let d = 0; d < dModel; d++) {
        const [r, g, b] = scale(col(pos, d));
        img.data.set([r, g, b, 255], d * 4);
      }
      ctx.putImageData(img, 0, 0);
      const summary =
        `${word}, position ${pos}. ` +
        picks.map(([name, i]) => `${name} pair ${i}: sin ${fixed(col(pos, 2 * i), 4)}, cos ${fixed(col(pos, 2 * i + 1), 4)}`).join('; ') +
        `. Full vector of ${dModel} values: ${Array.from(table.subarray(pos * dModel, (pos + 1) * dModel), (v) => fixed(v, 2)).join(', ')}.`;
      return h('article', { class: 'card', 'aria-label': `${word}, position ${pos}` },
        h('div', { 'aria-hidden': 'true' }, h('span', { class: 'word' }, word), ' ', h('span', { class: 'seat' }, `position ${pos}`)),
        h('p', { class: 'visually-hidden' }, summary),
        ...waves,
        h('div', { class: 'bar-lab', 'aria-hidden': 'true' }, `all ${dModel} dims`),
        bar);
    });
    this.cards.replaceChildren(...cards);

    // 4. the text alternative: every word's vector (the first 16 dims when d_model is larger)
    const shown = Math.min(dModel, 16);
    this.setTable(
      this.details,
      `Sinusoidal vector of each word's position${dModel > shown ? ` (first ${shown} of ${dModel} dimensions)` : ''}`,
      ['word (pos)', ...Array.from({ length: shown }, (_, d) => `d${d}`)],
      words.map((w, pos) => [`${w} (${pos})`, ...Array.from({ length: shown }, (_, d) => fixed(col(pos, d), 4))]),
    );
  }

  _drawLegend(scale) {
    const ctx = this.legend.getContext('2d');
    for (let x = 0; x < this.legend.width; x++) {
      ctx.fillStyle = rgb(scale((x / (this.legend.width - 1)) * 2 - 1));
      ctx.fillRect(x, 0, 1, 1);
    }
  }
}

// A small wave of pair i over positions 0..11 (values from the table): sin
// solid, cos dashed, a dot at every position, a ring on the word's seat.
// zoom: a slow pair's sin hardly moves on −1..1, so its y-axis is its own
// range over 0..11 and only sin is drawn (its cos, near 1, is the number
// under the plot). Returns { svg, lo, hi, zoomed }.
function miniWave(table, dModel, i, pos, colors, zoom) {
  const sinAt = (t) => table[t * dModel + 2 * i];
  let lo = -1;
  let hi = 1;
  let zoomed = false;
  if (zoom) {
    let a = Infinity;
    let b = -Infinity;
    for (let t = 0; t < STRIP_LEN; t++) { a = Math.min(a, sinAt(t)); b = Math.max(b, sinAt(t)); }
    if (b - a < 1.5 && b > a) { // a wave that does not already fill the axis
      lo = a;
      hi = b;
      zoomed = true;
    }
  }
  const x = (t) => PAD + (t / (STRIP_LEN - 1)) * (SW - 2 * PAD);
  const y = (v) => PAD + (1 - (v - lo) / (hi - lo)) * (SH - 2 * PAD);
  const points = (c) => Array.from({ length: STRIP_LEN }, (_, t) => `${x(t).toFixed(1)},${y(table[t * dModel + c]).toFixed(1)}`).join(' ');
  const fg = rgb(colors.fg);
  const muted = rgb(colors.muted);
  const accent = rgb(colors.accent);
  const dots = [];
  for (let t = 0; t < STRIP_LEN; t++) dots.push(h('svg:circle', { cx: x(t).toFixed(1), cy: y(sinAt(t)).toFixed(1), r: 1.2, fill: muted }));
  const svg = h('svg:svg', { viewBox: `0 0 ${SW} ${SH}`, 'aria-hidden': 'true' },
    lo < 0 && hi > 0 ? h('svg:line', { x1: PAD, x2: SW - PAD, y1: y(0), y2: y(0), stroke: rgb(colors.border), 'stroke-width': 0.8 }) : null,
    h('svg:line', { x1: x(pos), x2: x(pos), y1: 1, y2: SH - 1, stroke: accent, 'stroke-width': 0.8, 'stroke-dasharray': '2 2' }),
    zoomed ? null : h('svg:polyline', { points: points(2 * i + 1), fill: 'none', stroke: muted, 'stroke-width': 1, 'stroke-dasharray': '3 2' }),
    h('svg:polyline', { points: points(2 * i), fill: 'none', stroke: fg, 'stroke-width': 1.2 }),
    ...dots,
    h('svg:circle', { cx: x(pos), cy: y(sinAt(pos)), r: 3, fill: 'none', stroke: accent, 'stroke-width': 1.6 }),
    zoomed ? null : h('svg:circle', { cx: x(pos), cy: y(table[pos * dModel + 2 * i + 1]), r: 2.4, fill: accent }),
  );
  return { svg, lo: zoomed ? lo : -1, hi: zoomed ? hi : 1, zoomed };
}

// y-axis labels: short, with enough digits to tell a zoomed range apart.
function tick(v) {
  if (Math.abs(v) >= 0.995 && Math.abs(Math.abs(v) - 1) < 1e-9) return v > 0 ? '+1' : '−1';
  return Math.abs(v) < 1e-12 ? '0' : Number(v.toPrecision(2)).toString();
}

// a value with three significant digits (a slow pair's sin is 0.000316, not 0.00)
function value(v) {
  if (v === 0) return '0';
  if (Math.abs(v) >= 0.1) return fixed(v, 3);
  return Number(v.toPrecision(3)).toString();
}

function keyLine(kind) {
  return h('svg:svg', { width: 22, height: 8, 'aria-hidden': 'true' },
    h('svg:line', { x1: 1, x2: 21, y1: 4, y2: 4, stroke: 'currentColor', 'stroke-width': 1.5, 'stroke-dasharray': kind === 'dashed' ? '3 2' : null }));
}

define(PeWaveBarcode);
