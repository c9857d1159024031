// Canvases for the widgets: an off-page canvas to draw an image once and
// scale it, and the 2D context of an on-page canvas with a sharp backing store.
import { h } from '../base/dom.js';

/**
 * A canvas that is never on the page, for drawing an image once and scaling
 * it into on-page canvases (it has no layer, and resizing it lays nothing
 * out). An OffscreenCanvas where there is one.
 */
let offscreen2d = null;
export function offPageCanvas(w, hgt) {
  // some browsers have OffscreenCanvas without its 2D context (Safari before 16.4)
  offscreen2d ??= typeof OffscreenCanvas === 'function' && !!new OffscreenCanvas(1, 1).getContext('2d');
  if (offscreen2d) return new OffscreenCanvas(w, hgt);
  return h('canvas', { width: w, height: hgt });
}

// Canvases whose context holds, saved, the state it had when new.
const pristine = new WeakSet();

/**
 * The 2D context of `canvas` for drawing in CSS pixels on a sharp backing
 * store: sizes the canvas to cssW x cssH at devicePixelRatio (only when that
 * changed: resizing clears and reallocates), puts every setting of the
 * context (styles, line, text, smoothing) back to a new context's, so that
 * every draw starts as the first one did (a setting left by one draw would
 * otherwise shift the next: a label drawn before its textAlign is set moves
 * at every redraw), scales it to CSS pixels, and clears it.
 */
export function canvasContext(canvas, cssW, cssH) {
  const dpr = window.devicePixelRatio || 1;
  const w = Math.round(cssW * dpr);
  const hgt = Math.round(cssH * dpr);
  const ctx = canvas.getContext('2d');
  if (canvas.width !== w || canvas.height !== hgt) {
    // resizing resets the context's state and empties its save stack
    canvas.width = w;
    canvas.height = hgt;
    canvas.style.setProperty('width', `${cssW}px`);
    canvas.style.setProperty('height', `${cssH}px`);
    pristine.delete(canvas);
  }
  if (pristine.has(canvas)) ctx.restore();
  ctx.save();
  pristine.add(canvas);
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, cssW, cssH);
  return ctx;
}

/**
 * A y-axis name at (x, y), turned to read bottom to top: `align` 'center'
 * centres it on y, 'right' ends it there. The context's state is kept.
 */
export function sideLabel(ctx, text, x, y, align = 'center') {
  ctx.save();
  ctx.translate(x, y);
  ctx.rotate(-Math.PI / 2);
  ctx.textAlign = align;
  ctx.fillText(text, 0, 0);
  ctx.restore();
}

/**
 * The axes of a matrix whose cells a canvas draws from (M, M), `cell` CSS px
 * each: `across` (the column index's name) along the top, `down` (the row
 * index's) up the left side, read bottom to top with its arrow pointing down
 * the rows, and the index of every k-th column and row, k the smallest that
 * keeps the numbers `gap` px apart. Leaves the text centred on its point.
 */
export function matrixAxes(ctx, { M, cell, rows, cols, across, down, gap, color }) {
  ctx.fillStyle = color;
  ctx.font = '10px system-ui, sans-serif';
  ctx.textAlign = 'left';
  ctx.textBaseline = 'top';
  ctx.fillText(`${across} →`, M, 0);
  ctx.textBaseline = 'middle';
  sideLabel(ctx, `← ${down}`, 6, M, 'right');
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  const every = Math.ceil(gap / cell);
  for (let j = 0; j < cols; j += every) ctx.fillText(String(j), M + j * cell + cell / 2, 20);
  for (let i = 0; i < rows; i += every) ctx.fillText(String(i), 20, M + i * cell + cell / 2);
}

/** The cursor's frame around the cell whose corner is at (x, y), 2.5 px wide, inside the cell. */
export function frameCell(ctx, x, y, cell, color) {
  ctx.strokeStyle = color;
  ctx.lineWidth = 2.5;
  ctx.strokeRect(x + 1, y + 1, Math.max(2, cell - 2), Math.max(2, cell - 2));
}
