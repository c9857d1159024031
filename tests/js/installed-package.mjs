// The package as a consumer gets it: `npm pack` of this checkout, installed
// with `npm install --offline` into a fresh temporary project. Shared by
// tests/js/package.test.mjs (Node, TypeScript), tests/browser/consumer.test.mjs
// (a page bundled by esbuild) and the bundler sites (consumer-site.mjs).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const PACKED_DIR = path.join(root, 'build/packed');

/**
 * A hash of everything `npm pack` reads: package.json, the files npm always
 * adds, every file under the paths package.json's "files" names (a glob
 * stands for its whole folder: a superset, so any change that could reach
 * the tarball changes the hash) and npm's version.
 */
function packInputsHash() {
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  const hash = createHash('sha256');
  hash.update(execFileSync('npm', ['--version'], { encoding: 'utf8' }));
  const add = (rel) => {
    const abs = path.join(root, rel);
    if (!existsSync(abs)) return;
    const files = statSync(abs).isFile()
      ? [rel]
      : readdirSync(abs, { withFileTypes: true, recursive: true })
          .filter((e) => e.isFile())
          .map((e) => path.relative(root, path.join(e.parentPath, e.name)));
    for (const f of files.sort())
      hash
        .update(`${f}\0`)
        .update(readFileSync(path.join(root, f)))
        .update('\0');
  };
  const roots = ['package.json', 'README.md', 'LICENSE', '.npmignore', ...pkg.files.map((f) => f.split('*')[0])];
  for (const r of [...new Set(roots.map((r) => r.replace(/\/$/, '')))].sort()) add(r);
  return hash.digest('hex').slice(0, 16);
}

/**
 * `npm pack` of this checkout, packed once per content (build/packed/<hash>/,
 * git-ignored, like the rest of build/): the consumer tests of both stages
 * install the same tarball instead of packing 20 MB each. Returns
 * { tarball, files } (`files`: the tarball's paths, as npm pack lists them).
 */
export function packedPackage() {
  const dir = path.join(PACKED_DIR, packInputsHash());
  const listFile = path.join(dir, 'files.json');
  if (!existsSync(listFile)) {
    mkdirSync(PACKED_DIR, { recursive: true });
    const fresh = mkdtempSync(path.join(PACKED_DIR, 'packing-'));
    try {
      const packed = JSON.parse(
        execFileSync('npm', ['pack', '--json', '--pack-destination', fresh], { cwd: root, encoding: 'utf8' }),
      );
      writeFileSync(
        path.join(fresh, 'files.json'),
        JSON.stringify({ filename: packed[0].filename, files: packed[0].files.map((f) => f.path) }),
      );
      // the previous contents' tarballs go; another process packing the same contents may have won the race
      for (const old of readdirSync(PACKED_DIR))
        if (!old.startsWith('packing-')) rmSync(path.join(PACKED_DIR, old), { recursive: true, force: true });
      try {
        renameSync(fresh, dir);
      } catch (e) {
        if (!existsSync(listFile)) throw e;
      }
    } finally {
      rmSync(fresh, { recursive: true, force: true });
    }
  }
  const { filename, files } = JSON.parse(readFileSync(listFile, 'utf8'));
  return { tarball: path.join(dir, filename), files };
}

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
    const packed = packedPackage();
    const tarball = path.join(project, path.basename(packed.tarball));
    copyFileSync(packed.tarball, tarball);
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
      files: packed.files,
      remove: () => rmSync(project, { recursive: true, force: true }),
    };
  } catch (e) {
    rmSync(project, { recursive: true, force: true });
    throw e;
  }
}
