// The code's layout is the formatters', not anyone's habit: Prettier for the
// JavaScript (.prettierrc.json, .prettierignore), clang-format 14 for the C++
// (.clang-format). Run `npx prettier --write .` or `clang-format-14 -i` on a
// file this test names.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const tracked = (...globs) =>
  execFileSync('git', ['ls-files', ...globs], { cwd: root, encoding: 'utf8' })
    .split('\n')
    .filter(Boolean);

test(
  'the JavaScript is as Prettier writes it',
  { skip: !tracked('package.json').length && 'not a git checkout' },
  () => {
    const prettier = path.join(root, 'node_modules/prettier/bin/prettier.cjs');
    const r = spawnSync(
      process.execPath,
      [prettier, '--list-different', 'web/**/*.js', 'scripts/**/*.mjs', 'tests/**/*.mjs'],
      { cwd: root, encoding: 'utf8' },
    );
    assert.equal(r.stdout.trim(), '', `not formatted (npx prettier --write <file>):\n${r.stdout}${r.stderr}`);
    assert.equal(r.status, 0, r.stderr);
  },
);

test(
  'the C++ is as clang-format 14 writes it',
  { skip: !tracked('package.json').length && 'not a git checkout' },
  () => {
    const files = tracked('cpp/*.cpp', 'cpp/*.h', 'tests/*.cpp', 'tests/*.h');
    assert.ok(files.length > 40, `${files.length} C++ files`);
    const r = spawnSync('clang-format-14', ['--dry-run', '--Werror', ...files], { cwd: root, encoding: 'utf8' });
    assert.equal(r.error, undefined, 'clang-format-14 is installed by scripts/setup.sh');
    const named = [...new Set([...r.stderr.matchAll(/^([^:\s]+):\d+:\d+: (?:error|warning)/gm)].map((m) => m[1]))];
    assert.deepEqual(named, [], `not formatted (clang-format-14 -i <file>): ${named.join(', ')}`);
    assert.equal(r.status, 0, r.stderr.slice(0, 2000));
  },
);
