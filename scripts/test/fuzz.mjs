// `npm run fuzz`: the fuzzers, for as long as you like.
//
//   node scripts/test/fuzz.mjs [--seconds S] [--js-calls N] [--seed K] [--native-only | --js-only] [--runs R]
//
//   JS API fuzzer (tests/fuzz/api-fuzz.mjs): N calls (default 200,000) per
//     wasm build (SIMD, scalar, and the trainer build), in runs of 5,000 with seeds K, K+1, ...; reports the calls,
//     how many returned and threw, and the heap before and after.
//   libFuzzer (tests/fuzz/fuzz_core.cpp, build/fuzz, ASan + UBSan): each
//     variant (SIMD kernels, scalar twins) for S seconds (default 120), or R
//     runs with --runs (what `npm test` does: a short, seeded run). What a
//     run learns stays in build/fuzz/corpus-<variant> and seeds the next run
//     on this machine; crashes go to build/fuzz/crash-*.
//
// A crash prints how to reproduce it; make it a regression test in
// tests/test_<concept>.cpp before fixing. Exit status 1 on any finding.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const argv = process.argv.slice(2);
const flag = (name) => argv.includes(name);
const value = (name, fallback) => {
  const i = argv.indexOf(name);
  if (i < 0) return fallback;
  const v = Number(argv[i + 1]);
  if (!Number.isFinite(v) || v < 0) {
    console.error(`fuzz: ${name} needs a non-negative number, got ${argv[i + 1]}`);
    process.exit(2);
  }
  return v;
};
const seconds = value('--seconds', 120);
const runs = value('--runs', 0);
const jsCalls = value('--js-calls', 200000);
const seed = value('--seed', 1);
let findings = 0;

function buildNative() {
  const dir = path.join(root, 'build/fuzz');
  const env = { ...process.env, CXX: process.env.POSENC_FUZZ_CXX ?? 'clang++-14' };
  const configure = spawnSync(
    'cmake',
    [
      '-S',
      '.',
      '-B',
      dir,
      '-DCMAKE_BUILD_TYPE=RelWithDebInfo',
      '-DPOSENC_TESTS=OFF',
      '-DPOSENC_FUZZ=ON',
      '-DPOSENC_SANITIZE=fuzzer-no-link,address,undefined',
    ],
    { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  if (configure.status !== 0)
    throw new Error('fuzz: configuring build/fuzz failed (needs clang++-14 and libclang-rt-14-dev)');
  const build = spawnSync('cmake', ['--build', dir, '-j', process.env.POSENC_JOBS ?? String(availableParallelism())], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (build.status !== 0) throw new Error('fuzz: building build/fuzz failed');
  return dir;
}

function runNative(dir) {
  for (const variant of ['native', 'native-scalar']) {
    const exe = path.join(dir, `posenc_fuzz_${variant}`);
    const corpus = path.join(dir, `corpus-${variant}`);
    mkdirSync(corpus, { recursive: true });
    const budget = runs > 0 ? [`-runs=${runs}`] : [`-max_total_time=${seconds}`];
    const args = [...budget, `-seed=${seed}`, '-print_final_stats=1', `-artifact_prefix=${dir}/`, corpus];
    const started = Date.now();
    const r = spawnSync(exe, args, { encoding: 'utf8', maxBuffer: 1 << 28 });
    const out = `${r.stdout}\n${r.stderr}`;
    const executed = Number(out.match(/stat::number_of_executed_units:\s*(\d+)/)?.[1] ?? 0);
    const s = ((Date.now() - started) / 1000).toFixed(1);
    if (r.status !== 0) {
      findings++;
      const artifact = out.match(/Test unit written to (\S+)/)?.[1];
      console.log(
        out
          .split('\n')
          .filter((l) => !/^#\d+\s/.test(l))
          .slice(-60)
          .join('\n'),
      );
      console.log(`fuzz: libFuzzer (${variant}) FOUND A BUG after ${executed} inputs (${s} s).`);
      if (artifact) console.log(`fuzz: reproduce with: ${exe} ${artifact}`);
    } else {
      console.log(
        `fuzz: libFuzzer (${variant}, ASan + UBSan): ${executed} inputs in ${s} s, no finding (corpus ${readdirSync(corpus).length} units)`,
      );
    }
  }
}

async function runJs() {
  const { loadPosenc } = await import('../../web/posenc.js');
  const { fuzzApi } = await import('../../tests/fuzz/api-fuzz.mjs');
  const builds = {
    simd: await loadPosenc({ simd: true }),
    scalar: await loadPosenc({ simd: false }),
    'trainer SIMD': await loadPosenc({ simd: true, trainer: true }),
  };
  for (const [name, pe] of Object.entries(builds)) {
    const other = name === 'simd' ? builds.scalar : builds.simd;
    const before = pe.memoryStats();
    const started = Date.now();
    const total = { calls: 0, returned: 0, threw: 0, validCalls: 0, canaryChecks: 0 };
    try {
      for (let k = seed; total.calls < jsCalls; k++) {
        const s = fuzzApi(pe, { calls: Math.min(5000, jsCalls - total.calls), seed: k, other });
        for (const key of Object.keys(total)) total[key] += s[key];
      }
    } catch (e) {
      findings++;
      console.log(`fuzz: JS API (${name}) FOUND A BUG: ${e.message}`);
      continue;
    }
    const after = pe.memoryStats();
    const kib = (b) => `${(b / 1024).toFixed(1)} KiB`;
    console.log(
      `fuzz: JS API (${name}): ${total.calls} calls in ${((Date.now() - started) / 1000).toFixed(1)} s ` +
        `(${total.returned} returned, ${total.threw} threw a clear Error, ${total.validCalls} all-valid, ${total.canaryChecks} known-answer checks after errors); ` +
        `wasm heap ${kib(before.wasmBytes)} -> ${kib(after.wasmBytes)}, allocated ${kib(before.allocatedBytes)} -> ${kib(after.allocatedBytes)} ` +
        `(scratch ${kib(after.scratchBytes)}), JS handles held ${after.jsHandles}`,
    );
  }
}

if (!flag('--native-only')) await runJs();
if (!flag('--js-only')) runNative(buildNative());
console.log(`fuzz: ${findings === 0 ? 'no findings' : `${findings} finding(s)`}`);
process.exit(findings === 0 ? 0 : 1);
