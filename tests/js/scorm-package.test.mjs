// The LMS packages of `npm run export:scorm` read as an LMS reads them
// (imsmanifest.xml parsed with fast-xml-parser: every href and file is in the
// zip, identifiers are unique and resolve, the schema version and mastery are
// right, the LOM title and description are lesson.yaml's), the compact suspend_data (every quiz answered fits SCORM 1.2's 4,096
// characters; damaged or foreign data restores what it can and never throws),
// and the xAPI statements (validated by @learninglocker/xapi-validation with a
// placeholder actor, for single- and multi-answer quizzes, exercises and the
// lesson), and the 2004 adapter against scorm-again in Node for a fill-in
// pattern scorm-again refuses.
// The browser side, with a real SCORM runtime, is tests/browser/scorm.test.mjs.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { unzipSync, strFromU8 } from 'fflate';
import { XMLParser } from 'fast-xml-parser';
import yaml from 'js-yaml';
import { exportScorm, manifest12, manifest2004 } from '../../scripts/export/export-scorm.mjs';
import { schemaFiles } from '../../scripts/export/schemas.mjs';
import { encodeProgress, decodeProgress } from '../../web/lib/reporting/suspend-data.js';
import {
  answeredStatement,
  completedStatement,
  quizIri,
  LESSON_IRI,
  DRAW_EXTENSION,
} from '../../web/lib/reporting/xapi.js';
import { formatSessionTime, startScorm } from '../../web/lib/reporting/scorm.js';
import { Scorm2004API } from 'scorm-again/scorm2004';
import { deriveSeed } from '../../web/lib/questions/random.js';
import { quizzes, exercises, codeExercises, questionIds } from '../../web/gen/lesson-data.js';

const require = createRequire(import.meta.url);
const validateStatement = require('@learninglocker/xapi-validation').default;
const ACTOR = { objectType: 'Agent', name: 'Test Learner', mbox: 'mailto:learner@example.com' };
// the questions a package counts: a one-file copy leaves the code exercises out (no Python there)
const ids = questionIds.filter((id) => !codeExercises[id]);

let tmp;
const zips = {};
before(async () => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'posenc-scorm-pkg-'));
  for (const { version, file } of await exportScorm({ outDir: tmp }))
    zips[version] = { name: path.basename(file), files: unzipSync(readFileSync(file)) };
});
after(() => tmp && rmSync(tmp, { recursive: true, force: true }));

// as LMSs read it: namespaces kept in names, attributes with their prefixes
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  isArray: (name) => ['item', 'resource', 'file', 'organization', 'dependency'].includes(name),
});
const all = (node, key) =>
  node === undefined
    ? []
    : Array.isArray(node)
      ? node.flatMap((n) => all(n, key))
      : typeof node !== 'object'
        ? []
        : [...(node[key] !== undefined ? [node[key]].flat() : []), ...Object.values(node).flatMap((v) => all(v, key))];

