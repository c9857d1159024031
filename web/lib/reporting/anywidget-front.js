// The anywidget front end (dist/anywidget.mjs, `posenc-course/anywidget`):
// one widget per model, both ways.
//
// Model traits (the Python side declares them with sync=True):
//   tag         in   which widget ('rope-clock', 'pe-quiz', ...)
//   attributes  in   its attributes, { name: value }: true for a bare
//                    attribute, false/None to leave it out, a list as
//                    comma-separated numbers
//   state       out  every parameter as the widget now shows it, parsed
//                    ({ 'd-model': 16, base: 10000, ... }): written when the
//                    learner moves a control or `attributes` changes it
//   answers     out  { questionId: the latest pe-quiz-answered detail }
//                    (correct, score, credit, attempts, response, ...)
//   score       out  { points, total, answered, revealed, full } over the
//                    questions this widget shows (a quiz, an exercise, or
//                    what a <pe-quiz-score> counts)
//   progress    in/out  the progress of those questions, as suspend-data.js
//                    writes it for an LMS ('pe2~...'): the notebook keeps it,
//                    so a saved notebook brings its answers back (misses and
//                    shown solutions included), even where the page may store
//                    nothing; read when the widget mounts, written after each
//                    change
// Each write is followed by model.save_changes(), which sends it to the
// kernel; a model without a kernel (MyST's, whose save_changes throws) just
// keeps the values. A write that changes nothing is not sent.
import { onProgress, loadProgress, saveEntry, tally, claimPageOnlyNote } from './progress.js';
import { encodeProgress, decodeProgress } from './suspend-data.js';

const TAG = /^[a-z][a-z0-9]*-[a-z0-9-]+$/;
const ATTRIBUTE = /^[a-z][a-z0-9-]*$/;
const camelCase = (name) => name.replace(/-([a-z0-9])/g, (_, c) => c.toUpperCase());
const plain = (x) => JSON.parse(JSON.stringify(x ?? null));

// the questions a widget shows: its own id, or what a score counts
function questionsOf(node) {
  if (node.localName === 'pe-quiz') return [node.getAttribute('quiz') ?? ''];
  if (node.localName === 'pe-exercise' || node.localName === 'pe-code-exercise')
    return [node.getAttribute('exercise') ?? ''];
  return Array.isArray(node.ids) ? node.ids : [];
}

// every parameter as the widget reads it (an invalid attribute reads as its default)
function stateOf(node) {
  if (typeof node.readParams !== 'function') return {};
  const { values } = node.readParams();
  return Object.fromEntries(
    Object.keys(node.constructor.params ?? {}).map((name) => [name, plain(values[camelCase(name)])]),
  );
}

export function render({ model, el }) {
  let node = null;
  let disposed = false;
  const note = document.createElement('p');
  let applying = false; // a change from the model: one state write at its end, not one per attribute
  const attributes = () => {
    const a = model.get('attributes');
    return a && typeof a === 'object' ? a : {};
  };

  // out: one trait, sent only when it changed
  const write = (name, value) => {
    if (disposed || JSON.stringify(model.get(name) ?? null) === JSON.stringify(value)) return;
    model.set(name, value);
    try {
      model.save_changes();
    } catch {
      // no kernel to send to (MyST's model throws here): the model keeps the value
    }
  };
  const writeState = () => !applying && node && customElements.get(node.localName) && write('state', stateOf(node));
  const writeScore = () => {
    if (!node || !customElements.get(node.localName)) return;
    const ids = questionsOf(node).filter(Boolean);
    const all = loadProgress();
    const { points, total, answered, revealed, full } = tally(ids, all);
    write('score', { points, total, answered, revealed, full });
    const mine = Object.fromEntries(ids.filter((id) => all[id]).map((id) => [id, all[id]]));
    if (Object.keys(mine).length || model.get('progress'))
      write('progress', encodeProgress(mine, null, { limit: 64000 }));
  };
  // the notebook's progress comes back before the widget shows its questions;
  // what this page already holds for a question (answered in another cell) wins
  // (the notebook keeps the answers, so no question says they are kept for the page only)
  claimPageOnlyNote();
  const stored = model.get('progress');
  if (typeof stored === 'string' && stored) {
    const here = loadProgress();
    for (const [id, entry] of Object.entries(decodeProgress(stored).progress)) if (!here[id]) saveEntry(id, entry);
  }
  const onAnswered = (e) => {
    const d = e.detail;
    if (!d || typeof d.quizId !== 'string') return;
    const before = model.get('answers');
    write('answers', { ...(before && typeof before === 'object' ? before : {}), [d.quizId]: plain(d) });
    writeScore();
  };
  el.addEventListener('pe-state', writeState);
  el.addEventListener('pe-quiz-answered', onAnswered);
  // a solution shown, a reset, or an answer in another cell of the same page
  const offProgress = onProgress(writeScore);

  // in: the tag and its attributes
  const apply = () => {
    if (disposed) return;
    const tag = String(model.get('tag') ?? '');
    if (!TAG.test(tag) || !customElements.get(tag)) {
      node?.remove();
      node = document.createElement('p');
      node.textContent = 'posenc widget: unknown tag ' + JSON.stringify(tag);
      el.append(node);
      return;
    }
    if (!node || node.localName !== tag) {
      node?.remove();
      node = document.createElement(tag);
      // a score's count is known after its update
      node.addEventListener('pe-update', writeScore);
      el.append(node);
    }
    const wanted = attributes();
    const refused = [];
    applying = true;
    try {
      for (const name of [...node.getAttributeNames()]) if (!(name in wanted)) node.removeAttribute(name);
      for (const [name, value] of Object.entries(wanted)) {
        if (!ATTRIBUTE.test(name)) refused.push(name);
        else if (value === false || value === null || value === undefined) node.removeAttribute(name);
        else node.setAttribute(name, value === true ? '' : Array.isArray(value) ? value.join(',') : String(value));
      }
    } finally {
      applying = false;
    }
    // a bad value shows inside the widget (its own check); a bad name here
    note.textContent = refused.length
      ? `posenc widget: ignored attributes that are not attribute names: ${refused.map((n) => JSON.stringify(n)).join(', ')}`
      : '';
    if (refused.length) el.append(note);
    else note.remove();
    writeState();
    writeScore();
  };
  apply();
  model.on('change:tag', apply);
  model.on('change:attributes', apply);
  return () => {
    disposed = true;
    offProgress();
    el.removeEventListener('pe-state', writeState);
    el.removeEventListener('pe-quiz-answered', onAnswered);
    for (const name of ['change:tag', 'change:attributes']) {
      // MyST's model (@myst-theme/anywidget 1.4) throws from off(); the flag above stops apply instead
      try {
        model.off(name, apply);
      } catch {}
    }
    node?.remove();
    note.remove();
    node = null;
  };
}
export default { render };
