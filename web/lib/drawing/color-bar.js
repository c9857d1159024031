// The key of a drawing's colour scale: a strip painted with the scale from
// one end to the other, between the values of its two ends. The strip is
// painted again only when the theme's colours change, not on every update.
import { h, setText } from '../base/dom.js';
import { rgb } from './colormap.js';

export class ColorBar {
  /**
   * low, high: the texts at the strip's ends; label: what the strip says to
   * a screen reader (the colours at its ends), or none when the text around
   * it says that already; width: its painted steps (its CSS width is the
   * base stylesheet's .color-bar canvas).
   */
  constructor({ low, high, label = null, width = 120 }) {
    this.canvas = h(
      'canvas',
      label ? { width, height: 1, role: 'img', 'aria-label': label } : { width, height: 1, 'aria-hidden': 'true' },
    );
    this.lowText = h('span', {}, low);
    this.highText = h('span', {}, high);
    this.el = h('span', { class: 'color-bar' }, this.lowText, this.canvas, this.highText);
    this._colors = null;
  }

  /**
   * Paints the strip: colorAt(t) -> [r, g, b], t from 0 at the low end to 1
   * at the high end. `colors` is the theme the scale comes from (the object
   * PeElement.theme() keeps until the colours change): the same one as last
   * time, nothing is painted.
   */
  paint(colorAt, colors) {
    if (colors && colors === this._colors) return;
    this._colors = colors;
    const ctx = this.canvas.getContext('2d');
    const w = this.canvas.width;
    for (let x = 0; x < w; x++) {
      ctx.fillStyle = rgb(colorAt(x / (w - 1)));
      ctx.fillRect(x, 0, 1, this.canvas.height);
    }
  }

  /** The text at the high end, for a scale whose range changes. */
  setHigh(text) {
    setText(this.highText, text);
  }
}
