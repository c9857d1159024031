// The lesson page's own script: registers the widgets (the same elements
// course authors embed), marks the table of contents' current section, and
// says which build of the core is running. The text is already on screen
// when this runs; widgets fill in when the core arrives.
import './widgets.js';
import { core, tabStopIfScrolls } from './lib/pe-element.js';
import { bindUrlState } from './lib/url-state.js';

// Table of contents: mark the section being read (aria-current), so the
// sidebar shows where the reader is.
const links = new Map([...document.querySelectorAll('.toc a[href^="#"]')].map((a) => [a.getAttribute('href').slice(1), a]));
const sections = [...document.querySelectorAll('main section[id]')];
const currentLabel = document.querySelector('.toc-current');
if ('IntersectionObserver' in window && sections.length) {
  const visible = new Set();
  const observer = new IntersectionObserver(
    (entries) => {
      for (const e of entries) (e.isIntersecting ? visible.add(e.target.id) : visible.delete(e.target.id));
      const current = sections.find((s) => visible.has(s.id));
      for (const a of links.values()) a.removeAttribute('aria-current');
      if (current) links.get(current.id)?.setAttribute('aria-current', 'true');
      // on a phone the folded contents bar names the section being read
      if (currentLabel) currentLabel.textContent = current ? links.get(current.id)?.textContent ?? '' : '';
    },
    { rootMargin: '-20% 0px -70% 0px' },
  );
  for (const s of sections) observer.observe(s);
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

core()
  .then((pe) => {
    const info = document.getElementById('build-info');
    if (info) info.textContent = `Running now: the ${pe.simd ? 'WebAssembly SIMD' : 'scalar WebAssembly'} build.`;
  })
  .catch((error) => {
    const info = document.getElementById('build-info');
    if (info) info.textContent = `The compute core could not be loaded (${error.message}); the text still reads, the widgets stay empty.`;
  });

// A formula or table wider than the column scrolls sideways; keyboard users
// must be able to reach it, so exactly those become focusable regions.
let wideCount = 0;
function markWideFormulas() {
  for (const el of document.querySelectorAll('.math-display, main :not(.katex-display) > .katex, main section table')) {
    const had = el.hasAttribute('tabindex');
    const wide = tabStopIfScrolls(el);
    // lesson.css draws the scroll cue of an inline formula only on these
    el.classList.toggle('scrolls', wide);
    // a display formula also becomes a labelled region (labels must differ);
    // tables and inline math keep their own roles
    if (el.localName !== 'div' || wide === had) continue;
    if (wide) {
      wideCount += 1;
      el.setAttribute('role', 'region');
      el.setAttribute('aria-label', `Formula ${wideCount} (scrolls sideways)`);
    } else {
      el.removeAttribute('role');
      el.removeAttribute('aria-label');
    }
  }
}
markWideFormulas();
let resizeTimer = 0;
window.addEventListener('resize', () => {
  clearTimeout(resizeTimer);
  resizeTimer = setTimeout(markWideFormulas, 150);
});
// what a closed aside holds has no width until it opens
for (const aside of document.querySelectorAll('details.aside')) aside.addEventListener('toggle', () => aside.open && markWideFormulas());

// Widget parameters in the URL: `?pe-heatmap-1.d-model=128` opens the page
// with the first heatmap at d_model 128, and moving a control updates the
// address, so a view can be shared as a link. Quizzes keep their progress in
// localStorage instead.
const shareable = [...document.querySelectorAll('main *')].filter((el) => typeof el.stateParams === 'function' && el.localName !== 'pe-quiz');
const counts = new Map();
bindUrlState(
  shareable.map((el) => {
    const n = (counts.get(el.localName) ?? 0) + 1;
    counts.set(el.localName, n);
    return { el, prefix: `${el.localName}-${n}` };
  }),
);
