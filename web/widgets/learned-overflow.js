// <learned-overflow rows="512" positions="600" d-model="64">: a learned
// absolute position table (rows, d_model), like BERT's or GPT-2's, looked up
// for positions 0..positions-1 with pe.learnedLookup. Up to `rows` positions
// it works; one more and PyTorch's nn.Embedding stops with
// "IndexError: index out of range in self". The error is the lesson, so it is
// shown, not thrown: the core's message says which position first fails.
import { PeElement, define, css, h, patchSpecs, setAttr, setText } from '../lib/base/pe-element.js';
import { HeapBuffer } from '../lib/base/heap-buffer.js';
import { seededRandom } from '../lib/questions/random.js';
import { rgb } from '../lib/drawing/colormap.js';
import { torchSize, torchStr } from '../lib/printing/pyformat.js';

const PREVIEW_ROWS = 3;
const PREVIEW_COLS = 6;

// The toy table: row r is seeded by r alone, so growing `rows` keeps the rows
// already there (and dragging the slider only fills the new ones). Entries
// are roughly N(0, 1), like nn.Embedding's initialisation (Box-Muller).
// It lives in the core's heap (a grow-only HeapBuffer), so a lookup reads it
// in place: at 4096 x 1024 a copy in cost more than the lookup.
class SeededTable {
  constructor() {
    this.dModel = 0;
    this.filled = 0;
    this.buffer = new HeapBuffer();
  }

  /** The first rows * dModel values, in pe's heap; rows 0..needed-1 hold their seeded values (later rows: not yet filled). */
  view(pe, rows, dModel, needed = rows) {
    if (dModel !== this.dModel || this.pe !== pe) {
      this.pe = pe;
      this.dModel = dModel;
      this.filled = 0;
    }
    const table = this.buffer.take(pe, rows * dModel, this.filled * dModel);
    const data = table.array; // valid until the next call into the core
    for (let r = this.filled; r < needed; r++) {
      const random = seededRandom(Math.imul(r + 1, 0x9e3779b1) ^ dModel);
      const row = data.subarray(r * dModel, (r + 1) * dModel);
      for (let c = 0; c < dModel; c += 2) {
        const radius = Math.sqrt(-2 * Math.log(1 - random())); // 1 - random() is in (0, 1]: log stays finite
        const angle = 2 * Math.PI * random();
        row[c] = radius * Math.cos(angle);
        if (c + 1 < dModel) row[c + 1] = radius * Math.sin(angle);
      }
    }
    this.filled = Math.max(this.filled, needed);
    return table;
  }

  free() {
    this.buffer.free();
    this.filled = 0;
  }
}

class LearnedOverflow extends PeElement {
  static tag = 'learned-overflow';
  static description = 'A learned position table looked up past its last row, failing as nn.Embedding does.';
  static params = {
    // long sliders (4096 values in a few hundred pixels): a number box beside each
    rows: { type: 'int', default: 512, min: 1, max: 4096, entry: true, live: true, label: 'table rows' },
    positions: { type: 'int', default: 600, min: 1, max: 4096, entry: true, live: true, label: 'positions asked for' },
    'd-model': { type: 'int', default: 64, min: 1, max: 1024, control: 'number', live: true, label: 'd_model' },
  };
  static styles = css`
    .hint { color: var(--pe-muted); font-size: .92em; }
    .bars svg { width: 100%; height: auto; }
    .bars-text { font-size: .88em; margin: 2px 0 8px; }
    .verdict { font-weight: 700; margin: 10px 0 4px; }
    .verdict.ok { color: var(--pe-good); }
    .verdict.fail { color: var(--pe-bad); }
    pre.out.fail { border-left: 4px solid var(--pe-bad); }
    pre.out.ok { border-left: 4px solid var(--pe-good); }
    .why { font-size: .92em; }
    .core { font-family: var(--pe-mono); font-size: .85em; color: var(--pe-muted); overflow-wrap: anywhere; }
    .label { font-size: .85em; color: var(--pe-muted); margin: 8px 0 0; }
  `;