for (const [version, expect] of [
  [
    '1.2',
    {
      zip: 'posenc-scorm12.zip',
      schemaversion: '1.2',
      ns: 'http://www.imsproject.org/xsd/imscp_rootv1p1p2',
      scormType: '@adlcp:scormtype',
    },
  ],
  [
    '2004',
    {
      zip: 'posenc-scorm2004.zip',
      schemaversion: '2004 4th Edition',
      ns: 'http://www.imsglobal.org/xsd/imscp_v1p1',
      scormType: '@adlcp:scormType',
    },
  ],
]) {
  test(`SCORM ${version} package: the manifest names files that exist, unique identifiers, schema version ${expect.schemaversion}`, () => {
    const { name, files } = zips[version];
    assert.equal(name, expect.zip);
    assert.ok(files['imsmanifest.xml'], 'imsmanifest.xml at the root');
    const xml = strFromU8(files['imsmanifest.xml']);
    const doc = parser.parse(xml);
    const m = doc.manifest;
    assert.equal(m['@xmlns'], expect.ns);
    assert.equal(m.metadata.schema, 'ADL SCORM');
    assert.equal(String(m.metadata.schemaversion), expect.schemaversion);
    // identifiers: unique across the manifest
    const identifiers = all(doc, '@identifier');
    assert.equal(new Set(identifiers).size, identifiers.length, `duplicate identifiers: ${identifiers}`);
    // one organization (the default) with one item pointing at one SCO resource
    const orgs = m.organizations.organization;
    assert.equal(orgs.length, 1);
    assert.equal(m.organizations['@default'], orgs[0]['@identifier']);
    const items = orgs[0].item;
    assert.equal(items.length, 1);
    const resources = m.resources.resource;
    assert.equal(resources.length, 1);
    assert.equal(items[0]['@identifierref'], resources[0]['@identifier']);
    assert.equal(resources[0][expect.scormType], 'sco');
    assert.equal(resources[0]['@type'], 'webcontent');
    // every href and file is in the zip, and the zip holds nothing else but the schema files
    const hrefs = all(m, '@href');
    assert.ok(hrefs.length >= 2);
    for (const href of hrefs) assert.ok(files[href], `${href} is in the zip`);
    assert.deepEqual(
      Object.keys(files).sort(),
      ['imsmanifest.xml', ...new Set(hrefs), ...Object.keys(schemaFiles(version))].sort(),
    );
    // the SCO is the offline lesson with the adapter for this version
    const sco = strFromU8(files[resources[0]['@href']]);
    assert.match(sco, /<title>[^<]*[Pp]ositional encoding/);
    assert.ok(sco.includes(version === '2004' ? 'API_1484_11' : 'LMSInitialize'));
    assert.doesNotMatch(
      sco.replace(/<script[\s\S]*?<\/script>/g, ''),
      /\s(src|href)="(?!#|data:|https?:)/,
      'no relative reference outside the package',
    );
    // the mastery score, 80% by default
    if (version === '1.2') assert.equal(Number(items[0]['adlcp:masteryscore']), 80);
    else {
      const objective = items[0]['imsss:sequencing']['imsss:objectives']['imsss:primaryObjective'];
      assert.equal(objective['@satisfiedByMeasure'], 'true');
      assert.equal(Number(objective['imsss:minNormalizedMeasure']), 0.8);
      assert.equal(items[0]['adlcp:completionThreshold']['@completedByMeasure'], 'true');
    }
  });
}

// the LOM metadata: the lesson's title and description, as each version's LOM spells them
const lessonYaml = yaml.load(
  readFileSync(new URL('../../lessons/positional-encoding/lesson.yaml', import.meta.url), 'utf8'),
);
const lomText = (node) => (node && typeof node === 'object' ? node['#text'] : node);
function lomOf(version, xml) {
  const md = parser.parse(xml).manifest.metadata;
  if (version === '1.2') {
    const lom = md['imsmd:lom'];
    assert.equal(lom['@xmlns:imsmd'], 'http://www.imsglobal.org/xsd/imsmd_rootv1p2p1');
    const g = lom['imsmd:general'];
    for (const f of ['imsmd:title', 'imsmd:description']) assert.equal(g[f]['imsmd:langstring']['@xml:lang'], 'en');
    return {
      title: lomText(g['imsmd:title']['imsmd:langstring']),
      description: lomText(g['imsmd:description']['imsmd:langstring']),
    };
  }
  const lom = md.lom;
  assert.equal(lom['@xmlns'], 'http://ltsc.ieee.org/xsd/LOM');
  const g = lom.general;
  for (const f of ['title', 'description']) assert.equal(g[f].string['@language'], 'en');
  return { title: lomText(g.title.string), description: lomText(g.description.string) };
}

test("both manifests carry the lesson's title and description (lesson.yaml) as LOM metadata, escaped", () => {
  assert.ok(lessonYaml.title && lessonYaml.description);
  for (const version of ['1.2', '2004']) {
    const lom = lomOf(version, strFromU8(zips[version].files['imsmanifest.xml']));
    assert.equal(lom.title, lessonYaml.title.trim(), `${version} title`);
    assert.equal(lom.description, lessonYaml.description.trim(), `${version} description`);
    // markup in them is escaped, and reads back as written
    const meta = { title: 'Sines & <cosines> "quoted"', description: "RoPE's angles & ALiBi's <slopes>" };
    const xml = (version === '1.2' ? manifest12 : manifest2004)({ mastery: 80, meta });
    assert.deepEqual(lomOf(version, xml), meta);
  }
});

test('the mastery option reaches both manifests', () => {
  const p = (xml) => parser.parse(xml).manifest.organizations.organization[0].item[0];
  assert.equal(Number(p(manifest12({ mastery: 65 }))['adlcp:masteryscore']), 65);
  assert.equal(
    Number(
      p(manifest2004({ mastery: 65 }))['imsss:sequencing']['imsss:objectives']['imsss:primaryObjective'][
        'imsss:minNormalizedMeasure'
      ],
    ),
    0.65,
  );
});

