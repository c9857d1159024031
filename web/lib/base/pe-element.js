// The base class of every widget (<pe-heatmap>, <rope-clock>, ...): one
// custom element per file, tag = file name, each registered with define().
//
// What the base class does, so each widget only says what it draws:
// - parameters are attributes, declared once in `static params`; they are
//   parsed and checked here, and a bad value shows a clear message inside the
//   widget instead of throwing into the host page; so does an error update()
//   throws about a value given (one carrying `kind`: the core's, the API's
//   checks', inputError()'s), while any other error, a bug, also goes on to
//   the console;
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
// - update(pe, params, changed) is told which parameters changed since the
//   last update that drew (every one on the first), so a widget keeps what
//   does not depend on them without inventing cache keys (as lit's
//   ReactiveElement passes changedProperties);
// - what a widget holds while on the page (observers, heap buffers,
//   subscriptions, timers) it gives to own(), which releases it when the
//   element leaves the page and starts it again when it comes back;
// - `updateComplete` is a promise that settles once the pending update has
//   drawn (lit's name and meaning), for tests and pages that read a widget;
// - every update is timed (`lastUpdateMs`, and a `pe-update` event) for the
//   benchmark.
//
// The pieces live beside it: dom.js (h, patchSpecs), ../drawing/canvas.js, ../drawing/theme.js
// (the shared stylesheet), params.js (reading a parameter's text),
// controls.js, scheduling.js (the core, slices, idle builds, define).
import { camelCase } from '../../posenc.js';
import { sameColors, themeColors } from '../drawing/colormap.js';
import { h, dataTable, scrollsSideways, tabStopIfScrolls, sameValues, setText } from './dom.js';
import { BASE_CSS, sheet } from '../drawing/theme.js';
import { parseParam, formatParam } from './params.js';
import { buildControls, syncControl } from './controls.js';
import { core, coreReady, nextSlice, idleBuilds, liveWidgets, buildWhenIdle } from './scheduling.js';

// What a widget file imports from here, besides the class
export {
  h,
  dataTable,
  trustedFragment,
  plainText,
  sameValues,
  setAttr,
  setText,
  patchSpecs,
  replaceChildrenIfChanged,
  scrollsSideways,
  tabStopIfScrolls,
} from './dom.js';
export { offPageCanvas, canvasContext } from '../drawing/canvas.js';
export { css, CSS_PROPERTIES, CODE_CSS, STICKY_TOP, sheet } from '../drawing/theme.js';
export { inputError } from '../../core/check.js';
export { bindEntryBox } from './controls.js';
export { configureCore, core, define, deferDefinitions, defineDeferredNow } from './scheduling.js';

// what a drawing says before the widget's first update has drawn it
export const NOT_DRAWN_LABEL = 'Not drawn yet: it is drawn when it comes into view.';
// what the error box says when update() failed on a bug, not on a value given
const BUG_MESSAGE =
  'This widget failed (a bug in it, not anything you entered); the details are in the browser console.';

