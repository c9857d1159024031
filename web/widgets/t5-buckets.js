// <t5-buckets>: T5's relative-position buckets. Every (query m, key n) pair
// gets the bucket of its offset n − m: one bucket per offset near zero, then
// logarithmically wider buckets, the last of which the formula's floor
// reaches before max-distance (at 91 of 128 with T5's defaults).
// The buckets come from the core (t5Buckets); this file only draws them.
//
// Some combinations have no buckets: the core refuses a max distance not
// past the last exact offset, and an odd count split in two. The widget then
// keeps the last combination it drew, puts back the control that made the
// refused one, and says why beside it, in the learner's words, from the
// numbers the core's error carries (error.names, error.values); every
// control keeps working.
import {
  PeElement,
  define,
  css,
  h,
  canvasContext,
  offPageCanvas,
  sameValues,
  setAttr,
  setText,
} from '../lib/base/pe-element.js';
import { rgb, inkOn } from '../lib/drawing/colormap.js';
import { matrixAxes, frameCell, sideLabel } from '../lib/drawing/canvas.js';
import { bindCellCursor, bindAxisCursor } from '../lib/drawing/grid-cursor.js';

const STRIP_H = 150;
const PAD = { l: 34, r: 10, t: 16, b: 40 };
// the parameters whose combination the core may refuse, and the attribute of each core name
const COMBINED = ['num-buckets', 'max-distance', 'bidirectional'];
const ATTR_OF = { num_buckets: 'num-buckets', max_distance: 'max-distance' };

class T5Buckets extends PeElement {
  static tag = 't5-buckets';
  static description = "T5's relative-position buckets for every (query, key) pair.";
  static params = {
    'query-len': { type: 'int', default: 24, min: 1, max: 128, label: 'queries' },
    'key-len': { type: 'int', default: 24, min: 1, max: 128, label: 'keys' },
    'num-buckets': { type: 'int', default: 32, min: 4, max: 128, label: 'buckets' },
    'max-distance': { type: 'int', default: 128, min: 2, max: 4096, control: 'number', label: 'max distance' },
    bidirectional: { type: 'bool', default: false, label: 'bidirectional (encoder)' },
  };

  static styles = css`
    .grid-wrap, .strip-wrap { margin-top: 8px; }
    canvas { cursor: crosshair; }
    .note { font-size: .88em; color: var(--pe-muted); }
    h4 { margin-top: 10px; }
  `;

  build(root) {
    this.grid = h('canvas', { role: 'img', tabindex: '0' });
    this.gridWrap = h('div', { class: 'grid-wrap' }, this.grid);
    this.gridReadout = h('p', { class: 'readout', 'aria-live': 'polite' });
    this.strip = h('canvas', { role: 'img', tabindex: '0' });
    this.stripWrap = h('div', { class: 'strip-wrap' }, this.strip);
    this.stripReadout = h('p', { class: 'readout', 'aria-live': 'polite' });
    this.regions = h('p', { class: 'note' });
    this.table = this.tableAlternative(undefined, { fill: () => this._state && this._fillTable() });
    root.append(
      ...this.heading(
        'T5 relative-position buckets',
        'Near offsets each get their own bucket; farther ones share ever wider, logarithmic buckets, and from some distance short of max distance on, every offset lands in the last one. Turn on “bidirectional” to split the buckets between keys before and after the query.',
      ),
      this.controls(['query-len', 'key-len', 'num-buckets', 'max-distance', 'bidirectional']),
      h('h4', {}, 'Bucket of every query–key pair'),
      this.gridWrap,
      this.gridReadout,
      h('h4', {}, 'Relative distance n − m → bucket'),
      this.regions,
      this.stripWrap,
      this.stripReadout,
      this.table,
    );
    this._cur = null; // [i, j] on the grid
    this._rel = null; // offset on the strip
    bindCellCursor(this.grid, {
      grid: () => this._state && { rows: this._state.Q, cols: this._state.K, geom: this._gridGeom },
      current: () => this._cur,
      moveTo: (cur) => {
        this._cur = cur;
        this._drawGrid();
      },
    });
    bindAxisCursor(this.strip, {
      at: (e) => this._stripAt(e),
      range: () => (this._state ? [-this._state.D, this._state.D, 10] : null),
      current: () => this._rel,
      moveTo: (rel) => {
        this._rel = rel;
        this._drawStrip();
      },
    });
    this.redrawOnResize(this.gridWrap);
    this.redrawOnResize(this.stripWrap);
    this._drawn = null; // the last combination drawn: { 'num-buckets', 'max-distance', bidirectional }
    this._lastSet = null; // the combined parameter set last, by a control or the host page
    this._takenBack = null; // { name, combination } of the note left beside a control
    this._puttingBack = false; // while the widget itself sets a parameter back
  }

