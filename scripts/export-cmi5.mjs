// `npm run export:cmi5` (first part, issue 34 item 3): the cmi5 course
// structure, cmi5.xml. The AU pages and the zip are not written yet.
//
// moveOn is "Passed": the mastery score is what the author grades on, so an
// AU is satisfied only when the learner reaches it; "CompletedOrPassed" would
// let a learner who reached the end below mastery move on.
const escapeXml = (s) => String(s).replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]);
const langstring = (s, lang) => `<langstring lang="${lang}">${escapeXml(s)}</langstring>`;

// aus: [{ id, title, description, url }]; mastery: percent 0..100
export function courseStructure({ courseId, title, description, aus, mastery, lang = 'en-US' }) {
  if (!Number.isFinite(mastery) || mastery < 0 || mastery > 100) {
    throw new Error(`cmi5: --mastery must be a number from 0 to 100, not ${mastery}`);
  }
  if (!Array.isArray(aus) || aus.length === 0) throw new Error('cmi5: a course needs at least one AU');
  // cmi5 masteryScore is a decimal from 0 to 1
  const masteryScore = String(Math.round(mastery * 100) / 10000);
  const au = (a) => `  <au id="${escapeXml(a.id)}" moveOn="Passed" masteryScore="${masteryScore}" launchMethod="AnyWindow">
    <title>${langstring(a.title, lang)}</title>
    <description>${langstring(a.description, lang)}</description>
    <url>${escapeXml(a.url)}</url>
  </au>
`;
  return `<?xml version="1.0" encoding="utf-8"?>
<courseStructure xmlns="https://w3id.org/xapi/profiles/cmi5/v1/CourseStructure.xsd">
  <course id="${escapeXml(courseId)}">
    <title>${langstring(title, lang)}</title>
    <description>${langstring(description, lang)}</description>
  </course>
${aus.map(au).join('')}</courseStructure>
`;
}
