// The XML an LMS reads from a package, for the lesson's exports
// (scripts/export/export-scorm.mjs, export-cmi5.mjs) and an author's page
// (lms/export.mjs, the `posenc-course export` command): SCORM 1.2's and 2004
// 4th edition's imsmanifest.xml, with the title and description as inline LOM
// metadata (IMS MD 1.2.1 in 1.2, IEEE LOM in 2004), and cmi5's cmi5.xml.
// The schemas each names are lms/schemas.mjs's; tests/js/schemas.test.mjs
// validates them with xmllint.
//
//   manifest12({ mastery, meta: { title, description }, title?, bySection?, sco?, identifier? })
//   manifest2004(the same)
//     mastery: percent 0..100; bySection: [{ id, title }] for one item per
//     section (each launching the SCO with ?sections=<id>); sco: the page's
//     path in the zip
//   courseStructure({ courseId, title, description, aus: [{ id, title, description, url }], mastery })
import { schemaLocation } from './schemas.mjs';
import { DEFAULT_ACTIVITY_BASE } from '../web/lib/reporting/xapi-statements.js';

/**
 * A cmi5 course's IRI base, which must be given: the course, each AU and
 * each question are named under it, and the placeholder would be the same
 * for every institution (two importing the course into one LRS would mix
 * their learners' records). Returns it without a trailing slash; throws
 * saying so (`command` names the command in the message).
 */
export function requireActivityBase(command, activityBase) {
  if (activityBase == null || activityBase === '')
    throw new Error(
      `${command}: --activity-base is required: the course's IRI (your institution's, e.g. https://lms.example.org/courses/posenc), under which the course, each AU and each question are named; without it every package would use the placeholder ${DEFAULT_ACTIVITY_BASE}, and two courses imported into one LRS would mix their learners' records`,
    );
  if (!/^https?:\/\/[^\s?#]+$/.test(activityBase))
    throw new Error(
      `${command}: --activity-base must be an http(s) IRI without query or fragment, not ${activityBase}`,
    );
  return activityBase.replace(/\/+$/, '');
}

export const escapeXml = (s) =>
  String(s).replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]);

/**
 * The organization's items: one for the whole SCO (`title`), or one per
 * section of `bySection` ([{ id, title }]), each launching the SCO with
 * ?sections=<id>.
 */
function itemsOf({ title, bySection = null }) {
  if (!bySection) return [{ identifier: 'posenc-item', title, parameters: null }];
  return bySection.map((s) => ({ identifier: `posenc-item-${s.id}`, title: s.title, parameters: `?sections=${s.id}` }));
}
const parametersAttr = (item) => (item.parameters ? ` parameters="${escapeXml(item.parameters)}"` : '');

// What differs between the two SCORM versions' manifests; the rest of the
// manifest (organization, items, resource) is written once, below.
const SCORM = {
  1.2: {
    identifier: 'posenc-course-scorm12',
    manifestVersion: '1.0',
    namespaces: `xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2"
          xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2"`,
    schemaversion: '1.2',
    // IMS Metadata 1.2.1
    lom: (meta) => `    <imsmd:lom xmlns:imsmd="http://www.imsglobal.org/xsd/imsmd_rootv1p2p1">
      <imsmd:general>
        <imsmd:title>
          <imsmd:langstring xml:lang="en">${escapeXml(meta.title)}</imsmd:langstring>
        </imsmd:title>
        <imsmd:language>en</imsmd:language>
        <imsmd:description>
          <imsmd:langstring xml:lang="en">${escapeXml(meta.description)}</imsmd:langstring>
        </imsmd:description>
      </imsmd:general>
    </imsmd:lom>`,
    itemAttributes: ' isvisible="true"',
    itemBody: (mastery) => `        <adlcp:masteryscore>${mastery}</adlcp:masteryscore>`,
    organizationBody: () => '',
    scormType: 'scormtype',
  },
  2004: {
    identifier: 'posenc-course-scorm2004',
    manifestVersion: '1',
    namespaces: `xmlns="http://www.imsglobal.org/xsd/imscp_v1p1"
          xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_v1p3"
          xmlns:adlseq="http://www.adlnet.org/xsd/adlseq_v1p3"
          xmlns:adlnav="http://www.adlnet.org/xsd/adlnav_v1p3"
          xmlns:imsss="http://www.imsglobal.org/xsd/imsss"`,
    schemaversion: '2004 4th Edition',
    // IEEE LOM
    lom: (meta) => `    <lom xmlns="http://ltsc.ieee.org/xsd/LOM">
      <general>
        <title>
          <string language="en">${escapeXml(meta.title)}</string>
        </title>
        <language>en</language>
        <description>
          <string language="en">${escapeXml(meta.description)}</string>
        </description>
      </general>
    </lom>`,
    itemAttributes: '',
    itemBody: (mastery) => `        <adlcp:completionThreshold completedByMeasure="true" minProgressMeasure="1.0"/>
        <imsss:sequencing>
          <imsss:objectives>
            <imsss:primaryObjective objectiveID="posenc-quizzes" satisfiedByMeasure="true">
              <imsss:minNormalizedMeasure>${(mastery / 100).toFixed(2)}</imsss:minNormalizedMeasure>
            </imsss:primaryObjective>
          </imsss:objectives>
          <imsss:deliveryControls completionSetByContent="true" objectiveSetByContent="true"/>
        </imsss:sequencing>`,
    // several SCOs: the learner picks any (choice) or goes on to the next (flow)
    organizationBody: (bySection) =>
      bySection
        ? '\n      <imsss:sequencing>\n        <imsss:controlMode choice="true" flow="true"/>\n      </imsss:sequencing>'
        : '',
    scormType: 'scormType',
  },
};

