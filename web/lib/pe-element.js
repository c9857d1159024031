// The base class of every widget (<pe-heatmap>, <rope-clock>, ...): one
// custom element per file, tag = file name, each registered with define().
//
// What the base class does, so each widget only says what it draws:
// - parameters are attributes, declared once in `static params`; they are
//   parsed and checked here, and a bad value shows a clear message inside the
//   widget instead of throwing into the host page;
// - a change to an attribute (from the host page, a control inside the
//   widget, or the URL) schedules one update in the next animation frame, so
//   dragging a slider never queues more than one update per frame;
// - work happens only while the element is on screen (IntersectionObserver):
//   a widget builds its DOM when it first comes near the screen, or later
//   one per idle moment, and a page full of widgets starts in small slices
//   (one widget's first update per task), so loading never blocks for long;
//   until it is built, the element shows its own content (a fallback);
// - styles live in the shadow root as constructable stylesheets: nothing
//   leaks into the host page, nothing from it leaks in, and no <style> or
//   style="" is needed (strict CSP: style-src 'self');
// - the compute core is loaded once, lazily, relative to this script (so a
//   page on another origin can load widgets.js);
// - every update is timed (`lastUpdateMs`, and a `pe-update` event) for the
//   benchmark.
import { loadPosenc, quote, camelCase } from '../posenc.js';
import { sameColors, themeColors } from './colormap.js';

let corePromise = null;
let coreOptions = {};
let coreLoaded = false;
/**
 * Chooses the build the widgets use ({ simd: false } forces the scalar one);
 * call before the first widget renders (the benchmark does).
 */
export function configureCore(options) {
  if (corePromise) throw new Error('configureCore: the core is already loaded; call it before any widget renders');
  coreOptions = { ...options };
}
/** The compute core, loaded on first use and shared by every widget. */
export function core() {
  corePromise ??= loadPosenc(coreOptions).then(
    (pe) => {
      coreLoaded = true;
      return pe;
    },
    (error) => {
      corePromise = null; // let a later update retry
      throw error;
    },
  );
  return corePromise;
}

const sheetCache = new Map();
/** A constructable stylesheet for `cssText`, made once per text. */
export function sheet(cssText) {
  let s = sheetCache.get(cssText);
  if (!s) {
    s = new CSSStyleSheet();
    s.replaceSync(cssText);
    sheetCache.set(cssText, s);
  }
  return s;
}

/** Whether `el`'s content is wider than its box (it scrolls sideways). */
export const scrollsSideways = (el) => el.scrollWidth > el.clientWidth + 1;

/**
 * Gives `el` a tab stop exactly while its content scrolls sideways, so
 * keyboard users can reach it (elements marked data-keep-tabindex keep
 * theirs); returns whether it scrolls. `wide`, when given, is that answer
 * measured beforehand (measure a batch, then write, to lay out once).
 */
export function tabStopIfScrolls(el, wide = scrollsSideways(el)) {
  if (wide && !el.hasAttribute('tabindex')) el.setAttribute('tabindex', '0');
  else if (!wide && el.getAttribute('tabindex') === '0' && !el.hasAttribute('data-keep-tabindex')) el.removeAttribute('tabindex');
  return wide;
}

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

/** Tagged template for widget CSS (plain text; the tag only marks it for editors). */
export const css = (strings, ...values) => String.raw({ raw: strings }, ...values);

/**
 * The custom properties a host page may set to theme every widget
 * (`rope-clock { --pe-accent: teal }`); defaults are the light theme's, dark
 * ones apply under prefers-color-scheme: dark. BASE_CSS declares exactly these.
 */
export const CSS_PROPERTIES = {
  '--pe-fg': 'Text colour.',
  '--pe-bg': 'Background colour.',
  '--pe-muted': 'Secondary text (captions, readouts).',
  '--pe-border': 'Borders and grid lines.',
  '--pe-panel': 'Background of panels, inputs and code.',
  '--pe-accent': 'Accent: focus rings, sliders, highlights.',
  '--pe-pos': 'Positive values in diverging colour maps; the first word.',
  '--pe-neg': 'Negative values in diverging colour maps; the second word.',
  '--pe-good': 'Right answers and passing checks.',
  '--pe-bad': 'Wrong answers and error messages.',
  '--pe-zero': 'Zero in diverging colour maps.',
  '--pe-mono': 'Monospace font family of code and numbers.',
};

