#!/usr/bin/env bash
# Builds the wasm modules (web/posenc.js's BUILD_VARIANTS: the lesson's core
# with SIMD and scalar, and the same two with the trainer) with Debian's
# Emscripten and copies them to web/wasm/, then builds the lesson page (web/index.html)
# from lessons/, then the package's bundles and manifest (scripts/build/bundles.mjs).
# With --tests, also builds the Catch2 suites: natively (build/native with
# g++, build/sanitize under ASan + UBSan with clang), as wasm (build/wasm),
# and the libFuzzer targets (build/fuzz).
set -euo pipefail
cd "$(dirname "$0")/../.."
# Debian's emcc finds acorn only through NODE_PATH (the machine's node is not Debian's).
export NODE_PATH=/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}
# as many compile jobs as the machine has cores (POSENC_JOBS overrides)
jobs=${POSENC_JOBS:-$(nproc 2>/dev/null || echo 2)}
tests=OFF
[ "${1:-}" = --tests ] && tests=ON

emcmake cmake -S . -B build/wasm -DCMAKE_BUILD_TYPE=Release -DPOSENC_TESTS=$tests >/dev/null
if [ $tests = ON ]; then
  cmake --build build/wasm -j "$jobs"
else
  cmake --build build/wasm -j "$jobs" --target posenc-modules
fi
mkdir -p web/wasm
variants=$(node --input-type=module -e "import('./web/posenc.js').then((m) => console.log(m.BUILD_VARIANTS.join(' ')))")
for v in $variants; do
  cp build/wasm/posenc-$v.js build/wasm/posenc-$v.wasm web/wasm/
done
echo "build: web/wasm/ holds $(ls web/wasm | tr '\n' ' ')"

# The lesson page, from lessons/ (numbers in it are computed by the core just built).
node scripts/build/build-lesson.mjs

# What the code exercises load: Pyodide copied from npm to web/pyodide/, and
# CodeMirror bundled to web/gen/code-editor.js (scripts/build/build-python.mjs).
node scripts/build/build-python.mjs

# What the npm package ships besides web/: custom-elements.json and
# web/widgets.d.ts (from the widgets' static params), dist/posenc-widgets.js
# and dist/anywidget.mjs (one file each, both core builds inlined).
node scripts/build/bundles.mjs

if [ $tests = ON ]; then
  cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build build/native -j "$jobs"
  # The same suites under AddressSanitizer and UndefinedBehaviorSanitizer,
  # built by clang (as the fuzz targets are; g++ builds build/native): g++
  # took 3-4 times clang's CPU on each sanitized test file, and this tree was
  # most of a fresh build (15 of 29 minutes here under load).
  cmake -S . -B build/sanitize -DCMAKE_CXX_COMPILER=clang++-14 -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DPOSENC_SANITIZE=address,undefined >/dev/null
  cmake --build build/sanitize -j "$jobs"
  # The libFuzzer targets over the core (clang; ASan + UBSan).
  CXX=clang++-14 cmake -S . -B build/fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPOSENC_TESTS=OFF \
    -DPOSENC_FUZZ=ON -DPOSENC_SANITIZE=fuzzer-no-link,address,undefined >/dev/null
  cmake --build build/fuzz -j "$jobs"
fi
