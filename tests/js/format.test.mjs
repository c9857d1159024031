// The code's layout is the formatters', not anyone's habit: Prettier for
// everything `npx prettier --check .` checks (.prettierrc.json, and
// .prettierignore says what is left out), clang-format 14 for the C++
// (.clang-format). Run `npx prettier --write <file>` or `clang-format-14 -i
// <file>` on a file this test names. Both need the repository (its ignore
// file, its list of tracked files): outside a git checkout (an unpacked
// package, a copy of the tree) they are skipped, and say so.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
// the checkout's top folder, or null when root is not the top of one (no git, or no repository here)
const git = (...args) => spawnSync('git', args, { cwd: root, encoding: 'utf8' });
const top = git('rev-parse', '--show-toplevel');
const checkout = top.status === 0 && realpathSync(top.stdout.trim()) === realpathSync(root);
const skip = !checkout && `not a git checkout (${root}): the formatting is checked in the repository only`;
const tracked = (...globs) =>
  git('ls-files', ...globs)
    .stdout.split('\n')
    .filter(Boolean);

test('everything Prettier checks is as Prettier writes it (npx prettier --check .)', { skip }, () => {
  const prettier = path.join(root, 'node_modules/prettier/bin/prettier.cjs');
  const r = spawnSync(process.execPath, [prettier, '--list-different', '.'], { cwd: root, encoding: 'utf8' });
  assert.equal(r.stdout.trim(), '', `not formatted (npx prettier --write <file>):\n${r.stdout}${r.stderr}`);
  assert.equal(r.status, 0, r.stderr);
});

test('the C++ is as clang-format 14 writes it', { skip }, () => {
  const files = tracked('cpp/*.cpp', 'cpp/*.h', 'tests/*.cpp', 'tests/*.h');
  assert.ok(files.length > 40, `${files.length} C++ files`);
  const r = spawnSync('clang-format-14', ['--dry-run', '--Werror', ...files], { cwd: root, encoding: 'utf8' });
  assert.equal(r.error, undefined, 'clang-format-14 is installed by scripts/setup/setup.sh');
  const named = [...new Set([...r.stderr.matchAll(/^([^:\s]+):\d+:\d+: (?:error|warning)/gm)].map((m) => m[1]))];
  assert.deepEqual(named, [], `not formatted (clang-format-14 -i <file>): ${named.join(', ')}`);
  assert.equal(r.status, 0, r.stderr.slice(0, 2000));
});
