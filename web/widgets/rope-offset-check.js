// <rope-offset-check>: two 2-d vectors q and k rotated by RoPE at positions m
// and n score the same after both positions move by `shift`, because the
// score only sees n - m. An additive encoding (q + PE(m)) . (k + PE(n)) does not have
// that property. The additive PE uses the same θ, PE(p) = (sin pθ, cos pθ),
// so both curves share one period. Every rotation and every PE row comes
// from the core (the PE row is the core's rotation of (0, 1) by pθ, with its
// first coordinate negated).
// The lesson's exercise calls positions "seats": its two printed lines keep
// that word (the RoPE box prints exactly what its print(...) does); the rest
// of the widget says "position". The plot's marks are drawn by
// web/lib/rope/rope-offset-plot.js; this file computes the scores and handles the
// cursor.
import { PeElement, define, css, h, setAttr, setText, patchSpecs } from '../lib/base/pe-element.js';
import { fixed, numpyScalar } from '../lib/printing/pyformat.js';
import { thetaScaling } from '../lib/rope/rotated-pair.js';
import { plotLegend } from '../lib/drawing/chart.js';
import { bindAxisCursor } from '../lib/drawing/grid-cursor.js';
import { PLOT_H, PAD, SERIES, offsetPlot } from '../lib/rope/rope-offset-plot.js';

// float32 dot product of two 2-vectors, as torch.dot on float32 tensors.
const dot2 = (a0, a1, b0, b1) => Math.fround(Math.fround(a0 * b0) + Math.fround(a1 * b1));

class RopeOffsetCheck extends PeElement {
  static tag = 'rope-offset-check';
  static description =
    'RoPE scores depend only on n − m: q·k before and after both positions shift, beside an additive encoding.';
  static params = {
    q: { type: 'vector', length: 2, default: [1.0, 0.5], label: 'q', size: 9, live: true },
    k: { type: 'vector', length: 2, default: [0.8, 0.2], label: 'k', size: 9, live: true },
    theta: { type: 'float', default: 0.5, min: 0.01, max: 6.28, step: 0.01, label: 'θ (rad per position)' },
    m: { type: 'int', default: 1, min: 0, max: 10000, control: 'number', live: true, label: 'position m (q)' },
    n: { type: 'int', default: 3, min: 0, max: 10000, control: 'number', live: true, label: 'position n (k)' },
    shift: { type: 'int', default: 100, min: 0, max: 100000, control: 'number', live: true, label: 'shift' },
  };

  static styles = css`
    :host { --s1: #0072b2; --s2: #d55e00; --s3: #009e73; --s4: #cc79a7; }
    @media (prefers-color-scheme: dark) { :host { --s1: #56b4e9; --s2: #ff9e4a; --s3: #3fd0a4; --s4: #e6a0c8; } }
    :host { container-type: inline-size; }
    @container (max-width: 420px) { .out pre { font-size: .74em; } }
    .out { display: grid; grid-template-columns: repeat(auto-fit, minmax(250px, 1fr)); gap: 8px; }
    .out pre { margin: 0; white-space: pre-wrap; }
    .out h4 { margin: 0 0 2px; font-size: .88em; color: var(--pe-muted); font-weight: 600; }
    .verdict { font-size: .92em; }
    .plot-note { font-size: .85em; color: var(--pe-muted); }
    /* a click, tap or Enter that cannot set n says why, right under the plot */
    .refused { font-size: .85em; color: var(--pe-bad); margin: 4px 0 0; }
    .refused:empty { display: none; }
    .plot-wrap { margin-top: 10px; }
    svg { overflow: visible; }
    svg:focus-visible { outline: 3px solid var(--pe-accent); outline-offset: 2px; }
    .axis line, .axis path { stroke: var(--pe-muted); stroke-width: 1; fill: none; }
    .grid { stroke: var(--pe-border); stroke-width: 1; }
    .zero { stroke: var(--pe-muted); stroke-dasharray: 2 3; }
    text { fill: var(--pe-fg); font: 11px system-ui, sans-serif; }
    text.muted { fill: var(--pe-muted); }
    .s-rope { stroke: var(--s1); stroke-width: 2.5; fill: none; }
    .s-rope-shift { stroke: var(--s2); stroke-width: 1.5; fill: none; }
    .s-add { stroke: var(--s3); stroke-width: 1.8; fill: none; stroke-dasharray: 7 4; }
    .s-add-shift { stroke: var(--s4); stroke-width: 1.8; fill: none; stroke-dasharray: 2 3; }
    .marker-label { font-weight: 600; paint-order: stroke; stroke: var(--pe-bg); stroke-width: 3px; }
    .marker { fill: none; stroke: var(--pe-fg); stroke-width: 2; }
    .cursor { stroke: var(--pe-accent); stroke-width: 1.5; stroke-dasharray: 3 3; }
    .legend { display: flex; flex-wrap: wrap; gap: 4px 16px; font-size: .85em; margin: 4px 0 0; padding: 0; list-style: none; }
    .legend li { display: inline-flex; align-items: center; gap: 6px; }
    .legend svg { display: inline-block; }
  `;

