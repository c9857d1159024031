// The cell cursor of a matrix drawn on a canvas (<alibi-bias>, <t5-buckets>),
// and the pair cursor of a plot over RoPE's pairs (<rope-scaling-lab>,
// <rope-config-lab>): the pointer picks, the arrow keys move, Escape clears.

/** The [row, col] under a pointer event, or null outside the grid; geom: { M (margin), cell } in CSS px. */
export function cellAt(event, element, { M, cell }, rows, cols) {
  const rect = element.getBoundingClientRect();
  const j = Math.floor((event.clientX - rect.left - M) / cell);
  const i = Math.floor((event.clientY - rect.top - M) / cell);
  return i < 0 || j < 0 || i >= rows || j >= cols ? null : [i, j];
}

const MOVES = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };

/**
 * The cursor after a key press: { cur } ([row, col], or null after Escape),
 * or null when the key is not one of ours. The first arrow press shows the
 * cursor at [0, 0]; later ones move it, clamped to the grid.
 */
export function moveCursor(key, cur, rows, cols) {
  if (key === 'Escape') return { cur: null };
  const move = MOVES[key];
  if (!move) return null;
  const [i, j] = cur ?? [0, 0];
  const [di, dj] = cur ? move : [0, 0];
  return { cur: [Math.max(0, Math.min(rows - 1, i + di)), Math.max(0, Math.min(cols - 1, j + dj))] };
}

/** The pair (0 .. pairs - 1) nearest a pointer on a plot whose x axis runs over pw CSS px from the left margin l. */
export function pairAt(event, element, { l, pw }, pairs) {
  const rect = element.getBoundingClientRect();
  const i = Math.round(((event.clientX - rect.left - l) / pw) * (pairs - 1));
  return Math.max(0, Math.min(pairs - 1, i));
}

/**
 * The pair cursor after a key press: { cur } (a pair, or null after Escape),
 * or null when the key is not one of ours. Arrows move by one (Shift: 8), the
 * first arrow press shows the cursor at pair 0; Home and End jump to the ends.
 */
export function movePairCursor(event, cur, pairs) {
  const step = event.shiftKey ? 8 : 1;
  let c = cur ?? 0;
  if (event.key === 'Escape') return { cur: null };
  if (event.key === 'ArrowLeft') c -= cur === null ? 0 : step;
  else if (event.key === 'ArrowRight') c += cur === null ? 0 : step;
  else if (event.key === 'Home') c = 0;
  else if (event.key === 'End') c = pairs - 1;
  else return null;
  return { cur: Math.max(0, Math.min(pairs - 1, c)) };
}
