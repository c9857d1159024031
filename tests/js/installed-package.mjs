// The package as a consumer gets it: `npm pack` of this checkout, installed
// with `npm install --offline` into a fresh temporary project. Shared by
// tests/js/package.test.mjs (Node, TypeScript) and
// tests/browser/consumer.test.mjs (a page bundled by esbuild).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * A consumer's code (module source) that fills `out.simd` and `out.scalar`
 * with the sinusoidal table of fixture case `c` from `loadPosenc` (which the
 * code around it imports), for comparing with PyTorch's.
 */
export function sinusoidalBothBuilds(c, loader = 'loadPosenc') {
  const args = `${Number(c.params.max_len)}, ${Number(c.params.d_model)}, { base: ${Number(c.params.base)} }`;
  return `
    const out = {};
    for (const simd of [true, false]) {
      const pe = await ${loader}({ simd });
      out[simd ? 'simd' : 'scalar'] = Array.from(pe.sinusoidal(${args}));
    }
    out.args = [${args}];
  `;
}

/** { project, tarball, files, remove() }: `files` are the tarball's paths. */
export function installPackedPackage(prefix = 'posenc-consumer-') {
  const project = mkdtempSync(path.join(tmpdir(), prefix));
  try {
    const packed = JSON.parse(
      execFileSync('npm', ['pack', '--json', '--pack-destination', project], { cwd: root, encoding: 'utf8' }),
    );
    const tarball = path.join(project, packed[0].filename);
    writeFileSync(
      path.join(project, 'package.json'),
      JSON.stringify({ name: 'consumer', version: '1.0.0', private: true, type: 'module' }),
    );
    execFileSync(
      'npm',
      ['install', '--offline', '--no-audit', '--no-fund', '--loglevel=error', `./${path.basename(tarball)}`],
      { cwd: project, encoding: 'utf8' },
    );
    return {
      project,
      tarball,
      files: packed[0].files.map((f) => f.path),
      remove: () => rmSync(project, { recursive: true, force: true }),
    };
  } catch (e) {
    rmSync(project, { recursive: true, force: true });
    throw e;
  }
}