  attributeChangedCallback(name, oldValue, newValue) {
    if (COMBINED.includes(name) && oldValue !== newValue && !this._puttingBack) this._lastSet = name;
    super.attributeChangedCallback(name, oldValue, newValue);
  }

  // A combination the core refused (error: its RangeError) goes back to the
  // last one drawn: the parameter that made it (the one set last among those
  // that changed, else the one the core names) returns to its value there,
  // or to its default when nothing was drawn yet, and the note beside its
  // control says why. Returns whether it did (false: show the error as is).
  _putBack(error, p) {
    const names = error?.names ?? [];
    // the core's two rules (t5_bias.cpp): max_distance > max_exact, whose
    // values are [max_distance, max_exact, cap]; and, bidirectional, an
    // even num_buckets, whose only value is num_buckets
    const rule =
      names[0] === 'max_distance'
        ? 'distance'
        : names[0] === 'num_buckets' && error.values?.length === 1
          ? 'even'
          : null;
    if (!rule) return false;
    const now = { 'num-buckets': p.numBuckets, 'max-distance': p.maxDistance, bidirectional: p.bidirectional };
    const relevant = rule === 'even' ? ['num-buckets', 'bidirectional'] : COMBINED;
    const moved = this._drawn ? relevant.filter((k) => now[k] !== this._drawn[k]) : [];
    const name = moved.includes(this._lastSet)
      ? this._lastSet
      : moved.includes(ATTR_OF[names[0]])
        ? ATTR_OF[names[0]]
        : (moved[0] ?? ATTR_OF[names[0]]);
    const spec = this.constructor.params[name];
    const keep = this._drawn ? this._drawn[name] : spec.default;
    if (keep === now[name]) return false;
    const nb = p.numBuckets;
    const split = p.bidirectional ? `, ${nb / 2} for each direction` : '';
    let why;
    if (rule === 'even') {
      why = `bidirectional splits the buckets in two halves, so their number must be even${name === 'bidirectional' ? `, not ${nb}` : ''}`;
    } else {
      const exact = error.values[1]; // max_exact: offsets below it each have a bucket
      const own = `offsets 0–${exact - 1}`;
      if (name === 'max-distance')
        why = `max distance must be more than ${exact}: with ${nb} buckets${split}, ${own} each have a bucket of their own and the logarithmic buckets start at ${exact}`;
      else if (name === 'num-buckets')
        why = `with max distance ${p.maxDistance}, ${nb} buckets${split ? ` (${nb / 2} for each direction)` : ''} are too many: ${own} would each have a bucket of their own, so max distance must be more than ${exact}`;
      else
        why = `without bidirectional all ${nb} buckets serve the keys at or before the query: ${own} would each have a bucket of their own, so max distance ${p.maxDistance} must be more than ${exact}`;
    }
    // put back without counting it as the learner's change
    this._puttingBack = true;
    try {
      this.setParam(name, keep);
    } finally {
      this._puttingBack = false;
    }
    // after setParam: a value set from outside clears the note of its control
    if (this._takenBack && this._takenBack.name !== name) setText(this._controls.get(this._takenBack.name).note, '');
    const { note } = this._controls.get(name);
    setText(note, `${why}; kept ${spec.type === 'bool' ? (keep ? 'on' : 'off') : keep}`);
    this._takenBack = { name, combination: JSON.stringify({ ...now, [name]: keep }) };
    return true;
  }

