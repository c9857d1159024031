// <t5-learned-bias>: what the training lab's T5 models learned, and what they
// meet when the input grows. The lab trains at length L, so offsets n − m run
// from −(L−1) to L−1 and reach only some of the 32 buckets; at 2L and 4L the
// new, longer offsets fall into buckets training never reached. A weight
// without gradient is never moved by Adam (its moments stay 0), so those
// buckets keep their initial values, uniform in ±0.1.
//
// The figure: one column per bucket that 4L reaches, ordered by offset (keys
// before the query on the left), with each head's learned bias as a dot,
// shaded by the length at which the bucket is first reached; beside it T5's
// token accuracy at 1x, 2x and 4x. Recorded by scripts/record/record-train-results.mjs
// (web/data/t5-learned.js); which offsets land in which bucket comes from the
// core (t5Buckets).
import { PeElement, define, css, h, patchSpecs, setAttr, setText } from '../lib/base/pe-element.js';
import { bindAxisCursor } from '../lib/drawing/grid-cursor.js';
import { fixed } from '../lib/printing/pyformat.js';
import T5 from '../data/t5-learned.js';
import { niceTicks } from '../lib/drawing/chart.js';

const TASKS = Object.keys(T5.tasks);
const MULTIPLES = [1, 2, 4];
const INIT = 0.1; // the trainer's initial T5 weights: uniform in ±INIT (cpp/train/transformer.h)
const VIEW = { w: 640, h: 250, l: 44, r: 10, t: 14, b: 54 };

class T5LearnedBias extends PeElement {
  static tag = 't5-learned-bias';
  static description =
    "The T5 bias the training lab's models learned per bucket and head, and the buckets only longer inputs reach.";
  static params = {
    task: { type: 'enum', options: TASKS, default: TASKS.includes('shift') ? 'shift' : TASKS[0], label: 'task' },
    seed: { type: 'enum', options: T5.seeds.map(String), default: String(T5.seeds[0]), label: 'seed' },
  };

  static styles = css`
    :host { --h1: #0072b2; --h2: #d55e00; --h3: #009e73; --h4: #cc79a7; --new2: rgba(230, 159, 0, .16); --new4: rgba(213, 94, 0, .26); }
    @media (prefers-color-scheme: dark) {
      :host { --h1: #56b4e9; --h2: #ff9e4a; --h3: #3fd0a4; --h4: #e6a0c8; --new2: rgba(240, 196, 58, .18); --new4: rgba(255, 158, 74, .28); }
    }
    svg { width: 100%; height: auto; display: block; }
    text { fill: var(--pe-fg); font: 11px system-ui, sans-serif; }
    text.muted { fill: var(--pe-muted); }
    .axis { stroke: var(--pe-muted); stroke-width: 1; fill: none; }
    .grid { stroke: var(--pe-border); stroke-width: 1; }
    .init { stroke: var(--pe-muted); stroke-dasharray: 3 3; }
    .new2 { fill: var(--new2); } .new4 { fill: var(--new4); }
    .h0 { fill: var(--h1); } .h1 { fill: var(--h2); } .h2 { fill: var(--h3); } .h3 { fill: var(--h4); }
    .l0 { stroke: var(--h1); } .l1 { stroke: var(--h2); } .l2 { stroke: var(--h3); } .l3 { stroke: var(--h4); }
    .head-line { fill: none; stroke-width: 1; opacity: .45; }
    .acc { font-variant-numeric: tabular-nums; }
    .legend { display: flex; flex-wrap: wrap; gap: 4px 14px; font-size: .85em; margin: 4px 0; padding: 0; list-style: none; }
    .legend li { display: inline-flex; align-items: center; gap: 5px; }
    .swatch { display: inline-block; width: 14px; height: 12px; border: 1px solid var(--pe-border); }
    .swatch.new2 { background: var(--new2); } .swatch.new4 { background: var(--new4); }
    .dot { display: inline-block; width: 9px; height: 9px; border-radius: 50%; }
    .d0 { background: var(--h1); } .d1 { background: var(--h2); } .d2 { background: var(--h3); } .d3 { background: var(--h4); }
    .cursor { fill: none; stroke: var(--pe-fg); stroke-width: 1.5; }
  `;

  build(root) {
    this.svg = h('svg:svg', { role: 'img', tabindex: '0', viewBox: `0 0 ${VIEW.w} ${VIEW.h}` });
    this.readout = h('p', { class: 'readout', 'aria-live': 'polite' });
    this.acc = h('p', { class: 'acc' });
    this.note = h('p', { class: 'note' });
    this.table = this.tableAlternative('Show the learned biases as a table', { lazy: true });
    const dots = Array.from({ length: T5.heads }, (_, k) =>
      h('li', {}, h('span', { class: `dot d${k}` }), `head ${k + 1}`),
    );
    root.append(
      ...this.heading(
        'What T5’s buckets learned, and what longer inputs meet',
        `The T5 models of the training lab, trained at length ${T5.trainLen}: the bias each head learned for each bucket, and the buckets that only longer inputs reach.`,
      ),
      this.controls(['task', 'seed']),
      h(
        'ul',
        { class: 'legend' },
        dots,
        h('li', {}, h('span', { class: 'swatch new2' }), `first reached at ${2 * T5.trainLen}`),
        h('li', {}, h('span', { class: 'swatch new4' }), `first reached at ${4 * T5.trainLen}`),
      ),
      this.svg,
      this.readout,
      this.acc,
      this.note,
      this.table,
    );
    this.cursor = null; // the column under the pointer or the keyboard cursor
    bindAxisCursor(this.svg, {
      at: (e) => this._columnAt(e),
      range: () => this._plot && [0, this._plot.columns.length - 1, 4],
      current: () => this.cursor,
      moveTo: (c) => {
        this.cursor = c;
        this._drawCursor();
      },
    });
  }

