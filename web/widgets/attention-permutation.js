// <attention-permutation sentence="the dog bit the man" encoding="sinusoidal">:
// the permutation experiment. One self-attention layer (d_model 16, 2 heads of
// 8, fixed seeded W_q, W_k, W_v; token embeddings from a seeded hash of each
// word) runs on a sentence and on a shuffle of it. Un-permute the shuffled
// outputs: without any position signal they are the original outputs (self-
// attention is permutation-equivariant); with an encoding they are not.
// The attention itself, the encodings and the biases all come from the core;
// the toy model, the shuffles and the pairing of seats are
// web/lib/permutation/permutation-experiment.js, what it all means in words
// web/lib/permutation/permutation-text.js. This file shows them.
import {
  PeElement,
  define,
  css,
  h,
  canvasContext,
  offPageCanvas,
  sameValues,
  setText,
  patchSpecs,
  replaceChildrenIfChanged,
} from '../lib/base/pe-element.js';
import { bindCellCursor } from '../lib/drawing/grid-cursor.js';
import { rgb, sequential, inkFor } from '../lib/drawing/colormap.js';
import { sentenceParam } from '../lib/base/params.js';
import { fixed } from '../lib/printing/pyformat.js';
import {
  ENCODINGS,
  ENCODING_LABELS,
  HEAD_DIM,
  ROUNDING,
  hashString,
  seededShuffle,
  swapOrder,
  parseOrder,
  attentionRuns,
} from '../lib/permutation/permutation-experiment.js';
import { headline, describeOrder, copiesNote, formatDiff } from '../lib/permutation/permutation-text.js';

// the two inks inkFor chooses between (the same arrays it returns)
const BLACK_INK = inkFor([255, 255, 255]);
const WHITE_INK = inkFor([0, 0, 0]);

class AttentionPermutation extends PeElement {
  static tag = 'attention-permutation';
  static description =
    'The permutation experiment: one self-attention layer on a sentence and on a shuffle of it, per positional encoding.';
  static params = {
    sentence: sentenceParam(2, 12),
    encoding: {
      type: 'enum',
      options: ENCODINGS,
      default: 'sinusoidal',
      label: 'encoding',
      optionLabels: ENCODING_LABELS,
    },
    // order[j] = which original word sits in seat j of the shuffled sentence; empty = the swap preset
    order: {
      type: 'string',
      default: '',
      maxLength: 60,
      pattern: /^\s*(?:\d+\s*(?:,\s*\d+\s*)*)?$/,
      patternMessage: 'must be comma-separated positions like 0,4,2,3,1',
      label: 'order',
    },
    head: {
      type: 'enum',
      options: ['1', '2'],
      default: '1',
      label: 'head shown',
      optionLabels: { 1: 'head 1', 2: 'head 2' },
    },
  };
  static styles = css`
    .hint { color: var(--pe-muted); font-size: .92em; }
    .lesson { font-weight: 600; }
    .buttons { display: flex; flex-wrap: wrap; gap: 8px; margin: 0 0 10px; }
    .sentences { margin: 6px 0 10px; font-size: .95em; }
    .sentences div { margin: 2px 0; }
    .sentences .tag { display: inline-block; min-width: 6.5em; color: var(--pe-muted); }
    .perm { font-family: var(--pe-mono); font-size: .88em; color: var(--pe-muted); }
    .maps { display: flex; flex-wrap: wrap; gap: 14px 24px; align-items: flex-start; }
    figure { margin: 0; max-width: 100%; }
    figcaption { font-size: .85em; color: var(--pe-muted); max-width: 22em; }
    /* in a figure narrower than the map the canvas scales down, keeping its shape
       (!important: canvasContext sets its height inline) */
    figure canvas { max-width: 100%; height: auto !important; }
    /* the selected row changes only paint (a background, a bar, a shown mark),
       never a size: switching the encoding does not lay the table out again */
    .results tr.selected th, .results tr.selected td { background: var(--pe-panel); box-shadow: inset 0 2px var(--pe-accent), inset 0 -2px var(--pe-accent); }
    .results tr:not(.selected) .mark { visibility: hidden; }
    .results td.verdict, .results th:last-child { text-align: left; }
    .results td.verdict { font-family: system-ui, sans-serif; }
    .results .mark { color: var(--pe-accent); }
    .perword-title { font-size: .9em; margin: 10px 0 0; }
    .note { font-size: .88em; color: var(--pe-muted); }
    .copies:empty { display: none; }
    /* the per-word table's box is the size container its rows query (not the
       host: text drawn on a canvas in a size container lays the container out) */
    .perword { container-type: inline-size; }
    .outrow { font-family: var(--pe-mono); white-space: nowrap; }
    /* the four numbers of a row wrap instead of pushing the table wider: on one
       line each the table takes about 680 px, so in the lesson's 666 px column
       the last column (the difference) sat under the scroll fade (issue 46) */
    @container (max-width: 720px) { .outrow { white-space: normal; min-width: 7ch; } }
    th, td { overflow-wrap: normal; }
    .results td:nth-child(2), .results th:first-child { white-space: nowrap; }
  `;

