// The XML schemas the LMS packages carry and are validated against
// (issue 34 item 4): SCORM 1.2 and SCORM 2004 4th edition control files, and
// cmi5's CourseStructure.xsd. Vendored under scripts/schemas/ (provenance in
// its README.md). SCORM packages put them at the zip root, beside
// imsmanifest.xml, where the manifest's xsi:schemaLocation names them.
//
//   schemaFiles(kind)     -> { 'imscp_v1p1.xsd': Uint8Array, ... } for the zip
//   schemaLocation(kind)  -> the manifest's xsi:schemaLocation text
//   validationSchema(kind) -> a wrapper xsd that imports every namespace the
//                             document uses (xmllint --schema takes one file;
//                             it does not follow xsi:schemaLocation then)
//   xmllintValidate(kind, xml) -> { ok, output }: xmllint --nonet, offline
//
// kind: '1.2' | '2004' | 'cmi5'.
import { readFileSync, readdirSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import os from 'node:os';
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

/** Every schema file of `kind` (with the DTDs xml.xsd names), keyed by its path in the zip. */
export function schemaFiles(kind) {
  const { folder } = kindOf(kind);
  const files = {};
  for (const name of readdirSync(path.join(dir, folder)).sort()) {
    if (/\.(xsd|dtd)$/.test(name)) files[name] = new Uint8Array(readFileSync(path.join(dir, folder, name)));
  }
  return files;
}

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

/**
 * Validates `xml` (a manifest or cmi5.xml) with xmllint against the schemas of
 * `kind`, offline (--nonet). Throws when xmllint is missing (setup.sh installs
 * libxml2-utils).
 */
export function xmllintValidate(kind, xml) {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'posenc-xsd-'));
  try {
    for (const [name, bytes] of Object.entries(schemaFiles(kind))) writeFileSync(path.join(tmp, name), bytes);
    writeFileSync(path.join(tmp, 'posenc-all.xsd'), validationSchema(kind));
    writeFileSync(path.join(tmp, 'document.xml'), xml);
    const r = spawnSync('xmllint', ['--nonet', '--noout', '--schema', 'posenc-all.xsd', 'document.xml'], {
      cwd: tmp,
      encoding: 'utf8',
    });
    if (r.error)
      throw new Error(`schemas: xmllint could not run (${r.error.code}); scripts/setup.sh installs libxml2-utils`);
    const output = `${r.stdout}${r.stderr}`.trim();
    // xmllint says "warning: failed to load external entity" for a schema it
    // could not find and then skips that import: count that as a failure too
    return { ok: r.status === 0 && !/failed to load|Skipping the import/.test(output), output };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
