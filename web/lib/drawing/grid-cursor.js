// The cell cursor of a matrix drawn on a canvas (<alibi-bias>, <t5-buckets>, <pe-heatmap>),
// and the cursor along a plot's x axis: over RoPE's pairs (<rope-scaling-lab>,
// <rope-config-lab>) or T5's distances (<t5-buckets>). The pointer picks, the
// arrow keys move, Escape clears.

import { setAttr } from '../base/dom.js';

/** The [row, col] under a pointer event, or null outside the grid; geom: { M (margin), cell } in CSS px. */
export function cellAt(event, element, { M, cell }, rows, cols) {
  const rect = element.getBoundingClientRect();
  const j = Math.floor((event.clientX - rect.left - M) / cell);
  const i = Math.floor((event.clientY - rect.top - M) / cell);
  return i < 0 || j < 0 || i >= rows || j >= cols ? null : [i, j];
}

/**
 * Binds a cell cursor to a matrix canvas: the pointer picks a cell (a move
 * within the same cell does nothing; a tap picks too), leaving clears it,
 * the keys move it (cellAt, moveCursor). grid() -> { rows, cols, geom } or
 * null before the first draw; current() -> the cursor; moveTo(cur) stores
 * it and redraws. at(event, g), for a matrix not laid out as cellAt
 * expects (cells not square), gives the [row, col] under a pointer or null.
 */
export function bindCellCursor(canvas, { grid, current, moveTo, at = null }) {
  const point = (e) => {
    const g = grid();
    if (!g) return;
    const cell = at ? at(e, g) : cellAt(e, canvas, g.geom, g.rows, g.cols);
    const cur = current();
    if (!cell || (cur && cur[0] === cell[0] && cur[1] === cell[1])) return;
    moveTo(cell);
  };
  canvas.addEventListener('pointermove', point);
  canvas.addEventListener('pointerdown', point);
  canvas.addEventListener('pointerleave', () => moveTo(null));
  canvas.addEventListener('keydown', (e) => {
    const g = grid();
    if (!g) return;
    const moved = moveCursor(e, current(), g.rows, g.cols);
    if (!moved) return;
    if (moved.cur) e.preventDefault();
    moveTo(moved.cur);
  });
}

// [rows, cols] a key moves the cursor by; BIG_STEP cells with Shift and for the page keys
const BIG_STEP = 10;
const MOVES = {
  ArrowUp: [-1, 0],
  ArrowDown: [1, 0],
  ArrowLeft: [0, -1],
  ArrowRight: [0, 1],
  PageUp: [-BIG_STEP, 0],
  PageDown: [BIG_STEP, 0],
  Home: [0, -Infinity],
  End: [0, Infinity],
};

/**
 * The cursor after a key press: { cur } ([row, col], or null after Escape),
 * or null when the key is not one of ours. The first press shows the cursor
 * at [0, 0]; later ones move it, clamped to the grid: an arrow by one cell
 * (Shift: BIG_STEP), Page Up and Page Down by BIG_STEP rows, Home and End to
 * the row's first and last cell. `key` is a KeyboardEvent or its key.
 */
export function moveCursor(key, cur, rows, cols) {
  const name = typeof key === 'string' ? key : key.key;
  const times = typeof key !== 'string' && key.shiftKey && name.startsWith('Arrow') ? BIG_STEP : 1;
  if (name === 'Escape') return { cur: null };
  const move = MOVES[name];
  if (!move) return null;
  const [i, j] = cur ?? [0, 0];
  const [di, dj] = cur ? move.map((d) => d * times) : [0, 0];
  return { cur: [Math.max(0, Math.min(rows - 1, i + di)), Math.max(0, Math.min(cols - 1, j + dj))] };
}

/** The pair (0 .. pairs - 1) nearest a pointer on a plot whose x axis runs over pw CSS px from the left margin l. */
export function pairAt(event, element, { l, pw }, pairs) {
  const rect = element.getBoundingClientRect();
  const i = Math.round(((event.clientX - rect.left - l) / pw) * (pairs - 1));
  return Math.max(0, Math.min(pairs - 1, i));
}

/**
 * A cursor on the integers lo..hi after a key press: { cur } (a value, or
 * null after Escape), or null when the key is not one of ours. Arrows move by
 * one (Shift: `big`); the first arrow press shows the cursor at 0 (clamped);
 * Home and End jump to the ends.
 */
export function moveAlong(event, cur, lo, hi, big = 8) {
  const step = event.shiftKey ? big : 1;
  let c = cur ?? 0;
  if (event.key === 'Escape') return { cur: null };
  if (event.key === 'ArrowLeft') c -= cur === null ? 0 : step;
  else if (event.key === 'ArrowRight') c += cur === null ? 0 : step;
  else if (event.key === 'Home') c = lo;
  else if (event.key === 'End') c = hi;
  else return null;
  return { cur: Math.max(lo, Math.min(hi, c)) };
}

/**
 * Binds a cursor along a plot's x axis to an element: the pointer picks
 * (at(event) -> the value under it, or null before the first draw), leaving
 * clears it, the keys move it (moveAlong over range() -> [lo, hi, big], or
 * null before the first draw). current() -> the cursor; moveTo(cur) stores it
 * and redraws, called only when it changes under the pointer.
 */
export function bindAxisCursor(element, { at, range, current, moveTo }) {
  element.addEventListener('pointermove', (e) => {
    const c = at(e);
    if (c !== null && c !== current()) moveTo(c);
  });
  element.addEventListener('pointerleave', () => moveTo(null));
  element.addEventListener('keydown', (e) => {
    const r = range();
    if (!r) return;
    const moved = moveAlong(e, current(), ...r);
    if (!moved) return;
    if (moved.cur !== null) e.preventDefault();
    moveTo(moved.cur);
  });
}

/**
 * bindAxisCursor over the pairs of a plot whose x axis starts at pad.l
 * (pairAt; Shift moves 8 pairs). geom() -> { pw } once drawn; pairs() -> the
 * count, or null before there is any.
 */
export function bindPairCursor(svg, { pad, geom, pairs, current, moveTo }) {
  bindAxisCursor(svg, {
    at: (e) => (geom() ? pairAt(e, svg, { l: pad.l, pw: geom().pw }, pairs()) : null),
    range: () => (pairs() ? [0, pairs() - 1, 8] : null),
    current,
    moveTo,
  });
}

/** What a pair plot's readout says while no pair is under the cursor; `what`: 'the plot', 'a plot'. */
export const pairCursorHint = (what) =>
  `Point at ${what}, or focus it and use the arrow keys (Shift: 8 at a time), to read one pair.`;

/** The vertical cursor lines of plots over one x axis: at x, or hidden (x null). */
export function placeCursorLines(lines, x) {
  for (const line of lines) {
    if (x === null) {
      setAttr(line, 'visibility', 'hidden');
      continue;
    }
    setAttr(line, 'x1', x);
    setAttr(line, 'x2', x);
    setAttr(line, 'visibility', 'visible');
  }
}