  build(root) {
    this.sentencesBox = h('div', { class: 'sentences' });
    this.maps = h('div', { class: 'maps' });
    this.mapReadout = h('p', { class: 'readout', 'aria-live': 'polite' });
    // one cell cursor for both maps, [query, key] in the original word order (both maps' layout)
    this.mapCursor = null;
    this.perWord = h('div', { class: 'table-wrap perword' });
    this.results = h('div', { class: 'table-wrap results' });
    this.lesson = h('p', { class: 'lesson', 'aria-live': 'polite' });
    this.perWordTitle = h('p', { class: 'perword-title' });
    this.copiesNote = h('p', { class: 'note copies' });
    this.details = this.tableAlternative('Show the attention weights as numbers', { lazy: true });
    const controlRow = this.controls(['sentence', 'encoding', 'head']);
    // A new sentence starts again from the swap preset (an old order may not fit it).
    this._controls.get('sentence').input.addEventListener('change', () => this.removeAttribute('order'));
    // the maps' cells follow the widget's width (widthOf in update)
    this.redrawOnResize(this);
    root.append(
      ...this.heading(
        'Shuffle the words: can attention tell?',
        'The same toy attention layer reads a sentence and a shuffle of it. Each word gets an output row (a vector of 16 numbers, 8 per head). ',
        'Put the shuffled sentence’s rows back in the original word order and compare them row by row: ',
        'with no position signal they match (to float32 rounding); with an encoding they differ, unless the shuffle keeps everything that encoding reads (ALiBi here is symmetric: it sees only distances, so it cannot tell a sentence from its reversal). Try Shuffle, then switch the encoding. ',
        'The layer has two heads with their own toy weights; “head shown” picks the one drawn and listed, the differences count both.',
      ),
      controlRow,
      h(
        'div',
        { class: 'buttons' },
        h('button', { type: 'button', onclick: () => this._shuffle() }, 'Shuffle'),
        h('button', { type: 'button', onclick: () => this._swap() }, 'Swap 2nd and last word'),
      ),
      this.sentencesBox,
      this.lesson,
      this.maps,
      this.mapReadout,
      this.perWordTitle,
      this.copiesNote,
      this.perWord,
      this.results,
      h(
        'p',
        { class: 'note' },
        'The sizes are not a ranking of the schemes: they depend on this layer’s random toy weights and word vectors (another sentence gives other sizes). ',
        'What the test reads is zero (up to float32 rounding) against not zero: not zero means the layer sees the order.',
      ),
      this.details,
    );
  }

  _words() {
    return (this.getAttribute('sentence') ?? AttentionPermutation.params.sentence.default).trim().split(/\s+/);
  }