  build(root) {
    this.ropeOut = h('pre', { 'aria-live': 'polite' });
    this.addOut = h('pre', { 'aria-live': 'polite' });
    this.verdict = h('p', { class: 'verdict' });
    this.plotNote = h('p', { class: 'plot-note' });
    this.svg = h('svg:svg', { role: 'img', tabindex: '0', height: PLOT_H, width: 300 });
    this.readout = h('p', { class: 'readout', 'aria-live': 'polite' });
    this.refused = h('p', { class: 'refused', 'aria-live': 'polite' });
    this.plotWrap = h('div', { class: 'plot-wrap' }, this.svg);
    // the table can hold thousands of rows: filled only while it is open
    this.table = this.tableAlternative('Show the plotted scores as a table', {
      fill: () => this._state && this._fillTable(),
    });
    const legend = plotLegend(SERIES.map((s) => ({ cls: s.cls, label: s.label, dot: s.line ? 0 : 3.5 })));
    root.append(
      ...this.heading(
        'RoPE scores depend only on the offset n − m',
        'Move both positions with “shift”: the RoPE score stays the same, the additive score changes. Change n to slide along the curve: tap or click the plot to set n to that offset (with the keyboard: focus the plot, arrow keys move a cursor, Enter sets n).',
      ),
      this.controls(['q', 'k', 'm', 'n']),
      h(
        'div',
        { class: 'out' },
        h('div', {}, h('h4', {}, 'RoPE: R(m)q · R(n)k'), this.ropeOut),
        h(
          'div',
          {},
          h('h4', {}, 'Additive: (q + PE(m)) · (k + PE(n)), PE(p) = (sin pθ, cos pθ), the same θ'),
          this.addOut,
        ),
      ),
      this.verdict,
      this.plotWrap,
      // θ and the shift change the plot: right under it (on a phone the full
      // list of controls put them some 700 px above it, issue 46)
      this.controls(['theta', 'shift']),
      this.refused,
      legend,
      this.plotNote,
      this.readout,
      this.table,
    );
    this.cursor = null; // offset under the pointer / keyboard cursor (transient)
    const moveTo = (c) => {
      this.cursor = c;
      this._drawCursor();
    };
    // the arrows move by one offset (Shift: 5), Home and End go to the plot's ends
    bindAxisCursor(this.svg, {
      at: (e) => this._offsetAt(e),
      range: () => this._state && [this._state.lo, this._state.hi, 5],
      current: () => this.cursor,
      moveTo,
    });
    // a click, a tap or Enter also sets n at the cursor's offset
    this.svg.addEventListener('click', (e) => {
      moveTo(this._offsetAt(e));
      this._commitCursor();
    });
    this.svg.addEventListener('keydown', (e) => {
      if (e.key !== 'Enter' && e.key !== ' ') return;
      e.preventDefault();
      this._commitCursor();
    });
    this.redrawOnResize(this.plotWrap);
  }

