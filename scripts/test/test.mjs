// `npm test`: builds everything and runs every suite, then prints one
// summary line. Stages (their ids in STAGES below; `npm test -- --stage js`
// runs one, `npm test -- tests/js/api.test.mjs` one file):
//   build     the four wasm modules (BUILD_VARIANTS), the lesson, the bundles,
//             and the Catch2 and libFuzzer builds (native, sanitize, fuzz, wasm)
//   native    Catch2, native (g++): SIMD kernels with their scalar twins, and
//             the scalar-only build
//   sanitize  the same under ASan + UBSan, built by clang
//   fuzz      a short seeded libFuzzer run over the core (also ASan + UBSan)
//   wasm      Catch2 as wasm under Node: SIMD build and scalar build
//   js        JS API tests (node --test) against both wasm builds (with a
//             short run of the API fuzzer), the printing helpers and every
//             live sample against recorded PyTorch output
//   chromium, firefox, webkit
//             browser tests, one stage per engine (POSENC_BROWSERS, default
//             all three): in Chromium every file of tests/browser/ (the lesson
//             page, its widgets, axe, embedding, reliability, the train lab);
//             in Firefox ESR and WebKitGTK the checks of tests/browser/engines/
//             (the lesson, embeds, file://, and in WebKit the scalar build
//             chosen by an engine without WebAssembly SIMD)
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { killTree } from '../run/kill-tree.mjs';
import { RETRIED_MARK } from '../../tests/browser/engines/drivers.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const results = [];

// A stage runs as its own process group. Its output is shown as it comes
// (or, for a stage with a `show` filter, once it has passed: only the lines
// kept; all of it if it failed). A stage still running after `minutes` is
// ended with everything it started, and fails: a browser that stops
// answering must not take CI's whole time (WebKit did once, in CI). A
// browser stage (`again`) that timed out runs once more from the start, and
// the summary says so; a second timeout fails it, and so does a check that
// failed in the first run before the timeout. Checks that hung and passed
// when run again (RETRIED_MARK) are counted in the summary too.
async function run(
  name,
  cmd,
  args,
  { cwd = root, parse, show = null, minutes = 30, again = false, beside = false } = {},
) {
  console.log(
    `\n=== ${name}: ${cmd} ${args.join(' ')}${beside ? ' (beside another stage: its output when it ends)' : ''}`,
  );
  // a stage that runs beside another keeps its output until it ends, so the two do not interleave
  if (beside) show ??= () => true;
  const started = Date.now();
  let r = await runOnce(name, cmd, args, { cwd, show, minutes });
  let note = '';
  let failedBefore = [];
  if (r.timedOut && again) {
    // node --test's top-level failures, not counting todo checks
    failedBefore = r.stdout.split('\n').filter((l) => /^not ok \d+ /.test(l) && !/# TODO/.test(l));
    console.log(`\n=== ${name}: running it once more after the timeout`);
    r = await runOnce(name, cmd, args, { cwd, show, minutes });
    note = `, run a second time after the first timed out at ${minutes} min${failedBefore.length ? ` (having failed first: ${failedBefore.join('; ')})` : ''}`;
  }
  const retried = r.stdout.split('\n').filter((l) => l.includes(RETRIED_MARK)).length;
  if (retried) note += `, ${retried} check${retried > 1 ? 's' : ''} run again after a hang (see ${RETRIED_MARK})`;
  const counts = parse ? parse(`${r.stdout}\n${r.stderr}`) : null;
  const ok = r.code === 0 && !r.timedOut && !failedBefore.length;
  results.push({ name, ok, counts, note, seconds: (Date.now() - started) / 1000 });
  if (!ok)
    console.log(`=== ${name} FAILED (${r.timedOut ? `timed out after ${minutes} min` : `exit ${r.code ?? r.signal}`})`);
  return ok;
}

async function runOnce(name, cmd, args, { cwd, show, minutes }) {
  const child = spawn(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  // in a group of its own the stage does not get Ctrl+C from the terminal: pass it on
  const stop = (sig) => (killTree(child.pid, { group: true }), process.exit(sig === 'SIGINT' ? 130 : 143));
  process.once('SIGINT', stop).once('SIGTERM', stop);
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d) => {
    stdout += d;
    if (!show) process.stdout.write(d);
  });
  child.stderr.setEncoding('utf8').on('data', (d) => {
    stderr += d;
    process.stderr.write(d);
  });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    console.log(`\n=== ${name}: still running after ${minutes} min; ending it and everything it started`);
    killTree(child.pid, { group: true });
  }, minutes * 60_000);
  const [code, signal] = await new Promise((resolve) => {
    child.once('error', (e) => ((stderr += `${e.message}\n`), resolve([null, 'spawn failed'])));
    child.once('close', (c, s) => resolve([c, s]));
    // the output pipes close when every process holding them has gone; one
    // that escaped the kill must not hold the run: 10 s after the exit, go on
    child.once('exit', (c, s) => setTimeout(() => resolve([c, s]), 10_000).unref());
  });
  clearTimeout(timer);
  process.off('SIGINT', stop).off('SIGTERM', stop);
  if (show) process.stdout.write(`${code === 0 ? stdout.split('\n').filter(show).join('\n') : stdout}\n`);
  return { code, signal, timedOut, stdout, stderr };
}

