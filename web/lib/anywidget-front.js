export function render({ model, el }) {
  let node = null;
  let disposed = false;
  const attributes = () => {
    const a = model.get('attributes');
    return a && typeof a === 'object' ? a : {};
  };
  const apply = () => {
    if (disposed) return;
    const tag = String(model.get('tag') ?? '');
    if (!/^[a-z][a-z0-9]*-[a-z0-9-]+$/.test(tag) || !customElements.get(tag)) {
      node?.remove();
      node = document.createElement('p');
      node.textContent = 'posenc widget: unknown tag ' + JSON.stringify(tag);
      el.append(node);
      return;
    }
    if (!node || node.localName !== tag) {
      node?.remove();
      node = document.createElement(tag);
      el.append(node);
    }
    const wanted = attributes();
    for (const name of [...node.getAttributeNames()]) if (!(name in wanted)) node.removeAttribute(name);
    for (const [name, value] of Object.entries(wanted)) {
      if (value === false || value === null || value === undefined) node.removeAttribute(name);
      else node.setAttribute(name, value === true ? '' : Array.isArray(value) ? value.join(',') : String(value));
    }
  };
  apply();
  model.on('change:tag', apply);
  model.on('change:attributes', apply);
  return () => {
    disposed = true;
    for (const name of ['change:tag', 'change:attributes']) {
      // MyST's model (@myst-theme/anywidget 1.4) throws from off(); the flag above stops apply instead
      try {
        model.off(name, apply);
      } catch {}
    }
    node?.remove();
    node = null;
  };
}
export default { render };
