import { test } from 'node:test';
import assert from 'node:assert/strict';
import { XMLParser } from 'fast-xml-parser';
import { courseStructure } from '../../scripts/export/export-cmi5.mjs';

const base = {
  courseId: 'https://x.example/c',
  title: 'T & t',
  description: 'D',
  aus: [{ id: 'https://x.example/c/rope', title: 'RoPE', description: 'd', url: 'rope.html' }],
};

test('cmi5.xml: course then AUs, masteryScore as a decimal, moveOn Passed', () => {
  const doc = new XMLParser({ ignoreAttributes: false }).parse(courseStructure({ ...base, mastery: 80 }));
  const cs = doc.courseStructure;
  assert.equal(cs['@_xmlns'], 'https://w3id.org/xapi/profiles/cmi5/v1/CourseStructure.xsd');
  assert.equal(cs.course['@_id'], 'https://x.example/c');
  assert.equal(cs.course.title.langstring['#text'], 'T & t');
  assert.equal(cs.au['@_masteryScore'], '0.8');
  assert.equal(cs.au['@_moveOn'], 'Passed');
  assert.equal(cs.au.url, 'rope.html');
});

test('cmi5.xml: a bad mastery or no AU is a clear error', () => {
  assert.throws(() => courseStructure({ ...base, mastery: 120 }), /--mastery must be a number from 0 to 100/);
  assert.throws(() => courseStructure({ ...base, mastery: NaN }), /--mastery/);
  assert.throws(() => courseStructure({ ...base, aus: [], mastery: 80 }), /at least one AU/);
});

// ------------------------------------------------------------ the package (export:cmi5)
import { mkdtempSync, rmSync, readFileSync, existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { unzipSync, strFromU8 } from 'fflate';
import { exportCmi5 } from '../../scripts/export/export-cmi5.mjs';
import { xmllintValidate } from '../../scripts/export/schemas.mjs';
import { sections } from '../../web/gen/lesson-data.js';
import { DEFAULT_ACTIVITY_BASE } from '../../web/lib/reporting/xapi.js';
import { cmi5Launch, checkLaunchData, withTemplate, SESSION_EXTENSION } from '../../web/lib/reporting/cmi5.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const hasXmllint = spawnSync('xmllint', ['--version']).status === 0;

test('export:cmi5: cmi5.xml (an AU per section with questions, launching lesson.html?sections=<id>), the AU page and the XSD; --sections and --activity-base', async () => {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'posenc-cmi5-node-'));
  try {
    const wholeBase = 'https://lms.example.org/courses/posenc';
    const whole = await exportCmi5({ outDir: tmp, mastery: 70, activityBase: wholeBase });
    assert.equal(whole.file, path.join(tmp, 'posenc-cmi5.zip'));
    const zip = unzipSync(new Uint8Array(readFileSync(whole.file)));
    assert.deepEqual(Object.keys(zip).sort(), [
      'CourseStructure.xsd',
      'cmi5.xml',
      'lesson.html',
      'posenc-validate.xsd',
    ]);
    const xml = strFromU8(zip['cmi5.xml']);
    const cs = new XMLParser({ ignoreAttributes: false }).parse(xml).courseStructure;
    const withQuestions = sections.filter((s) => s.questionIds.length > 0);
    assert.equal(cs.course['@_id'], wholeBase);
    const aus = [cs.au].flat();
    assert.deepEqual(
      aus.map((a) => a.url),
      withQuestions.map((s) => `lesson.html?sections=${s.id}`),
    );
    assert.deepEqual(
      aus.map((a) => a['@_id']),
      withQuestions.map((s) => `${wholeBase}/section/${s.id}`),
    );
    for (const a of aus) {
      assert.equal(a['@_masteryScore'], '0.7');
      assert.equal(a['@_moveOn'], 'Passed');
    }
    const html = strFromU8(zip['lesson.html']);
    assert.match(html, /LMS\.LaunchData/, 'the AU page carries the cmi5 adapter');
    assert.ok(zip['lesson.html'].length > 1_000_000);
    if (hasXmllint) {
      const r = xmllintValidate('cmi5', xml);
      assert.ok(r.ok, r.output);
    }

    const base = 'https://courses.example.org/pe';
    const some = await exportCmi5({ outDir: tmp, sections: 'long-context,rope', activityBase: base });
    const zip2 = unzipSync(new Uint8Array(readFileSync(some.file)));
    const cs2 = new XMLParser({ ignoreAttributes: false }).parse(strFromU8(zip2['cmi5.xml'])).courseStructure;
    // the page holds only the chosen sections
    const page = strFromU8(zip2['lesson.html']);
    assert.match(page, /<pe-exercise exercise="rope-rotated-pair"/);
    assert.doesNotMatch(page, /<pe-exercise exercise="sinusoidal-wavelength"/);
    assert.ok(zip2['lesson.html'].length < zip['lesson.html'].length);
    assert.equal(cs2.course['@_id'], base);
    // page order, whatever the order given
    assert.deepEqual(
      [cs2.au].flat().map((a) => [a['@_id'], a.url, a['@_masteryScore']]),
      [
        [`${base}/section/rope`, 'lesson.html?sections=rope', '0.8'],
        [`${base}/section/long-context`, 'lesson.html?sections=long-context', '0.8'],
      ],
    );
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});