  build(root) {
    // both heap buffers go with the widget: freed when it leaves the page,
    // filled again if it comes back
    this.table = this.own(new SeededTable());
    // the lookup's output stays in the core's heap: only its first rows are
    // read (the preview), and copying 16 MB out at the largest size was wasted
    this.outBuffer = this.own(new HeapBuffer());
    this.bars = h('div', { class: 'bars' });
    this.barsText = h('p', { class: 'bars-text' });
    this.code = h('pre', { class: 'code' });
    this.verdict = h('p', { class: 'verdict', 'aria-live': 'polite' });
    this.output = h('pre', { class: 'out' });
    this.why = h('div', { class: 'why' });
    root.append(
      ...this.heading(
        'A learned position table has a last row',
        'A learned table stores one trained vector per position, and nothing beyond its last row. ',
        'Drag “positions asked for” past “table rows” (or type a number in the box beside it) and watch the lookup fail, exactly where PyTorch fails.',
      ),
      this.controls(['rows', 'positions', 'd-model']),
      this.bars,
      this.barsText,
      h('p', { class: 'label' }, 'The PyTorch code'),
      this.code,
      this.verdict,
      h('p', { class: 'label' }, 'What it prints'),
      this.output,
      this.why,
    );
    this.redrawOnResize(this);
  }

  update(pe, p) {
    const { rows, positions, dModel } = p;
    // the width (from a ResizeObserver, widthOf) and the colours are read
    // before this update writes anything
    const colors = this.theme();
    const look = { width: this.widthOf(), colors, good: rgb(colors.good), bad: rgb(colors.bad) };
    // every part is kept and changed in place (setText, setAttr, patchSpecs):
    // an update builds no throwaway nodes
    setText(
      this.code,
      [
        'import torch',
        `emb = torch.nn.Embedding(${rows}, ${dModel})  # ${rows} rows`,
        `pos = torch.arange(${positions})  # 0..${positions - 1}`,
        'out = emb(pos)',
        'print(out.shape)',
        `print(out[:${PREVIEW_ROWS}, :${PREVIEW_COLS}].detach())`,
      ].join('\n'),
    );

    // 1. the lookup, by the core; past the table it throws, and that is the answer
    if (!this.positions || this.positions.length < positions)
      this.positions = Float64Array.from({ length: Math.max(positions, 1024) }, (_, i) => i);
    // only rows 0..min(rows, positions)-1 can be read, so only those are drawn from the generator
    const table = this.table.view(pe, rows, dModel, Math.min(rows, positions));
    let out = null;
    let failure = null;
    try {
      out = pe.learnedLookup(table, rows, dModel, this.positions.subarray(0, positions), {
        out: this.outBuffer.take(pe, positions * dModel),
      }).array;
    } catch (error) {
      if (error.kind !== 'IndexError') throw error; // anything else is a real bug
      failure = error;
    }

    // 2. the bars: the table's rows and the positions asked for, on one scale
    this._drawBars(rows, positions, look);
    if (failure) {
      const first = failure.values[0]; // the first position without a row (errors.h: the value, then the rows)
      const missing = positions - first;
      setText(
        this.barsText,
        `The table has ${span('row', 0, rows - 1)}; ` +
          (missing === 1
            ? `position ${first}, the last of the ${positions} asked for, has no row.`
            : `positions ${first} to ${positions - 1} (${missing} of the ${positions} asked for) have no row.`),
      );
      setAttr(this.verdict, 'class', 'verdict fail');
      setText(this.verdict, `✗ Fails: ${positions} positions asked of a ${rows}-row table`);
      setAttr(this.output, 'class', 'out fail');
      setText(
        this.output,
        [
          'Traceback (most recent call last):',
          '  File "example.py", line 4, in <module>',
          '    out = emb(pos)',
          '  ...',
          'IndexError: index out of range in self',
        ].join('\n'),
      );
      patchSpecs(this.why, [
        [
          'p',
          {},
          `Position ${first} is the first one that fails: the table has ${span('row', 0, rows - 1)} and nothing after ${rows === 1 ? 'it' : 'them'}. ` +
            'nn.Embedding does not stretch, wrap or invent a row; a model with a learned table (BERT: 512, GPT-2: 1024) simply has no vector for a longer input. ' +
            'The fixes are to truncate the input, or to train a bigger table; relative schemes (RoPE, ALiBi, T5 buckets) have no table indexed by absolute position.',
        ],
        [
          'p',
          { class: 'core' },
          `Our compute core stops at the same place: it looks up position ${first}, finds no row (the valid positions are ${rows === 1 ? '0 only' : `0 to ${rows - 1}`}), and reports PyTorch's error.`,
        ],
      ]);
    } else {
      const unused = rows - positions;
      setText(
        this.barsText,
        `All ${positions} positions have a row` +
          (unused > 1
            ? `; rows ${positions} to ${rows - 1} (${unused} rows) are not used by this input.`
            : unused === 1
              ? `; row ${positions}, the last, is not used by this input.`
              : '; every row is used.'),
      );
      setAttr(this.verdict, 'class', 'verdict ok');
      setText(this.verdict, `✓ Works: ${positions} ≤ ${rows} rows`);
      setAttr(this.output, 'class', 'out ok');
      const r = Math.min(PREVIEW_ROWS, positions);
      const c = Math.min(PREVIEW_COLS, dModel);
      const preview = new Float32Array(r * c);
      for (let i = 0; i < r; i++) preview.set(out.subarray(i * dModel, i * dModel + c), i * c);
      setText(this.output, `${torchSize([positions, dModel])}\n${torchStr(preview, [r, c])}`);
      patchSpecs(this.why, [
        [
          'p',
          {},
          `Each of the ${positions} positions picks its own row, so the output has shape (${positions}, ${dModel}). ` +
            'The numbers are rows of our seeded table (nn.Embedding starts from its own random N(0, 1) values, so yours differ); the shape is exact.',
        ],
      ]);
    }
  }