// ------------------------------------------------------------------ suspend_data
const worst = ({ typed = 'x'.repeat(300) } = {}) => {
  // every question answered, many attempts and misses, every option picked or the longest text typed
  // into every part (with characters that must be escaped), the solution shown, seeds that are not derivable
  const progress = {};
  for (const id of ids) {
    const response = exercises[id]
      ? [typed, `~.,%${typed}`.slice(0, 300)]
      : [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15];
    progress[id] = {
      credit: 0.3333,
      misses: 99,
      correct: true,
      solutionShown: true,
      attempts: 999,
      response,
      seed: 4294967295,
      view: 'solution',
    };
  }
  return progress;
};

test('suspend_data: every question answered fits SCORM 1.2 (4,096 characters), even in the worst case, and round-trips', () => {
  const seed = 123456789;
  const typical = {};
  const thirds = [0, 0.3333, 0.6667, 1];
  for (const [k, id] of ids.entries()) {
    const generated = !!(quizzes[id]?.generator || exercises[id]);
    const response = exercises[id] ? ['2*pi*b^(2*i/d)', `${k}.25`] : quizzes[id].multiple ? [0, 2] : [k % 4];
    typical[id] = {
      credit: thirds[k % 4],
      misses: k % 3,
      attempts: 1 + (k % 2),
      correct: k % 3 !== 2,
      solutionShown: k === 1,
      response,
      view: 'check',
      seed: generated ? 3000000000 + k : deriveSeed(seed, id),
    };
  }
  const text = encodeProgress(typical, seed);
  assert.ok(text.length <= 4096, `${text.length} characters`);
  console.log(
    `# suspend_data with all ${ids.length} questions answered: ${text.length} characters (worst case ${encodeProgress(worst(), seed).length})`,
  );
  assert.deepEqual(decodeProgress(text, { knownIds: ids }), {
    progress: typical,
    learnerSeed: seed,
    attempt: 1,
    foreign: false,
  });
  // after "Reset my answers" the attempt travels with the seed; a damaged attempt reads as the first
  const again = encodeProgress(typical, seed, { attempt: 3 });
  assert.equal(again.length, text.length + 2);
  assert.deepEqual(decodeProgress(again, { knownIds: ids }), {
    progress: typical,
    learnerSeed: seed,
    attempt: 3,
    foreign: false,
  });
  assert.equal(decodeProgress(again.replace('+3', '+#'), { knownIds: ids }).attempt, 1);
  // short typed answers: everything round-trips
  const shortWorst = worst({ typed: 'x0*cos(m*theta) - x1*sin(m*theta)' });
  const w = encodeProgress(shortWorst, seed);
  assert.ok(w.length <= 4096, `worst case ${w.length} characters`);
  assert.deepEqual(decodeProgress(w, { knownIds: ids }).progress, shortWorst);
  // the longest typed answers everywhere: the responses go, the credit and misses stay
  const longest = encodeProgress(worst(), seed);
  assert.ok(longest.length <= 4096, `${longest.length} characters`);
  const kept = decodeProgress(longest, { knownIds: ids }).progress;
  assert.deepEqual(Object.keys(kept).sort(), [...ids].sort());
  assert.ok(
    Object.values(kept).every(
      (e) => e.credit === 0.3333 && e.misses === 99 && e.attempts === 999 && e.response.length === 0,
    ),
  );
  // a lesson four times as long still fits: the responses go before the credit does
  const many = {};
  for (let i = 0; i < 4; i++) for (const [id, e] of Object.entries(worst())) many[`${id}-${i}`] = e;
  const squeezed = encodeProgress(many, seed);
  assert.ok(squeezed.length <= 4096);
  const back = decodeProgress(squeezed).progress;
  assert.ok(Object.values(back).every((e) => e.correct && e.attempts === 999 && e.credit === 0.3333));
});

test('suspend_data: strings of the first version (pe1, before credit) still restore, as credit 1 where correct meant credit', () => {
  const r = decodeProgress(`pe1~2s~${ids[0]}.12.1~${ids[1]}.31.0.zz`, { knownIds: ids });
  assert.deepEqual(r.progress[ids[0]], {
    correct: true,
    solutionShown: false,
    attempts: 2,
    response: [1],
    view: 'check',
    credit: 1,
    misses: 0,
    seed: deriveSeed(parseInt('2s', 36), ids[0]),
  });
  assert.equal(r.progress[ids[1]].credit, 1);
  assert.equal(r.progress[ids[1]].solutionShown, true);
  assert.equal(r.progress[ids[1]].seed, parseInt('zz', 36));
});

