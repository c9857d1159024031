// The DOM toolkit of the widgets: h() builds an element (strings become
// text, never HTML) and dataTable() a table of numbers, patchSpecs() makes an
// element's children match a description while keeping the nodes already
// there (the one way a widget redraws its markup), replaceChildrenIfChanged() the same for
// children kept as nodes, setAttr/setText write only what changed, and the
// helpers for boxes that scroll sideways. docs/writing-a-widget.md says why
// each of these matters on a slow phone.

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
 * or web/lib/questions/quiz-text.js's output (which escapes every character it does not
 * build itself). Never the learner's text, which only becomes text nodes.
 */
export function trustedFragment(html) {
  const t = document.createElement('template');
  t.innerHTML = html;
  return t.content;
}

/**
 * A table: a caption, a header row, and rows whose first cell is the row's
 * header; rowAttrs(j) gives row j's attributes.
 */
export function dataTable(caption, headers, rows, rowAttrs = () => ({})) {
  return h(
    'table',
    {},
    h('caption', {}, caption),
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        headers.map((x) => h('th', { scope: 'col' }, x)),
      ),
    ),
    h(
      'tbody',
      {},
      rows.map((r, j) =>
        h(
          'tr',
          rowAttrs(j),
          r.map((x, i) => (i === 0 ? h('th', { scope: 'row' }, x) : h('td', {}, x))),
        ),
      ),
    ),
  );
}

/**
 * dataTable's table as a spec for patchSpecs, for a table redrawn on every
 * update: a cell is text or a list of child specs.
 */
export function tableSpec(caption, headers, rows, rowAttrs = () => ({})) {
  return [
    'table',
    {},
    [
      ['caption', {}, caption],
      ['thead', {}, [['tr', {}, headers.map((x) => ['th', { scope: 'col' }, x])]]],
      [
        'tbody',
        {},
        rows.map((r, j) => [
          'tr',
          rowAttrs(j),
          r.map((x, i) => (i === 0 ? ['th', { scope: 'row' }, x] : ['td', {}, x])),
        ]),
      ],
    ],
  ];
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
  // parent.childNodes read each time, not kept: it is live in browsers (the
  // same object, cheap to read), a snapshot in some DOMs for Node (linkedom)
  let i = 0;
  for (const spec of specs) {
    if (spec === null || spec === undefined || spec === false) continue;
    const node = parent.childNodes[i++];
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
      for (const k of node.getAttributeNames())
        if (attrs[k] === undefined || attrs[k] === null || attrs[k] === false) node.removeAttribute(k);
    }
    if (Array.isArray(inner)) patchSpecs(node, inner);
    else if (inner === undefined || inner === null) {
      if (node.firstChild) node.replaceChildren();
    } else setText(node, inner);
  }
  while (parent.childNodes.length > i) parent.lastChild.remove();
}

/**
 * Makes `parent`'s children exactly `nodes` (null, undefined and false left
 * out), in order, touching the parent only when they differ: for children
 * kept as nodes (one card per word, one figure per map) rather than
 * described as specs. An identical replaceChildren() still removes and
 * inserts every node, and the browser styles and lays them all out again.
 */
export function replaceChildrenIfChanged(parent, nodes) {
  const list = nodes.filter((n) => n !== null && n !== undefined && n !== false);
  const kids = parent.childNodes;
  if (kids.length !== list.length || list.some((n, k) => kids[k] !== n)) parent.replaceChildren(...list);
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
  else if (!wide && el.getAttribute('tabindex') === '0' && !el.hasAttribute('data-keep-tabindex'))
    el.removeAttribute('tabindex');
  return wide;
}
