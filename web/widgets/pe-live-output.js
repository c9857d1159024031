// <pe-live-output sample="seat-vectors">: a PyTorch code sample and, under
// it, exactly what that code prints, computed by the wasm core from the
// parameters the learner sets.
//
// The code and its parameters come from the lesson the page registered
// (web/lib/lesson/lesson-registry.js; lessons/, built into web/gen/lesson-data.js);
// the function that computes the printout is the sample's runner,
// web/samples/<id>.js. Initial parameter values may be given
// as attributes named like the parameters (`<pe-live-output sample="rope-seats"
// theta="0.7">`). The tests hold every runner against what real PyTorch
// prints for the same code.
// the code's HTML is the build's (highlighted by it): trustedFragment
import {
  PeElement,
  define,
  css,
  h,
  bindEntryBox,
  trustedFragment,
  inputError,
  setText,
  CODE_CSS,
} from '../lib/base/pe-element.js';
import { idParam, parseParam } from '../lib/base/params.js';
import { lessonNow, hasLesson, loadLesson } from '../lib/lesson/lesson-registry.js';
import { pyLiteral } from '../lib/printing/pyformat.js';

// A sample parameter's spec (from the lesson) as params.js reads it: a typed
// value must lie on the grid min + k·step the slider's values do (the
// samples' code needs an even d_model, rope-seats a theta whose linear factor
// is exact in float32; an int step of 1 is no constraint); a vector's entries
// within ±1e6 unless the lesson bounds them; a string with options is a menu.
const readable = new WeakMap();
function paramSpec(spec) {
  let r = readable.get(spec);
  if (!r) {
    const grid = spec.step > 0 && !(spec.type === 'int' && spec.step === 1) ? spec.step : 0;
    r = { ...spec, grid };
    if (spec.type === 'vector') Object.assign(r, { min: spec.min ?? -1e6, max: spec.max ?? 1e6 });
    else if (!['int', 'float', 'bool'].includes(spec.type)) r.type = spec.options?.length ? 'enum' : 'string';
    readable.set(spec, r);
  }
  return r;
}
// an unknown sample is the page's mistake, shown in the box (an error with a kind)

const parseValue = (name, spec, raw) => parseParam(name, paramSpec(spec), String(raw));

// A parameter value as URL text: vectors as "1,0.5", the rest as String().
const pyText = (spec, v) => (spec.type === 'vector' ? v.join(',') : String(v));

class PeLiveOutput extends PeElement {
  static tag = 'pe-live-output';
  static description = 'A PyTorch code sample and exactly what it prints, computed live by the wasm core.';
  static params = { sample: idParam('must be a sample id') };
  static styles = css`
    :host { padding: 0; overflow: hidden; }
    .label { font-size: .78em; text-transform: uppercase; letter-spacing: .06em; color: var(--pe-muted); padding: 8px 12px 0; }
    pre { margin: 0; border-radius: 0; padding: 10px 12px; line-height: 1.45; }
    /* code keeps its lines (Python's indentation is meaning); both boxes
       show a shadow at a cut edge (scroll-cue, from the base styles) */
    pre.code { --pe-scroll-bg: var(--pe-panel); }
    pre.output { --pe-scroll-bg: var(--pe-bg); border-top: 1px solid var(--pe-border); white-space: pre; min-height: 2.5em; }
    .controls { padding: 10px 12px 2px; margin: 0; border-top: 1px solid var(--pe-border); }
    .controls:empty { display: none; }
    .param { background: color-mix(in srgb, var(--pe-accent) 18%, transparent); border-radius: 3px; padding: 0 2px; }
    .error, .status { padding: 0 12px; }
    ${CODE_CSS}
  `;

  build(root) {
    this.codeLabel = h('div', { class: 'label', id: 'code-label' }, 'PyTorch');
    this.codeBox = h('pre', {
      class: 'code scroll-cue',
      'aria-labelledby': 'code-label',
      tabindex: '0',
      'data-keep-tabindex': '',
    });
    this.controlsBox = h('div', { class: 'controls', role: 'group', 'aria-label': 'Parameters of the code' });
    this.outputLabel = h('div', { class: 'label', id: 'out-label' }, 'Output, computed live by the WebAssembly core');
    this.outputBox = h('pre', {
      class: 'output scroll-cue',
      'aria-live': 'polite',
      'aria-labelledby': 'out-label',
      tabindex: '0',
      'data-keep-tabindex': '',
    });
    root.append(this.codeLabel, this.codeBox, this.controlsBox, this.outputLabel, this.outputBox);
    this.values = null;
    this.runner = null;
    this.shownSample = null;
    // Until the core arrives, show the code and the default output the build
    // wrote into the page (the light DOM), so a reader sees both at once.
    this.showCode(this.getAttribute('sample') ?? '');
    const printed = this.querySelector('pre.output');
    if (printed) setText(this.outputBox, printed.textContent);
  }

