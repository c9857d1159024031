#!/usr/bin/env bash
# Installs whatever the build and the tests need and is missing, from
# Debian's packages and the npm registry only. Safe to run again: it does
# nothing when everything is there. Called by `npm start` and `npm test`.
set -euo pipefail
cd "$(dirname "$0")/../.."

need=()
command -v cmake >/dev/null || need+=(cmake)
command -v g++ >/dev/null || need+=(g++)
command -v make >/dev/null || need+=(make)
command -v emcc >/dev/null || need+=(emscripten)
[ -f /usr/include/xsimd/xsimd.hpp ] || need+=(libxsimd-dev)
[ -f /usr/include/catch2/catch.hpp ] || need+=(catch2)
# the ASan + UBSan build and the libFuzzer target (npm test runs it briefly;
# npm run fuzz for longer)
command -v clang++-14 >/dev/null || need+=(clang-14)
# libsleef itself: tests/core/test_sleef.cpp holds sleef_powf against it
# natively, bit for bit (it fails without it)
compgen -G '/usr/lib/*/libsleef.so.3' >/dev/null || need+=(libsleef3)
# the C++ layout check (tests/js/format.test.mjs)
command -v clang-format-14 >/dev/null || need+=(clang-format-14)
compgen -G '/usr/lib/llvm-14/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a' >/dev/null || need+=(libclang-rt-14-dev)
# xmllint: the LMS manifests against their XSDs (tests/js/schemas.test.mjs)
command -v xmllint >/dev/null || need+=(libxml2-utils)
if [ "${POSENC_BROWSER_TESTS:-1}" = 1 ] && [ -f package.json ] && grep -q playwright-core package.json; then
  command -v chromium >/dev/null || need+=(chromium)
  # a font, so pages lay out the same on a bare machine as on a desktop
  [ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || need+=(fonts-dejavu-core)
  # the other engines of the browser stage (POSENC_BROWSERS picks engines)
  browsers="${POSENC_BROWSERS:-chromium,firefox,webkit}"
  if [[ ",$browsers," == *,firefox,* ]]; then
    command -v firefox-esr >/dev/null || need+=(firefox-esr)
  fi
  if [[ ",$browsers," == *,webkit,* ]]; then
    command -v WebKitWebDriver >/dev/null || need+=(webkit2gtk-driver)
    # WebKitGTK needs a display: a virtual one (xauth for xvfb-run)
    command -v xvfb-run >/dev/null || need+=(xvfb xauth)
  fi
fi

if [ ${#need[@]} -gt 0 ]; then
  echo "setup: installing Debian packages: ${need[*]}"
  sudo=()
  [ "$(id -u)" = 0 ] || sudo=(sudo)
  export DEBIAN_FRONTEND=noninteractive
  "${sudo[@]}" apt-get update -qq
  "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

# npm packages (the build copies Pyodide and bundles CodeMirror from them for
# the code exercises; nothing else is needed by the lesson at run time; the benchmark and
# browser tests use some). Reinstalled whenever package-lock.json changes.
# --prefer-offline: a package already in npm's cache is taken from it without
# asking the registry whether it changed (the lock pins each by its hash, so
# it cannot have); only what is missing is downloaded. It halved a bundler
# site's npm ci here (11-12 s to 5-8 s).
if [ -f package-lock.json ] && ! cmp -s package-lock.json node_modules/.posenc-installed-lock; then
  echo "setup: installing npm packages (npm ci)"
  npm ci --prefer-offline --no-audit --no-fund --loglevel=error
  cp package-lock.json node_modules/.posenc-installed-lock
fi

# The consumer tests' bundler sites (Vite, webpack, Rollup), each a course
# author's project pinned by its own committed lock
# (tests/browser/consumer-sites/<bundler>/package-lock.json), installed with
# npm ci into build/bundler-sites/<bundler>/ once per lock: the tests then
# fetch nothing.
if [ "${POSENC_BROWSER_TESTS:-1}" = 1 ] && [ -d tests/browser/consumer-sites ]; then
  node scripts/setup/consumer-sites.mjs
fi
