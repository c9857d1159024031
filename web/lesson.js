// The lesson page's own script: registers the widgets (the same elements
// course authors embed), marks the table of contents' current section, and
// says which build of the core is running. The text is already on screen
// when this runs; widgets fill in when the core arrives.
import { deferred } from './lib/base/define-later.js';
import * as lessonData from './gen/lesson-data.js';
import { registerLesson } from './lib/lesson/lesson-registry.js';
import './widgets.js';
import { core, defineDeferredNow, scrollsSideways, tabStopIfScrolls } from './lib/base/pe-element.js';
import { bindUrlState } from './lib/base/url-state.js';
import { configureFromLaunch, STATUS_EVENT } from './lib/reporting/xapi.js';
import { sectionChoice } from './lib/lesson/sections.js';

// This page shows the lesson: its questions, sections and samples
// (web/lib/lesson/lesson-registry.js), before anything reads them.
registerLesson(lessonData);

// A choice of sections (`?sections=rope,long-context`, lib/lesson/sections.js; an
// LMS launches one SCO per section this way): the other sections and their
// contents entries leave the page before any widget is defined (definitions
// wait for later tasks, lib/base/define-later.js), so nothing of theirs computes
// and the score, which counts the questions on the page, counts only these.
// A bad choice is said above the lesson, which then shows whole.
function chooseSections() {
  const { ids, error } = sectionChoice();
  if (error) {
    const note = document.createElement('p');
    note.id = 'sections-error';
    note.setAttribute('role', 'alert');
    note.textContent = `${error} The whole lesson is shown.`;
    document.getElementById('main')?.prepend(note);
    return;
  }
  if (!ids) return;
  const keep = new Set([...ids, 'references']);
  for (const s of document.querySelectorAll('main > section[id]')) if (!keep.has(s.id)) s.remove();
  for (const li of document.querySelectorAll('.toc > details > ol > li')) {
    if (!keep.has(li.querySelector('a')?.getAttribute('href')?.slice(1))) li.remove();
  }
}
chooseSections();

// Whether the browser keeps the reader's place as blocks above change size
// (scroll anchoring: Chromium, Firefox; not WebKit). Where it does, far
// blocks of the lesson skip layout (lesson.css).
const anchored = CSS.supports('overflow-anchor', 'auto');

// Table of contents: mark the section being read (aria-current), so the
// sidebar shows where the reader is.
const links = new Map(
  [...document.querySelectorAll('.toc a[href^="#"]')].map((a) => [a.getAttribute('href').slice(1), a]),
);
const sections = [...document.querySelectorAll('main section[id]')];
const currentLabel = document.querySelector('.toc-current');
if ('IntersectionObserver' in window && sections.length) {
  const visible = new Set();
  const observer = new IntersectionObserver(
    (entries) => {
      for (const e of entries) e.isIntersecting ? visible.add(e.target.id) : visible.delete(e.target.id);
      const current = sections.find((s) => visible.has(s.id));
      for (const a of links.values()) a.removeAttribute('aria-current');
      if (current) links.get(current.id)?.setAttribute('aria-current', 'true');
      // on a phone the folded contents bar names the section being read
      if (currentLabel) currentLabel.textContent = current ? (links.get(current.id)?.textContent ?? '') : '';
    },
    { rootMargin: '-20% 0px -70% 0px' },
  );
  for (const s of sections) observer.observe(s);
}