  // The column under a pointer, or null before the first drawing (the SVG
  // scales its viewBox to its width).
  _columnAt(e) {
    if (!this._plot) return null;
    const rect = this.svg.getBoundingClientRect();
    const x = ((e.clientX - rect.left) * VIEW.w) / rect.width;
    const i = Math.floor((x - VIEW.l) / this._plot.cw);
    return Math.max(0, Math.min(this._plot.columns.length - 1, i));
  }

  // The cursor's box (the last mark) and the readout: a column's biases, head by head.
  _drawCursor() {
    const plot = this._plot;
    if (!plot) return;
    const box = this.svg.lastElementChild;
    const c = this.cursor;
    if (c === null) {
      setAttr(box, 'visibility', 'hidden');
      setText(this.readout, 'Point at or tap a column (or focus the plot and use the arrow keys) to read its biases.');
      return;
    }
    setAttr(box, 'visibility', 'visible');
    setAttr(box, 'x', VIEW.l + c * plot.cw);
    const col = plot.columns[c];
    const heads = Array.from(
      { length: T5.heads },
      (_, k) => `head ${k + 1} ${fixed(plot.table[col.bucket * T5.heads + k], 3)}`,
    );
    setText(
      this.readout,
      `bucket ${col.bucket}, offsets n − m ${col.label}, first reached at length ${col.first * T5.trainLen}: ${heads.join(', ')}`,
    );
  }