function scormManifest(
  version,
  { mastery, meta, title = meta.title, bySection = null, sco = 'index.html', identifier = SCORM[version].identifier },
) {
  const v = SCORM[version];
  const item = (it) =>
    `      <item identifier="${escapeXml(it.identifier)}" identifierref="posenc-sco"${v.itemAttributes}${parametersAttr(it)}>
        <title>${escapeXml(it.title)}</title>
${v.itemBody(mastery)}
      </item>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="${escapeXml(identifier)}" version="${v.manifestVersion}"
          ${v.namespaces}
          xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
          xsi:schemaLocation="${schemaLocation(version)}">
  <metadata>
    <schema>ADL SCORM</schema>
    <schemaversion>${v.schemaversion}</schemaversion>
${v.lom(meta)}
  </metadata>
  <organizations default="posenc-org">
    <organization identifier="posenc-org">
      <title>${escapeXml(title)}</title>
${itemsOf({ title, bySection }).map(item).join('\n')}${v.organizationBody(bySection)}
    </organization>
  </organizations>
  <resources>
    <resource identifier="posenc-sco" type="webcontent" adlcp:${v.scormType}="sco" href="${escapeXml(sco)}">
      <file href="${escapeXml(sco)}"/>
    </resource>
  </resources>
</manifest>
`;
}

export const manifest12 = (options) => scormManifest('1.2', options);
export const manifest2004 = (options) => scormManifest('2004', options);

// ---------------------------------------------------------------- cmi5

const langstring = (s, lang) => `<langstring lang="${lang}">${escapeXml(s)}</langstring>`;

// aus: [{ id, title, description, url }]; mastery: percent 0..100
export function courseStructure({ courseId, title, description, aus, mastery, lang = 'en-US' }) {
  if (!Number.isFinite(mastery) || mastery < 0 || mastery > 100) {
    throw new Error(`cmi5: --mastery must be a number from 0 to 100, not ${mastery}`);
  }
  if (!Array.isArray(aus) || aus.length === 0) throw new Error('cmi5: a course needs at least one AU');
  // cmi5 masteryScore is a decimal from 0 to 1
  const masteryScore = String(Math.round(mastery * 100) / 10000);
  const au = (
    a,
  ) => `  <au id="${escapeXml(a.id)}" moveOn="Passed" masteryScore="${masteryScore}" launchMethod="AnyWindow">
    <title>${langstring(a.title, lang)}</title>
    <description>${langstring(a.description, lang)}</description>
    <url>${escapeXml(a.url)}</url>
  </au>
`;
  return `<?xml version="1.0" encoding="utf-8"?>
<courseStructure xmlns="https://w3id.org/xapi/profiles/cmi5/v1/CourseStructure.xsd"
                 xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
                 xsi:schemaLocation="${schemaLocation('cmi5')}">
  <course id="${escapeXml(courseId)}">
    <title>${langstring(title, lang)}</title>
    <description>${langstring(description, lang)}</description>
  </course>
${aus.map(au).join('')}</courseStructure>
`;
}
