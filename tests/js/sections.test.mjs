// Choosing sections (issue 34, item 4): web/lib/lesson/sections.js reads a choice
// the one way the page, the exports and cmi5 share; scripts/build/build-lesson.mjs
// builds a lesson of some sections (only their questions, samples and
// generators), and a lesson whose section file was removed still builds,
// dropping that section's samples and generators with a note; export.mjs
// --sections writes the smaller file; export-scorm's --sections and
// --sco-per-section manifests. (The browser side: tests/browser/sections.test.mjs.)
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync, unlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { unzipSync, strFromU8 } from 'fflate';
import { parseSections, questionIdsIn, selectedSections, sectionChoice } from '../../web/lib/lesson/sections.js';
import * as lessonData from '../../web/gen/lesson-data.js';
import { registerLesson } from '../../web/lib/lesson/lesson-registry.js';
import { buildLesson } from '../../scripts/build/build-lesson.mjs';
import { exportLesson } from '../../scripts/export/export.mjs';
import { exportScorm, manifest12, manifest2004 } from '../../scripts/export/export-scorm.mjs';
import { xmllintValidate } from '../../scripts/export/schemas.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const { sections, questionIds, quizzes, exercises, codeExercises } = lessonData;
// as the lesson page does: sections.js reads the registered lesson's sections
registerLesson(lessonData);
const tmp = mkdtempSync(path.join(os.tmpdir(), 'posenc-sections-'));
after(() => rmSync(tmp, { recursive: true, force: true }));
const known = sections.map((s) => s.id);
const sectionOf = (id) => (quizzes[id] ?? exercises[id] ?? codeExercises[id]).section;

