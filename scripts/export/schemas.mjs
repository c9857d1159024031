// Validating the LMS packages' XML with xmllint (tests/js/schemas.test.mjs
// and the export tests): the schemas themselves, and what the packages carry,
// are lms/schemas.mjs's (shipped in the npm package).
//
//   xmllintValidate(kind, xml) -> { ok, output }: xmllint --nonet, offline
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { schemaFiles, VALIDATION_SCHEMA } from '../../lms/schemas.mjs';

export { schemaFiles, schemaLocation, validationSchema, VALIDATION_SCHEMA } from '../../lms/schemas.mjs';

/**
 * Validates `xml` (a manifest or cmi5.xml) with xmllint against the schemas of
 * `kind`, offline (--nonet). Throws when xmllint is missing (../setup/setup.sh installs
 * libxml2-utils).
 */
export function xmllintValidate(kind, xml) {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'posenc-xsd-'));
  try {
    for (const [name, bytes] of Object.entries(schemaFiles(kind))) writeFileSync(path.join(tmp, name), bytes);
    writeFileSync(path.join(tmp, 'document.xml'), xml);
    // the command docs/embedding.md gives for an unzipped package
    const r = spawnSync('xmllint', ['--noout', '--nonet', '--schema', VALIDATION_SCHEMA, 'document.xml'], {
      cwd: tmp,
      encoding: 'utf8',
    });
    if (r.error)
      throw new Error(
        `schemas: xmllint could not run (${r.error.code}); scripts/setup/setup.sh installs libxml2-utils`,
      );
    const output = `${r.stdout}${r.stderr}`.trim();
    // xmllint says "warning: failed to load external entity" for a schema it
    // could not find and then skips that import: count that as a failure too
    return { ok: r.status === 0 && !/failed to load|Skipping the import/.test(output), output };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