  _drawBars(rows, positions, { width, colors, good, bad }) {
    const W = Math.max(260, Math.floor((width || 600) - 30));
    const left = 0;
    const top = 18;
    const barH = 22;
    const gap = 26;
    const maxN = Math.max(rows, positions);
    const x = (v) => left + (v / maxN) * (W - left - 2);
    const fg = rgb(colors.fg);
    const text = (tx, ty, s, anchor = 'start', fill = fg) => [
      'svg:text',
      { x: tx, y: ty, 'text-anchor': anchor, 'font-size': 12, fill },
      s,
    ];
    const fits = Math.min(rows, positions);
    const parts = [
      // table rows
      text(0, top - 5, `table rows: ${rows}`),
      [
        'svg:rect',
        {
          x: x(0),
          y: top,
          width: x(rows) - x(0),
          height: barH,
          fill: rgb(colors.accent),
          'fill-opacity': 0.35,
          stroke: rgb(colors.accent),
        },
      ],
      // positions asked for: the part with a row, then the part without
      text(0, top + barH + gap - 5, `positions asked for: ${positions}`),
      [
        'svg:rect',
        {
          x: x(0),
          y: top + barH + gap,
          width: x(fits) - x(0),
          height: barH,
          fill: good,
          'fill-opacity': 0.35,
          stroke: good,
        },
      ],
    ];
    if (positions > rows) {
      const x0 = x(rows);
      const x1 = x(positions);
      parts.push(
        [
          'svg:defs',
          {},
          [
            [
              'svg:pattern',
              { id: 'hatch', width: 6, height: 6, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' },
              [
                ['svg:rect', { width: 6, height: 6, fill: bad, 'fill-opacity': 0.15 }],
                ['svg:line', { x1: 0, y1: 0, x2: 0, y2: 6, stroke: bad, 'stroke-width': 2.5 }],
              ],
            ],
          ],
        ],
        // at least 3 px, so a handful of missing positions stays visible (the text gives the count)
        [
          'svg:rect',
          {
            x: Math.min(x0, x1 - 3),
            y: top + barH + gap,
            width: Math.max(3, x1 - x0),
            height: barH,
            fill: 'url(#hatch)',
            stroke: bad,
          },
        ],
        [
          'svg:line',
          {
            x1: x0,
            x2: x0,
            y1: top - 4,
            y2: top + 2 * barH + gap + 4,
            stroke: bad,
            'stroke-width': 2,
            'stroke-dasharray': '4 3',
          },
        ],
        text(
          Math.min(x0 + 4, W - 4),
          top + 2 * barH + gap + 16,
          `no row from ${rows} on`,
          x0 + 4 > W - 120 ? 'end' : 'start',
          bad,
        ),
      );
    }
    const H = top + 2 * barH + gap + 22;
    patchSpecs(this.bars, [
      [
        'svg:svg',
        {
          viewBox: `0 0 ${W} ${H}`,
          width: W,
          role: 'img',
          'aria-label':
            positions > rows
              ? `Bar chart: the table has ${rows} rows; ${positions} positions are asked for, and the last ${positions - rows} have no row.`
              : `Bar chart: the table has ${rows} rows; all ${positions} positions asked for fit.`,
        },
        parts,
      ],
    ]);
  }
}

// "rows 0 to 511", or "row 0" when the range is one row.
function span(word, a, b) {
  return a === b ? `${word} ${a}` : `${word}s ${a} to ${b}`;
}

define(LearnedOverflow);
