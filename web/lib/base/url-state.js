// Widget parameters in the page's URL, so any view can be shared as a link.
//
// Each widget is bound under a prefix: on the lesson page
// `?pe-heatmap-1.d-model=128&rope-clock-1.base=500` (the first <pe-heatmap>
// of the page, ...); on embed.html the one widget takes the parameters
// unprefixed (`?widget=rope-clock&base=500`). Reading: each parameter goes
// to its widget with applyParam(), i.e. as attribute text that the widget
// itself checks: a URL can never put HTML into the page. Writing: when a
// widget's state changes (its `pe-state` event) the URL is rewritten with
// history.replaceState, keeping only what differs from the page's defaults.

const KEY = /^[a-z0-9_-]{1,60}$/;

/**
 * bindings: [{ el, prefix }] (prefix '' for a page with one widget).
 * reserved: URL parameters that are not widget state (kept as they are).
 */
export function bindUrlState(bindings, { reserved = [], writeDelayMs = 250 } = {}) {
  const url = new URL(location.href);
  const byPrefix = new Map(bindings.map((b) => [b.prefix, b]));
  // what each widget shows without URL parameters: the defaults not to repeat
  const baseline = new Map(bindings.map((b) => [b.el, b.el.stateParams()]));
  const ignored = [];
  for (const [key, value] of url.searchParams) {
    if (reserved.includes(key)) continue;
    const dot = key.lastIndexOf('.');
    const prefix = dot < 0 ? '' : key.slice(0, dot);
    const name = dot < 0 ? key : key.slice(dot + 1);
    const b = byPrefix.get(prefix);
    if (!b || !KEY.test(name) || !b.el.applyParam(name, value)) ignored.push(key);
  }

  let timer = 0;
  const write = () => {
    timer = 0;
    const next = new URL(location.href);
    for (const b of bindings) {
      const base = baseline.get(b.el);
      const keyOf = (name) => (b.prefix ? `${b.prefix}.${name}` : name);
      for (const key of [...next.searchParams.keys()]) {
        if (reserved.includes(key)) continue;
        if (b.prefix ? key.startsWith(`${b.prefix}.`) : !key.includes('.')) next.searchParams.delete(key);
      }
      for (const [name, value] of Object.entries(b.el.stateParams())) {
        if (base[name] !== value) next.searchParams.set(keyOf(name), value);
      }
    }
    if (next.href !== location.href) history.replaceState(history.state, '', next);
  };
  for (const b of bindings) {
    b.el.addEventListener('pe-state', () => {
      clearTimeout(timer);
      timer = setTimeout(write, writeDelayMs);
    });
  }
  return { ignored };
}
