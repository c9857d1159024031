// embed.html?widget=rope-clock&d-model=8: one widget alone, for an iframe in
// somebody else's course page. The protocol (docs/embedding.md, "Embed a widget"):
//
// To the parent, whenever the widget's height changes:
//   { type: 'posenc:resize', version: 1, widget, height }         ours
//   { subject: 'lti.frameResize', height }                         Canvas LMS
//   { context: 'h5p', action: 'hello' | 'prepareResize' | 'resize', ... }
//                                                                 H5P's resizer (h5p-resizer.js);
//                                   hello is sent again (1 s, then every 5 s)
//                                   until the parent answers, for a parent
//                                   whose script loads after the iframe
// To the parent, after each answer checked in a quiz or an exercise:
//   { type: 'posenc:answered', version: 3, widget, quizId, kind, response,
//     choices, correct, score, credit, maxScore, attempts, revealed, statement }
//                                   kind: 'choice' (a quiz), 'numeric' or
//                                   'fill-in' (an exercise); response: the
//                                   chosen options' texts, or what was typed;
//                                   choices: the options' ids (authored
//                                   indices; empty for an exercise); correct:
//                                   the response is right; score: the credit
//                                   this answer earned (1 at the first try, a
//                                   third less per earlier miss, 0 when wrong
//                                   or after the solution was shown:
//                                   revealed); credit: the question's best so
//                                   far; statement: the xAPI statement, shaped
//                                   like H5P's (web/lib/reporting/xapi.js), whose success
//                                   and score are the credit; complete (id,
//                                   timestamp, actor: the launch's learner or
//                                   an anonymous account, registration,
//                                   context); a parent may replace the actor
//   and when that answer was the last question of the lesson without one
//   (progress is shared by the embeds of one origin):
//   { type: 'posenc:completed', version: 3, widget, points, total, statement }
//                                   points: the sum of the questions' credit
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
import * as lessonData from './gen/lesson-data.js';
import { registerLesson } from './lib/lesson/lesson-registry.js';
import './widgets.js';
import { bindUrlState } from './lib/base/url-state.js';
import { configureFromLaunch, LAUNCH_PARAMS, trackAnswers } from './lib/reporting/xapi.js';

// the embed shows the lesson's widgets: its questions and samples, and its
// completion for posenc:completed (web/lib/lesson/lesson-registry.js)
registerLesson(lessonData);

const VERSION = 1;
// 2: statement is valid xAPI (choice ids in result.response); choices; posenc:completed
// 3: exercises (kind), credit that falls with each miss (score, credit), completed's points
const ANSWER_VERSION = 3;
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
  showError(
    `The origin parameter must be an http(s) origin such as https://lms.example.org; got "${pinned.slice(0, 80)}".`,
  );
} else if (!/^[a-z][a-z0-9]*(-[a-z0-9]+)+$/.test(tag) || !customElements.get(tag) || tag === 'pe-quiz-score') {
  showError(
    tag
      ? `There is no widget called "${tag.slice(0, 80)}".`
      : 'Name a widget: embed.html?widget=rope-clock (see docs/embedding.md, "Embed a widget").',
  );
} else {
  el = document.createElement(tag);
  host.replaceChildren(el);
  const { ignored } = bindUrlState([{ el, prefix: '' }], { reserved: ['widget', 'origin', ...LAUNCH_PARAMS] });
  if (ignored.length) console.warn(`embed: ${tag} has no parameter ${ignored.join(', ')}; ignored`);
}

// --------------------------------------------------------------- height
let lastHeight = -1;
const contentHeight = () => Math.ceil(document.body.getBoundingClientRect().height);

function postHeight(force = false) {
  const height = contentHeight();
  if (!force && height === lastHeight) return;
  lastHeight = height;
  post({ type: 'posenc:resize', version: VERSION, widget: tag, height });
  post({ subject: 'lti.frameResize', height });
  post({ context: 'h5p', action: 'prepareResize', scrollHeight: height, clientHeight: window.innerHeight });
}

// H5P's resizer answers a hello only if its script is already running: say it
// again until the parent answers (1 s apart ten times, then every 5 s, for an
// hour at most)
let h5pAnswered = false;
let hellos = 0;
function sayHello() {
  if (!inFrame || h5pAnswered || hellos >= 10 + 720) return;
  post({ context: 'h5p', action: 'hello' });
  hellos += 1;
  setTimeout(sayHello, hellos < 10 ? 1000 : 5000);
}
sayHello();
new ResizeObserver(() => postHeight()).observe(document.body);
postHeight(true);

// --------------------------------------------------------------- answers
// An LRS named by the launch parameters (docs/embedding.md, "Sending to an LRS") gets
// the same statements the parent does; a bad one is said on the console and
// in a posenc-xapi-status event, and the widget works on.
configureFromLaunch();
trackAnswers((d, [answered, completed]) => {
  post({
    type: 'posenc:answered',
    version: ANSWER_VERSION,
    widget: tag,
    quizId: d.quizId,
    kind: d.kind ?? 'choice',
    response: d.kind === 'choice' || !d.kind ? d.response : d.texts,
    choices: (d.choices ?? []).map(String),
    correct: d.correct,
    score: d.score,
    credit: d.credit,
    maxScore: 1,
    attempts: d.attempts,
    revealed: d.revealed === true,
    statement: answered,
  });
  if (completed) {
    const { raw: points, max: total } = completed.result.score;
    post({ type: 'posenc:completed', version: ANSWER_VERSION, widget: tag, points, total, statement: completed });
  }
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
    else if (data.action === 'hello') {
      h5pAnswered = true;
      postHeight(true);
    } else if (data.action === 'resizePrepared') {
      h5pAnswered = true;
      post({ context: 'h5p', action: 'resize', scrollHeight: contentHeight() });
    }
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