  _shuffle() {
    const words = this._words();
    if (words.length < 2 || words.length > 12) return;
    const current = this.getAttribute('order') ?? '';
    let shown;
    try {
      shown = parseOrder(current, words.length);
    } catch {
      shown = swapOrder(words.length); // an order that does not fit: its error is on screen
    }
    const p = seededShuffle(words, hashString(`${words.join(' ')}|${current}`), shown.map((i) => words[i]).join(' '));
    this.setAttribute('order', p.join(','));
  }

  _swap() {
    const words = this._words();
    if (words.length >= 2 && words.length <= 12) this.setAttribute('order', swapOrder(words.length).join(','));
  }

  update(pe, p, changed) {
    // widths come from a ResizeObserver (widthOf) and are read before this
    // update writes anything: an update never forces a layout
    const widthCap = Math.max(240, (this.widthOf() || 600) - 30);
    const colors = this.theme();
    const words = p.sentence.trim().split(/\s+/);
    const n = words.length;
    const order = parseOrder(p.order, n);
    const shuffled = order.map((i) => words[i]);

    // 1-2. the embeddings and every encoding on both orders. They depend on
    // the words and the order only: switching the encoding or the head shown
    // reuses them.
    if (changed.has('sentence') || changed.has('order')) {
      this._runs = attentionRuns(pe, words, order);
      this._copiesText = copiesNote(words);
    }
    const runs = this._runs;

    // 3. the sentences and the permutation
    // (every part of the widget below keeps its nodes: patchSpecs and
    // setText change only the attributes and text that differ)
    patchSpecs(this.sentencesBox, [
      ['div', {}, [['span', { class: 'tag' }, 'original'], words.join(' ')]],
      ['div', {}, [['span', { class: 'tag' }, 'shuffled'], shuffled.join(' ')]],
      [
        'div',
        { class: 'perm' },
        `order = [${order.join(', ')}]: position j of the shuffle holds word order[j] of the original. ${describeOrder(order, words)}`,
      ],
    ]);
    const sel = runs[p.encoding];
    // the seat of the shuffle each original word is compared with (its own
    // seat moved by the order, copies of a repeated word paired by pairCopies)
    const pair = sel.pair;
    const sameWords = shuffled.every((w, i) => w === words[i]);
    setText(this.lesson, headline(words, order, p.encoding, sel.max));

    // 4. the attention weights of the selected encoding and head, both orders, in the original word order
    const head = Number(p.head) - 1;
    const scale = sequential(colors.zero, colors.accent);
    const wO = (a, b) => sel.o.weights[(head * n + a) * n + b];
    const wS = (a, b) => sel.s.weights[(head * n + pair[a]) * n + pair[b]];
    const labelsO = words.map((w, i) => `${w} (${i})`);
    const labelsS = words.map((w, i) => `${w} (${pair[i]})`);
    // a map's canvas gets the cursor when heatmap() makes it
    this._mapSlots ??= [0, 1].map(() => {
      const slot = {};
      slot.bind = (canvas) => this._bindMap(canvas, slot);
      return slot;
    });
    if (this.mapCursor && (changed.has('sentence') || this.mapCursor[0] >= n)) this.mapCursor = null;
    this._maps = { words, pair, head, wO, wS };
    const figures = [
      heatmap(
        this._mapSlots[0],
        `Original order, head ${head + 1}`,
        labelsO,
        n,
        wO,
        scale,
        colors,
        widthCap,
        'Rows: each word as a query; columns: the words it attends to (position in brackets). Darker = more weight; each row sums to 1.',
      ),
      heatmap(
        this._mapSlots[1],
        `Shuffled order, head ${head + 1}, put back in the original word order`,
        labelsS,
        n,
        wS,
        scale,
        colors,
        widthCap,
        'Same layout as the original-order map; brackets give each word’s position in the shuffled sentence. Identical maps mean attention saw no difference.',
      ),
    ];
    this._drawMapCursor();
    // kept figures stay in place; a figure made anew replaces the old one
    replaceChildrenIfChanged(this.maps, figures);

    // 5. per word, then every encoding: the largest |difference| after un-permuting
    const SHOWN = 4; // of the head's 8 output numbers
    const outRow = (run, seat) =>
      Array.from(run.output.subarray((head * n + seat) * HEAD_DIM, (head * n + seat) * HEAD_DIM + SHOWN), (v) =>
        fixed(v, 3).padStart(6),
      ).join(' ') + ' …';
    setText(
      this.perWordTitle,
      `Each word’s output row (head ${head + 1}, first ${SHOWN} of ${HEAD_DIM} numbers), in the original sentence and in the shuffle, with the largest difference over both heads (${p.encoding}):`,
    );
    setText(this.copiesNote, this._copiesText);
    patchSpecs(this.perWord, [
      [
        'table',
        {},
        [
          [
            'thead',
            {},
            [
              [
                'tr',
                {},
                [
                  'word (position)',
                  'new position',
                  'output row, original',
                  'output row, shuffle',
                  'largest |diff.|',
                ].map((t) => ['th', { scope: 'col' }, t]),
              ],
            ],
          ],
          [
            'tbody',
            {},
            words.map((w, i) => [
              'tr',
              {},
              [
                ['th', { scope: 'row' }, `${w} (${i})`],
                ['td', {}, String(pair[i])],
                ['td', { class: 'outrow' }, outRow(sel.o, i)],
                ['td', { class: 'outrow' }, outRow(sel.s, pair[i])],
                ['td', {}, formatDiff(sel.perWord[i])],
              ],
            ]),
          ],
        ],
      ],
    ]);
    // the summary's numbers change only with the runs; a switch of encoding
    // moves its selected row (the rows are ENCODINGS, in order)
    if (this._resultsOf === runs) {
      if (this._resultsSel !== p.encoding) {
        const rows = this.results.querySelector('tbody').rows;
        const was = rows[ENCODINGS.indexOf(this._resultsSel)];
        was.removeAttribute('class');
        was.removeAttribute('aria-current');
        const now = rows[ENCODINGS.indexOf(p.encoding)];
        now.setAttribute('class', 'selected');
        now.setAttribute('aria-current', 'true');
      }
    } else
      patchSpecs(this.results, [
        [
          'table',
          {},
          [
            ['caption', {}, 'Every encoding on the same two orders: largest |output difference| after un-permuting'],
            [
              'thead',
              {},
              [
                [
                  'tr',
                  {},
                  [
                    ['th', { scope: 'col' }, 'encoding'],
                    ['th', { scope: 'col' }, 'max |difference|'],
                    ['th', { scope: 'col' }, 'what it means'],
                  ],
                ],
              ],
            ],
            [
              'tbody',
              {},
              ENCODINGS.map((enc) => {
                const d = runs[enc].max;
                const verdict =
                  d === 0
                    ? sameWords
                      ? 'identical: the same sentence, the same outputs'
                      : 'identical: outputs only moved with the words'
                    : d < ROUNDING
                      ? 'equal up to float32 rounding: the same terms, summed in another order (0 in exact arithmetic)'
                      : 'different: the layer sees the order';
                return [
                  'tr',
                  { class: enc === p.encoding ? 'selected' : null, 'aria-current': enc === p.encoding ? 'true' : null },
                  [
                    ['th', { scope: 'row' }, [['span', { class: 'mark' }, '▶ '], enc]],
                    ['td', {}, formatDiff(d)],
                    ['td', { class: 'verdict' }, verdict],
                  ],
                ];
              }),
            ],
          ],
        ],
      ]);
    this._resultsOf = runs;
    this._resultsSel = p.encoding;

    // 6. the text alternative: both weight matrices
    const rowsOf = (labels, w) => labels.map((l, a) => [l, ...labels.map((_, b) => fixed(w(a, b), 3))]);
    this.setTable(
      this.details,
      `Attention weights, ${p.encoding}, head ${head + 1}: original order, then the shuffle put back in the original word order`,
      ['query \\ key', ...labelsO],
      () => [...rowsOf(labelsO, wO), [`— shuffled —`, ...labelsO.map(() => '')], ...rowsOf(labelsS, wS)],
    );
  }

