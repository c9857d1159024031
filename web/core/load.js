// Loading the compute core's wasm builds (used by web/posenc.js).
//
// Each build's two files are named here with literal paths, one per file, so
// that a bundler building a site (Vite, webpack, rspack) can follow them: the
// glue as `import('../wasm/posenc-<variant>.js')`, the .wasm as
// `new URL('../wasm/posenc-<variant>.wasm', import.meta.url)`. A template URL
// would reach a bundler as a glob, which it cannot resolve.
//
// Authors who copy web/wasm/ somewhere else (a CDN) pass `wasmBase`; that path
// is an ordinary runtime import that bundlers leave alone.

import { typeError } from './check.js';

// The smallest module that uses a v128 instruction: validates only where
// WebAssembly SIMD is supported (same probe as wasm-feature-detect).
const SIMD_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11,
]);

/** True when this engine can run the SIMD build. */
export function simdSupported() {
  try {
    return typeof WebAssembly === 'object' && WebAssembly.validate(SIMD_PROBE);
  } catch {
    return false;
  }
}

const isNode = typeof process === 'object' && !!process.versions && !!process.versions.node;

// variant -> its glue module (a thunk, so only the build in use is loaded)
// and its .wasm URL. The keys are web/posenc.js's BUILD_VARIANTS.
const BUILDS = {
  simd: {
    glue: () => import('../wasm/posenc-simd.js'),
    wasm: () => new URL('../wasm/posenc-simd.wasm', import.meta.url),
  },
  scalar: {
    glue: () => import('../wasm/posenc-scalar.js'),
    wasm: () => new URL('../wasm/posenc-scalar.wasm', import.meta.url),
  },
  'train-simd': {
    glue: () => import('../wasm/posenc-train-simd.js'),
    wasm: () => new URL('../wasm/posenc-train-simd.wasm', import.meta.url),
  },
  'train-scalar': {
    glue: () => import('../wasm/posenc-train-scalar.js'),
    wasm: () => new URL('../wasm/posenc-train-scalar.wasm', import.meta.url),
  },
};

// Builds bundled into the page itself (the single-file export, where there is
// no server to fetch web/wasm/ from): variant -> { factory, wasmBinary }.
const embeddedBuilds = new Map();

function describe(v) {
  if (typeof v === 'string') return `the string ${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)}`;
  if (v === null) return 'null';
  if (Array.isArray(v)) return `an Array of length ${v.length}`;
  return typeof v === 'object' ? `a ${v.constructor?.name ?? 'object'}` : `${typeof v} ${String(v)}`;
}

/**
 * Makes a build available without fetching it: `factory` is the Emscripten
 * module factory (the default export of wasm/posenc-<variant>.js) and
 * `wasmBinary` its .wasm bytes. Used by scripts/export/export.mjs.
 */
export function registerEmbeddedBuild(variant, factory, wasmBinary) {
  if (!Object.hasOwn(BUILDS, variant)) {
    throw typeError(
      `registerEmbeddedBuild: variant must be one of ${Object.keys(BUILDS)
        .map((v) => `'${v}'`)
        .join(', ')}, got ${describe(variant)}`,
    );
  }
  embeddedBuilds.set(variant, { factory, wasmBinary });
}

/**
 * `wasmBase` as loadPosenc accepts it (undefined, a string or a URL) -> a URL
 * ending in '/', or undefined; anything else throws a TypeError.
 */
export function resolveWasmBase(wasmBase) {
  if (wasmBase === undefined) return undefined;
  if (typeof wasmBase !== 'string' && !(wasmBase instanceof URL)) {
    throw typeError(
      `loadPosenc: wasmBase must be a string or a URL (the folder holding posenc-<variant>.js and .wasm), got ${describe(wasmBase)}`,
    );
  }
  const base = typeof document === 'object' && document ? document.baseURI : undefined;
  let url;
  try {
    url = base ? new URL(wasmBase, base) : new URL(wasmBase);
  } catch {
    throw typeError(`loadPosenc: wasmBase must be a valid URL, got ${describe(String(wasmBase))}`);
  }
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return url;
}

/** Instantiates a build: the embedded one, else from `wasmBase` (a URL), else the package's own files. */
export async function instantiate(variant, wasmBase) {
  const embedded = embeddedBuilds.get(variant);
  if (embedded) return embedded.factory({ wasmBinary: embedded.wasmBinary });
  let factory;
  let wasmUrl;
  if (wasmBase) {
    wasmUrl = new URL(`posenc-${variant}.wasm`, wasmBase);
    ({ default: factory } = await import(
      /* webpackIgnore: true */ /* @vite-ignore */ new URL(`posenc-${variant}.js`, wasmBase).href
    ));
  } else {
    const build = BUILDS[variant];
    wasmUrl = build.wasm();
    ({ default: factory } = await build.glue());
  }
  const options = { locateFile: () => wasmUrl.href };
  if (isNode && wasmUrl.protocol === 'file:') {
    // Emscripten 3.1.6's web glue cannot fetch a file: URL in Node; hand it the bytes.
    // Through process.getBuiltinModule, not import(): a bundler building a
    // site for the browser (esbuild, webpack, rspack, Vite) then has no
    // Node-only module to resolve or warn about.
    const { readFile } = process.getBuiltinModule('fs/promises');
    options.wasmBinary = await readFile(wasmUrl);
  }
  return factory(options);
}
