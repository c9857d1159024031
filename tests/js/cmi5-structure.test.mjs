import { test } from 'node:test';
import assert from 'node:assert/strict';
import { XMLParser } from 'fast-xml-parser';
import { courseStructure } from '../../scripts/export-cmi5.mjs';

const base = { courseId: 'https://x.example/c', title: 'T & t', description: 'D', aus: [{ id: 'https://x.example/c/rope', title: 'RoPE', description: 'd', url: 'rope.html' }] };

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
