// xAPI configuration and statements (web/lib/reporting/xapi.js), in Node: every
// statement complete and valid (@learninglocker/xapi-validation) as made;
// the activity IRIs follow the configured base; the launch parameters are
// read as Rustici's TinCan launch gives them; bad configuration is named and
// turns sending off, never throws.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { MemoryStorage, withStorage } from './memory-storage.mjs';
import * as xapi from '../../web/lib/reporting/xapi.js';
import { resetProgress } from '../../web/lib/reporting/progress.js';
import { registerLesson } from '../../web/lib/lesson/lesson-registry.js';
import * as lessonData from '../../web/gen/lesson-data.js';

// as the lesson page does: its questions' sections come from the registered lesson
registerLesson(lessonData);

const require = createRequire(import.meta.url);
const validateStatement = require('@learninglocker/xapi-validation').default;
const UUID4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const quiz = {
  quizId: 'why-position-shuffle-outputs',
  kind: 'choice',
  question: 'What happens?',
  options: ['a', 'b', 'c'],
  choices: [2],
  correctChoices: [2],
  correct: true,
  revealed: false,
  score: 1,
};

// first: the learner nobody named is made once and kept
test('without configuration: an anonymous learner and a registration, kept in storage; every field there, valid', () => {
  const storage = new MemoryStorage();
  withStorage(storage);
  const before = Date.now();
  const s = xapi.answeredStatement(quiz);
  const kept = JSON.parse(storage.getItem('posenc-course:xapi-learner:v1'));
  assert.match(s.id, UUID4);
  assert.ok(Date.parse(s.timestamp) >= before && Date.parse(s.timestamp) <= Date.now());
  assert.deepEqual(s.actor, { objectType: 'Agent', account: { homePage: xapi.DEFAULT_ACTIVITY_BASE, name: kept.id } });
  assert.equal(s.context.registration, kept.registration);
  assert.equal(s.context.platform, 'posenc-course');
  assert.equal(s.context.language, 'en-US');
  // the quiz's section is the parent, the lesson the grouping
  assert.deepEqual(s.context.contextActivities, {
    parent: [{ id: `${xapi.DEFAULT_ACTIVITY_BASE}/section/why-position`, objectType: 'Activity' }],
    grouping: [{ id: xapi.DEFAULT_ACTIVITY_BASE, objectType: 'Activity' }],
  });
  assert.deepEqual(validateStatement(s), []);
  const again = xapi.answeredStatement(quiz);
  assert.notEqual(again.id, s.id);
  assert.equal(again.context.registration, s.context.registration);
  assert.equal(xapi.xapiConfig().status.state, 'off');
});

test('configured: actor, registration, language, platform and the IRI base go into every statement; LESSON_IRI and quizIri follow the base', () => {
  const base = 'https://courses.example.org/ml/positional-encoding';
  const r = xapi.configureXapi({
    actor: { name: 'Ann', mbox: 'mailto:ann@example.org' },
    registration: 'A2B1C3D4-0000-4000-8000-000000000001',
    language: 'en-GB',
    platform: 'Example LMS',
    activityBase: `${base}/`,
  });
  assert.deepEqual(r, { ok: true, errors: [], sending: false });
  assert.equal(xapi.LESSON_IRI, base);
  assert.equal(xapi.ACTIVITY_BASE, base);
  assert.equal(xapi.quizIri('rope-what-rotates'), `${base}/quiz/rope-what-rotates`);
  assert.equal(xapi.REVEALED_EXTENSION, `${base}/extensions/revealed`);
  const exercise = {
    quizId: 'sinusoidal-wavelength',
    kind: 'numeric',
    question: 'How long?',
    response: '62.8',
    correctPattern: '62.7[:]62.9',
    correct: true,
    revealed: false,
    score: 0.6667,
  };
  const done = xapi.completedStatement({ points: 2, total: 40, mastery: 0.8 });
  for (const s of [xapi.answeredStatement(quiz), xapi.answeredStatement(exercise), done]) {
    assert.deepEqual(validateStatement(s), [], JSON.stringify(s).slice(0, 300));
    assert.deepEqual(s.actor, { objectType: 'Agent', name: 'Ann', mbox: 'mailto:ann@example.org' });
    assert.equal(s.context.registration, 'a2b1c3d4-0000-4000-8000-000000000001');
    assert.equal(s.context.language, 'en-GB');
    assert.equal(s.context.platform, 'Example LMS');
    assert.ok(s.verb.display['en-GB']);
  }
  const ex = xapi.answeredStatement(exercise);
  assert.equal(ex.object.id, `${base}/quiz/sinusoidal-wavelength`);
  assert.equal(ex.context.contextActivities.parent[0].id, `${base}/section/sinusoidal`);
  assert.equal(ex.result.score.scaled, 0.6667);
  assert.equal(done.object.id, base);
  assert.equal(done.context.contextActivities, undefined, 'the lesson has no parent');
  const section = xapi.completedStatement({ points: 1, total: 4, section: 'rope' });
  assert.equal(section.object.id, `${base}/section/rope`);
  assert.deepEqual(section.context.contextActivities.parent, [{ id: base, objectType: 'Activity' }]);
  assert.deepEqual(validateStatement(section), []);
  // the tracker still takes its old arguments
  const sent = [];
  const track = xapi.statementTracker({
    questionIds: ['a'],
    progress: () => ({ a: { correct: true, credit: 1 } }),
    send: (s) => sent.push(s),
  });
  track({ ...quiz, quizId: 'a' });
  assert.equal(sent.length, 1);
  xapi.configureXapi({
    activityBase: xapi.DEFAULT_ACTIVITY_BASE,
    language: 'en-US',
    platform: 'posenc-course',
    actor: null,
    registration: null,
  });
});