  update(pe, p) {
    const L = T5.trainLen;
    const H = T5.heads;
    const table = T5.tasks[p.task].tables[T5.seeds.indexOf(Number(p.seed))];
    // the buckets depend on the trainer's constants only: computed once
    this._columns ??= bucketColumns(pe, L);
    const columns = this._columns;
    // y range: every value shown, and the initial range
    let lo = -INIT;
    let hi = INIT;
    for (const c of columns)
      for (let k = 0; k < H; k++) {
        lo = Math.min(lo, table[c.bucket * H + k]);
        hi = Math.max(hi, table[c.bucket * H + k]);
      }
    const pad = 0.08 * (hi - lo);
    lo -= pad;
    hi += pad;
    const pw = VIEW.w - VIEW.l - VIEW.r;
    const ph = VIEW.h - VIEW.t - VIEW.b;
    const cw = pw / columns.length;
    const X = (i) => VIEW.l + (i + 0.5) * cw;
    const Y = (v) => VIEW.t + ((hi - v) / (hi - lo)) * ph;
    const parts = [];
    columns.forEach((c, i) => {
      if (c.first > 1)
        parts.push([
          'svg:rect',
          {
            class: c.first === 2 ? 'new2' : 'new4',
            x: VIEW.l + i * cw,
            y: VIEW.t,
            width: cw,
            height: ph,
          },
        ]);
    });
    for (const v of niceTicks(lo, hi)) {
      parts.push(['svg:line', { class: 'grid', x1: VIEW.l, x2: VIEW.w - VIEW.r, y1: Y(v), y2: Y(v) }]);
      parts.push(['svg:text', { x: VIEW.l - 5, y: Y(v) + 4, 'text-anchor': 'end' }, fixed(v, 1)]);
    }
    for (const v of [-INIT, INIT])
      parts.push(['svg:line', { class: 'init', x1: VIEW.l, x2: VIEW.w - VIEW.r, y1: Y(v), y2: Y(v) }]);
    parts.push([
      'svg:text',
      { class: 'muted', x: VIEW.w - VIEW.r - 2, y: Y(INIT) - 4, 'text-anchor': 'end' },
      `initial range ±${INIT}`,
    ]);
    for (let k = 0; k < H; k++) {
      const pts = columns.map((c, i) => `${X(i).toFixed(1)},${Y(table[c.bucket * H + k]).toFixed(1)}`).join(' ');
      parts.push(['svg:polyline', { class: `head-line l${k}`, points: pts }]);
      columns.forEach((c, i) =>
        parts.push([
          'svg:circle',
          {
            class: `h${k}`,
            cx: X(i) + (k - (H - 1) / 2) * Math.min(3, cw / (H + 2)),
            cy: Y(table[c.bucket * H + k]),
            r: 3.2,
          },
        ]),
      );
    }
    columns.forEach((c, i) => {
      parts.push([
        'svg:text',
        { x: X(i), y: VIEW.t + ph + 14, 'text-anchor': 'middle', class: c.span > 1 ? 'muted' : null },
        c.short,
      ]);
    });
    parts.push(['svg:line', { class: 'axis', x1: VIEW.l, x2: VIEW.w - VIEW.r, y1: VIEW.t + ph, y2: VIEW.t + ph }]);
    parts.push(['svg:line', { class: 'axis', x1: VIEW.l, x2: VIEW.l, y1: VIEW.t, y2: VIEW.t + ph }]);
    parts.push([
      'svg:text',
      { x: VIEW.l + pw / 2, y: VIEW.h - 22, 'text-anchor': 'middle', class: 'muted' },
      'offset n − m (grey: a wider bucket, by its offset nearest 0; keys before the query on the left)',
    ]);
    parts.push([
      'svg:text',
      { x: VIEW.l + pw / 2, y: VIEW.h - 6, 'text-anchor': 'middle', class: 'muted' },
      'learned bias added to the score',
    ]);
    // the cursor's box, last: _drawCursor moves it between updates
    const at = this.cursor ?? 0;
    parts.push([
      'svg:rect',
      {
        class: 'cursor',
        x: VIEW.l + at * cw,
        y: VIEW.t,
        width: cw,
        height: ph,
        visibility: this.cursor === null ? 'hidden' : 'visible',
      },
    ]);
    // the last update's nodes, changed where the values differ
    patchSpecs(this.svg, parts);
    this._plot = { columns, table, cw };
    this._drawCursor();

    const acc = T5.tasks[p.task].acc;
    const pct = (s) =>
      s.mean === null
        ? '—'
        : `${fixed(100 * s.mean, 1)}%${s.min !== s.max ? ` (${fixed(100 * s.min, 1)}–${fixed(100 * s.max, 1)})` : ''}`;
    setText(
      this.acc,
      `T5’s token accuracy on ${p.task}, mean (range) over seeds ${T5.seeds.join(', ')}: ${MULTIPLES.map((m) => `${m * L} positions ${pct(acc[`${m}x`])}`).join(', ')}.`,
    );
    const fresh = columns.filter((c) => c.first > 1);
    const untouched = fresh.every((c) =>
      Array.from({ length: H }, (_, k) => Math.abs(table[c.bucket * H + k])).every((v) => v <= INIT),
    );
    setText(
      this.note,
      `${fresh.length} of these ${columns.length} buckets are reached only past length ${L}` +
        (untouched ? `; their biases never left the initial range, since no gradient ever reached them.` : '.'),
    );
    setAttr(
      this.svg,
      'aria-label',
      `Learned T5 bias per bucket and head on ${p.task}, seed ${p.seed}: ${columns.length} buckets from offset ${columns[0].label} to ${columns[columns.length - 1].label}; ${fresh.length} first reached at ${2 * L} or ${4 * L}. Focus it and use the arrow keys to read a bucket; the table has every value.`,
    );
    this.setTable(
      this.table,
      `Learned bias per bucket and head (task ${p.task}, seed ${p.seed}, trained at length ${L})`,
      ['bucket', 'offsets n − m', 'first reached at length', ...Array.from({ length: H }, (_, k) => `head ${k + 1}`)],
      columns.map((c) => [
        String(c.bucket),
        c.label,
        String(c.first * L),
        ...Array.from({ length: H }, (_, k) => fixed(table[c.bucket * H + k], 3)),
      ]),
    );
  }
}

// The buckets that offsets within ±(4L − 1) reach, in offset order: each with
// its offsets (label), a short axis label, and the smallest multiple of L
// (1, 2 or 4) whose inputs reach it. Bidirectional buckets, as the trainer's.
function bucketColumns(pe, L) {
  const N = 4 * L;
  // (N, N) buckets of (query i, key j): row N − 1 holds offsets −(N−1)..0, row 0 holds 0..N−1
  const b = pe.t5Buckets(N, N, { bidirectional: true, numBuckets: T5.numBuckets, maxDistance: T5.maxDistance });
  const byBucket = new Map(); // bucket -> { lo, hi } offsets
  for (let off = -(N - 1); off <= N - 1; off++) {
    const bucket = off <= 0 ? b[(N - 1) * N + (N - 1 + off)] : b[off];
    const e = byBucket.get(bucket);
    if (e) {
      e.lo = Math.min(e.lo, off);
      e.hi = Math.max(e.hi, off);
    } else byBucket.set(bucket, { lo: off, hi: off });
  }
  const reach = (e) => MULTIPLES.find((m) => Math.min(Math.abs(e.lo), Math.abs(e.hi)) <= m * L - 1);
  return [...byBucket.entries()]
    .map(([bucket, e]) => ({
      bucket,
      label: e.lo === e.hi ? String(e.lo) : `${e.lo}…${e.hi}`,
      short: String(e.lo < 0 ? e.hi : e.lo), // a wider bucket (grey) by its offset nearest 0
      span: e.hi - e.lo + 1,
      first: reach(e),
      lo: e.lo,
    }))
    .sort((a, c) => a.lo - c.lo);
}

// Ticks at a round step, 3 to 6 of them, within [lo, hi].
define(T5LearnedBias);