  // The sample's highlighted code (with its default values), once per sample.
  showCode(id) {
    const data = lessonNow()?.samples[id];
    if (!data || this.codeFor === id) return;
    this.codeFor = id;
    this.codeBox.replaceChildren(trustedFragment(`<code>${data.codeHtml}</code>`));
  }

  update(pe, p) {
    const lesson = lessonNow();
    if (!lesson) {
      if (!hasLesson())
        throw inputError(`pe-live-output: there is no sample with id "${p.sample}": this page registers no lesson`);
      loadLesson().then(
        () => this.schedule(),
        (error) => this.waitFailed(`The lesson's samples could not be loaded: ${error.message}`),
      );
      return false;
    }
    if (!Object.hasOwn(lesson.samples, p.sample))
      throw inputError(`pe-live-output: there is no sample with id "${p.sample}"`);
    if (this.shownSample !== p.sample) {
      this.shownSample = p.sample;
      this.runner = null;
      this.showCode(p.sample);
      lesson.sampleRunners[p.sample]().then(
        (m) => {
          this.runner = m.default;
          this.values = this.initialValues(this.runner.params ?? {});
          this.buildControls(this.runner.params ?? {});
          this.schedule();
        },
        (error) => this.waitFailed(`The sample "${p.sample}" could not be loaded: ${error.message}`),
      );
      return false;
    }
    if (!this.runner) return false;
    const params = this.runner.params ?? {};
    for (const span of this.codeBox.querySelectorAll('.param')) {
      const name = span.dataset.param;
      setText(span, pyLiteral(params[name], this.values[name]));
    }
    setText(this.outputBox, this.runner.run(pe, { ...this.values }));
  }

  initialValues(params) {
    const values = {};
    for (const [name, spec] of Object.entries(params)) {
      values[name] = spec.default;
      const raw = this.getAttribute(name);
      if (raw !== null) {
        const r = parseValue(name, spec, raw);
        if (r.error) setText(this.errorBox, r.error);
        else values[name] = r.value;
      }
    }
    return values;
  }

  /**
   * Sets one of the sample's parameters (as a control would): the value is
   * checked against the parameter's range; a bad one shows a message and
   * changes nothing. Returns whether it was accepted.
   */
  setSampleValue(name, raw) {
    this._ensureBuilt();
    const spec = this.runner?.params?.[name];
    if (!spec) {
      setText(this.errorBox, `pe-live-output: sample "${this.shownSample}" has no parameter ${name}`);
      return false;
    }
    const r = parseValue(name, spec, raw);
    if (r.error) {
      setText(this.errorBox, r.error);
      return false;
    }
    setText(this.errorBox, '');
    this._setValue(name, spec, r.value);
    return true;
  }

  // A checked value: shown in its controls, printed in the next frame, and
  // told to the page (which keeps it in the URL).
  _setValue(name, spec, value) {
    this.values[name] = value;
    this.syncControl(name);
    this.schedule();
    this.dispatchEvent(
      new CustomEvent('pe-state', { bubbles: true, composed: true, detail: { name, value: pyText(spec, value) } }),
    );
  }

  // The sample's parameters travel in URLs as attributes of their own names
  // (d_model=8, q=1,0.5); before the runner arrives they wait as attributes,
  // which initialValues() reads.
  acceptsParam(name) {
    return (
      name === 'sample' ||
      (/^[a-z_][a-z0-9_]{0,40}$/.test(name) && (!this.runner || Object.hasOwn(this.runner.params ?? {}, name)))
    );
  }

  applyParam(name, value) {
    if (!this.acceptsParam(name)) return false;
    const text = String(value).slice(0, 500);
    if (name === 'sample' || !this.runner) this.setAttribute(name, text);
    else this.setSampleValue(name, text);
    return true;
  }

