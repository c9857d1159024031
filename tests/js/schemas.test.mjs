// The LMS packages' XML against the official schemas (issue 34 item 4):
// imsmanifest.xml for SCORM 1.2 (IMS CP 1.1.2, ADL CP 1.2, IMS MD 1.2.1) and
// SCORM 2004 4th edition (IMS CP 1.1.4, ADL CP/Seq/Nav 1.3, IMS SS 1.0), and
// cmi5.xml against cmi5's CourseStructure.xsd, each with xmllint offline
// (--nonet) and the vendored schemas of lms/schemas/. A damaged document
// of each kind must fail, so a validator that accepts everything cannot pass.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { manifest12, manifest2004 } from '../../scripts/export/export-scorm.mjs';
import { courseStructure } from '../../scripts/export/export-cmi5.mjs';
import { schemaFiles, schemaLocation, validationSchema, xmllintValidate } from '../../scripts/export/schemas.mjs';

// a title that needs escaping, so the escaping is validated too
const meta = { title: 'Positional encoding <live> & "computed"', description: "RoPE, ALiBi & T5's buckets" };
const cmi5 = (over = {}) =>
  courseStructure({
    courseId: 'https://x.example/posenc',
    title: 'T & t',
    description: 'D',
    mastery: 80,
    aus: [{ id: 'https://x.example/posenc/lesson', title: 'Lesson', description: 'd', url: 'lesson.html' }],
    ...over,
  });

const docs = {
  1.2: () => manifest12({ mastery: 80, meta }),
  2004: () => manifest2004({ mastery: 80, meta }),
  cmi5: () => cmi5(),
};

// Each damage is one the schema itself forbids (IMS CP has no keyref, so a
// dangling identifierref is the LMS's check, not the schema's; see
// scorm-package.test.mjs).
const broken = {
  1.2: [
    ['a scormtype SCORM 1.2 does not have', (x) => x.replace('adlcp:scormtype="sco"', 'adlcp:scormtype="lesson"')],
    [
      'an element IMS MD does not have',
      (x) => x.replace(/<imsmd:language>en<\/imsmd:language>/, '<imsmd:lang>en</imsmd:lang>'),
    ],
    [
      'organizations after resources',
      (x) => x.replace(/(\s*<organizations[\s\S]*<\/organizations>)(\s*<resources[\s\S]*<\/resources>)/, '$2$1'),
    ],
  ],
  2004: [
    [
      'a minNormalizedMeasure above 1',
      (x) => x.replace(/<imsss:minNormalizedMeasure>[^<]*</, '<imsss:minNormalizedMeasure>1.5<'),
    ],
    ['a scormType SCORM does not have', (x) => x.replace('adlcp:scormType="sco"', 'adlcp:scormType="lesson"')],
    [
      "a title after the item's sequencing",
      (x) =>
        x.replace(
          /(<item identifier="posenc-item"[^>]*>)(\s*<title>[^<]*<\/title>)([\s\S]*?<\/imsss:sequencing>)/,
          '$1$3$2',
        ),
    ],
  ],
  cmi5: [
    ['a moveOn cmi5 does not have', (x) => x.replace('moveOn="Passed"', 'moveOn="Finished"')],
    ['an AU without a url', (x) => x.replace(/\s*<url>[^<]*<\/url>/, '')],
  ],
};

const XSI = 'http://www.w3.org/2001/XMLSchema-instance';
// no skip without xmllint: npm test runs scripts/setup/setup.sh, which installs it,
// and xmllintValidate says so when it is missing

for (const kind of ['1.2', '2004', 'cmi5']) {
  test(`${kind}: valid against the vendored schemas`, () => {
    const { ok, output } = xmllintValidate(kind, docs[kind]());
    assert.ok(ok, output);
    assert.match(output, /document\.xml validates/);
  });

  // the lesson's own title and description (lesson.yaml), at both ends of --mastery
  for (const mastery of [0, 100]) {
    test(`${kind}: valid with mastery ${mastery} and the lesson's own metadata`, () => {
      const xml =
        kind === '1.2' ? manifest12({ mastery }) : kind === '2004' ? manifest2004({ mastery }) : cmi5({ mastery });
      const { ok, output } = xmllintValidate(kind, xml);
      assert.ok(ok, output);
    });
  }

  // The root names its schemas as ADL's own packages do; until the manifest
  // writes xsi:schemaLocation itself, the test adds it, so the text
  // schemaLocation() gives is known to validate.
  test(`${kind}: the root's xsi:schemaLocation names the shipped schemas and validates`, () => {
    let xml = docs[kind]();
    const named = xml.match(/\sxsi:schemaLocation="([^"]*)"/);
    if (named) assert.equal(named[1].trim().replace(/\s+/g, ' '), schemaLocation(kind));
    else
      xml = xml.replace(
        /<(manifest|courseStructure)\b/,
        `$& xmlns:xsi="${XSI}" xsi:schemaLocation="${schemaLocation(kind)}"`,
      );
    const { ok, output } = xmllintValidate(kind, xml);
    assert.ok(ok, output);
  });

  for (const [what, damage] of broken[kind]) {
    test(`${kind}: ${what} fails`, () => {
      const good = docs[kind]();
      const bad = damage(good);
      assert.notEqual(bad, good, 'the damage changed nothing: the manifest changed shape');
      const { ok, output } = xmllintValidate(kind, bad);
      assert.ok(!ok, `xmllint accepted it:\n${output}`);
      assert.match(output, /fails to validate/);
    });
  }
}

test('schema files: every file xsi:schemaLocation and the imports name is shipped, no URL is fetched', () => {
  const refs = {};
  for (const kind of ['1.2', '2004', 'cmi5']) {
    const files = schemaFiles(kind);
    const names = Object.keys(files);
    const loc = schemaLocation(kind).split(' ');
    assert.equal(loc.length % 2, 0);
    for (let i = 1; i < loc.length; i += 2) assert.ok(names.includes(loc[i]), `${kind}: ${loc[i]} not shipped`);
    for (const [name, bytes] of Object.entries(files)) {
      // the references in markup, not the examples in the documentation
      const text = new TextDecoder()
        .decode(bytes)
        .replace(/<(xsd?):documentation>[\s\S]*?<\/\1:documentation>/g, '')
        .replace(/<!NOTATION[^>]*>/g, ''); // a notation's URL names, it is never fetched
      // schemaLocation="x" (import, include); PUBLIC "id" "x" and SYSTEM "x" (DOCTYPE, ENTITY)
      for (const [, , , ref] of text.matchAll(
        /(?:schemaLocation\s*=\s*|PUBLIC\s+(["'])[^"']*\1\s+|SYSTEM\s+)(["'])([^"']+)\2/g,
      )) {
        assert.ok(
          !/^[a-z]+:/i.test(ref) && names.includes(ref),
          `${kind}: ${name} refers to ${ref}, not a shipped file`,
        );
        refs[kind] = (refs[kind] ?? 0) + 1;
      }
    }
    assert.match(validationSchema(kind), /<xsd:import /);
  }
  // 1.2: adlcp -> imscp, imscp and imsmd -> ims_xml; 2004: imscp -> xml.xsd ->
  // XMLSchema.dtd -> datatypes.dtd, and imsss's 13 includes; cmi5 has none;
  // and the wrapper xmllint takes (posenc-validate.xsd) imports each namespace
  // the document uses: 3, 5 and 1
  assert.deepEqual(refs, { 1.2: 3 + 3, 2004: 16 + 5, cmi5: 1 });
  assert.throws(() => schemaFiles('1.3'), /unknown kind/);
});