test('the TinCan launch parameters, and its older actor form with one-item arrays', () => {
  const q = new URLSearchParams({
    endpoint: 'https://lrs.example.org/data/xAPI',
    auth: 'Basic dXNlcjpwYXNz',
    actor: JSON.stringify({ name: ['Ann'], mbox: ['mailto:ann@example.org'] }),
    registration: '760e3480-ba55-4991-94b0-01820dbd23a2',
    activity_id: 'https://courses.example.org/pe',
  });
  const { present, options, errors } = xapi.launchOptions(`?${q}`);
  assert.ok(present);
  assert.deepEqual(errors, []);
  assert.deepEqual(options, {
    endpoint: 'https://lrs.example.org/data/xAPI',
    auth: 'Basic dXNlcjpwYXNz',
    registration: '760e3480-ba55-4991-94b0-01820dbd23a2',
    activityBase: 'https://courses.example.org/pe',
    actor: { name: ['Ann'], mbox: ['mailto:ann@example.org'] },
  });
  assert.deepEqual(xapi.checkAgent(options.actor), {
    agent: { objectType: 'Agent', name: 'Ann', mbox: 'mailto:ann@example.org' },
  });
  assert.deepEqual(
    xapi.checkAgent({ account: [{ accountServiceHomePage: 'https://lms.example.org', accountName: 'u17' }] }),
    { agent: { objectType: 'Agent', account: { homePage: 'https://lms.example.org', name: 'u17' } } },
  );
  assert.equal(xapi.launchOptions('?pe-heatmap-1.d-model=8').present, false);
  // a cmi5 launch (it has a fetch URL) is left to the cmi5 AU
  assert.equal(xapi.launchOptions(`?${q}&fetch=https%3A%2F%2Flms.example.org%2Ftoken`).present, false);
  assert.equal(xapi.configureFromLaunch('?widget=rope-clock'), null);
});

