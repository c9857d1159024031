// When widgets work: the compute core loaded once and shared; a page's
// first updates in slices of their own; widgets far from the screen built
// one per idle moment; a change of the reader's colour scheme passed to every
// widget on the page; and define() deferred, one tag per task, while a page
// starts. (The element's own frame scheduling, one update per animation
// frame, is in pe-element.js.)
import { loadPosenc } from '../../posenc.js';

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

/** Whether the core has arrived (an update that did not wait for it runs in its frame). */
export const coreReady = () => coreLoaded;

// While a page starts, the widgets that waited for the core each take a task
// of their own for that first update, so the ten that become ready together
// when the core arrives do not run as one long task; an update that did not
// wait (a slider, a widget scrolled to later) runs in its frame.
let sliceTail = Promise.resolve();
export function nextSlice() {
  sliceTail = sliceTail.then(() => new Promise((resolve) => setTimeout(resolve, 0)));
  return sliceTail;
}

// Widgets far from the screen build their DOM one per idle moment.
export const idleBuilds = new Set();

// Widgets on the page, told when the reader's colour scheme changes (their
// cached theme() colours are read again in their next update).
export const liveWidgets = new Set();
globalThis.matchMedia?.('(prefers-color-scheme: dark)').addEventListener?.('change', () => {
  for (const w of liveWidgets) {
    w._theme = null;
    w.schedule();
  }
});
let idleScheduled = false;
const whenIdle = globalThis.requestIdleCallback ?? ((fn) => setTimeout(() => fn({ timeRemaining: () => 8 }), 50));
export function buildWhenIdle(el) {
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