  _bindMap(canvas, slot) {
    bindCellCursor(canvas, {
      grid: () => this._maps && { rows: this._maps.words.length, cols: this._maps.words.length },
      current: () => this.mapCursor,
      moveTo: (cur) => {
        this.mapCursor = cur;
        // the cells again (heatmap() keeps the frame and the figure), then the cursor
        for (const s of this._mapSlots) heatmap(s, ...s.args);
        this._drawMapCursor();
      },
      at: (e) => {
        const { labelW, top, cell, width, n } = slot.geom;
        const rect = canvas.getBoundingClientRect();
        const scale = rect.width / width; // CSS shrinks the canvas on a narrow screen
        const b = Math.floor(((e.clientX - rect.left) / scale - labelW) / cell);
        const a = Math.floor(((e.clientY - rect.top) / scale - top) / cell);
        return a < 0 || b < 0 || a >= n || b >= n ? null : [a, b];
      },
    });
  }

  // The cursor's box on both maps (inside its cell: the next drawing of the
  // cells clears it) and the readout.
  _drawMapCursor() {
    const cur = this.mapCursor;
    if (!cur) {
      setText(
        this.mapReadout,
        'Point at or tap a cell of either map (or focus one and use the arrow keys) to read its weight in both orders.',
      );
      return;
    }
    const [a, b] = cur;
    for (const slot of this._mapSlots) {
      const { labelW, top, cell } = slot.geom;
      const ctx = slot.canvas.getContext('2d');
      ctx.lineWidth = 2;
      ctx.strokeStyle = slot.look.fg;
      ctx.strokeRect(labelW + b * cell + 1, top + a * cell + 1, cell - 2, cell - 2);
    }
    const { words, pair, head, wO, wS } = this._maps;
    setText(
      this.mapReadout,
      `head ${head + 1}: ${words[a]} (${a}) as the query, ${words[b]} (${b}) as the key: weight ${fixed(wO(a, b), 4)} in the original; ` +
        `in the shuffle, at positions ${pair[a]} and ${pair[b]}, ${fixed(wS(a, b), 4)}`,
    );
  }
}

