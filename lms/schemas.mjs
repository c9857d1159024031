// The XML schemas the LMS packages carry and are validated against: SCORM
// 1.2 and SCORM 2004 4th edition control files, and cmi5's
// CourseStructure.xsd, vendored in lms/schemas/ (provenance in its
// README.md). SCORM packages put them at the zip root, beside
// imsmanifest.xml, where the manifest's xsi:schemaLocation names them, with
// a wrapper schema (posenc-validate.xsd) for xmllint, which takes one schema
// file and does not follow xsi:schemaLocation: an unzipped package then
// validates with
//
//   xmllint --noout --nonet --schema posenc-validate.xsd imsmanifest.xml   (cmi5: cmi5.xml)
//
//   schemaFiles(kind)      -> { 'imscp_v1p1.xsd': Uint8Array, ..., 'posenc-validate.xsd': ... } for the zip
//   schemaLocation(kind)   -> the manifest's xsi:schemaLocation text
//   validationSchema(kind) -> the wrapper: an xsd that imports every namespace the document uses
//
// kind: '1.2' | '2004' | 'cmi5'. Shipped in the npm package (the
// `posenc-course export` command packages an author's page with them).
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'schemas');

// namespace -> schema file, in the order xsi:schemaLocation lists them.
// Every import among the vendored files is relative (xml.xsd, ims_xml.xsd are
// local copies), so nothing is fetched from the network.
const KINDS = {
  1.2: {
    folder: 'scorm12',
    namespaces: [
      ['http://www.imsproject.org/xsd/imscp_rootv1p1p2', 'imscp_rootv1p1p2.xsd'],
      ['http://www.imsglobal.org/xsd/imsmd_rootv1p2p1', 'imsmd_rootv1p2p1.xsd'],
      ['http://www.adlnet.org/xsd/adlcp_rootv1p2', 'adlcp_rootv1p2.xsd'],
    ],
  },
  // The package ships no IEEE LOM schema (lom.xsd and its common/ extend/
  // unique/ vocab/ folders), so the 2004 manifest's <lom> is not named here;
  // imscp_v1p1.xsd takes metadata from other namespaces laxly, so it is
  // skipped, not refused.
  2004: {
    folder: 'scorm2004',
    namespaces: [
      ['http://www.imsglobal.org/xsd/imscp_v1p1', 'imscp_v1p1.xsd'],
      ['http://www.adlnet.org/xsd/adlcp_v1p3', 'adlcp_v1p3.xsd'],
      ['http://www.adlnet.org/xsd/adlseq_v1p3', 'adlseq_v1p3.xsd'],
      ['http://www.adlnet.org/xsd/adlnav_v1p3', 'adlnav_v1p3.xsd'],
      ['http://www.imsglobal.org/xsd/imsss', 'imsss_v1p0.xsd'],
    ],
  },
  cmi5: {
    folder: 'cmi5',
    namespaces: [['https://w3id.org/xapi/profiles/cmi5/v1/CourseStructure.xsd', 'CourseStructure.xsd']],
  },
};

function kindOf(kind) {
  const k = KINDS[String(kind)];
  if (!k) throw new Error(`schemas: unknown kind ${JSON.stringify(kind)} (1.2, 2004 or cmi5)`);
  return k;
}

/**
 * Every schema file of `kind` (with the DTDs xml.xsd names), keyed by its
 * path in the zip, and VALIDATION_SCHEMA, the one xmllint takes
 * (validationSchema), so an unzipped package validates with
 * `xmllint --noout --nonet --schema posenc-validate.xsd imsmanifest.xml`.
 */
export function schemaFiles(kind) {
  const { folder } = kindOf(kind);
  const files = {};
  for (const name of readdirSync(path.join(dir, folder)).sort()) {
    if (/\.(xsd|dtd)$/.test(name)) files[name] = new Uint8Array(readFileSync(path.join(dir, folder, name)));
  }
  files[VALIDATION_SCHEMA] = new TextEncoder().encode(validationSchema(kind));
  return files;
}

/** The file name of the wrapper schema every package carries. */
export const VALIDATION_SCHEMA = 'posenc-validate.xsd';

/** The xsi:schemaLocation text: namespace, file, namespace, file ... */
export function schemaLocation(kind) {
  return kindOf(kind)
    .namespaces.map(([ns, file]) => `${ns} ${file}`)
    .join(' ');
}

/** A schema importing every namespace of `kind`, to hand to xmllint --schema. */
export function validationSchema(kind) {
  const imports = kindOf(kind)
    .namespaces.map(([ns, file]) => `  <xsd:import namespace="${ns}" schemaLocation="${file}"/>`)
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<xsd:schema xmlns:xsd="http://www.w3.org/2001/XMLSchema">
${imports}
</xsd:schema>
`;
}
