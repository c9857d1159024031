// The bundler projects of the consumer tests (tests/browser/consumer-*.test.mjs:
// a course author's site built by Vite, webpack or Rollup from the packed
// package). Each is tests/browser/consumer-sites/<bundler>/: a package.json
// naming its bundler and plugins at exact versions and the package-lock.json
// that pins all they pull in (with integrity hashes). It is installed with
// `npm ci` into build/bundler-sites/<bundler>/ (git-ignored), once per lock:
// scripts/setup/setup.sh does it with everything else `npm test` needs, so the
// tests themselves fetch nothing.
//
//   node scripts/setup/consumer-sites.mjs     installs every site whose lock changed
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const SITES_SOURCE = path.join(root, 'tests/browser/consumer-sites');

/** The bundler sites there are: the folder names of tests/browser/consumer-sites/. */
export const siteNames = () =>
  readdirSync(SITES_SOURCE, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();

/**
 * build/bundler-sites/<name>/ with the packages of its committed lock
 * installed (npm ci), unless they already are (the lock installed last is
 * kept as .installed-lock). Returns { project, installed } (`installed`: npm
 * ci ran in this call).
 */
export function installSite(name) {
  const source = path.join(SITES_SOURCE, name);
  const lockFile = path.join(source, 'package-lock.json');
  if (!existsSync(lockFile)) throw new Error(`consumer site ${name}: no ${path.relative(root, lockFile)}`);
  const project = path.join(root, 'build/bundler-sites', name);
  const stamp = path.join(project, '.installed-lock');
  const lock = readFileSync(lockFile, 'utf8');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === lock && existsSync(path.join(project, 'node_modules')))
    return { project, installed: false };
  mkdirSync(project, { recursive: true });
  rmSync(stamp, { force: true });
  for (const f of ['package.json', 'package-lock.json']) copyFileSync(path.join(source, f), path.join(project, f));
  // npm ci: exactly the lock, or an error (never a newer version); from npm's
  // cache where it can (--prefer-offline: see scripts/setup/setup.sh)
  execFileSync('npm', ['ci', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: project,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  writeFileSync(stamp, lock);
  return { project, installed: true };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const name of siteNames()) {
    const { installed } = installSite(name);
    if (installed) console.log(`setup: installed the ${name} consumer site's packages (npm ci)`);
  }
}