  stateParams() {
    const out = { sample: this.getAttribute('sample') ?? '' };
    const params = this.runner?.params ?? {};
    for (const [name, spec] of Object.entries(params)) {
      if (this.values && pyText(spec, this.values[name]) !== pyText(spec, spec.default))
        out[name] = pyText(spec, this.values[name]);
    }
    return out;
  }

  /** The sample's current parameter values (a copy). */
  get sampleValues() {
    return { ...this.values };
  }

  // Moves a parameter's controls to its value. A box being typed in keeps
  // its text while it means that value ("0.50" for 0.5, "1,0.5" for [1, 0.5]),
  // and loses a mark or note an earlier text left.
  syncControl(name) {
    const c = this.sampleControls?.get(name);
    if (!c) return;
    const v = this.values[name];
    if (c.spec.type === 'bool') c.input.checked = !!v;
    else if (c.input !== c.box && c.input.value !== String(v)) c.input.value = String(v); // a slider or a menu
    if (c.box) {
      const typed = parseValue(name, c.spec, c.box.value);
      if (typed.error || pyText(c.spec, typed.value) !== pyText(c.spec, v)) c.box.value = boxText(c.spec, v);
      c.box.removeAttribute('aria-invalid');
    }
    setText(c.note, '');
  }

  // One control per parameter the sample shows: a checkbox, a menu, a
  // slider with a number box beside it (a long range is set exactly by
  // typing, which a finger on a 120 px slider cannot do), or a box.
  buildControls(params) {
    const row = [];
    this.sampleControls = new Map();
    for (const [name, spec] of Object.entries(params)) {
      if (spec.control === false) continue;
      const id = `p-${name}`;
      const label = spec.label ?? name;
      const current = this.values[name];
      let input;
      let box = null; // the box a value is typed into: beside a slider, or the control itself
      const note = h('span', { class: 'field-note', id: `note-${name}`, 'aria-live': 'polite' });
      // a typed value applies as it is typed, once valid; an invalid one is
      // marked, and taken back with a note on Enter or leaving the box
      const bind = (el) =>
        bindEntryBox(el, note, {
          live: true,
          parse: (text) => parseValue(name, spec, text),
          apply: (value) => {
            setText(this.errorBox, '');
            this._setValue(name, spec, value);
          },
          kept: () => boxText(spec, this.values[name]),
        });
      if (spec.type === 'bool') {
        input = h('input', { type: 'checkbox', id, checked: !!current });
        input.addEventListener('change', () => this.setSampleValue(name, input.checked));
        row.push(h('label', { for: id }, input, label));
      } else if (spec.type === 'choice' || spec.type === 'enum') {
        input = h(
          'select',
          { id },
          spec.options.map((o) => h('option', { value: o, selected: o === current }, o)),
        );
        input.addEventListener('change', () => this.setSampleValue(name, input.value));
        row.push(h('label', { for: id }, label, input));
      } else if (
        (spec.type === 'int' || spec.type === 'float') &&
        spec.max !== undefined &&
        spec.control !== 'number'
      ) {
        const step = spec.step ?? (spec.even ? 2 : spec.type === 'int' ? 1 : 'any');
        input = h('input', { type: 'range', id, min: spec.min, max: spec.max, step, value: current });
        input.addEventListener('input', () => this.setSampleValue(name, input.value));
        box = h('input', {
          type: 'number',
          id: `${id}-box`,
          min: spec.min,
          max: spec.max,
          step,
          value: boxText(spec, current),
          'aria-label': `${label}, exact value`,
          'aria-describedby': note.id,
        });
        bind(box);
        row.push(h('span', { class: 'pair' }, h('label', { for: id }, label, input), box));
      } else {
        const isText = spec.type === 'vector' || spec.type === 'string';
        input = h('input', {
          type: isText ? 'text' : 'number',
          id,
          value: boxText(spec, current),
          min: spec.min,
          max: spec.max,
          step: spec.step ?? 'any',
          size: 12,
          spellcheck: 'false',
          'aria-describedby': note.id,
        });
        box = input;
        bind(box);
        row.push(h('label', { for: id }, label, input));
      }
      row.push(note);
      this.sampleControls.set(name, { input, box, note, spec });
    }
    this.controlsBox.replaceChildren(...row);
  }
}

// A value as its box shows it: vectors as "1, 0.5".
const boxText = (spec, v) => (spec.type === 'vector' ? v.join(', ') : String(v));

define(PeLiveOutput);
