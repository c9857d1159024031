// The wasm builds as artifacts (the lesson's pair and the trainer's pair):
// a scalar fallback must hold no SIMD instruction at all (so it loads on an
// engine without WebAssembly SIMD), a SIMD build must really use v128 code,
// none may need eval (strict Content-Security-Policy) or a global Module,
// and the modules every page loads stay under 150 KB (the trainer's, loaded
// only by the training lab, may be larger).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const wasmDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/wasm');
const hasWasmDis = spawnSync('wasm-dis', ['--version']).status === 0;

function simdInstructions(file) {
  const r = spawnSync('wasm-dis', [path.join(wasmDir, file)], { encoding: 'utf8', maxBuffer: 1 << 28 });
  assert.equal(r.status, 0, r.stderr);
  return (r.stdout.match(/\b(v128|[if](8x16|16x8|32x4|64x2))\.[a-z_]+/g) ?? []).length;
}

describe('wasm builds', () => {
  for (const prefix of ['', 'train-']) {
    it(
      `posenc-${prefix}scalar holds no SIMD instruction`,
      { skip: !hasWasmDis && 'wasm-dis (binaryen) not installed' },
      () => {
        assert.equal(simdInstructions(`posenc-${prefix}scalar.wasm`), 0);
      },
    );

    it(
      `posenc-${prefix}simd holds SIMD instructions`,
      { skip: !hasWasmDis && 'wasm-dis (binaryen) not installed' },
      () => {
        assert.ok(simdInstructions(`posenc-${prefix}simd.wasm`) > 500);
      },
    );
  }

  it("web/wasm holds exactly BUILD_VARIANTS' modules, and posenc.d.ts declares the same list", async () => {
    const { BUILD_VARIANTS } = await import('../../web/posenc.js');
    const built = readdirSync(wasmDir)
      .filter((f) => f.endsWith('.wasm'))
      .map((f) => f.replace(/^posenc-|\.wasm$/g, ''));
    assert.deepEqual(built.sort(), [...BUILD_VARIANTS].sort(), 'CMake and build.sh read the list from posenc.js');
    const dts = readFileSync(path.join(wasmDir, '../posenc.d.ts'), 'utf8');
    const declared = /export const BUILD_VARIANTS: readonly \[([^\]]*)\]/
      .exec(dts)[1]
      .split(',')
      .map((v) => v.trim().replace(/'/g, ''));
    assert.deepEqual(declared, [...BUILD_VARIANTS]);
  });

  it("every heap view web/ reads on a module is in CMakeLists.txt's EXPORTED_RUNTIME_METHODS", () => {
    // Emscripten 3.1.6 puts every HEAP view on the module; newer releases only
    // the listed ones, so a view used but not listed breaks there, not here.
    const web = path.join(wasmDir, '..');
    const used = new Set();
    for (const f of readdirSync(web, { recursive: true })) {
      // built or third-party files, and the Python worker (it reads Pyodide's module, not ours)
      if (!f.endsWith('.js') || /^(wasm|gen|vendor|pyodide)\//.test(f) || f === 'workers/python-worker.js') continue;
      for (const m of readFileSync(path.join(web, f), 'utf8').matchAll(/\bHEAP(?:U?8|U?16|U?32|F32|F64|U?64)\b/g))
        used.add(m[0]);
    }
    const cmake = readFileSync(path.join(web, '../CMakeLists.txt'), 'utf8');
    const listed = /set\(POSENC_HEAP_VIEWS ([A-Z0-9,]+)\)/.exec(cmake)?.[1].split(',') ?? [];
    assert.match(cmake, /-sEXPORTED_RUNTIME_METHODS=\$\{POSENC_HEAP_VIEWS\}/);
    assert.ok(used.size >= 4, `views read: ${[...used]}`);
    assert.deepEqual([...used].filter((v) => !listed.includes(v)).sort(), [], `listed: ${listed}`);
  });

  it('the lesson modules stay under 150 KB each', () => {
    for (const variant of ['simd', 'scalar']) {
      const bytes = readFileSync(path.join(wasmDir, `posenc-${variant}.wasm`)).length;
      assert.ok(bytes <= 150 * 1024, `posenc-${variant}.wasm is ${bytes} bytes`);
    }
  });

  for (const variant of ['simd', 'scalar', 'train-simd', 'train-scalar']) {
    it(`${variant}: the glue is an ES module that needs neither eval nor a global Module`, () => {
      const glue = readFileSync(path.join(wasmDir, `posenc-${variant}.js`), 'utf8');
      assert.match(glue, /export default createPosencModule/);
      assert.doesNotMatch(glue, /\bnew Function\b|\beval\(/);
    });
  }
});
