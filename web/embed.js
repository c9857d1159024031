// embed.html?widget=rope-clock&d-model=8: one widget alone, for an iframe in
// somebody else's course page. The protocol (README, "Embed a widget"):
//
// To the parent, whenever the widget's height changes:
//   { type: 'posenc:resize', version: 1, widget, height }         ours
//   { subject: 'lti.frameResize', height }                         Canvas LMS
//   { context: 'h5p', action: 'hello' | 'prepareResize' | 'resize', ... }
//                                                                 H5P's resizer (h5p-resizer.js)
// To the parent, after each answer checked in a quiz:
//   { type: 'posenc:answered', version: 1, widget, quizId, response, correct,
//     score, maxScore, attempts, revealed, statement }
//                                   correct: the response is right; revealed:
//                                   the solution had been shown first, so
//                                   score is 0; statement: an xAPI-like
//                                   { verb, object, result } whose success
//                                   and score are the credit
// From the parent (anything else is ignored):
//   { type: 'posenc:get-height' }               answered by a posenc:resize
//   { type: 'posenc:set', params: { name: 'text', ... } }
//                                               sets widget parameters
//   H5P's { context: 'h5p', action: 'ready' | 'hello' | 'resizePrepared' }
//
// `?origin=https://lms.example` restricts both directions to that parent
// origin; without it messages go to any parent ('*': they carry nothing
// private) and are accepted from the parent window only. Nothing from the URL
// or from a message becomes HTML: parameters are attribute text that each
// widget checks, and errors are shown with textContent.
import './widgets.js';
import { bindUrlState } from './lib/url-state.js';

const VERSION = 1;
const params = new URLSearchParams(location.search);
const host = document.getElementById('widget');
const inFrame = window.parent !== window;

function showError(message) {
  const p = document.createElement('p');
  p.className = 'error';
  p.setAttribute('role', 'alert');
  p.textContent = message;
  host.replaceChildren(p);
}

// the parent origin, if the embedder pinned one
let targetOrigin = '*';
const pinned = params.get('origin');
if (pinned !== null) {
  let ok = false;
  try {
    const u = new URL(pinned);
    ok = (u.protocol === 'https:' || u.protocol === 'http:') && u.origin === pinned;
  } catch {
    ok = false;
  }
  if (ok) targetOrigin = pinned;
}

function post(message) {
  if (inFrame) window.parent.postMessage(message, targetOrigin);
}

// --------------------------------------------------------------- the widget
const tag = params.get('widget') ?? '';
let el = null;
if (pinned !== null && targetOrigin === '*') {
  showError(`The origin parameter must be an http(s) origin such as https://lms.example.org; got "${pinned.slice(0, 80)}".`);
} else if (!/^[a-z][a-z0-9]*(-[a-z0-9]+)+$/.test(tag) || !customElements.get(tag) || tag === 'pe-quiz-score') {
  showError(tag ? `There is no widget called "${tag.slice(0, 80)}".` : 'Name a widget: embed.html?widget=rope-clock (see the README, "Embed a widget").');
} else {
  el = document.createElement(tag);
  host.replaceChildren(el);
  const { ignored } = bindUrlState([{ el, prefix: '' }], { reserved: ['widget', 'origin'] });
  if (ignored.length) console.warn(`embed: ${tag} has no parameter ${ignored.join(', ')}; ignored`);
}

// --------------------------------------------------------------- height
let lastHeight = -1;
let h5pGreeted = false;
const contentHeight = () => Math.ceil(document.body.getBoundingClientRect().height);

function postHeight(force = false) {
  const height = contentHeight();
  if (!force && height === lastHeight) return;
  lastHeight = height;
  post({ type: 'posenc:resize', version: VERSION, widget: tag, height });
  post({ subject: 'lti.frameResize', height });
  if (!h5pGreeted) {
    h5pGreeted = true;
    post({ context: 'h5p', action: 'hello' });
  }
  post({ context: 'h5p', action: 'prepareResize', scrollHeight: height, clientHeight: window.innerHeight });
}
new ResizeObserver(() => postHeight()).observe(document.body);
postHeight(true);

// --------------------------------------------------------------- answers
document.addEventListener('pe-quiz-answered', (event) => {
  const d = event.detail;
  post({
    type: 'posenc:answered',
    version: VERSION,
    widget: tag,
    quizId: d.quizId,
    response: d.response,
    correct: d.correct,
    score: d.score,
    maxScore: 1,
    attempts: d.attempts,
    revealed: d.revealed === true,
    statement: {
      verb: { id: 'http://adlnet.gov/expapi/verbs/answered', display: { 'en-US': 'answered' } },
      object: { id: `${location.origin}${location.pathname}#quiz/${d.quizId}`, definition: { type: 'http://adlnet.gov/expapi/activities/cmi.interaction' } },
      result: { success: d.score === 1, response: d.response.join('[,]'), score: { raw: d.score, min: 0, max: 1, scaled: d.score } },
    },
  });
});

// --------------------------------------------------------------- messages in
const isPlainObject = (v) => v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype;

window.addEventListener('message', (event) => {
  if (!inFrame || event.source !== window.parent) return;
  if (targetOrigin !== '*' && event.origin !== targetOrigin) return;
  const data = event.data;
  if (!isPlainObject(data)) return;
  if (data.context === 'h5p') {
    if (data.action === 'ready') post({ context: 'h5p', action: 'hello' });
    else if (data.action === 'hello') postHeight(true);
    else if (data.action === 'resizePrepared') post({ context: 'h5p', action: 'resize', scrollHeight: contentHeight() });
    return;
  }
  if (data.type === 'posenc:get-height') {
    postHeight(true);
  } else if (data.type === 'posenc:set' && el && isPlainObject(data.params)) {
    const entries = Object.entries(data.params).slice(0, 32);
    for (const [name, value] of entries) {
      if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') continue;
      if (!/^[a-z0-9_-]{1,60}$/.test(name)) continue;
      el.applyParam(name, String(value));
    }
  }
});