export class PeElement extends HTMLElement {
  /** { 'attr-name': { type: 'int'|'float'|'bool'|'enum'|'vector'|'string', default, min, max, step, even, options, length, label } } */
  static params = {};
  /** This widget's own CSS text (css`...`). */
  static styles = '';
  /** One line about the widget (custom-elements.json, the tag table in docs/embedding.md). */
  static description = '';
  /** { 'event-name': 'what it means and its detail' }: events this widget fires besides the base class's. */
  static events = {};
  /** Custom properties of ../drawing/theme.js's LAYOUT_PROPERTIES this widget reads, besides every widget's CSS_PROPERTIES. */
  static cssProperties = [];
  /** { 'part-name': 'what it is' }: elements a host page may style with ::part(). */
  static cssParts = {};
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
    this._drawnParams = null; // the parameter values of the last update that drew
    this._owned = []; // own()'s entries: { start, release }
    this._running = 0; // _run()s between their start and their end
    this._waiting = false; // the last update returned false: it schedules itself again
    this._completion = null; // { promise, resolve } of updateComplete while an update is pending
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
    this.statusBox = h(
      'p',
      { class: 'status', 'aria-live': 'polite' },
      this.constructor.needsCore ? 'Loading the compute core…' : '',
    );
    this.build(this.shadowRoot);
    this.shadowRoot.append(this.statusBox, this.errorBox);
    // A drawing (role="img") gets its label when update() draws it, and a
    // widget is built long before it is drawn (idle builds, off screen):
    // until then assistive technology would meet a picture with no name.
    for (const img of this.shadowRoot.querySelectorAll('[role="img"]:not([aria-label]):not([aria-labelledby])'))
      img.setAttribute('aria-label', NOT_DRAWN_LABEL);
    // A box may start scrolling sideways without an update: the widget's
    // width changes (a window resized, a phone turned), or a <details> in it
    // opens (toggle does not bubble: caught on the way down). Measured again then.
    this.shadowRoot.addEventListener('toggle', (e) => e.target.open && this._markScrollables(), true);
    if (typeof ResizeObserver === 'function') this.own(observeSize(this, () => this._markScrollables()));
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
    for (const entry of this._owned) if (!entry.release) entry.release = entry.start();
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
    for (const entry of this._owned) {
      release(entry.release);
      entry.release = null;
    }
    // a frame cancelled above will not run: nothing is pending until the element is back
    this._settle();
  }

  /**
   * Ties something to the element's time on the page, as lit's reactive
   * controllers do (hostConnected, hostDisconnected):
   * - a function `start` runs now if the element is connected, and each time
   *   it is connected again; what it returns (a function, or an object with
   *   disconnect() or free(), as a ResizeObserver or a subscription's
   *   handle) is released when the element leaves the page;
   * - an object with free() (a HeapBuffer, which allocates again on its next
   *   take()) is freed each time the element leaves the page.
   * A widget moved in the page (disconnected, then connected) keeps working;
   * one removed holds nothing: no observer keeps it alive, no heap stays taken.
   * Returns what it was given.
   */
  own(thing) {
    if (typeof thing === 'function') {
      const entry = { start: thing, release: null };
      this._owned.push(entry);
      if (this.isConnected) entry.release = thing();
    } else if (typeof thing?.free === 'function') this._owned.push({ start: () => thing, release: thing });
    else
      throw new TypeError(
        'own(): give a function that starts something and returns its release, or an object with free()',
      );
    return thing;
  }

  attributeChangedCallback(name, oldValue, newValue) {
    if (oldValue === newValue) return;
    syncControl(this, name);
    this.schedule();
    // pages that keep widget state in their URL (the lesson, embed.html) listen
    this.dispatchEvent(
      new CustomEvent('pe-state', { bubbles: true, composed: true, detail: { name, value: newValue } }),
    );
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

  /**
   * A promise that resolves (to true) once no update is pending: the update
   * asked for has run (drawn, or shown its error), and so has any it asked
   * for meanwhile. Like lit's, it is a new promise after each settling; read
   * it after the change you wait for. A widget works only on screen: an
   * element off screen, or not yet on the page, settles when it has been
   * shown and drawn; one taken off the page settles then (nothing will draw).
   */
  get updateComplete() {
    if (!this._pending()) return Promise.resolve(true);
    if (!this._completion) {
      let resolve;
      const promise = new Promise((r) => (resolve = r));
      this._completion = { promise, resolve };
    }
    return this._completion.promise;
  }

  _pending() {
    return this._dirty || this._frame !== 0 || this._running > 0 || this._waiting;
  }

  /**
   * What an update that returned false was waiting for (a module, the
   * lesson's data) failed to arrive: `message` goes into the error box, and
   * the update is over (updateComplete settles; a later change updates again).
   */
  waitFailed(message) {
    if (this.errorBox) setText(this.errorBox, message);
    this.toggleAttribute('data-invalid', true);
    this._waiting = false;
    this._settle();
  }

  _settle() {
    if (!this._completion || (this.isConnected && this._pending())) return;
    this._completion.resolve(true);
    this._completion = null;
  }

  async _run() {
    this._running++;
    try {
      await this._runOnce();
    } finally {
      this._running--;
      this._settle();
    }
  }

  async _runOnce() {
    if (!this._dirty) return;
    this._dirty = false;
    this._waiting = false;
    this._ensureBuilt();
    let pe = null;
    try {
      // widgets that can draw without the core (a quiz, the score) do not wait for it
      const waited = this.constructor.needsCore && !coreReady();
      if (this.constructor.needsCore) pe = await core();
      if (waited) await nextSlice();
    } catch (error) {
      setText(this.statusBox, '');
      setText(this.errorBox, `The compute core could not be loaded: ${error.message}`);
      return;
    }
    // read after the waits: an attribute may have changed meanwhile
    const { values, errors } = this.readParams();
    setText(this.statusBox, '');
    if (errors.length) {
      setText(this.errorBox, errors.join('. '));
      this.toggleAttribute('data-invalid', true);
      return;
    }
    const started = performance.now();
    const changed = changedParams(this._drawnParams, values, this.constructor.params);
    let bug = null;
    try {
      // update() returns false while it waits for something (a module it
      // imports); it schedules itself again when that arrives
      if (this.update(pe, values, changed) === false) {
        this._waiting = true;
        return;
      }
      // after an error the next update is told everything that changed since the last drawing
      this._drawnParams = values;
      this._markScrollables();
      setText(this.errorBox, '');
      this.toggleAttribute('data-invalid', false);
    } catch (error) {
      // An error that carries `kind` (the core's, the API's checks',
      // inputError's) is about a value given: its message is for the
      // learner. Anything else (a TypeError in widget code) is a bug: the
      // box says so without details, and the error goes on, to the console
      // and window.onerror, where the browser tests see it.
      if (typeof error?.kind === 'string') setText(this.errorBox, error.message);
      else {
        bug = error;
        setText(this.errorBox, BUG_MESSAGE);
      }
      this.toggleAttribute('data-invalid', true);
    }
    this.lastUpdateMs = performance.now() - started;
    this.toggleAttribute('data-ready', true);
    this.dispatchEvent(new CustomEvent('pe-update', { detail: { ms: this.lastUpdateMs } }));
    if (bug) throw bug;
  }

  // A box that scrolls sideways (a wide table or printout on a phone) must
  // be reachable from the keyboard: exactly those get a tab stop. Measured in
  // the next frame, before anything is written, when the layout this update
  // caused is already done: measuring at once made every update lay the
  // page out twice. The theme colours are read again there too (theme()).
  // Also after a resize of the widget or an opened <details> (_ensureBuilt).
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

  /**
   * Recomputes and redraws from the core and the parsed parameters
   * (override); returns false if not ready yet. `changed` is a Map from each
   * parameter (camelCase, as in params) that differs from the last update
   * that drew to its value then: every parameter, to undefined, on the
   * first update, and after an error everything since the last drawing. An
   * update for another reason (the theme, the width, updateNow()) may have
   * none changed.
   */
  update(_pe, _params, _changed) {}

  /** Sets a parameter as its attribute (what a control inside the widget does). */
  setParam(name, value) {
    const spec = this.constructor.params[name];
    this.setAttribute(name, formatParam(spec, value));
  }

  /** The widget's title and, under it, the paragraph that says what to try: [h3, p.hint], to spread into the root. */
  heading(title, ...hint) {
    return [h('h3', {}, title), h('p', { class: 'hint' }, ...hint)];
  }

  /**
   * A row of labelled controls bound to attributes (controls.js,
   * buildControls): moving one sets the attribute, and an attribute set from
   * outside moves the control.
   */
  controls(names, extra = {}) {
    return buildControls(this, names, extra);
  }

  /**
   * el.clientWidth without forcing a layout: kept from a ResizeObserver,
   * which reports when the layout is already done. Only the first call for an
   * element reads it directly. A slider step therefore never makes the
   * browser lay the page out just to tell a widget its own width.
   */
  widthOf(el = this) {
    this._widths ??= new Map();
    this._watched ??= new Set();
    // read directly the first time, and again while nothing watches it (off the page)
    if (!this._widths.has(el)) this._widths.set(el, el.clientWidth);
    if (!this._watched.has(el)) {
      this._watched.add(el);
      this.own(() => {
        const observer = new ResizeObserver((entries) => {
          for (const e of entries) this._widths.set(e.target, e.target.clientWidth);
        });
        observer.observe(el);
        return () => {
          observer.disconnect();
          this._widths.delete(el);
        };
      });
    }
    // what the drawing is made for: redrawOnResize compares with it
    const width = this._widths.get(el);
    (this._drawnWidths ??= new Map()).set(el, width);
    return width;
  }

  /**
   * For a drawing that follows el's width: schedules an update when el's
   * width is no longer the one the last update read with widthOf(el). The
   * observer is owned (own()): it stops when the element leaves the page.
   */
  redrawOnResize(el) {
    this.own(
      observeSize(el, () => {
        const drawn = this._drawnWidths?.get(el);
        if (drawn !== undefined && el.clientWidth !== drawn) this.schedule();
      }),
    );
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
   * costs nothing; for widgets whose tables nobody reads closed. fill: called
   * when the reader opens it, for a widget that fills it (with setTable) only
   * while it is open.
   */
  tableAlternative(summary = 'Show the numbers as a table', { lazy = false, fill = null } = {}) {
    const details = h('details', { class: 'alt' }, h('summary', {}, summary), h('div', { class: 'table-wrap' }));
    if (fill) details.addEventListener('toggle', () => details.open && fill());
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
    const table = dataTable(caption, headers, rows);
    details.querySelector('.table-wrap').replaceChildren(table);
  }
}

/** own()'s start for a ResizeObserver of `el` that calls onResize(entries). */
export function observeSize(el, onResize) {
  return () => {
    const observer = new ResizeObserver(onResize);
    observer.observe(el);
    return observer;
  };
}

// Releases what an own() start returned.
function release(what) {
  if (typeof what === 'function') what();
  else if (typeof what?.disconnect === 'function') what.disconnect();
  else if (typeof what?.free === 'function') what.free();
}

// The parameters whose values differ from `before`'s, each to its old value
// (all of them, to undefined, when there is no before): by value, so a
// vector written again with the same numbers, or "64" rewritten as "064",
// is not a change.
function changedParams(before, values, specs) {
  const changed = new Map();
  for (const name of Object.keys(specs)) {
    const key = camelCase(name);
    const old = before?.[key];
    const now = values[key];
    const same = before && (Array.isArray(now) ? sameValues(old, now) : Object.is(old, now));
    if (!same) changed.set(key, old);
  }
  return changed;
}