// Shared look of every widget. Colours are custom properties so a host page
// may theme a widget (`pe-heatmap { --pe-accent: teal }`) without reaching in.
const BASE_CSS = css`
  :host {
    --pe-fg: #1d232b; --pe-bg: #ffffff; --pe-muted: #5b6573; --pe-border: #d5dae1;
    --pe-panel: #f5f7fa; --pe-accent: #245fc9; --pe-pos: #c2372c; --pe-neg: #245fc9;
    --pe-good: #1e7a3c; --pe-bad: #b3261e; --pe-zero: #ffffff;
    --pe-mono: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace;
    display: block; box-sizing: border-box; color: var(--pe-fg); background: var(--pe-bg);
    font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif;
    border: 1px solid var(--pe-border); border-radius: 10px; padding: 14px; margin: 1.2em 0;
    max-width: 100%; overflow-wrap: anywhere;
  }
  @media (prefers-color-scheme: dark) {
    :host {
      --pe-fg: #e3e7ec; --pe-bg: #161a20; --pe-muted: #9aa4b1; --pe-border: #353c47;
      --pe-panel: #1f252d; --pe-accent: #7aa7ff; --pe-pos: #ff8a7a; --pe-neg: #7aa7ff;
      --pe-good: #6fd08c; --pe-bad: #ff8a80; --pe-zero: #161a20;
    }
  }
  :host([hidden]) { display: none; }
  *, *::before, *::after { box-sizing: border-box; }
  h3, h4 { margin: 0 0 .4em; font-size: 1em; }
  p { margin: .4em 0; }
  .controls { display: flex; flex-wrap: wrap; gap: 8px 18px; align-items: center; margin: 0 0 10px; }
  /* a label never wider than its row: a menu of long names shrinks instead (a phone) */
  .controls label { display: inline-flex; align-items: center; gap: 6px; font-size: .92em; max-width: 100%; }
  .controls select { min-width: 0; }
  .controls input[type=range] { width: 9em; max-width: 40vw; }
  .controls input[type=number], .controls input[type=text], .controls select {
    font: inherit; color: inherit; background: var(--pe-panel); border: 1px solid var(--pe-border);
    border-radius: 6px; padding: 2px 6px; max-width: 100%;
  }
  /* Every control is a target of at least 24 x 24 CSS px, WCAG 2.2's
     minimum (2.5.8 Target Size): a phone draws a slider 16 px tall and a
     checkbox 13 px, too small to hit with a finger. Boxes, menus and
     buttons get 28 px: their text and its padding. */
  input[type=range] { block-size: 24px; margin-block: 0; accent-color: var(--pe-accent); }
  input[type=checkbox], input[type=radio] { inline-size: 24px; block-size: 24px; margin: 0; flex: none; accent-color: var(--pe-accent); }
  input:not([type=range], [type=checkbox], [type=radio]), select, button { min-block-size: 28px; }
  summary { min-block-size: 24px; padding-block: 2px; }
  .controls input[type=number] { width: 6.5em; }
  .controls output { font-family: var(--pe-mono); min-width: 3ch; }
  .controls .pair { display: inline-flex; align-items: center; gap: 6px; }
  /* On a phone each slider takes a row of its own and grows to fill it,
     its value or number box at the row's end: a longer slider is finer
     under a finger, and the boxes line up. (A media query, not a container
     query: a size container has no width of its own, and would collapse
     where a host page lays a widget out by its content's width.) */
  @media (max-width: 560px) {
    .controls .pair, .controls label:has(> input[type=range]) { flex: 1 1 100%; }
    /* name | slider | value, the names in a column of their own */
    .controls label:has(> input[type=range]) { display: grid; grid-template-columns: 7em minmax(5em, 1fr); grid-auto-flow: column; }
    .controls .pair > label { flex: 1; }
    .controls .pair > input { flex: none; }
    .controls input[type=range] { width: auto; max-width: none; }
  }
  .controls input[aria-invalid=true] { border-color: var(--pe-bad); outline: 2px solid var(--pe-bad); outline-offset: 0; }
  .field-note { color: var(--pe-bad); font-size: .85em; flex-basis: 100%; }
  .field-note:empty { display: none; }
  input:focus-visible, select:focus-visible, button:focus-visible, summary:focus-visible, canvas:focus-visible, [tabindex]:focus-visible {
    outline: 3px solid var(--pe-accent); outline-offset: 2px;
  }
  button {
    font: inherit; color: inherit; background: var(--pe-panel); border: 1px solid var(--pe-border);
    border-radius: 6px; padding: 4px 12px; cursor: pointer;
  }
  button:hover { border-color: var(--pe-accent); }
  .error { color: var(--pe-bad); font-weight: 600; }
  .error:empty, .status:empty { display: none; }
  .status { color: var(--pe-muted); font-size: .9em; }
  .readout { font-family: var(--pe-mono); font-size: .9em; min-height: 1.5em; color: var(--pe-muted); }
  pre, code, .mono { font-family: var(--pe-mono); font-size: .9em; }
  pre { --pe-scroll-bg: var(--pe-panel); border-radius: 6px; padding: 8px 10px; overflow-x: auto; margin: .5em 0; }
  canvas, svg { display: block; max-width: 100%; }
  details.alt { margin-top: 8px; font-size: .92em; }
  details.alt summary { cursor: pointer; color: var(--pe-muted); }
  .table-wrap { overflow-x: auto; max-width: 100%; }
  /* A box that scrolls sideways shows a shadow at each edge with more behind
     it (no hover, so touch screens show it too): shadows fixed at the edges,
     covers in the box's colour (--pe-scroll-bg) that move with the content
     and hide a shadow at the content's end. Every pre and .table-wrap has
     it (a printout or table that fits today may not at another setting);
     anything else that scrolls sideways opts in with class scroll-cue. */
  pre, .scroll-cue, .table-wrap {
    --pe-scroll-shadow: color-mix(in srgb, var(--pe-fg) 34%, transparent);
    background:
      linear-gradient(to right, var(--pe-scroll-bg, var(--pe-bg)) 1.1rem, transparent) left center / 2.2rem 100% no-repeat local,
      linear-gradient(to left, var(--pe-scroll-bg, var(--pe-bg)) 1.1rem, transparent) right center / 2.2rem 100% no-repeat local,
      radial-gradient(farthest-side at 0 50%, var(--pe-scroll-shadow), transparent) left center / 1rem 100% no-repeat scroll,
      radial-gradient(farthest-side at 100% 50%, var(--pe-scroll-shadow), transparent) right center / 1rem 100% no-repeat scroll,
      var(--pe-scroll-bg, var(--pe-bg));
  }
  table { border-collapse: collapse; font-family: var(--pe-mono); font-size: .85em; margin: 6px 0; }
  th, td { border: 1px solid var(--pe-border); padding: 2px 6px; text-align: right; }
  th { background: var(--pe-panel); font-weight: 600; }
  caption { text-align: left; color: var(--pe-muted); padding-bottom: 4px; }
  .visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
  @media (prefers-reduced-motion: reduce) { * { transition: none !important; animation: none !important; } }
`;