  update(pe, p, changed) {
    // widths come from a ResizeObserver (widthOf) and are read before this
    // update writes anything: an update never forces a layout
    const plotWidth = this.widthOf(this.plotWrap);
    const [q0, q1] = p.q.map(Math.fround);
    const [k0, k1] = p.k.map(Math.fround);
    const { m, n, shift } = p;
    const off = n - m;
    // plotted offsets lo..hi: −20..20 widened to include the current offset,
    // or a window around it when that would be too wide to read
    let lo = Math.min(-20, off - 5);
    let hi = Math.max(20, off + 5);
    if (hi - lo > 200) {
      lo = off - 40;
      hi = off + 40;
    }
    const count = hi - lo + 1;
    // 2-d RoPE has one pair whose inverse frequency is 1; linear scaling by
    // 1/θ turns it into θ, so position p rotates by f32(f32(p)·θ) as float32 code does.
    const scaling = this._scalingFor(pe, p.theta);

    // rows: q@m, k@n, q@m+s, k@n+s, then k at m+d and m+s+d for each offset d
    const rows = 4 + 2 * count;
    if (!this._rot || this._rot.length !== rows * 2) {
      this._pos = new Float64Array(rows);
      this._rot = new Float32Array(rows * 2);
      this._peRot = new Float32Array(rows * 2);
    }
    const pos = this._pos;
    pos.set([m, n, m + shift, n + shift]);
    for (let i = 0; i < count; i++) {
      const d = lo + i;
      pos[4 + i] = Math.max(0, m + d); // positions below 0 do not exist; skipped when drawn
      pos[4 + count + i] = Math.max(0, m + shift + d);
    }
    // each row's rotation depends on its vector and its position alone, so the
    // rotations are kept per position (for this q, k and θ) and the core
    // rotates only positions not seen before: a step of shift or n reuses most
    const rot = this._rot;
    // kept while q, k and θ stay the same
    if (changed.has('q') || changed.has('k') || changed.has('theta')) this._rotCache = null;
    const rotated = this._rotations(pe, p.theta, scaling, [q0, q1, k0, k1], pos);
    for (let r = 0; r < rows; r++) {
      const v = rotated[r === 0 || r === 2 ? 'q' : 'k'].get(pos[r]);
      rot[2 * r] = v[0];
      rot[2 * r + 1] = v[1];
    }

    // additive PE(p) = (sin pθ, cos pθ) at the same positions, same θ: the core
    // turns (0, 1) by pθ into (−sin pθ, cos pθ)
    const peRow = this._peRot;
    for (let r = 0; r < rows; r++) {
      const v = rotated.u.get(pos[r]);
      peRow[2 * r] = v[0];
      peRow[2 * r + 1] = v[1];
    }
    // score of q + PE(position of row a) against k + PE(position of row b)
    const addScore = (a, b) =>
      dot2(
        Math.fround(q0 - peRow[2 * a]),
        Math.fround(q1 + peRow[2 * a + 1]),
        Math.fround(k0 - peRow[2 * b]),
        Math.fround(k1 + peRow[2 * b + 1]),
      );

    const rope = dot2(rot[0], rot[1], rot[2], rot[3]);
    const ropeS = dot2(rot[4], rot[5], rot[6], rot[7]);
    const add = addScore(0, 1);
    const addS = addScore(2, 3);

    setText(
      this.ropeOut,
      `Attention Score (Seats ${m} vs ${n}): ${fixed(rope, 5)}\nAttention Score (Seats ${m + shift} vs ${n + shift}): ${fixed(ropeS, 5)}`,
    );
    setText(
      this.addOut,
      `Additive Score (Positions ${m} vs ${n}): ${fixed(add, 5)}\nAdditive Score (Positions ${m + shift} vs ${n + shift}): ${fixed(addS, 5)}`,
    );
    const dr = Math.abs(ropeS - rope);
    const da = Math.abs(addS - add);
    setText(
      this.verdict,
      `Shifting both positions by ${shift} changes the RoPE score by ${dr === 0 ? '0 (bit for bit the same)' : `${dr.toExponential(1)} (float32 rounding of the larger angles)`}` +
        ` and the additive score by ${fixed(da, 5)}.` +
        (this._scaling.exact
          ? ''
          : ` (θ = ${p.theta} is not exactly reachable as 1/factor in float32; the rotation uses θ = ${numpyScalar(this._scaling.used)}, one float32 step away.)`),
    );

    // series: offset d -> score (NaN where a position would be negative)
    const series =
      this._series?.rope.length === count
        ? this._series
        : {
            rope: new Float64Array(count),
            ropeShift: new Float64Array(count),
            add: new Float64Array(count),
            addShift: new Float64Array(count),
          };
    this._series = series;
    const qm = [rot[0], rot[1]];
    const qs = [rot[4], rot[5]];
    for (let i = 0; i < count; i++) {
      const d = lo + i;
      const r1 = 4 + i;
      const r2 = 4 + count + i;
      const ok1 = m + d >= 0;
      const ok2 = m + shift + d >= 0;
      series.rope[i] = ok1 ? dot2(qm[0], qm[1], rot[2 * r1], rot[2 * r1 + 1]) : NaN;
      series.ropeShift[i] = ok2 ? dot2(qs[0], qs[1], rot[2 * r2], rot[2 * r2 + 1]) : NaN;
      series.add[i] = ok1 ? addScore(0, r1) : NaN;
      series.addShift[i] = ok2 ? addScore(2, r2) : NaN;
    }
    // why the q-at-m curves stop on the left: the key's position m + offset would be negative
    setText(
      this.plotNote,
      lo < -m
        ? `The curves for q at position m = ${m} start at offset ${signed(-m)}: a key further left would sit at a position below 0, before the first token.` +
            (shift === 0
              ? ''
              : lo < -(m + shift)
                ? ` The curves for q at position m + shift = ${m + shift} start at offset ${signed(-(m + shift))}.`
                : ` The curves for q at position m + shift = ${m + shift} reach further left.`)
        : 'Every plotted offset puts the key at a position of 0 or more, so every curve spans the whole plot.',
    );
    this._state = { lo, hi, count, off, rope, m, n, shift, series };
    // a refusal holds until m or n change (its "n stays" would be wrong then)
    if (this._refusedAt !== undefined && this._refusedAt !== `${m},${n}`) this._refuse(null);
    if (this.cursor !== null && (this.cursor < lo || this.cursor > hi)) this.cursor = null;
    this._draw(plotWidth);
    this._drawCursor();
    if (this.table.open) this._fillTable();
  }