test('export:cmi5: a bad --mastery, --sections or option is a clear error, on the command line too', async () => {
  await assert.rejects(
    exportCmi5({ outDir: '/nonexistent', mastery: 101 }),
    /--mastery must be a number from 0 to 100/,
  );
  await assert.rejects(exportCmi5({ outDir: '/nonexistent', sections: 'rope,nope' }), /--sections: .*"nope"/);
  await assert.rejects(exportCmi5({ outDir: '/nonexistent', activityBase: 'not an iri' }), /--activity-base/);
  // no base: refused, saying why (the placeholder would collide between institutions)
  await assert.rejects(
    exportCmi5({ outDir: '/nonexistent' }),
    new RegExp(
      `--activity-base is required: .*placeholder ${DEFAULT_ACTIVITY_BASE.replace(/[.]/g, '\\.')}, and two courses imported into one LRS would mix`,
    ),
  );
  const cli = (...args) =>
    spawnSync(process.execPath, ['scripts/export/export-cmi5.mjs', ...args], { cwd: root, encoding: 'utf8' });
  for (const [args, message] of [
    [['--mastery', 'eighty'], /--mastery must be a number from 0 to 100, not NaN/],
    [['--mastery'], /--mastery needs a value/],
    [['--sections', ''], /--sections/],
    [['--colour', 'red'], /unknown option --colour/],
  ]) {
    const r = cli('--out', '/nonexistent/never', ...args);
    assert.equal(r.status, 1, args.join(' '));
    assert.match(r.stderr, message);
    assert.ok(!existsSync('/nonexistent/never'));
  }
});

test('cmi5 AU: the launch URL, LMS.LaunchData and the context template, read as cmi5 has them', () => {
  const actor = { name: 'Ann', account: { homePage: 'https://lms.example.org', name: 'a1' } };
  const q = (o) => new URLSearchParams(o).toString();
  const full = {
    endpoint: 'https://lrs.example.org/xapi',
    fetch: 'https://lms.example.org/f/1',
    actor: JSON.stringify(actor),
    registration: '5D1E6F2A-8B3C-4D7E-9F10-A1B2C3D4E5F6',
    activityId: 'https://x.example/au',
  };
  const { launch } = cmi5Launch(q(full));
  assert.equal(launch.endpoint, 'https://lrs.example.org/xapi/');
  assert.equal(launch.registration, '5d1e6f2a-8b3c-4d7e-9f10-a1b2c3d4e5f6');
  assert.deepEqual(launch.actor, { objectType: 'Agent', ...actor });
  assert.match(cmi5Launch('').error, /not launched by a cmi5 LMS/);
  assert.match(cmi5Launch(q({ ...full, endpoint: '' })).error, /lacks endpoint/);
  assert.match(cmi5Launch(q({ ...full, actor: '{name' })).error, /actor is not JSON/);
  assert.match(cmi5Launch(q({ ...full, actor: '{"name":"Ann"}' })).error, /not an xAPI Agent/);
  assert.match(cmi5Launch(q({ ...full, registration: 'r1' })).error, /not a UUID/);

  const template = {
    contextActivities: { grouping: [{ id: 'https://x.example/au-publisher' }] },
    extensions: { [SESSION_EXTENSION]: 's1' },
  };
  const good = {
    contextTemplate: template,
    launchMode: 'Normal',
    masteryScore: 0.6,
    moveOn: 'Passed',
    returnURL: 'https://lms.example.org/back',
  };
  assert.deepEqual(checkLaunchData(good).data, {
    contextTemplate: template,
    sessionId: 's1',
    launchMode: 'Normal',
    masteryScore: 0.6,
    moveOn: 'Passed',
    returnURL: 'https://lms.example.org/back',
  });
  assert.equal(checkLaunchData({ ...good, masteryScore: undefined }).data.masteryScore, null);
  assert.match(checkLaunchData(null).error, /not a JSON object/);
  assert.match(checkLaunchData({ ...good, contextTemplate: { extensions: {} } }).error, /session id/);
  assert.match(checkLaunchData({ ...good, launchMode: 'Play' }).error, /launchMode/);
  assert.match(checkLaunchData({ ...good, masteryScore: 80 }).error, /masteryScore/);
  assert.match(checkLaunchData({ ...good, moveOn: 'Finished' }).error, /moveOn/);

  const statement = {
    context: {
      registration: 'old',
      contextActivities: { parent: [{ id: 'p' }], grouping: [{ id: 'lesson' }] },
      extensions: { mine: 1 },
    },
  };
  const merged = withTemplate(statement, template, 'r', ['https://w3id.org/xapi/cmi5/context/categories/cmi5']).context;
  assert.equal(merged.registration, 'r');
  assert.deepEqual(merged.contextActivities, {
    parent: [{ id: 'p' }],
    grouping: [{ id: 'https://x.example/au-publisher' }, { id: 'lesson' }],
    category: [{ id: 'https://w3id.org/xapi/cmi5/context/categories/cmi5', objectType: 'Activity' }],
  });
  assert.deepEqual(merged.extensions, { mine: 1, [SESSION_EXTENSION]: 's1' });
});