// An n x n heatmap of w(a, b) in [0, 1] on one canvas, labelled rows and
// columns. `slot` keeps the figure between updates; only a new title or a
// new caption make it anew, new labels draw it whole. While the geometry,
// the labels and the colours stay
// the same (switching the encoding) only the cells are drawn again. A canvas,
// not SVG: in SVG every changed number was text the browser had to shape and
// lay out again, about half of the update's layout. A redraw makes little
// garbage (no colour string per cell, no keys as JSON): at 4x CPU a minor
// garbage collection inside an update is what its slowest updates were made of.
function heatmap(slot, title, labels, n, w, scale, colors, widthCap, caption) {
  // what it was drawn from, for a redraw of the cells under a moving cursor
  slot.args = [title, labels, n, w, scale, colors, widthCap, caption];
  let longest = 0;
  for (const l of labels) longest = Math.max(longest, l.length);
  const labelW = Math.min(110, 7 * longest + 8);
  const cell = Math.max(14, Math.min(36, Math.floor((Math.min(widthCap, 420) - labelW - 4) / n)));
  const showValues = cell >= 30;
  const slant = 0.72 * (6.5 * longest); // a column label at -45° reaches this far up and right
  const top = Math.ceil(slant + 8); // whole pixels: sharp row edges, whole-pixel clears
  const width = Math.ceil(labelW + n * cell + Math.max(4, slant - cell / 2));
  const height = Math.ceil(top + n * cell + 2);
  slot.geom = { labelW, top, cell, width, n };
  if (slot.title !== title || slot.caption !== caption) {
    slot.canvas = h('canvas', {
      role: 'img',
      tabindex: '0',
      'aria-label': `${title}: ${n} by ${n} attention weights. Focus it and use the arrow keys to read one; the numbers are in the table below.`,
    });
    slot.bind?.(slot.canvas);
    slot.figure = h(
      'figure',
      {},
      h('figcaption', {}, h('strong', {}, title)),
      slot.canvas,
      h('figcaption', {}, caption),
    );
    Object.assign(slot, { title, caption, look: null });
  }
  // (a repeated word's copies may pair differently under another encoding)
  if (!sameValues(slot.labels, labels)) Object.assign(slot, { labels, look: null });
  const look = slot.look;
  let ctx;
  if (
    look &&
    look.width === width &&
    look.height === height &&
    look.cell === cell &&
    look.colors === colors &&
    look.dpr === window.devicePixelRatio
  ) {
    // same frame around the grid: clear the grid (and its outer half strokes) only
    ctx = slot.canvas.getContext('2d');
    ctx.clearRect(labelW - 1, top - 1, n * cell + 2, n * cell + 2);
  } else {
    ctx = canvasContext(slot.canvas, width, height);
    ctx.font = '11px system-ui, sans-serif';
    ctx.fillStyle = rgb(colors.fg);
    ctx.textAlign = 'end';
    ctx.textBaseline = 'middle';
    for (let a = 0; a < n; a++) ctx.fillText(labels[a], labelW - 4, top + (a + 0.5) * cell);
    ctx.textAlign = 'start';
    ctx.textBaseline = 'alphabetic';
    for (let b = 0; b < n; b++) {
      const x = labelW + (b + 0.5) * cell;
      ctx.save();
      ctx.translate(x, top - 4);
      ctx.rotate(-Math.PI / 4);
      ctx.fillText(labels[b], 0, 0);
      ctx.restore();
    }
    slot.look = {
      width,
      height,
      cell,
      colors,
      dpr: window.devicePixelRatio,
      border: rgb(colors.border),
      fg: rgb(colors.fg),
      bg: rgb(colors.bg),
    };
  }
  // the cells: one pixel each of an n x n image, drawn scaled up without
  // smoothing into whole-pixel cells (the pixels a fill per cell gives)
  if (slot.cells?.width !== n) {
    slot.cells = new ImageData(n, n);
    slot.cellCanvas = offPageCanvas(n, n);
  }
  const px = slot.cells.data;
  for (let a = 0; a < n; a++) {
    for (let b = 0; b < n; b++) {
      const rgbCell = scale(w(a, b));
      const i = 4 * (a * n + b);
      px[i] = rgbCell[0];
      px[i + 1] = rgbCell[1];
      px[i + 2] = rgbCell[2];
      px[i + 3] = 255;
    }
  }
  slot.cellCanvas.getContext('2d').putImageData(slot.cells, 0, 0);
  ctx.imageSmoothingEnabled = false;
  ctx.drawImage(slot.cellCanvas, labelW, top, n * cell, n * cell);
  ctx.lineWidth = 0.5;
  ctx.strokeStyle = slot.look.border;
  for (let a = 0; a < n; a++) {
    for (let b = 0; b < n; b++) ctx.strokeRect(labelW + b * cell, top + a * cell, cell, cell);
  }
  if (showValues) {
    ctx.font = '9.5px system-ui, sans-serif';
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    // black or white, whichever contrasts more with the cell (colormap.js's
    // inkFor: at least 4.58:1 in either theme; the theme's fg and bg, switched
    // at a weight of 0.5, left mid-scale cells at 2.4:1): one colour at a time
    for (const ink of [BLACK_INK, WHITE_INK]) {
      ctx.fillStyle = rgb(ink);
      for (let a = 0; a < n; a++) {
        for (let b = 0; b < n; b++) {
          const v = w(a, b);
          if (inkFor(scale(v)) === ink) ctx.fillText(fixed(v, 2), labelW + (b + 0.5) * cell, top + (a + 0.5) * cell);
        }
      }
    }
  }
  return slot.figure;
}

define(AttentionPermutation);