/**
 * Builds a DOM element: h('label', { for: 'x', class: 'a' }, 'text', child).
 * Strings become text nodes, never HTML.
 */
export function h(tag, attrs = {}, ...children) {
  const svg = tag.startsWith('svg:');
  const el = svg ? document.createElementNS('http://www.w3.org/2000/svg', tag.slice(4)) : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs ?? {})) {
    if (v === false || v === null || v === undefined) continue;
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : String(c));
  }
  return el;
}

/**
 * A fragment from HTML this page's own code made: the build's lesson HTML,
 * or web/lib/quiz-text.js's output (which escapes every character it does not
 * build itself). Never the learner's text, which only becomes text nodes.
 */
export function trustedFragment(html) {
  const t = document.createElement('template');
  t.innerHTML = html;
  return t.content;
}

/** A node's text as read: without the TeX annotations of its formulas, spaces collapsed. */
export function plainText(node) {
  const copy = node.cloneNode(true);
  for (const a of copy.querySelectorAll('annotation')) a.remove();
  return copy.textContent.replace(/\s+/g, ' ').trim();
}

/** Whether two arrays (plain or typed) hold the same values in the same order; a missing one: no. */
export function sameValues(a, b) {
  if (!a || !b || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Makes `parent`'s children look like `next` (fresh nodes, as h() builds
 * them) while keeping the nodes already there: same-kind nodes at the same
 * place get only their changed attributes and text, so a redraw changes
 * attributes instead of replacing elements, and style and layout are
 * redone only where something changed (replacing every node of a card or an
 * SVG on each slider step cost most of a widget's frame on a slow phone).
 * A kept <canvas> gets the new one's pixels. Listeners of kept nodes stay
 * as they were: use it for content whose handlers do not change.
 */
export function patchChildren(parent, next) {
  const old = parent.childNodes;
  let i = 0;
  for (; i < next.length; i++) {
    const a = old[i];
    const b = next[i];
    if (a === b) continue;
    if (!a) parent.append(b);
    else if (a.nodeType !== b.nodeType || a.nodeName !== b.nodeName || a.namespaceURI !== b.namespaceURI) parent.replaceChild(b, a);
    else patchNode(a, b);
  }
  while (old.length > i) parent.lastChild.remove();
}

// Sets an attribute only when its text differs (an identical write still
// makes the browser redo the mark's style and layout, an SVG's of all its text).
export function setAttr(el, name, value) {
  const text = String(value);
  if (el.getAttribute(name) !== text) el.setAttribute(name, text);
}

// Sets an element's text only when it differs, in its text node when it has
// one (replacing the node makes the browser build its layout again).
export function setText(el, text) {
  const t = el.firstChild;
  if (t && t === el.lastChild && t.nodeType === Node.TEXT_NODE && text !== '') {
    if (t.data !== text) t.data = text;
  } else if (el.textContent !== text) el.textContent = text;
}

// Makes `parent`'s children the nodes `specs` describe, as h() would build
// them: a string is a text node, [tag, attrs, text or [child specs]] an
// element ('svg:' tags for SVG; null and false are left out). Nodes already
// there are kept (same kind at the same place) and get only the attributes
// and text that changed, so a redraw builds no throwaway nodes and the
// browser redoes style and layout only where something changed.
export function patchSpecs(parent, specs) {
  const kids = parent.childNodes;
  let i = 0;
  for (const spec of specs) {
    if (spec === null || spec === undefined || spec === false) continue;
    const node = kids[i++];
    if (typeof spec === 'string') {
      if (node?.nodeType === Node.TEXT_NODE) {
        if (node.data !== spec) node.data = spec;
      } else if (node) node.replaceWith(spec);
      else parent.append(spec);
      continue;
    }
    const [tag, attrs, inner] = spec;
    if (node?.localName !== (tag.startsWith('svg:') ? tag.slice(4) : tag)) {
      const fresh = h(tag, attrs);
      if (Array.isArray(inner)) patchSpecs(fresh, inner);
      else if (inner !== undefined && inner !== null) fresh.append(inner);
      if (node) node.replaceWith(fresh);
      else parent.append(fresh);
      continue;
    }
    let n = 0;
    for (const k in attrs) {
      const v = attrs[k];
      if (v === null || v === undefined || v === false) continue;
      n++;
      setAttr(node, k, v === true ? '' : v);
    }
    if (node.attributes.length !== n) {
      for (const k of node.getAttributeNames()) if (attrs[k] === undefined || attrs[k] === null || attrs[k] === false) node.removeAttribute(k);
    }
    if (Array.isArray(inner)) patchSpecs(node, inner);
    else if (inner === undefined || inner === null) {
      if (node.firstChild) node.replaceChildren();
    } else setText(node, inner);
  }
  while (kids.length > i) parent.lastChild.remove();
}

function patchNode(a, b) {
  if (a.nodeType !== Node.ELEMENT_NODE) {
    if (a.nodeValue !== b.nodeValue) a.nodeValue = b.nodeValue;
    return;
  }
  for (const { name, value } of b.attributes) if (a.getAttribute(name) !== value) a.setAttribute(name, value);
  if (a.attributes.length !== b.attributes.length) {
    for (const name of a.getAttributeNames()) if (!b.hasAttribute(name)) a.removeAttribute(name);
  }
  if (a.localName === 'canvas') {
    const ctx = a.getContext('2d');
    ctx.clearRect(0, 0, a.width, a.height);
    ctx.drawImage(b, 0, 0);
    return;
  }
  patchChildren(a, [...b.childNodes]);
}

/**
 * Binds a typed box to a value it sets: a valid text is applied (as it is
 * typed when `live`, else on Enter or leaving the box); an invalid one marks
 * the box while it is typed, and on Enter or leaving the box the box goes
 * back to the value in use, with a note beside it saying why. So a typed
 * value is never left standing beside a picture that ignores it.
 * parse(text) -> { value } or { error } (the error ends "; got ..."),
 * apply(value), kept() -> the text of the value in use.
 */
export function bindEntryBox(box, note, { parse, apply, kept, live = false }) {
  const check = () => {
    const r = parse(box.value);
    if (r.error) box.setAttribute('aria-invalid', 'true');
    else box.removeAttribute('aria-invalid');
    return r;
  };
  box.addEventListener('input', () => {
    const r = check();
    if (!r.error) note.textContent = '';
    if (live && !r.error) apply(r.value);
  });
  box.addEventListener('change', () => {
    const r = check();
    if (!r.error) {
      note.textContent = '';
      apply(r.value);
      return;
    }
    // rejected: the box goes back to the value the widget shows
    const text = kept();
    box.value = text;
    box.removeAttribute('aria-invalid');
    note.textContent = `${r.error.replace(/; got .*$/, '')}; kept ${text}`;
  });
}

// Parses one attribute by its spec; returns { value } or { error }.
function parseParam(name, spec, raw) {
  if (raw === null) return { value: spec.default };
  const range = () => {
    const lo = spec.min !== undefined ? ` from ${spec.min}` : '';
    const hi = spec.max !== undefined ? ` to ${spec.max}` : '';
    return `${lo}${hi}`;
  };
  switch (spec.type) {
    case 'int':
    case 'float': {
      const v = raw.trim() === '' ? NaN : Number(raw);
      const okType = spec.type === 'int' ? Number.isInteger(v) : Number.isFinite(v);
      const stepOk = !spec.even || v % 2 === 0;
      if (!okType || (spec.min !== undefined && v < spec.min) || (spec.max !== undefined && v > spec.max) || !stepOk) {
        const kind = spec.type === 'int' ? (spec.even ? 'an even integer' : 'an integer') : 'a number';
        return { error: `${name} must be ${kind}${range()}; got ${quote(raw)}` };
      }
      return { value: v };
    }
    case 'bool':
      if (raw === '' || raw === 'true' || raw === name) return { value: true };
      if (raw === 'false') return { value: false };
      return { error: `${name} must be true or false; got ${quote(raw)}` };
    case 'enum':
      if (spec.options.includes(raw)) return { value: raw };
      return { error: `${name} must be one of ${spec.options.join(', ')}; got ${quote(raw)}` };
    case 'vector': {
      const parts = raw.split(',').map((s) => s.trim());
      const v = parts.map((s) => (s === '' ? NaN : Number(s)));
      const lengthOk = spec.length === undefined || v.length === spec.length;
      if (!lengthOk || v.some((x) => !Number.isFinite(x))) {
        const n = spec.length !== undefined ? `${spec.length} ` : '';
        return { error: `${name} must be ${n}comma-separated numbers; got ${quote(raw)}` };
      }
      return { value: v };
    }
    default: {
      // string
      const maxLength = spec.maxLength ?? 200;
      if (raw.length > maxLength) return { error: `${name} must be at most ${maxLength} characters long` };
      if (spec.pattern && !spec.pattern.test(raw)) return { error: `${name} ${spec.patternMessage ?? 'has an invalid value'}; got ${quote(raw)}` };
      return { value: raw };
    }
  }
}

const formatAttr = (spec, value) => (spec.type === 'vector' ? value.join(',') : String(value));

// While a page starts, the widgets that waited for the core each take a task
// of their own for that first update, so the ten that become ready together
// when the core arrives do not run as one long task; an update that did not
// wait (a slider, a widget scrolled to later) runs in its frame.
let sliceTail = Promise.resolve();
function nextSlice() {
  sliceTail = sliceTail.then(() => new Promise((resolve) => setTimeout(resolve, 0)));
  return sliceTail;
}

// Widgets far from the screen build their DOM one per idle moment.
const idleBuilds = new Set();

// Widgets on the page, told when the reader's colour scheme changes (their
// cached theme() colours are read again in their next update).
const liveWidgets = new Set();
globalThis.matchMedia?.('(prefers-color-scheme: dark)').addEventListener?.('change', () => {
  for (const w of liveWidgets) {
    w._theme = null;
    w.schedule();
  }
});
let idleScheduled = false;
const whenIdle = globalThis.requestIdleCallback ?? ((fn) => setTimeout(() => fn({ timeRemaining: () => 8 }), 50));
function buildWhenIdle(el) {
  idleBuilds.add(el);
  if (idleScheduled) return;
  idleScheduled = true;
  whenIdle(function buildOne(deadline) {
    // one widget per idle callback at most, and only with time to spare
    if (deadline.timeRemaining() > 4) {
      const [next] = idleBuilds;
      if (next) {
        idleBuilds.delete(next);
        next._ensureBuilt();
      }
    }
    if (idleBuilds.size) whenIdle(buildOne);
    else idleScheduled = false;
  });
}

export class PeElement extends HTMLElement {
  /** { 'attr-name': { type: 'int'|'float'|'bool'|'enum'|'vector'|'string', default, min, max, step, even, options, length, label } } */
  static params = {};
  /** This widget's own CSS text (css`...`). */
  static styles = '';
  /** One line about the widget (custom-elements.json, the tag table in docs/embedding.md). */
  static description = '';
  /** { 'event-name': 'what it means and its detail' }: events this widget fires besides the base class's. */
  static events = {};
  /** Events every widget fires (the base class dispatches them). */
  static baseEvents = {
    'pe-update': 'The widget finished an update; detail: { ms } (the time it took).',
    'pe-state': 'A control inside the widget changed a parameter; detail: { name, value } (bubbles, composed).',
  };
  /** true: update even while off screen (for cheap widgets that must stay current, like the page score). */
  static alwaysUpdate = false;
  /** false: update() runs without waiting for the core (and gets pe = null). */
  static needsCore = true;

  static get observedAttributes() {
    return Object.keys(this.params);
  }

  constructor() {
    super();
    this.attachShadow({ mode: 'open' });
    this.shadowRoot.adoptedStyleSheets = [sheet(BASE_CSS), sheet(this.constructor.styles)];
    this.lastUpdateMs = null;
    this._frame = 0;
    this._visible = false;
    this._dirty = true;
    this._built = false;
    this._controls = new Map(); // attr -> { input, output }
    // the element's own content shows until the widget is built
    this.shadowRoot.append(document.createElement('slot'));
  }

  /** Builds the widget's DOM if it is not built yet. */
  _ensureBuilt() {
    if (this._built) return;
    this._built = true;
    idleBuilds.delete(this);
    this.shadowRoot.replaceChildren();
    this.errorBox = h('p', { class: 'error', role: 'alert' });
    this.statusBox = h('p', { class: 'status', 'aria-live': 'polite' }, this.constructor.needsCore ? 'Loading the compute core…' : '');
    this.build(this.shadowRoot);
    this.shadowRoot.append(this.statusBox, this.errorBox);
  }

  connectedCallback() {
    liveWidgets.add(this);
    if (typeof IntersectionObserver === 'function' && !this.constructor.alwaysUpdate) {
      this._observer = new IntersectionObserver(
        (entries) => {
          this._visible = entries.some((e) => e.isIntersecting);
          if (this._visible) this._ensureBuilt();
          if (this._visible && this._dirty) this.schedule();
        },
        { rootMargin: '300px' },
      );
      this._observer.observe(this);
      if (!this._built) buildWhenIdle(this);
    } else {
      this._visible = true;
      this._ensureBuilt();
    }
    this.schedule();
  }

  disconnectedCallback() {
    idleBuilds.delete(this);
    liveWidgets.delete(this);
    this._observer?.disconnect();
    if (this._frame) cancelAnimationFrame(this._frame);
    this._frame = 0;
    if (this._markFrame) cancelAnimationFrame(this._markFrame);
    this._markFrame = 0;
  }

  attributeChangedCallback(name, oldValue, newValue) {
    if (oldValue === newValue) return;
    this._syncControl(name);
    this.schedule();
    // pages that keep widget state in their URL (the lesson, embed.html) listen
    this.dispatchEvent(new CustomEvent('pe-state', { bubbles: true, composed: true, detail: { name, value: newValue } }));
  }

  /** The widget's shareable state: { name: text } of its parameters that are set. */
  stateParams() {
    const out = {};
    for (const name of Object.keys(this.constructor.params)) {
      const v = this.getAttribute(name);
      if (v !== null) out[name] = v;
    }
    return out;
  }

  /** Whether `name` is a parameter this widget takes from a URL or a host page's message. */
  acceptsParam(name) {
    return Object.hasOwn(this.constructor.params, name);
  }

  /** Sets a parameter from outside (a URL, a message): always as text, checked by the widget like any attribute. */
  applyParam(name, value) {
    if (!this.acceptsParam(name)) return false;
    this.setAttribute(name, String(value).slice(0, 500));
    return true;
  }

  /** Parsed parameters: { values, errors }, each invalid attribute replaced by its default. */
  readParams() {
    const values = {};
    const errors = [];
    for (const [name, spec] of Object.entries(this.constructor.params)) {
      const r = parseParam(name, spec, this.getAttribute(name));
      if (r.error) {
        errors.push(r.error);
        values[camelCase(name)] = spec.default;
      } else values[camelCase(name)] = r.value;
    }
    return { values, errors };
  }

  /** Asks for one update in the next animation frame (only while on screen). */
  schedule() {
    this._dirty = true;
    if (!this.isConnected || (!this._visible && !this.constructor.alwaysUpdate) || this._frame) return;
    this._frame = requestAnimationFrame(() => {
      this._frame = 0;
      this._run();
    });
  }

  /** Runs the update now (awaits the core); used by tests and the benchmark. */
  async updateNow() {
    this._dirty = true;
    this._ensureBuilt();
    await this._run();
  }

  async _run() {
    if (!this._dirty) return;
    this._dirty = false;
    this._ensureBuilt();
    let pe = null;
    try {
      // widgets that can draw without the core (a quiz, the score) do not wait for it
      const waited = this.constructor.needsCore && !coreLoaded;
      if (this.constructor.needsCore) pe = await core();
      if (waited) await nextSlice();
    } catch (error) {
      this.statusBox.textContent = '';
      this.errorBox.textContent = `The compute core could not be loaded: ${error.message}`;
      return;
    }
    // read after the waits: an attribute may have changed meanwhile
    const { values, errors } = this.readParams();
    this.statusBox.textContent = '';
    if (errors.length) {
      this.errorBox.textContent = errors.join('. ');
      this.toggleAttribute('data-invalid', true);
      return;
    }
    const started = performance.now();
    try {
      // update() returns false while it waits for something (a module it
      // imports); it schedules itself again when that arrives
      if (this.update(pe, values) === false) return;
      this._markScrollables();
      this.errorBox.textContent = '';
      this.toggleAttribute('data-invalid', false);
    } catch (error) {
      // A core error (RangeError, ...) is the learner's input, not a crash.
      this.errorBox.textContent = error instanceof Error ? error.message : String(error);
      this.toggleAttribute('data-invalid', true);
    }
    this.lastUpdateMs = performance.now() - started;
    this.toggleAttribute('data-ready', true);
    this.dispatchEvent(new CustomEvent('pe-update', { detail: { ms: this.lastUpdateMs } }));
  }

  // A box that scrolls sideways (a wide table or printout on a phone) must
  // be reachable from the keyboard: exactly those get a tab stop. Measured in
  // the next frame, before anything is written, when the layout this update
  // caused is already done: measuring at once made every update lay the
  // page out twice. The theme colours are read again there too (theme()).
  _markScrollables() {
    if (this._markFrame) return;
    this._markFrame = requestAnimationFrame(() => {
      this._markFrame = 0;
      // every width read before any tab stop is written: one layout, not one per element
      const els = [...this.shadowRoot.querySelectorAll('pre, .table-wrap')];
      const wide = els.map(scrollsSideways);
      this._recheckTheme();
      els.forEach((el, i) => tabStopIfScrolls(el, wide[i]));
    });
  }

  /** Builds the widget's DOM once (override). */
  build(_root) {}

  /** Recomputes and redraws from the core and the parsed parameters (override); returns false if not ready yet. */
  update(_pe, _params) {}

  /** Sets a parameter as its attribute (what a control inside the widget does). */
  setParam(name, value) {
    const spec = this.constructor.params[name];
    this.setAttribute(name, formatAttr(spec, value));
  }

  /**
   * A row of labelled controls bound to attributes: moving one sets the
   * attribute, and an attribute set from outside moves the control.
   *
   * A typed value is either applied or rejected in its box, never left
   * standing beside a picture that ignores it: a valid value is applied (as
   * it is typed, for parameters marked `live`, else on Enter or leaving the
   * box); an invalid one marks the box while it is typed, and on Enter or
   * leaving the box the box goes back to the value in use, with a note
   * beside it saying why. Spec options for the controls:
   * - control: 'number': a number box even when there is a max;
   * - entry: true: a slider with a number box beside it (long ranges);
   * - stops: [..]: the slider steps through these values (a number box
   *   beside it takes any valid value);
   * - live: true: a number or text box applies valid values as they are typed.
   */
  controls(names, extra = {}) {
    const row = h('div', { class: 'controls' });
    for (const name of names) {
      const spec = this.constructor.params[name];
      const id = `c-${name}`;
      const label = spec.label ?? name;
      let input;
      let output = null;
      let box = null;
      const note = h('span', { class: 'field-note', id: `note-${name}`, 'aria-live': 'polite' });
      if (spec.type === 'bool') {
        input = h('input', { type: 'checkbox', id });
        input.addEventListener('change', () => this.setAttribute(name, input.checked ? 'true' : 'false'));
        row.append(h('label', { for: id }, input, label));
      } else if (spec.type === 'enum') {
        input = h('select', { id }, spec.options.map((o) => h('option', { value: o }, spec.optionLabels?.[o] ?? o)));
        input.addEventListener('change', () => this.setAttribute(name, input.value));
        row.append(h('label', { for: id }, label, input));
      } else if ((spec.type === 'int' || spec.type === 'float') && spec.control !== 'number' && spec.max !== undefined) {
        const stops = spec.stops;
        input = stops
          ? h('input', { type: 'range', id, min: 0, max: stops.length - 1, step: 1 })
          : h('input', { type: 'range', id, min: spec.min, max: spec.max, step: spec.step ?? (spec.even ? 2 : spec.type === 'int' ? 1 : 'any') });
        input.addEventListener('input', () => this.setAttribute(name, stops ? String(stops[Number(input.value)]) : input.value));
        if (spec.entry || stops) {
          box = h('input', { type: 'number', id: `${id}-box`, min: spec.min, max: spec.max, step: spec.even ? 2 : spec.type === 'int' ? 1 : 'any', 'aria-label': `${label}, exact value`, 'aria-describedby': note.id });
          this._bindBox(name, spec, box, note, true);
          row.append(h('span', { class: 'pair' }, h('label', { for: id }, label, input), box));
        } else {
          output = h('output', { for: id });
          row.append(h('label', { for: id }, label, input, output));
        }
      } else {
        input = h('input', { type: spec.type === 'int' || spec.type === 'float' ? 'number' : 'text', id, min: spec.min, max: spec.max, step: spec.step ?? 'any', spellcheck: 'false', 'aria-describedby': note.id });
        if (spec.type === 'string' || spec.type === 'vector') input.setAttribute('size', String(spec.size ?? 18));
        this._bindBox(name, spec, input, note, !!spec.live);
        row.append(h('label', { for: id }, label, input));
      }
      row.append(note);
      if (extra[name]) row.querySelector(`[for="${id}"]`).append(extra[name]);
      this._controls.set(name, { input, output, box, note, spec });
      this._syncControl(name);
    }
    return row;
  }

  // A typed box bound to parameter `name` (bindEntryBox).
  _bindBox(name, spec, box, note, live) {
    bindEntryBox(box, note, {
      live,
      parse: (text) => parseParam(name, spec, text),
      apply: (value) => this.setAttribute(name, formatAttr(spec, value)),
      kept: () => {
        const current = parseParam(name, spec, this.getAttribute(name));
        return formatAttr(spec, current.error ? spec.default : current.value);
      },
    });
  }

  _syncControl(name) {
    const c = this._controls.get(name);
    if (!c) return;
    const raw = this.getAttribute(name);
    const parsed = parseParam(name, c.spec, raw);
    const value = parsed.error ? (raw ?? '') : formatAttr(c.spec, parsed.value);
    // a box being typed in keeps its text while it means the same value ("1.50" for 1.5)
    const same = (box) => {
      const r = parseParam(name, c.spec, box.value);
      return !parsed.error && !r.error && formatAttr(c.spec, r.value) === value;
    };
    if (c.spec.type === 'bool') c.input.checked = parsed.error ? !!c.spec.default : parsed.value;
    else if (c.spec.stops && c.input.type === 'range') {
      const v = parsed.error ? c.spec.default : parsed.value;
      let best = 0;
      c.spec.stops.forEach((s, i) => { if (Math.abs(Math.log(s / v)) < Math.abs(Math.log(c.spec.stops[best] / v))) best = i; });
      c.input.value = String(best);
      c.input.setAttribute('aria-valuetext', String(v));
    } else if (c.input.value !== value && !(c.input.type !== 'range' && same(c.input))) c.input.value = value;
    if (c.box && c.box.value !== value && !same(c.box)) c.box.value = value;
    // an invalid value from outside (a host page, the URL) stays in view, marked
    for (const el of [c.input, c.box]) {
      if (!el || el.type === 'range' || el.type === 'checkbox' || el.localName === 'select') continue;
      if (parsed.error) el.setAttribute('aria-invalid', 'true');
      else if (!parseParam(name, c.spec, el.value).error) el.removeAttribute('aria-invalid');
    }
    if (!parsed.error && c.note) c.note.textContent = '';
    if (c.output) c.output.textContent = value;
  }

  /**
   * el.clientWidth without forcing a layout: kept from a ResizeObserver,
   * which reports when the layout is already done. Only the first call for an
   * element reads it directly. A slider step therefore never makes the
   * browser lay the page out just to tell a widget its own width.
   */
  widthOf(el = this) {
    this._widths ??= new Map();
    if (!this._widths.has(el)) {
      this._widthObserver ??= new ResizeObserver((entries) => {
        for (const e of entries) this._widths.set(e.target, e.target.clientWidth);
      });
      this._widthObserver.observe(el);
      this._widths.set(el, el.clientWidth);
    }
    return this._widths.get(el);
  }

  /**
   * The widget's colours (themeColors: { fg, bg, ..., good, bad }, each
   * [r, g, b]) for drawing canvases and SVG. Kept between updates: reading
   * computed style inside an update, after its first write, makes the browser
   * lay the widget out (when it is a size container) before the update's own
   * layout. They are read again when the reader's colour scheme changes (the
   * widget then draws again), and in the frame after each update, beside the
   * width reads of _markScrollables (which have laid the page out already):
   * a host page that switched its theme is drawn in it from the widget's next
   * update on, a frame after that update.
   */
  theme() {
    return (this._theme ??= themeColors(this));
  }

  _recheckTheme() {
    // a detached element has no computed custom properties: nothing to compare
    if (!this._theme || !this.isConnected) return;
    const now = themeColors(this);
    if (sameColors(now, this._theme)) return;
    this._theme = now;
    this.schedule();
  }

  /**
   * A <details> holding a table (the text alternative of a drawing); fill it
   * with setTable. lazy: the table is made when the reader opens it (and
   * again on each update while it is open), so an update of a closed one
   * costs nothing; for widgets whose tables nobody reads closed.
   */
  tableAlternative(summary = 'Show the numbers as a table', { lazy = false } = {}) {
    const details = h('details', { class: 'alt' }, h('summary', {}, summary), h('div', { class: 'table-wrap' }));
    if (lazy) {
      details._lazyTable = null;
      details.addEventListener('toggle', () => {
        if (details.open && details._lazyTable) {
          const args = details._lazyTable;
          details._lazyTable = null;
          this._buildTable(details, ...args);
          this._markScrollables();
        }
      });
    }
    return details;
  }

  /** Replaces the table inside a tableAlternative(): headers [..], rows [[..]], first cell of a row is its header. */
  setTable(details, caption, headers, rows) {
    // a lazy, closed one keeps what it needs until it opens
    if (details._lazyTable !== undefined && !details.open) {
      details._lazyTable = [caption, headers, rows];
      return;
    }
    this._buildTable(details, caption, headers, rows);
  }

  _buildTable(details, caption, headers, rows) {
    if (typeof rows === 'function') rows = rows();
    const table = h(
      'table',
      {},
      h('caption', {}, caption),
      h('thead', {}, h('tr', {}, headers.map((x) => h('th', { scope: 'col' }, x)))),
      h('tbody', {}, rows.map((r) => h('tr', {}, r.map((x, i) => (i === 0 ? h('th', { scope: 'row' }, x) : h('td', {}, x)))))),
    );
    details.querySelector('.table-wrap').replaceChildren(table);
  }
}

// deferDefinitions(): define() queues instead, and the queue defines one tag
// per task, the tags whose first element comes first in the page first.
let deferred = null;
/**
 * Makes every later define() take its own task (the lesson calls it before
 * it imports the widgets): upgrading the page's seventy widget elements in
 * the one task that evaluates the modules blocked a phone for a third of a
 * second. customElements.whenDefined(tag) says when a tag is ready.
 */
export function deferDefinitions() {
  deferred ??= [];
}
/** Defines every queued tag now (a page that must set widget state at once, as from its URL). */
export function defineDeferredNow() {
  while (deferred?.length) defineNext();
}
function defineNext() {
  const first = new Map(deferred.map((c) => [c, document.querySelector(c.tag)]));
  deferred.sort((a, b) => {
    const x = first.get(a);
    const y = first.get(b);
    if (!x || !y) return (x ? 0 : 1) - (y ? 0 : 1);
    return x.compareDocumentPosition(y) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1;
  });
  const cls = deferred.shift();
  if (!customElements.get(cls.tag)) customElements.define(cls.tag, cls);
  if (deferred.length && !deferTimer) deferTimer = setTimeout(nextTask, 0);
}
let deferTimer = 0;
function nextTask() {
  deferTimer = 0;
  if (deferred.length) defineNext();
}

/** Registers a widget class under its tag (once; loading two copies of a widget file is harmless). */
export function define(cls) {
  if (deferred) {
    if (!deferred.includes(cls)) deferred.push(cls);
    if (!deferTimer) deferTimer = setTimeout(nextTask, 0);
    return cls;
  }
  if (!customElements.get(cls.tag)) customElements.define(cls.tag, cls);
  return cls;
}
