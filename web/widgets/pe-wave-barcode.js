// <pe-wave-barcode sentence="the dog bit the man" d-model="16">: one "position
// card" per word. Each card shows the word's position, the (sin, cos) values
// of a fast, a medium and a slow frequency pair at that position (drawn as a
// small wave over positions 0..11 with the word's seat marked; the medium and
// slow waves on a y-axis zoomed to their own range, since on −1..1 they are
// flat lines that look alike on every card), and the whole
// sinusoidal vector as a barcode: one cell per dimension, colour = value.
// d_model 4 has two pairs only: its pair 1 is both the middle and the slowest
// pair, drawn once as "slow", and the widget says so.
// Values and frequencies come from the core (pe.sinusoidal,
// pe.sinusoidalFrequencies); this file only lays them out.
import {
  PeElement,
  define,
  css,
  h,
  offPageCanvas,
  sameValues,
  setAttr,
  setText,
  replaceChildrenIfChanged,
} from '../lib/base/pe-element.js';
import { ColorBar } from '../lib/drawing/color-bar.js';
import { diverging, rgb } from '../lib/drawing/colormap.js';
import { sentenceParam } from '../lib/base/params.js';
import { fixed } from '../lib/printing/pyformat.js';

const MAX_WORDS = 12;
const STRIP_LEN = MAX_WORDS; // the mini waves span positions 0..11 on every card
// a wave's inputs: pair, frequency, seat, zoomed, (sin, cos) at 0..11, device pixels
const waveInputs = new Float64Array(5 + 2 * STRIP_LEN);
// Mini-wave geometry in drawing units: the canvas scales uniformly to the
// card's width, as an SVG with this viewBox would.
const SW = 132;
const SH = 34;
const PAD = 4;
// backing width of every barcode (at least 8 pixels per cell up to d_model 128; shown at the card's width)
const BAR_PX = 1024;

class PeWaveBarcode extends PeElement {
  static tag = 'pe-wave-barcode';
  static description =
    'One card per word: the sin/cos values of a fast, a medium and a slow frequency pair at its position.';
  static params = {
    sentence: sentenceParam(1, 12),
    'd-model': { type: 'int', default: 16, min: 4, max: 128, even: true, label: 'd_model' },
    base: { type: 'float', default: 10000, min: 2, max: 1e6, control: 'number', live: true, label: 'base' },
  };
  static styles = css`
    .hint { color: var(--pe-muted); font-size: .92em; }
    .pairs { margin: 6px 0 10px; padding: 0; list-style: none; font-size: .9em; display: flex; flex-wrap: wrap; gap: 4px 18px; }
    .pairs b { font-weight: 600; }
    .pairs-note { margin: -4px 0 10px; font-size: .9em; color: var(--pe-muted); }
    .pairs-note:empty { display: none; }
    .cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(150px, 1fr)); gap: 10px; }
    .card { border: 1px solid var(--pe-border); border-radius: 8px; padding: 8px; background: var(--pe-panel); min-width: 0; }
    .card .word { font-weight: 700; font-size: 1.1em; overflow-wrap: anywhere; }
    .card .seat { color: var(--pe-muted); font-size: .85em; }
    .wave { margin-top: 6px; }
    .wave .lab { font-size: .78em; color: var(--pe-muted); display: flex; justify-content: space-between; gap: 4px; }
    .wave canvas { width: 100%; height: auto; }
    .plotrow { display: grid; grid-template-columns: auto minmax(0, 1fr); gap: 3px; align-items: stretch; }
    .yaxis { display: flex; flex-direction: column; justify-content: space-between; text-align: right; font-family: var(--pe-mono); font-size: .74em; color: var(--pe-muted); line-height: 1; border-right: 1px solid var(--pe-border); padding-right: 2px; }
    .zoom { font-size: .74em; color: var(--pe-muted); }
    .wave .vals { font-family: var(--pe-mono); font-size: .78em; }
    .bar-lab { font-size: .78em; color: var(--pe-muted); margin-top: 8px; }
    canvas.barcode { width: 100%; height: 18px; image-rendering: pixelated; border: 1px solid var(--pe-border); border-radius: 3px; }
    .key { display: flex; flex-wrap: wrap; gap: 4px 14px; font-size: .82em; color: var(--pe-muted); margin-top: 10px; align-items: center; }
    .key span { white-space: nowrap; }
    .key span.wrap { white-space: normal; }
    .key svg { display: inline-block; vertical-align: middle; }
  `;

