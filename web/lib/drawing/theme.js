// The look every widget shares: the custom properties a host page may set,
// the base stylesheet of every shadow root, and constructable stylesheets
// made once per text (no <style>, no style="": strict CSP).

/** Tagged template for widget CSS (plain text; the tag only marks it for editors). */
export const css = (strings, ...values) => String.raw({ raw: strings }, ...values);

/**
 * The custom properties a host page may set to theme every widget, on the
 * page (`:root { --pe-accent: teal }`) or on one element
 * (`rope-clock { --pe-accent: teal }`); defaults are the light theme's, dark
 * ones apply under prefers-color-scheme: dark (THEME_DEFAULTS).
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
  '--pe-code-keyword': 'Highlighted code: keywords and built-ins.',
  '--pe-code-string': 'Highlighted code: strings.',
  '--pe-code-number': 'Highlighted code: numbers.',
  '--pe-code-comment': 'Highlighted code: comments.',
  '--pe-code-title': 'Highlighted code: names of functions and classes.',
  '--pe-code-literal': 'Highlighted code: True, False, None.',
};

/**
 * Custom properties only some widgets read (each lists its own in `static
 * cssProperties`; custom-elements.json names them on those tags).
 */
export const LAYOUT_PROPERTIES = {
  '--pe-sticky-top': {
    default: '0px',
    description:
      "Height of a bar the host page keeps at the top of the screen: the widget's sticky controls stop that far below the top.",
  },
};
/** What a widget's CSS writes for the sticky bar's height, its default included. */
export const STICKY_TOP = `var(--pe-sticky-top, ${LAYOUT_PROPERTIES['--pe-sticky-top'].default})`;

/** Each property's default, light and dark: the one place they are written. */
export const THEME_DEFAULTS = {
  light: {
    '--pe-fg': '#1d232b',
    '--pe-bg': '#ffffff',
    '--pe-muted': '#5b6573',
    '--pe-border': '#d5dae1',
    '--pe-panel': '#f5f7fa',
    '--pe-accent': '#245fc9',
    '--pe-pos': '#c2372c',
    '--pe-neg': '#245fc9',
    '--pe-good': '#1e7a3c',
    '--pe-bad': '#b3261e',
    '--pe-zero': '#ffffff',
    '--pe-mono': 'ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace',
    '--pe-code-keyword': '#a626a4',
    '--pe-code-string': '#2e7d32',
    '--pe-code-number': '#875b00',
    '--pe-code-comment': '#57606a',
    '--pe-code-title': '#2f5fcf',
    '--pe-code-literal': '#006d9c',
  },
  dark: {
    '--pe-fg': '#e3e7ec',
    '--pe-bg': '#161a20',
    '--pe-muted': '#9aa4b1',
    '--pe-border': '#353c47',
    '--pe-panel': '#1f252d',
    '--pe-accent': '#7aa7ff',
    '--pe-pos': '#ff8a7a',
    '--pe-neg': '#7aa7ff',
    '--pe-good': '#6fd08c',
    '--pe-bad': '#ff8a80',
    '--pe-zero': '#161a20',
    '--pe-code-keyword': '#d19bf0',
    '--pe-code-string': '#98c379',
    '--pe-code-number': '#e5c07b',
    '--pe-code-comment': '#8b949e',
    '--pe-code-title': '#79b8ff',
    '--pe-code-literal': '#56b6c2',
  },
};

// A widget's :host must not declare the public properties: a declaration on
// the element beats what it inherits, so a page's `:root { --pe-accent: teal }`
// did nothing. Each default is declared under its own name (--pe-default-accent)
// and every var(--pe-accent) of the widgets' styles reads
// var(--pe-accent, var(--pe-default-accent)) (themed(), in sheet()): the
// page's value, inherited or set on the element, else the scheme's default.
export const defaultName = (name) => name.replace(/^--pe-/, '--pe-default-');
const declare = (values) =>
  Object.entries(values)
    .map(([name, value]) => `${defaultName(name)}: ${value};`)
    .join(' ');
const THEMED = new RegExp(`var\\((${Object.keys(THEME_DEFAULTS.light).join('|')})\\)`, 'g');
/** CSS text with each var(--pe-x) of a themed property given its default as the fallback. */
export const themed = (cssText) => cssText.replace(THEMED, (_, name) => `var(${name}, var(${defaultName(name)}))`);