// Keeping the reader's place. Widgets build and fill in after the text has
// painted (near the screen, or in idle moments), so blocks above the reader
// grow. Chromium and Firefox keep what is on screen in place (scroll
// anchoring); WebKit (Safari) does not, and a link to a late section landed
// thousands of pixels off, in an earlier one. And a contents link's smooth
// scroll aims at where its target was when clicked: the widgets it passes
// grow, and Firefox stopped sections short. So, after layout and before
// paint: once a link or the address has named a target, and until the
// reader scrolls by hand, growth above the target brings it back into view;
// without scroll anchoring, growth above the screen is scrolled past.
if ('ResizeObserver' in window) {
  let target = null;
  const heights = new WeakMap();
  const anchor = new ResizeObserver((entries) => {
    let shift = 0;
    let aboveTarget = false;
    for (const e of entries) {
      const height = e.borderBoxSize?.[0]?.blockSize ?? e.target.getBoundingClientRect().height;
      const old = heights.get(e.target);
      heights.set(e.target, height);
      if (old === undefined || Math.abs(height - old) < 0.5) continue;
      if (target?.isConnected) {
        if (e.target.contains(target) || e.target.compareDocumentPosition(target) & Node.DOCUMENT_POSITION_FOLLOWING)
          aboveTarget = true;
      } else if (!anchored && e.target.getBoundingClientRect().top - shift + old <= 0) shift += height - old; // wholly above the screen before
    }
    if (aboveTarget) target.scrollIntoView({ behavior: 'instant' });
    else if (shift) window.scrollBy({ top: shift, behavior: 'instant' });
  });
  let observing = false;
  const observe = () => {
    if (observing) return;
    observing = true;
    // entries arrive in this (document) order
    for (const el of document.querySelectorAll('.page-header > *, main > section > *, main > :not(section)'))
      anchor.observe(el);
  };
  const aimAt = (hash) => {
    target = hash.length > 1 ? document.getElementById(decodeURIComponent(hash.slice(1))) : null;
    if (target) observe();
  };
  aimAt(location.hash);
  if (!anchored) observe();
  window.addEventListener('hashchange', () => aimAt(location.hash));
  document.addEventListener('click', (e) => {
    const a = e.target.closest?.('a[href^="#"]');
    if (a) aimAt(a.hash);
  });
  for (const type of ['wheel', 'touchstart', 'keydown', 'mousedown']) {
    window.addEventListener(type, () => (target = null), { capture: true, passive: true });
  }
}

// On a phone the contents start folded, so the lesson is what shows first.
const tocDetails = document.querySelector('.toc details');
if (tocDetails && window.matchMedia('(max-width: 1099px)').matches) tocDetails.open = false;
for (const a of links.values()) {
  a.addEventListener('click', () => {
    if (window.matchMedia('(max-width: 1099px)').matches) tocDetails.open = false;
  });
}
// There it is a sticky bar whose open list lies over the text: Escape or a
// tap outside it folds it again (the summary stays the way back in).
const isBar = () => tocDetails && window.matchMedia('(max-width: 1099px)').matches;
document.addEventListener('keydown', (e) => {
  if (e.key === 'Escape' && isBar() && tocDetails.open) {
    tocDetails.open = false;
    tocDetails.querySelector('summary').focus();
  }
});
document.addEventListener('click', (e) => {
  if (isBar() && tocDetails.open && !tocDetails.contains(e.target)) tocDetails.open = false;
});

// xAPI: opened with launch parameters (?endpoint=…&auth=…&actor=…,
// docs/embedding.md, "Sending to an LRS"), the answers go to that LRS as well; the footer says
// when that cannot work (a bad parameter, refused credentials), the lesson
// works on either way.
window.addEventListener(STATUS_EVENT, (e) => {
  const { state, message } = e.detail;
  let line = document.getElementById('xapi-status');
  if (state !== 'config-error' && state !== 'stopped') {
    line?.remove();
    return;
  }
  if (!line) {
    line = document.createElement('p');
    line.id = 'xapi-status';
    line.setAttribute('role', 'status');
    document.querySelector('.page-footer')?.append(line);
  }
  line.textContent = message;
});
configureFromLaunch();

core()
  .then((pe) => {
    const info = document.getElementById('build-info');
    if (info) info.textContent = `Running now: the ${pe.simd ? 'WebAssembly SIMD' : 'scalar WebAssembly'} build.`;
  })
  .catch((error) => {
    const info = document.getElementById('build-info');
    if (info)
      info.textContent = `The compute core could not be loaded (${error.message}); the text still reads, the widgets stay empty.`;
  });

