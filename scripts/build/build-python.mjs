// What <pe-code-exercise> loads besides the widgets, made from npm packages
// (both pinned in package-lock.json; run by scripts/build/build.sh):
//   1. web/pyodide/: Pyodide's runtime, the files loadPyodide reads from its
//      indexURL (the interpreter, its wasm, the standard library, the lock
//      file), copied from node_modules/pyodide: nothing comes from a CDN
//   2. web/gen/code-editor.js: web/lib/python/code-editor.js (CodeMirror 6) bundled
//      into one minified ES module, imported on the first code exercise
// Both are built and git-ignored, like web/wasm/.
import { copyFileSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { ESBUILD_OPTIONS } from '../export/export.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const web = path.join(root, 'web');

/** The files of the pyodide package that a page loads (and nothing else of it). */
export const PYODIDE_FILES = [
  'pyodide.mjs',
  'pyodide.asm.js',
  'pyodide.asm.wasm',
  'python_stdlib.zip',
  'pyodide-lock.json',
];

export async function buildPython({ out = web } = {}) {
  const from = path.join(root, 'node_modules/pyodide');
  mkdirSync(path.join(out, 'pyodide'), { recursive: true });
  let pyodideBytes = 0;
  for (const f of PYODIDE_FILES) {
    copyFileSync(path.join(from, f), path.join(out, 'pyodide', f));
    pyodideBytes += statSync(path.join(out, 'pyodide', f)).size;
  }
  const result = await build({
    ...ESBUILD_OPTIONS, // one minified ES module in memory, as every bundle of ours
    entryPoints: [path.join(web, 'lib/python/code-editor.js')],
    legalComments: 'none',
  });
  mkdirSync(path.join(out, 'gen'), { recursive: true });
  const editor = result.outputFiles[0].contents;
  writeFileSync(path.join(out, 'gen/code-editor.js'), editor);
  return { pyodideBytes, editorBytes: editor.length };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { pyodideBytes, editorBytes } = await buildPython();
  console.log(
    `build-python: web/pyodide/ (${(pyodideBytes / 1e6).toFixed(1)} MB), web/gen/code-editor.js (${(editorBytes / 1024).toFixed(0)} KiB)`,
  );
}