  build(root) {
    this.pairList = h('ul', { class: 'pairs' });
    this.pairsNote = h('p', { class: 'pairs-note' });
    this.cards = h('div', { class: 'cards' });
    this.colorBar = new ColorBar({
      low: '−1',
      high: '+1',
      label: 'Barcode colours: −1 blue, 0 background colour, +1 red',
    });
    this.details = this.tableAlternative('Show every vector as numbers', { lazy: true });
    // each wave's canvas gets exactly the device pixels it covers on screen:
    // an observer reports them (after a resize, a zoom, another screen) and
    // the waves are drawn again at the new size
    this._waveSizes = new ResizeObserver((entries) => {
      let changed = false;
      for (const e of entries) {
        // (Chromium's device emulation reports the device-pixel box in CSS
        // pixels: the larger of the two is right both there and on a device)
        const px = Math.max(
          e.devicePixelContentBoxSize?.[0]?.inlineSize ?? 0,
          Math.round(e.contentRect.width * (window.devicePixelRatio || 1)),
        );
        if (px > 0 && px !== e.target.devicePixels) {
          e.target.devicePixels = px;
          changed = true;
        }
      }
      if (changed) this.schedule();
    });
    // watched while the widget is on the page; every wave's canvas again when it comes back
    this._waveCanvases = [];
    this.own(() => {
      for (const canvas of this._waveCanvases) this._watch(canvas);
      return this._waveSizes;
    });
    root.append(
      ...this.heading(
        'Position cards: what each word gets added for its position',
        'Every word gets the vector of its position, whatever the word is. Compare the two cards of "the": same word, different barcodes. ',
        'Type your own sentence (up to 12 words) or change d_model.',
      ),
      this.controls(['sentence', 'd-model']),
      this.pairList,
      this.pairsNote,
      h(
        'div',
        { class: 'key' },
        h('span', {}, keyLine('solid'), ' sin'),
        h('span', {}, keyLine('dashed'), ' cos'),
        h('span', {}, 'small dots: positions 0–11'),
        h('span', {}, 'ring (sin) and filled dot (cos): this word’s position'),
        h('span', { class: 'wrap' }, 'y-axis: the value; medium and slow waves zoomed to their own range'),
        h('span', {}, 'barcode: ', this.colorBar.el),
      ),
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
    // kept for the last few (rows, d_model, base): typing a base and going
    // back, or a slider moved to and fro, does not ask the core again
    const key = `${rows},${dModel},${base}`;
    if (this._tablesCore !== pe) {
      this._tables = new Map();
      this._tablesCore = pe;
    }
    let computed = this._tables.get(key);
    if (computed)
      this._tables.delete(key); // to the end: most recently used
    else computed = { table: pe.sinusoidal(rows, dModel, { base }), freqs: pe.sinusoidalFrequencies(dModel, { base }) };
    this._tables.set(key, computed);
    if (this._tables.size > 4) this._tables.delete(this._tables.keys().next().value);
    const { table, freqs } = computed;
    const half = dModel / 2;
    // the fast, the middle and the slowest pair: three pairs from d_model 6
    // on; d_model 4 (the least taken) has two, and its pair 1 is both the
    // middle and the slowest, shown once as slow
    const picks =
      half >= 3
        ? [
            ['fast', 0],
            ['medium', Math.floor(dModel / 4)],
            ['slow', half - 1],
          ]
        : [
            ['fast', 0],
            ['slow', half - 1],
          ];
    const wavelength = (i) => (2 * Math.PI) / freqs[i];

    // 2. which pairs are fast and slow, with their wavelengths
    // (kept items: <li><b>name</b> text</li>, their text set in place)
    this._pairItems ??= [];
    const items = picks.map(([name, i], k) => {
      const li = (this._pairItems[k] ??= h('li', {}, h('b', {}, name), ' '));
      setText(li.firstChild, `${name}`);
      const text = ` pair i = ${i} (dims ${2 * i}, ${2 * i + 1}): θ = ${freqs[i].toPrecision(4)}, wavelength ${fixed(wavelength(i), 2)} positions`;
      if (li.lastChild.data !== text) li.lastChild.data = text;
      return li;
    });
    replaceChildrenIfChanged(this.pairList, items);
    setText(
      this.pairsNote,
      picks.length < 3
        ? `With d_model = ${dModel} there are only ${half} pairs: pair ${half - 1} is both the medium and the slowest, so each card shows ${picks.length} waves.`
        : '',
    );

    // 3. one card per word
    // theme() keeps one object until the colours change: the object itself
    // tells whether the legend, a wave or a bar was drawn in these colours
    const colors = this.theme();
    const scale = diverging(colors.neg, colors.zero, colors.pos);
    this.colorBar.paint((t) => scale(2 * t - 1), colors);
    const col = (pos, c) => table[pos * dModel + c];
    // the cards and everything in them are kept from update to update; an
    // update sets their text and attributes (rebuilding ~300 nodes per
    // slider step cost most of a frame on a phone), and a wave or barcode
    // whose numbers did not change is not drawn again
    this._cards ??= [];
    const cards = words.map((word, pos) => {
      const card = (this._cards[pos] ??= makeCard());
      setAttr(card.article, 'aria-label', `${word}, position ${pos}`);
      setText(card.word, word);
      setText(card.seat, `position ${pos}`);
      // the row's part of the summary, made again only when the row changed
      const row = table.subarray(pos * dModel, (pos + 1) * dModel);
      const rowChanged = !sameValues(card.row, row);
      if (rowChanged) {
        card.row = row.slice();
        card.rowText = Array.from(row, (v) => fixed(v, 2)).join(', ');
      }
      setText(
        card.summary,
        `${word}, position ${pos}. ` +
          picks
            .map(
              ([name, i]) =>
                `${name} pair ${i}: sin ${fixed(col(pos, 2 * i), 4)}, cos ${fixed(col(pos, 2 * i + 1), 4)}`,
            )
            .join('; ') +
          `. Full vector of ${dModel} values: ${card.rowText}.`,
      );
      const waves = picks.map(([name, i], k) => {
        const w = (card.waves[k] ??= this._observed(makeWave()));
        // what the wave shows depends on these numbers only (written into
        // one scratch array and kept per wave as a copy: no garbage per wave)
        const inputs = waveInputs;
        inputs[0] = i;
        inputs[1] = freqs[i];
        inputs[2] = pos;
        inputs[3] = k > 0 ? 1 : 0;
        for (let t = 0; t < STRIP_LEN; t++) {
          inputs[4 + 2 * t] = table[t * dModel + 2 * i];
          inputs[5 + 2 * t] = table[t * dModel + 2 * i + 1];
        }
        inputs[4 + 2 * STRIP_LEN] = w.canvas.devicePixels ?? 0;
        if (w.colors !== colors || w.name.textContent !== `${name} i=${i}` || !sameValues(w.inputs, inputs)) {
          const wave = miniWave(w.canvas, table, dModel, i, pos, colors, k > 0);
          setText(w.name, `${name} i=${i}`);
          setText(w.lambda, `λ ${fixed(wavelength(i), 1)}`);
          setText(w.hi, tick(wave.hi));
          setText(w.lo, tick(wave.lo));
          setText(w.vals, `sin ${value(col(pos, 2 * i))}  cos ${value(col(pos, 2 * i + 1))}`);
          replaceChildrenIfChanged(w.el, [w.lab, w.plotrow, wave.zoomed ? w.zoom : null, w.vals]);
          (w.inputs ??= new Float64Array(inputs.length)).set(inputs);
          w.colors = colors;
        }
        return w.el;
      });
      setText(card.barLab, `all ${dModel} dims`);
      // the row as dModel pixels of one off-page canvas, scaled without
      // smoothing into the card's bar, whose backing store never changes
      // size (resizing five on-page canvases at each d_model step cost more
      // than drawing them, at 4x CPU)
      // (a new d_model is a new row length: rowChanged)
      if (rowChanged || card.barColors !== colors) {
        if (this._rowImage?.width !== dModel) {
          this._rowImage = new ImageData(dModel, 1);
          this._rowCanvas = offPageCanvas(dModel, 1);
        }
        const img = this._rowImage;
        for (let d = 0; d < dModel; d++) {
          const [r, g, b] = scale(col(pos, d));
          img.data[4 * d] = r;
          img.data[4 * d + 1] = g;
          img.data[4 * d + 2] = b;
          img.data[4 * d + 3] = 255;
        }
        this._rowCanvas.getContext('2d').putImageData(img, 0, 0);
        const ctx = card.bar.getContext('2d');
        ctx.imageSmoothingEnabled = false;
        ctx.drawImage(this._rowCanvas, 0, 0, BAR_PX, 1);
        card.barColors = colors;
      }
      replaceChildrenIfChanged(card.article, [card.head, card.summary, ...waves, card.barLab, card.bar]);
      return card.article;
    });
    replaceChildrenIfChanged(this.cards, cards);

    // 4. the text alternative: every word's vector (the first 16 dims when d_model is larger)
    const shown = Math.min(dModel, 16);
    this.setTable(
      this.details,
      `Sinusoidal vector of each word's position${dModel > shown ? ` (first ${shown} of ${dModel} dimensions)` : ''}`,
      ['word (pos)', ...Array.from({ length: shown }, (_, d) => `d${d}`)],
      () => words.map((w, pos) => [`${w} (${pos})`, ...Array.from({ length: shown }, (_, d) => fixed(col(pos, d), 4))]),
    );
  }

  // a new wave, its canvas watched for its size in device pixels
  _observed(wave) {
    this._waveCanvases.push(wave.canvas);
    if (this.isConnected) this._watch(wave.canvas);
    return wave;
  }

  _watch(canvas) {
    try {
      this._waveSizes.observe(canvas, { box: 'device-pixel-content-box' });
    } catch {
      this._waveSizes.observe(canvas); // an engine without that box: its CSS pixels times the ratio
    }
  }
}

// One seat card's nodes, made once and kept (update() fills them in).
function makeCard() {
  const word = h('span', { class: 'word' });
  const seat = h('span', { class: 'seat' });
  return {
    article: h('article', { class: 'card' }),
    head: h('div', { 'aria-hidden': 'true' }, word, ' ', seat),
    word,
    seat,
    summary: h('p', { class: 'visually-hidden' }),
    waves: [],
    barLab: h('div', { class: 'bar-lab', 'aria-hidden': 'true' }),
    bar: h('canvas', { class: 'barcode', width: BAR_PX, height: 1, 'aria-hidden': 'true' }),
  };
}

// One wave of a card: its label, y-axis, plot, zoom note and values.
function makeWave() {
  const name = h('span', {});
  const lambda = h('span', {});
  const hi = h('span', {});
  const lo = h('span', {});
  const canvas = h('canvas', { 'aria-hidden': 'true' });
  const lab = h('div', { class: 'lab', 'aria-hidden': 'true' }, name, lambda);
  const plotrow = h('div', { class: 'plotrow', 'aria-hidden': 'true' }, h('div', { class: 'yaxis' }, hi, lo), canvas);
  const zoom = h('div', { class: 'zoom', 'aria-hidden': 'true' }, 'zoomed: sin only');
  const vals = h('div', { class: 'vals', 'aria-hidden': 'true' });
  return {
    el: h('div', { class: 'wave' }, lab, plotrow, vals),
    name,
    lambda,
    hi,
    lo,
    canvas,
    lab,
    plotrow,
    zoom,
    vals,
  };
}

// A small wave of pair i over positions 0..11 (values from the table): sin
// solid, cos dashed, a dot at every position, a ring on the word's seat.
// zoom: a slow pair's sin hardly moves on −1..1, so its y-axis is its own
// range over 0..11 and only sin is drawn (its cos, near 1, is the number
// under the plot). Drawn on the card's kept canvas, in SW x SH units, on a
// backing store of the device pixels the canvas covers (canvas.devicePixels,
// from the widget's observer; until it reports, twice the ratio's worth). A
// canvas, not SVG: at each slider step the SVG's moved dots and lines were
// laid out again with the cards around them, about 40% of the update.
// Returns { lo, hi, zoomed }.
function miniWave(canvas, table, dModel, i, pos, colors, zoom) {
  const sinAt = (t) => table[t * dModel + 2 * i];
  let lo = -1;
  let hi = 1;
  let zoomed = false;
  if (zoom) {
    let a = Infinity;
    let b = -Infinity;
    for (let t = 0; t < STRIP_LEN; t++) {
      a = Math.min(a, sinAt(t));
      b = Math.max(b, sinAt(t));
    }
    if (b - a < 1.5 && b > a) {
      // a wave that does not already fill the axis
      lo = a;
      hi = b;
      zoomed = true;
    }
  }
  const x = (t) => PAD + (t / (STRIP_LEN - 1)) * (SW - 2 * PAD);
  const y = (v) => PAD + (1 - (v - lo) / (hi - lo)) * (SH - 2 * PAD);
  const cw = canvas.devicePixels || Math.round(2 * SW * (window.devicePixelRatio || 1));
  const k = cw / SW;
  const ch = Math.round(SH * k);
  if (canvas.width !== cw || canvas.height !== ch) [canvas.width, canvas.height] = [cw, ch];
  const ctx = canvas.getContext('2d');
  ctx.setTransform(k, 0, 0, k, 0, 0);
  ctx.clearRect(0, 0, SW, SH);
  const stroke = (color, width, dash, path) => {
    ctx.beginPath();
    path();
    ctx.strokeStyle = color;
    ctx.lineWidth = width;
    ctx.setLineDash(dash);
    ctx.stroke();
  };
  const polyline = (c) => () => {
    for (let t = 0; t < STRIP_LEN; t++) ctx.lineTo(x(t), y(table[t * dModel + c]));
  };
  const disc = (cx, cy, r, color) => {
    ctx.beginPath();
    ctx.arc(cx, cy, r, 0, 2 * Math.PI);
    ctx.fillStyle = color;
    ctx.fill();
  };
  const accent = rgb(colors.accent);
  const muted = rgb(colors.muted);
  if (lo < 0 && hi > 0) stroke(rgb(colors.border), 0.8, [], () => (ctx.moveTo(PAD, y(0)), ctx.lineTo(SW - PAD, y(0))));
  stroke(accent, 0.8, [2, 2], () => (ctx.moveTo(x(pos), 1), ctx.lineTo(x(pos), SH - 1)));
  if (!zoomed) stroke(muted, 1, [3, 2], polyline(2 * i + 1));
  stroke(rgb(colors.fg), 1.2, [], polyline(2 * i));
  for (let t = 0; t < STRIP_LEN; t++) disc(x(t), y(sinAt(t)), 1.2, muted);
  stroke(accent, 1.6, [], () => ctx.arc(x(pos), y(sinAt(pos)), 3, 0, 2 * Math.PI));
  if (!zoomed) disc(x(pos), y(table[pos * dModel + 2 * i + 1]), 2.4, accent);
  return { lo: zoomed ? lo : -1, hi: zoomed ? hi : 1, zoomed };
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
  return h(
    'svg:svg',
    { width: 22, height: 8, 'aria-hidden': 'true' },
    h('svg:line', {
      x1: 1,
      x2: 21,
      y1: 4,
      y2: 4,
      stroke: 'currentColor',
      'stroke-width': 1.5,
      'stroke-dasharray': kind === 'dashed' ? '3 2' : null,
    }),
  );
}

define(PeWaveBarcode);