  // RoPE rotations of q, k and the unit vector (0, 1) by position: { q, k, u }
  // Maps position -> [x, y], kept while q, k and θ stay the same (update()
  // drops them when one changes; the core
  // rotates each row by its own position only: a row's bits do not depend on
  // the other rows of the call). The positions `pos` needs that are not kept yet are
  // rotated in one call: row 0 and 2 hold q, the others k; every row a unit.
  _rotations(pe, theta, scaling, [q0, q1, k0, k1], pos) {
    let c = this._rotCache;
    if (!c || c.size > 50000) c = this._rotCache = { size: 0, q: new Map(), k: new Map(), u: new Map() };
    const kinds = [];
    const todo = []; // positions to rotate, one per entry of kinds
    const want = (kind, position) => {
      const map = c[kind];
      if (map.has(position)) return;
      map.set(position, null);
      kinds.push(kind);
      todo.push(position);
    };
    for (let r = 0; r < pos.length; r++) {
      want(r === 0 || r === 2 ? 'q' : 'k', pos[r]);
      want('u', pos[r]);
    }
    if (todo.length) {
      const vec = { q: [q0, q1], k: [k0, k1], u: [0, 1] };
      const x = new Float32Array(2 * todo.length);
      kinds.forEach((kind, i) => x.set(vec[kind], 2 * i));
      let out;
      try {
        out = pe.ropeApply(x, todo.length, 2, { positions: Float64Array.from(todo), scaling });
      } catch (error) {
        this._rotCache = null; // its placeholders were never filled
        throw error;
      }
      kinds.forEach((kind, i) => c[kind].set(todo[i], [out[2 * i], out[2 * i + 1]]));
      c.size += todo.length;
    }
    return c;
  }

  // The linear scaling that gives the core this θ (see thetaScaling), kept
  // while θ stays the same.
  _scalingFor(pe, theta) {
    if (this._scaling?.theta !== theta) this._scaling = { theta, ...thetaScaling(pe, theta) };
    return this._scaling.scaling;
  }

