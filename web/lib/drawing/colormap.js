// Colour scales for the widgets' drawings. Diverging: negative values in the
// negative colour, positive in the positive one, zero in the background, so
// the same picture reads in light and dark themes.
import { defaultName } from './theme.js';

/** Parses '#rrggbb' (or 'rgb(r, g, b)') into [r, g, b]. */
export function parseColor(text) {
  const t = text.trim();
  if (t.startsWith('#') && t.length === 7) return [1, 3, 5].map((i) => parseInt(t.slice(i, i + 2), 16));
  const m = t.match(/(\d+)\D+(\d+)\D+(\d+)/);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : [128, 128, 128];
}

/**
 * A function v -> [r, g, b] for v in [-limit, limit], blending from `zero`
 * to `neg` or `pos` (each [r, g, b]).
 */
export function diverging(neg, zero, pos, limit = 1) {
  return (v) => {
    const t = Math.max(-1, Math.min(1, v / limit));
    const a = Math.abs(t);
    const end = t < 0 ? neg : pos;
    return [
      Math.round(zero[0] + (end[0] - zero[0]) * a),
      Math.round(zero[1] + (end[1] - zero[1]) * a),
      Math.round(zero[2] + (end[2] - zero[2]) * a),
    ];
  };
}

/** A sequential scale v in [0, 1] -> [r, g, b] from `low` to `high`. */
export function sequential(low, high) {
  return (v) => {
    const t = Math.max(0, Math.min(1, v));
    return [
      Math.round(low[0] + (high[0] - low[0]) * t),
      Math.round(low[1] + (high[1] - low[1]) * t),
      Math.round(low[2] + (high[2] - low[2]) * t),
    ];
  };
}

const THEME = {
  fg: '--pe-fg',
  bg: '--pe-bg',
  muted: '--pe-muted',
  pos: '--pe-pos',
  neg: '--pe-neg',
  zero: '--pe-zero',
  accent: '--pe-accent',
  border: '--pe-border',
  good: '--pe-good',
  bad: '--pe-bad',
};

/**
 * Widget colours read from its CSS custom properties: { fg, bg, ..., good, bad },
 * each [r, g, b]. A widget reads them through PeElement.theme(), which keeps
 * them between updates (reading computed style in an update forces a layout).
 */
/** A custom property of computed style `css`: the page's value (inherited or set on the element), else the widget's default (theme.js). */
export const themeValue = (css, name) => css.getPropertyValue(name).trim() || css.getPropertyValue(defaultName(name));

export function themeColors(el) {
  const css = getComputedStyle(el);
  const value = (name) => themeValue(css, name);
  return Object.fromEntries(Object.entries(THEME).map(([key, name]) => [key, parseColor(cssColor(value(name)))]));
}

// Any CSS colour a host page may set ('teal', 'hsl(...)', '#0a0') as the
// browser serialises it for a canvas: '#rrggbb' or 'rgba(r, g, b, a)'.
let colorProbe; // a 2D context, or null where there is none (asked once)
function cssColor(text) {
  // already in that form (the defaults), or unset: no canvas needed
  if (!text.trim() || /^\s*(#[0-9a-f]{6}|rgba?\([\d\s.,]+\))\s*$/i.test(text)) return text;
  if (colorProbe === undefined)
    colorProbe =
      (globalThis.OffscreenCanvas
        ? new OffscreenCanvas(1, 1).getContext('2d')
        : globalThis.document?.createElement('canvas').getContext('2d')) ?? null;
  if (!colorProbe) return text;
  colorProbe.fillStyle = '#000001'; // kept when `text` is not a colour
  colorProbe.fillStyle = text.trim();
  return colorProbe.fillStyle === '#000001' ? text : colorProbe.fillStyle;
}

/** Whether two themeColors results are the same colours. */
export const sameColors = (a, b) => Object.keys(THEME).every((k) => a[k].join() === b[k].join());

// The CSS text of each colour drawn so far, by 0xRRGGBB: a widget sets
// dozens of canvas colours per update, and building each text anew made a
// quarter of one widget's garbage (and of the minor collections inside its
// updates).
const rgbTexts = new Map();

/** [r, g, b] as CSS text, 'rgb(r, g, b)'. */
export function rgb(color) {
  const r = color[0];
  const g = color[1];
  const b = color[2];
  const key = (r << 16) | (g << 8) | b;
  // whole numbers in 0..255 (what the scales give) have one key each
  if (r !== (r & 255) || g !== (g & 255) || b !== (b & 255)) return `rgb(${r}, ${g}, ${b})`;
  let text = rgbTexts.get(key);
  if (text === undefined) {
    if (rgbTexts.size >= 4096) rgbTexts.clear();
    text = `rgb(${r}, ${g}, ${b})`;
    rgbTexts.set(key, text);
  }
  return text;
}

/**
 * The text colour that reads on the colour at lut[k..k+2] (a table of
 * r, g, b bytes): black or white, whichever contrasts more (inkFor, at
 * least 4.58:1; the luma threshold and #111 it replaces could give 4.35:1).
 */
export const inkOn = (lut, k) => (inkFor([lut[k], lut[k + 1], lut[k + 2]])[0] === 0 ? '#000' : '#fff');

// WCAG 2's relative luminance of an sRGB colour [r, g, b] (0..255) and the
// contrast ratio of two colours, (L1 + 0.05) / (L2 + 0.05), 1 to 21.
const channel = (c) => {
  const s = c / 255;
  return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
};
export const luminance = ([r, g, b]) => 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
export function contrastRatio(a, b) {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

const BLACK = [0, 0, 0];
const WHITE = [255, 255, 255];
/**
 * Black or white, whichever contrasts more with `cell` ([r, g, b]): at least
 * 4.58:1 on any colour (√21, where the two are equal), so small text on a
 * cell of any scale meets WCAG AA's 4.5:1 in every theme. Returns [r, g, b].
 */
export const inkFor = (cell) => (contrastRatio(cell, BLACK) >= contrastRatio(cell, WHITE) ? BLACK : WHITE);