test('suspend_data: damaged, foreign or hostile data never throws and restores only what is sound', () => {
  const seed = 42;
  const good = encodeProgress(
    {
      [ids[0]]: {
        credit: 1,
        misses: 0,
        correct: true,
        solutionShown: false,
        attempts: 1,
        response: [2],
        seed: deriveSeed(seed, ids[0]),
        view: 'check',
      },
    },
    seed,
  );
  for (const bad of [
    '',
    'garbage',
    '{"a":1}',
    'pe3~1~x',
    'pe2~1~x',
    'pe2~1~a.1.0.9.',
    'pe2~1~a.11.0.1._%E0%A4%A',
    'pe1',
    'pe1~',
    `${good.slice(0, -3)}`,
    'x'.repeat(70000),
    null,
    undefined,
    42,
    {},
    '\u0000pe1~~',
    'pe1~zzzzzzzzzz~a.1.0',
  ]) {
    const r = decodeProgress(bad, { knownIds: ids });
    assert.equal(typeof r.progress, 'object');
  }
  assert.equal(decodeProgress('cmi-data-from-another-course', { knownIds: ids }).foreign, true);
  // one damaged entry among good ones: the good ones restore
  const mixed = `${good}~${ids[1]}.9zz.xyz~not-a-quiz.11.0.3.0~${ids[2]}.11.0.3.`;
  const r = decodeProgress(mixed, { knownIds: ids });
  assert.deepEqual(Object.keys(r.progress).sort(), [ids[0], ids[2]].sort());
  assert.deepEqual(r.progress[ids[0]].response, [2]);
  // answers of quizzes the lesson no longer has are dropped
  assert.deepEqual(decodeProgress(`pe1~1~gone-quiz.11.1`, { knownIds: ids }).progress, {});
});

test("session time in each version's format", () => {
  assert.equal(formatSessionTime('1.2', 0), '00:00:00.00');
  assert.equal(formatSessionTime('1.2', 3723.456), '01:02:03.45');
  assert.equal(formatSessionTime('1.2', 1e9), '9999:59:59.99');
  assert.equal(formatSessionTime('2004', 3723.456), 'PT1H2M3.45S');
  assert.equal(formatSessionTime('2004', 5), 'PT0H0M5S');
  assert.equal(formatSessionTime('2004', 0), 'PT0H0M0S');
});

// ------------------------------------------------------------------ xAPI
const text = (html) =>
  html
    .replace(/<annotation[\s\S]*?<\/annotation>/g, '')
    .replace(/<[^>]+>/g, '')
    .replace(/\s+/g, ' ')
    .trim();
function detailFor(id, choices, { revealed = false, score = 1 } = {}) {
  const q = quizzes[id];
  const correctChoices = q.options.flatMap((o, i) => (o.correct ? [i] : []));
  const correct = correctChoices.length === choices.length && correctChoices.every((i) => choices.includes(i));
  return {
    quizId: id,
    kind: 'choice',
    question: text(q.question),
    options: q.options.map((o) => text(o.html)),
    choices,
    correctChoices,
    multiple: q.multiple,
    correct,
    revealed,
    score: correct && !revealed ? score : 0,
  };
}