// Shared look of every widget. Colours are custom properties so a host page
// may theme the widgets (`:root { --pe-accent: teal }`, or one:
// `pe-heatmap { --pe-accent: teal }`) without reaching in.
export const BASE_CSS = css`
  :host {
    ${declare(THEME_DEFAULTS.light)}
    display: block; box-sizing: border-box; color: var(--pe-fg); background: var(--pe-bg);
    font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif;
    border: 1px solid var(--pe-border); border-radius: 10px; padding: 14px; margin: 1.2em 0;
    max-width: 100%; overflow-wrap: anywhere;
  }
  @media (prefers-color-scheme: dark) {
    :host { ${declare(THEME_DEFAULTS.dark)} }
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
  /* On a touch screen every text field is 16 px: iOS Safari zooms the page
     into a field whose text is smaller when it takes the focus (issue 46:
     12-15 px). :host raises the rule above a widget's own field styles. */
  @media (pointer: coarse) {
    :host input:not([type=range], [type=checkbox], [type=radio]), :host select, :host textarea { font-size: 16px; }
  }
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
  /* a colour scale's key (color-bar.js): low end, strip, high end */
  .color-bar { display: inline-flex; align-items: center; gap: 6px; white-space: nowrap; }
  .color-bar canvas { display: inline-block; width: 120px; height: 12px; border: 1px solid var(--pe-border); border-radius: 3px; }
  details.alt { margin-top: 8px; font-size: .92em; }
  details.alt summary { cursor: pointer; color: var(--pe-muted); }
  .table-wrap { overflow-x: auto; max-width: 100%; }
  /* a table that scrolls sideways keeps its caption the width of the box, so
     the caption wraps there instead of being cut at the screen's edge (the
     box is a query container: its width comes from its parent, never from
     the table) */
  .table-wrap { container-type: inline-size; }
  .table-wrap > table > caption { max-inline-size: 100cqi; box-sizing: border-box; position: sticky; left: 0; }
  /* A box that scrolls sideways shows a shadow at each edge with more behind
     it (no hover, so touch screens show it too): shadows fixed at the edges,
     covers in the box's colour (--pe-scroll-bg) that move with the content
     and hide a shadow at the content's end. Every pre and .table-wrap has
     it (a printout or table that fits today may not at another setting);
     anything else that scrolls sideways opts in with class scroll-cue. */
  pre, .scroll-cue, .table-wrap {
    --pe-scroll-shadow: color-mix(in srgb, var(--pe-fg) 55%, transparent);
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
 * highlight.js's classes in the theme's code colours (--pe-code-*): the one
 * palette of highlighted code, in a widget (pe-live-output's styles) and on
 * the lesson page (lesson.css's block from pageCodeCss()).
 */
export const CODE_CSS = css`
  .hljs-keyword, .hljs-built_in { color: var(--pe-code-keyword); }
  .hljs-string { color: var(--pe-code-string); }
  .hljs-number { color: var(--pe-code-number); }
  .hljs-comment { color: var(--pe-code-comment); font-style: italic; }
  .hljs-title, .hljs-title.function_ { color: var(--pe-code-title); }
  .hljs-literal { color: var(--pe-code-literal); }
`;

const CODE_NAMES = Object.keys(THEME_DEFAULTS.light).filter((name) => name.startsWith('--pe-code-'));
const codeDefaults = (values) => declare(Object.fromEntries(CODE_NAMES.map((name) => [name, values[name]])));
/**
 * CODE_CSS for a page outside any widget (the lesson's stylesheet): the code
 * colours' defaults on :root, light and dark, and the rules reading them, so
 * a page's own --pe-code-* wins there as in a widget.
 */
export function pageCodeCss() {
  return [
    `:root { ${codeDefaults(THEME_DEFAULTS.light)} }`,
    `@media (prefers-color-scheme: dark) {\n  :root { ${codeDefaults(THEME_DEFAULTS.dark)} }\n}`,
    ...themed(CODE_CSS)
      .trim()
      .split('\n')
      .map((line) => line.trim()),
  ].join('\n');
}

const sheetCache = new Map();
/** A constructable stylesheet for `cssText` (themed), made once per text. */
export function sheet(cssText) {
  let s = sheetCache.get(cssText);
  if (!s) {
    s = new CSSStyleSheet();
    s.replaceSync(themed(cssText));
    sheetCache.set(cssText, s);
  }
  return s;
}
