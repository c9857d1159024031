// Canvases for the widgets: an off-page canvas to draw an image once and
// scale it, and the 2D context of an on-page canvas with a sharp backing store.
import { h } from './dom.js';

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
 * every draw starts as the first one did, scales it to CSS pixels, and
 * clears it. (t5-buckets drew a label before setting textAlign: it moved
 * left at every redraw after the first.)
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