// A formula or table wider than the column scrolls sideways; keyboard users
// must be able to reach it, so exactly those become focusable regions. Each
// is measured when it comes near the screen, when the browser lays it out
// anyway: measuring them all at once made a phone lay out the whole lesson
// in the task that starts the page (over a second of blocking).
const wideCandidates = [
  ...document.querySelectorAll('.math-display, main :not(.katex-display) > .katex, main section table'),
];
// a display formula's label names its place among all display formulas, so
// labels differ and do not depend on which were measured first
const displayIndex = new Map(wideCandidates.filter((el) => el.localName === 'div').map((el, i) => [el, i + 1]));
const measured = new WeakSet();
// <html data-wide-measured>: every box has been measured at the page's
// current layout (set when an idle pass ends, cleared when one is due; the
// browser tests wait for it after resizing the page)
const setMeasured = (done) => document.documentElement.toggleAttribute('data-wide-measured', done);
function markWide(el, scrolls) {
  measured.add(el);
  const had = el.hasAttribute('tabindex');
  const wide = tabStopIfScrolls(el, scrolls);
  // lesson.css draws the scroll cue of an inline formula only on these
  el.classList.toggle('scrolls', wide);
  // a display formula also becomes a labelled region; tables and inline math
  // keep their own roles
  if (el.localName !== 'div' || wide === had) return;
  if (wide) {
    el.setAttribute('role', 'region');
    el.setAttribute('aria-label', `Formula ${displayIndex.get(el)} (scrolls sideways)`);
  } else {
    el.removeAttribute('role');
    el.removeAttribute('aria-label');
  }
}
const nearScreen = new Set();
const wideObserver =
  'IntersectionObserver' in window
    ? new IntersectionObserver(
        (entries) => {
          for (const e of entries) {
            if (e.isIntersecting) {
              nearScreen.add(e.target);
              markWide(e.target);
            } else nearScreen.delete(e.target);
          }
        },
        { rootMargin: '100% 0px' },
      )
    : null;
for (const el of wideCandidates) wideObserver ? wideObserver.observe(el) : markWide(el);
if (!wideObserver) setMeasured(true);
// The ones the reader has not come near yet are measured in idle moments
// once the page has loaded, a few per moment, so that every formula that
// scrolls has its tab stop wherever the reader jumps (or an assistive tool
// looks) without the lesson's start paying for measuring them all.
// (Safari has no requestIdleCallback: a timer stands in, and says it has as
// long as an idle moment can (50 ms); markRemaining stops after 8 ms of work.
// It said 8 before, under markRemaining's 10, and no far formula was ever
// measured there.)
const whenIdle = window.requestIdleCallback
  ? (fn) => window.requestIdleCallback(fn, { timeout: 1000 })
  : (fn) => setTimeout(() => fn({ timeRemaining: () => 50 }), 200);