  update(pe, p) {
    // widths come from a ResizeObserver (widthOf) and are read before this
    // update writes anything: an update never forces a layout
    const gridWidth = this.widthOf(this.gridWrap);
    const stripWidth = this.widthOf(this.stripWrap);
    const Q = p.queryLen;
    const K = p.keyLen;
    const D = p.maxDistance;
    const opts = { bidirectional: p.bidirectional, numBuckets: p.numBuckets, maxDistance: D };
    if (!this._map || this._map.length !== Q * K) this._map = new Int32Array(Q * K);
    let map;
    try {
      map = pe.t5Buckets(Q, K, { ...opts, out: this._map });
    } catch (error) {
      // put back: the update the changed attribute asks for draws the kept combination
      if (this._putBack(error, p)) return false;
      throw error;
    }
    const combination = { 'num-buckets': p.numBuckets, 'max-distance': D, bidirectional: p.bidirectional };
    this._drawn = combination;
    // a note about a refused combination stays until the combination changes
    if (this._takenBack && this._takenBack.combination !== JSON.stringify(combination)) {
      setText(this._controls.get(this._takenBack.name).note, '');
      this._takenBack = null;
    }
    // bidirectional splits the buckets in two: the slider steps through even counts
    setAttr(this._controls.get('num-buckets').input, 'step', p.bidirectional ? 2 : 1);
    // the strip: offsets 0..D from one query row, offsets 0..−D from one key column
    if (!this._pos || this._pos.length !== D + 1) {
      this._pos = new Int32Array(D + 1);
      this._neg = new Int32Array(D + 1);
    }
    const pos = pe.t5Buckets(1, D + 1, { ...opts, out: this._pos }); // rel = j
    const neg = pe.t5Buckets(D + 1, 1, { ...opts, out: this._neg }); // rel = −i
    // the rule's own constants (HF _relative_position_bucket): half the buckets
    // per direction when bidirectional, and half of those are exact
    const perSide = p.bidirectional ? Math.floor(p.numBuckets / 2) : p.numBuckets;
    const maxExact = Math.floor(perSide / 2);
    // where the last bucket of a side begins: the floor of the logarithm reaches it before D
    // (neg[D] is always the last bucket: the formula gives perSide there, clamped)
    const lastStart = neg.indexOf(neg[D]);
    const colors = this.theme();
    this._state = {
      Q,
      K,
      D,
      map,
      pos,
      neg,
      bidirectional: p.bidirectional,
      nb: p.numBuckets,
      perSide,
      maxExact,
      lastStart,
      colors,
    };
    // one colour per bucket, made once per update
    const lut = new Uint8ClampedArray(p.numBuckets * 3);
    const css = new Array(p.numBuckets);
    for (let b = 0; b < p.numBuckets; b++) {
      const c = this._color(b);
      lut.set(c, 3 * b);
      css[b] = rgb(c);
    }
    Object.assign(this._state, { lut, css });
    const used = new Set();
    for (const b of pos) used.add(b);
    for (const b of neg) used.add(b);
    setText(
      this.regions,
      `Exact region: |n − m| < ${maxExact} (one bucket per offset). Logarithmic region: ${maxExact} ≤ |n − m| < ${lastStart}. ` +
        `From ${lastStart} on, every offset shares the last bucket${p.bidirectional ? ' of its side' : ''}${lastStart < D ? ` (the logarithm's floor reaches it before max distance ${D})` : ''}. ` +
        (p.bidirectional
          ? `Keys at or before the query use buckets 0–${perSide - 1}, keys after it ${perSide}–${2 * perSide - 1}.`
          : `Unidirectional: every key after the query (n > m) falls in bucket 0, like the query itself.`) +
        ` Offsets −${D}..${D} use ${used.size} of the ${p.numBuckets} buckets.`,
    );
    this._drawGrid(gridWidth);
    this._drawStrip(stripWidth);
    if (this.table.open) this._fillTable();
  }

  bucket(rel) {
    const s = this._state;
    if (rel >= 0) return s.pos[Math.min(rel, s.D)];
    return s.neg[Math.min(-rel, s.D)];
  }

  // colour of a bucket: two hues for the two directions, lightness by the bucket's rank on its side
  _color(b) {
    const s = this._state;
    const { zero, neg, pos } = s.colors;
    const side = s.bidirectional && b >= s.perSide;
    const rank = side ? b - s.perSide : b;
    const t = 0.12 + 0.88 * (rank / Math.max(1, s.perSide - 1));
    const end = side ? pos : neg;
    return [0, 1, 2].map((c) => Math.round(zero[c] + (end[c] - zero[c]) * t));
  }

  _drawGrid(width = this.widthOf(this.gridWrap)) {
    const s = this._state;
    if (!s) return;
    const { Q, K, map, colors } = s;
    // the text first: the readout names the cell's region, which depends on
    // max distance even where no bucket moved (setAttr and setText write
    // only what changed)
    setAttr(
      this.grid,
      'aria-label',
      `Bucket map: ${Q} queries (rows) by ${K} keys (columns), coloured by bucket${s.bidirectional ? ' (blue: key at or before the query, red: after it)' : ''}. Buckets are constant along each diagonal (same offset n − m). Focus it and use the arrow keys to read cells.`,
    );
    if (!this._cur) setText(this.gridReadout, 'Point at the grid, or focus it and use the arrow keys, to read a cell.');
    else {
      const [i, j] = this._cur;
      setText(
        this.gridReadout,
        `query m = ${i}, key n = ${j}, offset n − m = ${j - i}: bucket ${map[i * K + j]} (${this._region(j - i)})`,
      );
    }
    // what the drawing depends on: when none of it changed (a max-distance
    // step whose offsets lie beyond the grid moves no bucket in it), the
    // drawing stays as it is
    const look = JSON.stringify([Q, K, width, window.devicePixelRatio, colors, this._cur]) + s.lut.join();
    if (look === this._gridLook && sameValues(this._gridMap, map)) return;
    this._gridLook = look;
    this._gridMap = map.slice();
    const M = 30;
    const avail = Math.max(120, Math.min(width, 640)) - M;
    const cell = Math.max(2, Math.min(avail / K, 420 / Q, 40));
    const w = M + cell * K;
    const hgt = M + cell * Q;
    this._gridGeom = { M, cell };
    const ctx = canvasContext(this.grid, w, hgt);
    matrixAxes(ctx, { M, cell, rows: Q, cols: K, across: 'key n', down: 'query m', gap: 16, color: rgb(colors.muted) });
    // cells: one pixel per pair in an offscreen image, scaled up without smoothing
    if (!this._img || this._img.width !== K || this._img.height !== Q) {
      this._img = new ImageData(K, Q);
      this._off = offPageCanvas(K, Q);
    }
    const d = this._img.data;
    const { lut } = s;
    for (let t = 0; t < Q * K; t++) {
      const k = 3 * map[t];
      d[4 * t] = lut[k];
      d[4 * t + 1] = lut[k + 1];
      d[4 * t + 2] = lut[k + 2];
      d[4 * t + 3] = 255;
    }
    this._off.getContext('2d').putImageData(this._img, 0, 0);
    ctx.imageSmoothingEnabled = false;
    ctx.drawImage(this._off, M, M, cell * K, cell * Q);
    if (cell >= 17) {
      ctx.font = `${cell >= 24 ? 10 : 8.5}px ui-monospace, "DejaVu Sans Mono", monospace`;
      for (let i = 0; i < Q; i++) {
        for (let j = 0; j < K; j++) {
          const b = map[i * K + j];
          ctx.fillStyle = inkOn(lut, 3 * b);
          ctx.fillText(String(b), M + j * cell + cell / 2, M + i * cell + cell / 2 + 0.5);
        }
      }
    }
    if (this._cur) {
      const [ci, cj] = this._cur;
      frameCell(ctx, M + cj * cell, M + ci * cell, cell, rgb(colors.fg));
    }
  }

  _region(rel) {
    const s = this._state;
    if (!s.bidirectional && rel > 0) return 'key after the query: bucket 0';
    const r = Math.abs(rel);
    if (r < s.maxExact) return 'exact';
    if (r >= s.lastStart) return `last bucket (from distance ${s.lastStart} on): every farther offset shares it`;
    return 'logarithmic';
  }

  _drawStrip(width = this.widthOf(this.stripWrap)) {
    const s = this._state;
    if (!s) return;
    const { D, colors, maxExact, nb } = s;
    const w = Math.max(240, Math.min(width, 760));
    const ctx = canvasContext(this.strip, w, STRIP_H);
    const pw = w - PAD.l - PAD.r;
    const ph = STRIP_H - PAD.t - PAD.b;
    const X = (r) => PAD.l + ((r + D + 0.5) / (2 * D + 1)) * pw;
    const Y = (b) => PAD.t + (1 - b / Math.max(1, nb - 1)) * ph;
    this._stripGeom = { pw };
    // exact region shaded
    ctx.fillStyle = rgb(colors.border);
    ctx.globalAlpha = 0.45;
    const exLo = -(maxExact - 1);
    const exHi = s.bidirectional ? maxExact - 1 : 0;
    ctx.fillRect(X(exLo - 0.5), PAD.t, X(exHi + 0.5) - X(exLo - 0.5), ph);
    ctx.globalAlpha = 1;
    // axes
    ctx.strokeStyle = rgb(colors.muted);
    ctx.lineWidth = 1;
    ctx.beginPath();
    ctx.moveTo(PAD.l, PAD.t);
    ctx.lineTo(PAD.l, PAD.t + ph);
    ctx.lineTo(PAD.l + pw, PAD.t + ph);
    ctx.stroke();
    ctx.fillStyle = rgb(colors.muted);
    ctx.font = '10px system-ui, sans-serif';
    ctx.textAlign = 'right';
    ctx.textBaseline = 'middle';
    for (const b of [0, Math.floor((nb - 1) / 2), nb - 1]) ctx.fillText(String(b), PAD.l - 4, Y(b));
    sideLabel(ctx, 'bucket', 9, PAD.t + ph / 2);
    ctx.textAlign = 'center';
    ctx.textBaseline = 'top';
    for (const r of [-D, -Math.round(D / 2), 0, Math.round(D / 2), D]) ctx.fillText(String(r), X(r), PAD.t + ph + 16);
    ctx.fillText('relative distance n − m', PAD.l + pw / 2, STRIP_H - 11);
    ctx.fillStyle = rgb(colors.fg);
    ctx.fillText('exact', X((exLo + exHi) / 2), PAD.t - 13);
    ctx.fillStyle = rgb(colors.muted);
    ctx.fillText('logarithmic', X(-(maxExact + D) / 2), PAD.t - 13);
    ctx.fillText(s.bidirectional ? 'logarithmic' : 'future keys: bucket 0', X((maxExact + D) / 2), PAD.t - 13);
    // colour strip under the axis, as the grid colours offsets
    const cw = pw / (2 * D + 1);
    // at most one rectangle per pixel column
    const stride = Math.max(1, Math.floor(1 / cw));
    for (let r = -D; r <= D; r += stride) {
      ctx.fillStyle = s.css[this.bucket(r)];
      ctx.fillRect(X(r) - cw / 2, PAD.t + ph + 3, cw * stride + 0.6, 9);
    }
    // step line: bucket against distance
    ctx.strokeStyle = rgb(colors.fg);
    ctx.lineWidth = 1.8;
    ctx.beginPath();
    let prev = null;
    for (let r = -D; r <= D; r++) {
      const b = this.bucket(r);
      if (b === prev) continue; // a step only where the bucket changes
      const y = Y(b);
      if (prev === null) ctx.moveTo(X(r) - cw / 2, y);
      else {
        ctx.lineTo(X(r) - cw / 2, Y(prev));
        ctx.lineTo(X(r) - cw / 2, y);
      }
      prev = b;
    }
    ctx.lineTo(X(D) + cw / 2, Y(prev));
    ctx.stroke();
    if (this._rel !== null) {
      const r = this._rel;
      ctx.strokeStyle = rgb(colors.accent);
      ctx.setLineDash([3, 3]);
      ctx.beginPath();
      ctx.moveTo(X(r), PAD.t);
      ctx.lineTo(X(r), PAD.t + ph + 12);
      ctx.stroke();
      ctx.setLineDash([]);
      ctx.fillStyle = rgb(colors.accent);
      ctx.beginPath();
      ctx.arc(X(r), Y(this.bucket(r)), 4, 0, 2 * Math.PI);
      ctx.fill();
    }
    setAttr(
      this.strip,
      'aria-label',
      `Step plot of bucket against relative distance from −${D} to ${D}: steps of one bucket per offset for |n − m| < ${maxExact} (shaded), then ever longer steps. Focus it and use the arrow keys to read values.`,
    );
    setText(
      this.stripReadout,
      this._rel === null
        ? 'Point at the plot, or focus it and use the arrow keys (Shift: 10 at a time), to read a distance.'
        : `relative distance ${this._rel}: bucket ${this.bucket(this._rel)} (${this._region(this._rel)})`,
    );
  }

  // the distance under the pointer on the strip plot, clamped to −D..D
  _stripAt(e) {
    const s = this._state;
    if (!s) return null;
    const rect = this.strip.getBoundingClientRect();
    const r = Math.floor(((e.clientX - rect.left - PAD.l) / this._stripGeom.pw) * (2 * s.D + 1)) - s.D;
    return Math.max(-s.D, Math.min(s.D, r));
  }

  _fillTable() {
    const s = this._state;
    // runs of equal buckets over −D..D: compact, and it shows the widening
    const rows = [];
    let start = -s.D;
    for (let r = -s.D + 1; r <= s.D + 1; r++) {
      if (r > s.D || this.bucket(r) !== this.bucket(start)) {
        const b = this.bucket(start);
        const span = start === r - 1 ? String(start) : `${start} … ${r - 1}`;
        // the region of the run's offset nearest zero (a saturated run starts inside the log region)
        const inner = start >= 0 ? start : Math.min(r - 1, 0);
        rows.push([String(b), span, String(r - start), this._region(inner)]);
        start = r;
      }
    }
    const details = this.table;
    const wrap = details.querySelector('.table-wrap');
    this.setTable(
      details,
      `Relative distances −${s.D} … ${s.D} grouped by bucket (beyond ±${s.D} the end buckets continue)`,
      ['bucket', 'relative distances n − m', 'count', 'region'],
      rows,
    );
    const runs = wrap.firstChild;
    const grid = [];
    for (let i = 0; i < s.Q; i++)
      grid.push([`i = ${i}`, ...Array.from(s.map.subarray(i * s.K, (i + 1) * s.K), String)]);
    this.setTable(
      details,
      'Bucket map (rows: query m, columns: key n)',
      ['i ↓ j →', ...Array.from({ length: s.K }, (_, j) => `j = ${j}`)],
      grid,
    );
    wrap.prepend(runs);
  }
}

define(T5Buckets);