// ctest counts test files; Catch2's own lines (ctest -V) give the cases and
// assertions inside them.
function ctestCounts(out) {
  const m = out.match(/(\d+)% tests passed, (\d+) tests failed out of (\d+)/);
  if (!m) return null;
  let cases = 0;
  let assertions = 0;
  for (const c of out.matchAll(/All tests passed \((\d+) assertions? in (\d+) test cases?\)/g)) {
    assertions += Number(c[1]);
    cases += Number(c[2]);
  }
  return {
    passed: Number(m[3]) - Number(m[2]),
    failed: Number(m[2]),
    detail: `${cases} Catch2 test cases, ${assertions} assertions`,
  };
}
// the test files of a folder (tests/js, tests/browser), relative to the root
const testFiles = (dir) =>
  readdirSync(path.join(root, dir))
    .filter((f) => f.endsWith('.test.mjs'))
    .map((f) => path.join(dir, f));

const ctestSummaryLines = (line) => /Test +#|tests passed|Total Test time|All tests passed/.test(line);

function nodeTestCounts(out) {
  const pass = out.match(/^# pass (\d+)/m);
  const fail = out.match(/^# fail (\d+)/m);
  // todo: checks that run but are known open problems (not counted as failures)
  const todo = Number(out.match(/^# todo (\d+)/m)?.[1] ?? 0);
  return pass
    ? {
        passed: Number(pass[1]),
        failed: Number(fail?.[1] ?? 0),
        ...(todo ? { detail: `${todo} known open problems run as todo` } : {}),
      }
    : null;
}

// The JS and Chromium stages run two test files at a time, one per core of
// the 2-core machines this runs on (node's default, one fewer than the
// cores, ran them one by one: 57.6 s for the JS stage, 38.7 s at two)
const FILES_AT_ONCE = '--test-concurrency=2';

// The stages, in the order they run. `npm test -- --stage <id>` runs some
// (a comma list, or the option again); `npm test -- <file>...` runs those
// test files, each in its stage. `needs` is what of the build a stage reads:
// 'modules' (scripts/build/build.sh: the wasm modules, the lesson page, the
// bundles) or 'tests' (build.sh --tests: the Catch2 and libFuzzer builds
// too). The build always runs first (it does nothing where nothing
// changed), as far as the chosen stages need it.
const STAGES = [
  {
    id: 'native',
    needs: 'tests',
    run: () =>
      run('Catch2 native (SIMD and scalar builds)', 'ctest', ['-V', '-j2'], {
        cwd: path.join(root, 'build/native'),
        parse: ctestCounts,
        show: ctestSummaryLines,
      }),
  },
  {
    id: 'sanitize',
    needs: 'tests',
    run: () =>
      run('Catch2 native under ASan + UBSan (clang)', 'ctest', ['-V', '-j2'], {
        cwd: path.join(root, 'build/sanitize'),
        parse: ctestCounts,
        show: ctestSummaryLines,
      }),
  },
  {
    id: 'fuzz',
    needs: 'tests',
    run: () =>
      run(
        'libFuzzer over the core, short seeded run (ASan + UBSan; npm run fuzz for longer)',
        process.execPath,
        ['scripts/test/fuzz.mjs', '--native-only', '--runs', '40000'],
        {
          parse: (out) => {
            const ok = /fuzz: no findings/.test(out);
            const inputs = [...out.matchAll(/: (\d+) inputs in/g)].map((m) => Number(m[1]));
            return {
              passed: ok ? 1 : 0,
              failed: ok ? 0 : 1,
              detail: `${inputs.reduce((a, b) => a + b, 0)} inputs over 2 variants`,
            };
          },
        },
      ),
  },
  {
    id: 'wasm',
    needs: 'tests',
    run: () =>
      run('Catch2 wasm (SIMD and scalar builds, under node)', 'ctest', ['-V', '-j2'], {
        cwd: path.join(root, 'build/wasm'),
        parse: ctestCounts,
        show: ctestSummaryLines,
      }),
  },
  {
    id: 'js',
    needs: 'modules',
    files: () => testFiles('tests/js'),
    run: (files) =>
      run(
        'JS API, printing and live samples vs PyTorch (node --test, both builds)',
        process.execPath,
        ['--test', FILES_AT_ONCE, ...files],
        { parse: nodeTestCounts },
      ),
  },
  {
    id: 'chromium',
    needs: 'modules',
    browser: true,
    files: () => testFiles('tests/browser'),
    // much of a browser test is waiting (a server, a worker, Python
    // starting), and its waits are for conditions, not for times: two files
    // at a time took the stage from 7 m 1 s to 5 m 22 s here
    run: (files) =>
      run('Browser tests in Chromium (playwright-core)', process.execPath, ['--test', FILES_AT_ONCE, ...files], {
        parse: nodeTestCounts,
        minutes: 20,
        again: true,
      }),
  },
  {
    id: 'firefox',
    needs: 'modules',
    browser: true,
    files: () => ['tests/browser/engines/firefox.test.mjs'],
    beside: 'engines',
    run: (files, how) =>
      run('Browser tests in Firefox ESR (puppeteer-core, WebDriver BiDi)', process.execPath, ['--test', ...files], {
        parse: nodeTestCounts,
        minutes: 15,
        again: true,
        ...how,
      }),
  },
  {
    id: 'webkit',
    needs: 'modules',
    browser: true,
    files: () => ['tests/browser/engines/webkit.test.mjs'],
    // the two engines' checks run at the same time: each waits on its
    // browser and its WebDriver more than it computes
    beside: 'engines',
    run: (files, how) => {
      // WebKitGTK needs a display: a virtual one unless there is one already
      const [cmd, args] = process.env.DISPLAY ? [process.execPath, []] : ['xvfb-run', ['-a', process.execPath]];
      return run(
        'Browser tests in WebKitGTK (selenium-webdriver, WebKitWebDriver; scalar build with JSC_useWasmSIMD=0)',
        cmd,
        [...args, '--test', ...files],
        { parse: nodeTestCounts, minutes: 15, again: true, ...how },
      );
    },
  },
];

const USAGE = `usage: npm test [-- [--stage <id>[,<id>...]]... [<test file>...]]
  stages: build, ${STAGES.map((s) => s.id).join(', ')}
    (the build runs first, as far as the chosen stages need it; --stage build alone builds everything)
  test files: tests/js/*.test.mjs (stage js), tests/browser/*.test.mjs (chromium),
    tests/browser/engines/firefox.test.mjs, tests/browser/engines/webkit.test.mjs`;

/**
 * From the command line: `stages`, [stage, its files (null: all of them)]
 * for each stage to run, and `everything` (build the Catch2 and libFuzzer
 * trees too); exits 2 on an unknown stage, option or file.
 */
function plan(argv) {
  const ids = new Set();
  const files = new Map();
  const refuse = (why) => {
    console.error(`npm test: ${why}\n${USAGE}`);
    process.exit(2);
  };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split('=', 2);
    if (flag === '--stage') {
      const value = inline ?? argv[++i];
      if (!value) refuse('--stage needs a stage name');
      for (const id of value.split(',').map((s) => s.trim())) {
        if (id !== 'build' && !STAGES.some((s) => s.id === id)) refuse(`unknown stage "${id}"`);
        ids.add(id);
      }
    } else if (flag === '--help' || flag === '-h') {
      console.log(USAGE);
      process.exit(0);
    } else if (flag.startsWith('-')) {
      refuse(`unknown option ${argv[i]}`);
    } else {
      const file = path.relative(root, path.resolve(argv[i]));
      const stage = STAGES.find((s) => s.files?.().includes(file));
      if (!stage) refuse(`${argv[i]} is not a test file of any stage`);
      files.set(stage.id, [...(files.get(stage.id) ?? []), file]);
    }
  }
  if (!ids.size && !files.size) {
    const all = STAGES.filter((s) => !s.browser || browsersToTest().includes(s.id)).map((s) => [s, null]);
    return { stages: all, everything: true };
  }
  const stages = STAGES.filter((s) => ids.has(s.id) || files.has(s.id)).map((s) => [
    s,
    ids.has(s.id) ? null : files.get(s.id),
  ]);
  return { stages, everything: ids.has('build') || stages.some(([s]) => s.needs === 'tests') };
}

const { stages, everything } = plan(process.argv.slice(2));
const built = await run('build', 'bash', ['scripts/build/build.sh', ...(everything ? ['--tests'] : [])]);
// consecutive stages with the same `beside` run at the same time (each keeps its
// output until it ends); the others one after another
if (built)
  for (let i = 0; i < stages.length;) {
    const group = [stages[i++]];
    while (i < stages.length && stages[i][0].beside && stages[i][0].beside === group[0][0].beside)
      group.push(stages[i++]);
    await Promise.all(group.map(([stage, files]) => stage.run(files ?? stage.files?.(), { beside: group.length > 1 })));
  }

// POSENC_BROWSERS=chromium (or firefox, webkit, a comma list) runs those engines only
function browsersToTest() {
  if (process.env.POSENC_BROWSER_TESTS === '0') return [];
  const all = STAGES.filter((s) => s.browser).map((s) => s.id);
  const asked = (process.env.POSENC_BROWSERS ?? all.join(','))
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  const unknown = asked.filter((e) => !all.includes(e));
  if (unknown.length) {
    console.log(`POSENC_BROWSERS: unknown engine ${unknown.join(', ')} (choose from ${all.join(', ')})`);
    results.push({ name: 'POSENC_BROWSERS', ok: false, counts: null, seconds: 0 });
  }
  return asked;
}

let passed = 0;
let failed = 0;
console.log('\n=== summary');
for (const r of results) {
  const c = r.counts
    ? `${r.counts.passed} passed, ${r.counts.failed} failed${r.counts.detail ? ` (${r.counts.detail})` : ''}`
    : r.ok
      ? 'ok'
      : 'FAILED';
  console.log(`${r.ok ? 'ok  ' : 'FAIL'} ${r.name}: ${c} (${r.seconds.toFixed(1)} s${r.note ?? ''})`);
  if (r.counts) {
    passed += r.counts.passed;
    failed += r.counts.failed;
  }
  if (!r.ok && !(r.counts && r.counts.failed)) failed += 1;
}
console.log(`total: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 && results.every((r) => r.ok) ? 0 : 1);