test('parseSections: page order, each once, commas or spaces; unknown or empty named with the sections there are', () => {
  assert.deepEqual(parseSections('long-context, rope,rope'), { ids: ['rope', 'long-context'], error: null });
  assert.deepEqual(parseSections(' rope  sinusoidal '), { ids: ['sinusoidal', 'rope'], error: null });
  const one = parseSections('rope,alibi');
  assert.equal(one.ids, null);
  assert.equal(one.error, `Unknown section "alibi": this lesson has ${known.join(', ')}.`);
  assert.match(parseSections('x,y,x').error, /^Unknown sections "x", "y": this lesson has why-position, /);
  for (const empty of ['', ' , ', null])
    assert.match(
      parseSections(empty).error,
      /^No section named: give one or more section ids, separated by commas \(why-position, /,
    );
  // against another list (a lesson built with some sections)
  assert.match(parseSections('sinusoidal', ['rope']).error, /this lesson has rope\.$/);
});

test("questionIdsIn: the chosen sections' quizzes and exercises in page order; every question for null", () => {
  assert.deepEqual(questionIdsIn(null), questionIds);
  const chosen = questionIdsIn(['long-context', 'rope']);
  assert.deepEqual(
    chosen,
    questionIds.filter((id) => ['rope', 'long-context'].includes(sectionOf(id))),
  );
  assert.equal(chosen.length, 15);
  assert.deepEqual(questionIdsIn([]), []);
  // every question is in exactly one section
  assert.deepEqual(sections.flatMap((s) => s.questionIds).sort(), [...questionIds].sort());
});

test('selectedSections / sectionChoice read ?sections=a,b: none gives null (the whole lesson), a bad one null with its error', () => {
  assert.equal(selectedSections(''), null);
  assert.equal(selectedSections('?other=1'), null);
  assert.deepEqual(selectedSections('?sections=rope%2Clong-context&x=1'), ['rope', 'long-context']);
  assert.equal(selectedSections('?sections=nope'), null);
  assert.match(sectionChoice('?sections=nope').error, /^Unknown section "nope"/);
  assert.match(sectionChoice('?sections=').error, /^No section named/);
});

test('a lesson of some sections holds only their sections, questions, samples and generators, with their numbers and the references they cite', async () => {
  const whole = await buildLesson();
  const some = await buildLesson({ sections: 'long-context,rope' });
  assert.deepEqual(
    some.sections.map((s) => [s.number, s.id]),
    [
      [4, 'rope'],
      [8, 'long-context'],
    ],
  );
  assert.deepEqual(some.questionIds, questionIdsIn(['rope', 'long-context']));
  assert.ok(Object.values(some.quizzes).every((q) => ['rope', 'long-context'].includes(q.section)));
  assert.deepEqual(Object.keys(some.samples).sort(), [
    'long-context-rope-scaling',
    'long-context-score-memory',
    'rope-pairing',
    'rope-seats',
    'rope-vs-additive',
  ]);
  assert.deepEqual(some.notes, []);
  assert.deepEqual(
    [...some.page.matchAll(/<section id="([a-z-]+)"/g)].map((m) => m[1]),
    ['rope', 'long-context', 'references'],
  );
  assert.match(some.page, /<span class="section-number">4\.<\/span>/);
  assert.ok(
    !some.data.includes("'../samples/seat-vectors.js'") &&
      !some.data.includes("'../exercises/sinusoidal-wavelength.js'"),
  );
  assert.ok(some.data.includes("'../exercises/ntk-base.js'"));
  // it still knows every question of the lesson, so progress in the others is kept
  assert.ok(some.data.includes(`export const lessonQuestionIds = ${JSON.stringify(questionIds)};`));
  const refs = (page) => [...page.matchAll(/<li id="ref-([^"]+)"/g)].map((m) => m[1]);
  assert.ok(refs(some.page).length > 0 && refs(some.page).length < refs(whole.page).length);
  await assert.rejects(buildLesson({ sections: 'rope,alibi' }), /--sections: Unknown section "alibi"/);
});

test("removing a section's file: its samples and generators are dropped with a note; a sample its own section stops using is still an error", async () => {
  const dir = path.join(tmp, 'lesson');
  cpSync(path.join(root, 'lessons/positional-encoding'), dir, { recursive: true });
  unlinkSync(path.join(dir, '04-rope.md'));
  const built = await buildLesson({ lessonDir: dir });
  assert.deepEqual(
    built.sections.map((s) => s.id),
    known.filter((id) => id !== 'rope'),
  );
  assert.equal(built.sections[3].number, 4); // renumbered: it is the whole lesson now
  assert.deepEqual(
    built.notes.filter((n) => n.startsWith('web/')),
    [
      'web/samples/rope-pairing.js: dropped, its section rope is not in the lesson',
      'web/samples/rope-seats.js: dropped, its section rope is not in the lesson',
      'web/samples/rope-vs-additive.js: dropped, its section rope is not in the lesson',
      'web/exercises/rope-rotated-pair.js: dropped, its section rope is not in the lesson',
      'web/exercises/rope-shifted-score.js: dropped, its section rope is not in the lesson',
      'web/code-cases/rope-vector.js: dropped, its section rope is not in the lesson',
    ],
  );
  assert.deepEqual(
    built.notes.filter((n) => n.startsWith('code-exercises/')),
    ['code-exercises/rope-vector.yaml: dropped, its section rope is not in the lesson'],
  );
  assert.ok(!Object.values(built.quizzes).some((q) => q.section === 'rope'));

  // a leftover: the sinusoidal section no longer shows seat-vectors
  const file = path.join(dir, '02-sinusoidal.md');
  writeFileSync(file, readFileSync(file, 'utf8').replace(/```python sample=seat-vectors\n[\s\S]*?```\n/, ''));
  await assert.rejects(
    buildLesson({ lessonDir: dir }),
    /web\/samples\/seat-vectors\.js: sample is not used by any lesson/,
  );
});

test("export.mjs --sections: the file holds only those sections' questions and samples, and is smaller", async () => {
  const out = path.join(tmp, 'rope.html');
  const { bytes, sections: chosen } = await exportLesson({ out, sections: ['rope'] });
  assert.deepEqual(
    chosen.map((s) => s.id),
    ['rope'],
  );
  const html = readFileSync(out, 'utf8');
  for (const id of questionIdsIn(['rope'])) assert.ok(html.includes(id), id);
  for (const id of questionIdsIn(['sinusoidal', 'ablation']))
    assert.ok(!html.includes(`quiz="${id}"`) && !html.includes(`exercise="${id}"`), id);
  // (their ids are in the file only in lessonQuestionIds; their questions are not)
  const other = quizzes['sinusoidal-fastest-pair'].question;
  assert.ok(readFileSync(path.join(root, 'web/index.html'), 'utf8').includes(other) && !html.includes(other));
  // nor the lesson's text, the text lab's corpus: a lab given task="text" here says why it has none
  assert.ok(!html.includes('ablation-permutation-test'));
  assert.ok(html.includes('exported without the sections that train on the lesson'));
  const whole = await exportLesson({ out: path.join(tmp, 'whole.html') });
  // the wasm builds (about 1.2 MB of it) are in both
  assert.ok(bytes < whole.bytes - 250 * 1024, `${bytes} bytes against ${whole.bytes}`);
  await assert.rejects(
    exportLesson({ out, activityBase: 'not an iri' }),
    /--activity-base: The activity IRI base must be an absolute IRI/,
  );
});

test('export-scorm --sections and --sco-per-section: titles name the sections, one item per section with ?sections=<id>, the SCO holds only the chosen', async () => {
  const written = await exportScorm({
    outDir: tmp,
    versions: ['1.2'],
    sections: 'long-context,rope',
    scoPerSection: true,
  });
  assert.deepEqual(
    written.map((w) => path.basename(w.file)),
    ['posenc-scorm12-rope-long-context-by-section.zip'],
  );
  const files = unzipSync(readFileSync(written[0].file));
  const manifest = strFromU8(files['imsmanifest.xml']);
  assert.match(
    manifest,
    /<organization identifier="posenc-org">\s*<title>Positional encoding, computed live: Rotary position embedding \(RoPE\), [^<]+<\/title>/,
  );
  const items = [
    ...manifest.matchAll(
      /<item identifier="([^"]+)" identifierref="posenc-sco" isvisible="true" parameters="([^"]+)">\s*<title>([^<]+)<\/title>/g,
    ),
  ].map((m) => m.slice(1));
  assert.deepEqual(
    items.map(([id, parameters]) => [id, parameters]),
    [
      ['posenc-item-rope', '?sections=rope'],
      ['posenc-item-long-context', '?sections=long-context'],
    ],
  );
  assert.equal(items[0][2], sections.find((s) => s.id === 'rope').title);
  const html = strFromU8(files['lesson.html']);
  assert.deepEqual(
    [...html.matchAll(/<section id="([a-z-]+)"/g)].map((m) => m[1]),
    ['rope', 'long-context', 'references'],
  );
  assert.ok(
    !html.includes('exercise="sinusoidal-wavelength"') && !html.includes(quizzes['sinusoidal-fastest-pair'].question),
  );
  await assert.rejects(
    exportScorm({ outDir: tmp, versions: ['1.2'], sections: 'ropes' }),
    /export:scorm: --sections: Unknown section "ropes"/,
  );
});

test('manifests of one SCO per section (every section) validate against the SCORM 1.2 and 2004 XSDs', () => {
  const bySection = sections.map(({ id, title }) => ({ id, title }));
  for (const [kind, manifest] of [
    ['1.2', manifest12],
    ['2004', manifest2004],
  ]) {
    const xml = manifest({ mastery: 80, title: 'Positional encoding & more', bySection });
    assert.equal((xml.match(/<item /g) ?? []).length, sections.length);
    const { ok, output } = xmllintValidate(kind, xml);
    assert.ok(ok, `${kind}: ${output}`);
  }
});