test('xAPI: answered statements for single- and multi-answer quizzes, and the completed statement, validate', () => {
  const single = ids.find((id) => quizzes[id]?.options && !quizzes[id].multiple);
  const multi = ids.find((id) => quizzes[id]?.multiple);
  assert.ok(single && multi);
  const right = (id) => quizzes[id].options.flatMap((o, i) => (o.correct ? [i] : []));
  const cases = [
    detailFor(single, right(single)),
    detailFor(single, [quizzes[single].options.findIndex((o) => !o.correct)]),
    detailFor(single, right(single), { revealed: true }),
    detailFor(multi, right(multi)),
    detailFor(multi, [right(multi)[0]]),
    detailFor(single, right(single), { score: 0.6667 }),
  ];
  for (const d of cases) {
    const s = answeredStatement(d);
    assert.deepEqual(validateStatement({ actor: ACTOR, ...s }), [], JSON.stringify(s).slice(0, 400));
    assert.equal(s.verb.id, 'http://adlnet.gov/expapi/verbs/answered');
    assert.equal(s.object.objectType, 'Activity');
    assert.equal(s.object.id, quizIri(d.quizId));
    assert.equal(s.object.definition.interactionType, 'choice');
    assert.deepEqual(
      s.object.definition.choices.map((c) => c.id),
      d.options.map((_, i) => String(i)),
    );
    assert.deepEqual(s.object.definition.correctResponsesPattern, [d.correctChoices.join('[,]')]);
    assert.equal(s.result.response, d.choices.join('[,]'));
    assert.equal(s.result.success, d.correct && !d.revealed);
    assert.equal(s.result.score.scaled, d.score);
  }
  // exercises: a number (numeric) and formulas or several parts (fill-in), with the typed response
  const exerciseId = ids.find((id) => exercises[id]);
  for (const d of [
    {
      quizId: exerciseId,
      kind: 'numeric',
      question: 'How many?',
      response: '12.5',
      correctPattern: '12.4[:]12.6',
      correct: true,
      revealed: false,
      score: 0.3333,
    },
    {
      quizId: exerciseId,
      kind: 'fill-in',
      question: 'Which formula?',
      response: '2*pi*b^(2*i/d)[,]12',
      correctPattern: '2*pi*b^(2*i/d)[,]12',
      correct: false,
      revealed: false,
      score: 0,
    },
  ]) {
    const s = answeredStatement(d);
    assert.deepEqual(validateStatement({ actor: ACTOR, ...s }), [], JSON.stringify(s).slice(0, 400));
    assert.equal(s.object.definition.interactionType, d.kind);
    assert.equal(s.object.definition.choices, undefined);
    // the right answer is this learner's numbers': beside the result, not in the shared definition
    assert.equal(s.object.definition.correctResponsesPattern, undefined);
    assert.deepEqual(s.result.extensions[DRAW_EXTENSION].correctResponsesPattern, [d.correctPattern]);
    assert.equal(s.result.response, d.response);
    assert.equal(s.result.success, d.correct);
    assert.equal(s.result.score.scaled, d.score);
  }
  assert.match(
    answeredStatement(cases[3]).object.definition.correctResponsesPattern[0],
    /\[,\]/,
    'multi-answer pattern',
  );
  const done = completedStatement({ points: 17.3333, total: 28, mastery: 0.8 });
  assert.deepEqual(validateStatement({ actor: ACTOR, ...done }), []);
  assert.equal(done.object.id, LESSON_IRI);
  assert.deepEqual(done.result, {
    completion: true,
    success: false,
    score: { raw: 17.3333, min: 0, max: 28, scaled: 0.619 },
  });
  // the validator is not a rubber stamp: it rejects a broken statement
  assert.notDeepEqual(
    validateStatement({ actor: ACTOR, ...answeredStatement(cases[0]), verb: { id: 'not an iri' } }),
    [],
  );
  assert.notDeepEqual(
    validateStatement({
      actor: ACTOR,
      ...completedStatement({ points: 30, total: 28 }),
      result: { score: { scaled: 2 } },
    }),
    [],
  );
  // IRIs are the same wherever the lesson runs
  assert.equal(quizIri('rope-what-rotates'), `${LESSON_IRI}/quiz/rope-what-rotates`);
});

test('SCORM 2004 with scorm-again: a fill-in whose parts share an answer ("12[,]12") is recorded without the correct pattern scorm-again refuses (error 406); other patterns are written', async () => {
  const api = new Scorm2004API({ logLevel: 5, autocommit: false });
  api.loadFromJSON({ entry: 'ab-initio', scaled_passing_score: '0.8' });
  const errors = [];
  const calls = {};
  // a window with the runtime on it, each call's error recorded
  const proxy = {};
  for (const m of ['Initialize', 'Terminate', 'GetValue', 'SetValue', 'Commit', 'GetLastError']) {
    proxy[m] = (...args) => {
      const r = api[m](...args);
      if (m !== 'GetLastError' && String(api.GetLastError()) !== '0')
        errors.push(`${m}(${args.join(', ')}) -> ${api.GetLastError()}`);
      if (m === 'SetValue') calls[args[0]] = args[1];
      return r;
    };
  }
  const win = new EventTarget();
  win.document = new EventTarget();
  win.parent = win;
  win.API_1484_11 = proxy;
  const session = startScorm({ version: '2004', questionIds, window: win });
  assert.ok(session?.connected);
  const [a, b] = Object.keys(exercises);
  const answer = (quizId, pattern) =>
    win.document.dispatchEvent(
      new CustomEvent('pe-quiz-answered', {
        detail: {
          quizId,
          kind: 'fill-in',
          response: pattern,
          correctPattern: pattern,
          correct: true,
          score: 1,
          latencyMs: 1200,
          question: 'Type both parts',
        },
      }),
    );
  answer(a, '12[,]12');
  answer(b, '12[,]13');
  await new Promise((resolve) => setTimeout(resolve, 10));
  assert.deepEqual(errors, []);
  assert.equal(calls['cmi.interactions.0.learner_response'], '12[,]12');
  assert.equal(calls['cmi.interactions.0.result'], 'correct');
  assert.equal(calls['cmi.interactions.0.correct_responses.0.pattern'], undefined);
  assert.equal(calls['cmi.interactions.1.correct_responses.0.pattern'], '12[,]13');
});