  _draw(width) {
    const { specs, geom, label } = offsetPlot(this._state, width, this.cursor);
    const svg = this.svg;
    setAttr(svg, 'width', geom.W);
    this._geom = geom;
    patchSpecs(svg, specs);
    this._cursorLine = svg.lastElementChild; // the cursor line is the last mark
    setAttr(svg, 'aria-label', label);
  }

  // The offset under a pointer (clamped to the plot's), or null before the first drawing.
  _offsetAt(e) {
    if (!this._geom) return null;
    const rect = this.svg.getBoundingClientRect();
    const { pw } = this._geom;
    const { lo, hi } = this._state;
    const d = Math.round(lo + ((e.clientX - rect.left - PAD.l) / pw) * (hi - lo));
    return Math.max(lo, Math.min(hi, d));
  }

  // Sets n to put the key at the cursor's offset (a click, a tap, Enter). An
  // offset whose key would sit before the first token (below −m) or past the
  // largest n taken leaves n as it is, and says so under the plot.
  _commitCursor() {
    if (this.cursor === null || !this._state) return;
    const c = this.cursor;
    const { m, n } = this._state;
    const key = m + c;
    const max = RopeOffsetCheck.params.n.max;
    if (key < 0)
      this._refuse(
        `Offset ${signed(c)} would put the key at position ${signed(key)}, before the first token (position 0): n stays ${n}.`,
      );
    else if (key > max)
      this._refuse(
        `Offset ${signed(c)} would put the key at position ${key}, past the largest position n can take (${max}): n stays ${n}.`,
      );
    else {
      this._refuse(null);
      this.setParam('n', key);
    }
  }

  // The note under the plot: why a click set nothing (null: no note).
  _refuse(text) {
    setText(this.refused, text ?? '');
    this._refusedAt = text === null ? undefined : `${this._state.m},${this._state.n}`;
  }

  _drawCursor() {
    if (!this._state || !this._cursorLine) return;
    const c = this.cursor;
    if (c === null) {
      setAttr(this._cursorLine, 'visibility', 'hidden');
      setText(
        this.readout,
        'Point at or tap the plot (or focus it and use the arrow keys) to read the scores at an offset; a tap or Enter also sets n there.',
      );
      return;
    }
    const { lo, series, m, shift } = this._state;
    const i = c - lo;
    const x = this._geom.X(c);
    setAttr(this._cursorLine, 'x1', x);
    setAttr(this._cursorLine, 'x2', x);
    setAttr(this._cursorLine, 'visibility', 'visible');
    // q at position `at`: its score, or where the key would be (before position 0)
    const ropeAt = (v, at) =>
      Number.isFinite(v)
        ? `${fixed(v, 5)} (positions ${at} vs ${at + c})`
        : `none (the key would be at position ${signed(at + c)}, before the first token)`;
    const f = (v) => (Number.isFinite(v) ? fixed(v, 5) : '—');
    setText(
      this.readout,
      `offset ${signed(c)}: RoPE ${ropeAt(series.rope[i], m)}, ${ropeAt(series.ropeShift[i], m + shift)}; ` +
        `additive ${f(series.add[i])} / ${f(series.addShift[i])}`,
    );
  }

  _fillTable() {
    const { lo, count, series, m, shift } = this._state;
    const rows = [];
    const f = (v) => (Number.isFinite(v) ? fixed(v, 5) : '—');
    for (let i = 0; i < count; i++)
      rows.push([String(lo + i), f(series.rope[i]), f(series.ropeShift[i]), f(series.add[i]), f(series.addShift[i])]);
    this.setTable(
      this.table,
      `Score against offset n − m; q at position ${m} or ${m + shift}, k at q's position + offset (— : the key's position would be negative).`,
      ['n − m', `RoPE, m=${m}`, `RoPE, m=${m + shift}`, `additive, m=${m}`, `additive, m=${m + shift}`],
      rows,
    );
  }
}

// −5 with a minus sign, as the prose writes it
const signed = (v) => (v < 0 ? `−${-v}` : String(v));

define(RopeOffsetCheck);
