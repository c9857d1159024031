// The controls inside a widget: a row of labelled sliders, boxes, menus and
// checkboxes bound to the widget's attributes (buildControls), kept in step
// with attributes set from outside (syncControl), and the typed box that
// never leaves a rejected value standing (bindEntryBox, also pe-live-output's).
import { h } from './dom.js';
import { parseParam, formatParam } from './params.js';

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
export function buildControls(el, names, extra = {}) {
  const row = h('div', { class: 'controls' });
  for (const name of names) {
    const spec = el.constructor.params[name];
    const id = `c-${name}`;
    const label = spec.label ?? name;
    let input;
    let output = null;
    let box = null;
    const note = h('span', { class: 'field-note', id: `note-${name}`, 'aria-live': 'polite' });
    if (spec.type === 'bool') {
      input = h('input', { type: 'checkbox', id });
      input.addEventListener('change', () => el.setAttribute(name, input.checked ? 'true' : 'false'));
      row.append(h('label', { for: id }, input, label));
    } else if (spec.type === 'enum') {
      input = h(
        'select',
        { id },
        spec.options.map((o) => h('option', { value: o }, spec.optionLabels?.[o] ?? o)),
      );
      input.addEventListener('change', () => el.setAttribute(name, input.value));
      row.append(h('label', { for: id }, label, input));
    } else if ((spec.type === 'int' || spec.type === 'float') && spec.control !== 'number' && spec.max !== undefined) {
      const stops = spec.stops;
      input = stops
        ? h('input', { type: 'range', id, min: 0, max: stops.length - 1, step: 1 })
        : h('input', {
            type: 'range',
            id,
            min: spec.min,
            max: spec.max,
            step: spec.step ?? (spec.even ? 2 : spec.type === 'int' ? 1 : 'any'),
          });
      input.addEventListener('input', () =>
        el.setAttribute(name, stops ? String(stops[Number(input.value)]) : input.value),
      );
      if (spec.entry || stops) {
        box = h('input', {
          type: 'number',
          id: `${id}-box`,
          min: spec.min,
          max: spec.max,
          step: spec.even ? 2 : spec.type === 'int' ? 1 : 'any',
          'aria-label': `${label}, exact value`,
          'aria-describedby': note.id,
        });
        bindBox(el, name, spec, box, note, true);
        row.append(h('span', { class: 'pair' }, h('label', { for: id }, label, input), box));
      } else {
        output = h('output', { for: id });
        row.append(h('label', { for: id }, label, input, output));
      }
    } else {
      input = h('input', {
        type: spec.type === 'int' || spec.type === 'float' ? 'number' : 'text',
        id,
        min: spec.min,
        max: spec.max,
        step: spec.step ?? 'any',
        spellcheck: 'false',
        'aria-describedby': note.id,
      });
      if (spec.type === 'string' || spec.type === 'vector') input.setAttribute('size', String(spec.size ?? 18));
      bindBox(el, name, spec, input, note, !!spec.live);
      row.append(h('label', { for: id }, label, input));
    }
    row.append(note);
    if (extra[name]) row.querySelector(`[for="${id}"]`).append(extra[name]);
    el._controls.set(name, { input, output, box, note, spec });
    syncControl(el, name);
  }
  return row;
}

// A typed box bound to parameter `name` (bindEntryBox).
function bindBox(el, name, spec, box, note, live) {
  bindEntryBox(box, note, {
    live,
    parse: (text) => parseParam(name, spec, text),
    apply: (value) => el.setAttribute(name, formatParam(spec, value)),
    kept: () => {
      const current = parseParam(name, spec, el.getAttribute(name));
      return formatParam(spec, current.error ? spec.default : current.value);
    },
  });
}

export function syncControl(el, name) {
  const c = el._controls.get(name);
  if (!c) return;
  const raw = el.getAttribute(name);
  const parsed = parseParam(name, c.spec, raw);
  const value = parsed.error ? (raw ?? '') : formatParam(c.spec, parsed.value);
  // a box being typed in keeps its text while it means the same value ("1.50" for 1.5)
  const same = (box) => {
    const r = parseParam(name, c.spec, box.value);
    return !parsed.error && !r.error && formatParam(c.spec, r.value) === value;
  };
  if (c.spec.type === 'bool') c.input.checked = parsed.error ? !!c.spec.default : parsed.value;
  else if (c.spec.stops && c.input.type === 'range') {
    const v = parsed.error ? c.spec.default : parsed.value;
    let best = 0;
    c.spec.stops.forEach((s, i) => {
      if (Math.abs(Math.log(s / v)) < Math.abs(Math.log(c.spec.stops[best] / v))) best = i;
    });
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