let nextCandidate = 0;
let idlePass = false;
let loaded = false;
// the block of the lesson (lesson.css) that `el` is in
const blockOf = (el) => el.closest('main > section > *');
function markRemaining(deadline) {
  // the first in a block far away lays that block out (lesson.css); the
  // others in it are cheap now, and later would lay it out again: they go in
  // the same task. Laying out one block of formulas can take tens of ms on a
  // phone, more than the idle moment said it had left: a task stops after
  // 8 ms of work.
  const start = performance.now();
  // a page that is never idle long enough still gets one block a second
  // (the timeout whenIdle gives requestIdleCallback): a tab stop must not wait forever
  let oneBlock = deadline.didTimeout === true;
  while (
    nextCandidate < wideCandidates.length &&
    (oneBlock || deadline.timeRemaining() > 10) &&
    performance.now() - start < 8
  ) {
    oneBlock = false;
    // all of a block's widths are read before any tab stop is written
    const block = blockOf(wideCandidates[nextCandidate]);
    const batch = [];
    do {
      const el = wideCandidates[nextCandidate++];
      // what a closed aside holds has no width (it is measured when the
      // aside opens), but asking lays it out all the same
      if (!measured.has(el) && !el.closest('details:not([open])')) batch.push(el);
    } while (nextCandidate < wideCandidates.length && blockOf(wideCandidates[nextCandidate]) === block);
    const widths = batch.map(scrollsSideways);
    batch.forEach((el, i) => markWide(el, widths[i]));
  }
  if (nextCandidate < wideCandidates.length) whenIdle(markRemaining);
  else {
    idlePass = false;
    setMeasured(true);
  }
}
function startIdlePass() {
  setMeasured(false);
  nextCandidate = 0;
  if (idlePass || !loaded) return;
  idlePass = true;
  whenIdle(markRemaining);
}
// `els` changed width (a resize, an aside opening): measured again, now
// if near the screen, else in an idle moment
function remeasure(els) {
  for (const el of els) {
    if (nearScreen.has(el)) markWide(el);
    else measured.delete(el);
  }
  startIdlePass();
}
if (wideObserver) {
  window.addEventListener(
    'load',
    () =>
      setTimeout(() => {
        loaded = true;
        startIdlePass();
      }, 1000),
    { once: true },
  );
}
function markWideFormulas(els = wideCandidates) {
  if (wideObserver) return remeasure(els);
  for (const el of els) markWide(el);
  setMeasured(true);
}
let resizeTimer = 0;
const remeasureSoon = () => {
  setMeasured(false);
  clearTimeout(resizeTimer);
  resizeTimer = setTimeout(() => markWideFormulas(), 150);
};
window.addEventListener('resize', remeasureSoon);
// the reader's colour scheme changes the page's layout too (the widgets draw
// again, and a table can become wider than its box without any resize)
window.matchMedia('(prefers-color-scheme: dark)').addEventListener?.('change', remeasureSoon);
// what a closed aside holds has no width until it opens
for (const aside of document.querySelectorAll('details.aside')) {
  aside.addEventListener(
    'toggle',
    () => aside.open && markWideFormulas(wideCandidates.filter((el) => aside.contains(el))),
  );
}

// Widget parameters in the URL: `?pe-heatmap-1.d-model=128` opens the page
// with the first heatmap at d_model 128, and moving a control updates the
// address, so a view can be shared as a link. Quizzes and exercises keep
// their progress in localStorage instead.
// The widgets are defined one tag per task (lib/base/define-later.js): bind once
// every tag on the page is. A link with widget state in it is applied at
// once, as the page loads (all tags defined now), so nothing shows the
// default state first.
// (The tags are read while none is defined yet. Only the widgets are then
// visited: asking each of the lesson's ~6,300 elements for
// stateParams took 126 ms of a load task on the phone profile, profiled
// on a busy machine.)
const tagsOnPage = [...new Set([...document.querySelectorAll('main :not(:defined)')].map((el) => el.localName))];
if (deferred && location.search.length > 1) defineDeferredNow();
Promise.all(tagsOnPage.map((t) => customElements.whenDefined(t))).then(() => {
  const widgets = tagsOnPage.filter((t) => !['pe-quiz', 'pe-exercise', 'pe-code-exercise'].includes(t));
  const shareable = widgets.length
    ? [...document.querySelectorAll(widgets.map((t) => `main ${t}`).join(', '))].filter(
        (el) => typeof el.stateParams === 'function',
      )
    : [];
  const counts = new Map();
  bindUrlState(
    shareable.map((el) => {
      const n = (counts.get(el.localName) ?? 0) + 1;
      counts.set(el.localName, n);
      return { el, prefix: `${el.localName}-${n}` };
    }),
  );
});
