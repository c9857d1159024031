// The cell cursor of a matrix drawn on a canvas (<alibi-bias>, <t5-buckets>):
// the pointer picks a cell, the arrow keys move it, Escape clears it.

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