test('bad configuration is named, warned, reported as a status, and turns sending off; nothing throws', () => {
  const warnings = [];
  const warn = console.warn;
  console.warn = (m) => warnings.push(m);
  const statuses = [];
  const target = new EventTarget();
  globalThis.dispatchEvent = (e) => target.dispatchEvent(e);
  target.addEventListener(xapi.STATUS_EVENT, (e) => statuses.push(e.detail));
  try {
    const cases = [
      [{ endpoint: 'ftp://lrs.example.org/' }, /http\(s\) address/],
      [{ endpoint: 'javascript:alert(1)' }, /http\(s\) address/],
      [{ endpoint: 'https://user:pw@lrs.example.org/' }, /credentials/],
      [{ actor: { name: 'Ann' } }, /not an xAPI Agent: it needs exactly one of mbox/],
      [{ actor: { mbox: 'ann@example.org' } }, /mailto:/],
      [{ actor: { mbox: 'mailto:a@b.org', openid: 'https://id.example.org/a' } }, /exactly one/],
      [{ actor: { objectType: 'Group', mbox: 'mailto:a@b.org' } }, /"Agent"/],
      [{ actor: 'Ann' }, /expected an object/],
      [{ actor: { mbox: 'mailto:a@b.org', role: 'x' } }, /unknown field role/],
      [{ auth: 'dXNlcjpwYXNz\n' }, /Authorization header value/],
      [{ registration: '1234' }, /UUID/],
      [{ activityBase: 'not an iri' }, /absolute IRI/],
      [{ activityBase: 'https://x.example.org/a?b=1' }, /absolute IRI/],
      [{ language: 'english please' }, /language tag/],
      [{ endpont: 'https://lrs.example.org/' }, /no option "endpont"/],
      [null, /takes an object/],
    ];
    for (const [options, message] of cases) {
      const r = xapi.configureXapi({ endpoint: 'https://lrs.example.org/xapi/', ...(options ?? {}) });
      const r2 = options === null ? xapi.configureXapi(null) : r;
      assert.equal(r2.ok, false, JSON.stringify(options));
      assert.equal(r2.sending, false);
      assert.match(r2.errors.join(' '), message);
      assert.equal(statuses.at(-1).state, 'config-error');
      assert.match(statuses.at(-1).message, /sending is off/);
      assert.equal(xapi.xapiConfig().endpoint, null);
    }
    // malformed JSON in the launch
    const r = xapi.configureFromLaunch('?endpoint=https%3A%2F%2Flrs.example.org%2F&actor=%7Bname%3A');
    assert.equal(r.ok, false);
    assert.match(r.errors[0], /actor is not JSON/);
    assert.equal(r.sending, false);
    assert.ok(warnings.length >= 17);
    // the IRIs stayed where they were
    assert.equal(xapi.LESSON_IRI, xapi.DEFAULT_ACTIVITY_BASE);
    // { username, password } makes a Basic header; a good endpoint turns sending on
    const ok = xapi.configureXapi({
      endpoint: 'https://lrs.example.org/xapi',
      auth: { username: 'ann', password: 'pä55' },
      actor: { mbox: 'mailto:a@b.org' },
    });
    assert.deepEqual(ok, { ok: true, errors: [], sending: true });
    assert.equal(xapi.xapiConfig().endpoint, 'https://lrs.example.org/xapi/');
    xapi.configureXapi({ endpoint: null });
    assert.equal(statuses.at(-1).state, 'off');
  } finally {
    console.warn = warn;
    delete globalThis.dispatchEvent;
  }
});

test('attempts: every answered statement says the attempt; "Reset my answers" makes a valid attempted statement for the next one', () => {
  withStorage(new MemoryStorage());
  const first = xapi.answeredStatement(quiz);
  assert.equal(first.result.extensions[xapi.ATTEMPT_EXTENSION], 1);
  resetProgress();
  const second = xapi.answeredStatement(quiz);
  assert.equal(second.result.extensions[xapi.ATTEMPT_EXTENSION], 2);
  const started = xapi.attemptedStatement({ attempt: 2 });
  assert.equal(started.verb.id, 'http://adlnet.gov/expapi/verbs/attempted');
  assert.equal(started.object.id, xapi.LESSON_IRI);
  assert.equal(started.result.extensions[xapi.ATTEMPT_EXTENSION], 2);
  for (const s of [first, second, started]) assert.deepEqual(validateStatement(s), []);
});

test("a quiz's activity is named by its short title and is the same for every learner: a generated quiz's options (this learner's numbers) go beside the result", () => {
  const written = xapi.answeredStatement({ ...quiz, title: 'Which pair turns fastest: $\\theta_0$?', seed: 5 });
  assert.deepEqual(written.object.definition.name, { 'en-US': 'Which pair turns fastest: $\\theta_0$?' });
  assert.deepEqual(written.object.definition.description, { 'en-US': 'What happens?' });
  assert.deepEqual(written.object.definition.correctResponsesPattern, ['2']);
  assert.equal(written.result.extensions[xapi.DRAW_EXTENSION], undefined, 'nothing drawn for a written quiz');
  const generated = (options, correctChoices, seed) =>
    xapi.answeredStatement({ ...quiz, title: 'The same offset', generated: true, options, correctChoices, seed });
  const a = generated(['12.5', '3.1', '7'], [0], 17);
  const b = generated(['2.25', '9.0', '4'], [2], 18);
  assert.deepEqual(a.object.definition, b.object.definition, 'one definition for both learners');
  assert.equal(a.object.definition.choices, undefined);
  assert.deepEqual(a.result.extensions[xapi.DRAW_EXTENSION].correctResponsesPattern, ['0']);
  assert.deepEqual(
    b.result.extensions[xapi.DRAW_EXTENSION].choices.map((c) => c.description['en-US']),
    ['2.25', '9.0', '4'],
  );
  assert.equal(b.result.extensions[xapi.DRAW_EXTENSION].seed, 18);
  for (const s of [written, a, b]) assert.deepEqual(validateStatement(s), []);
});
