// The npm package as a user gets it: the `npm pack` tarball of this checkout installed into
// a fresh directory and imported by name from there. scripts/test.sh installs it once and
// passes the directory in TESSERA_APP_DIR; a test file run alone installs its own (and
// `npm pack` builds the WebAssembly first).
//
//   node tests/wasm/package.mjs DIR [--no-build]   installs the package into DIR
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { REPO } from '../crosscheck/engines.mjs';

/** Packs this checkout and installs the tarball into `dir` (an app with its own package.json). */
export function installPackage(dir, { build = true } = {}) {
  fs.mkdirSync(dir, { recursive: true });
  // The build (npm's prepack script) runs first on its own: run by `npm pack`, its output
  // would land in the JSON on stdout.
  if (build) execFileSync('scripts/build-wasm.sh', { cwd: REPO, stdio: ['ignore', process.stderr, 'inherit'] });
  const packArgs = ['pack', '--json', '--ignore-scripts', '--pack-destination', dir];
  const [{ filename }] = JSON.parse(execFileSync('npm', packArgs, { cwd: REPO, encoding: 'utf8' }));
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'tessera-user-app', private: true }));
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', `./${filename}`],
    { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
  return path.join(dir, filename);
}

let installed = null;

/** The directory holding the installed package. */
export function appDir() {
  if (process.env.TESSERA_APP_DIR) return process.env.TESSERA_APP_DIR;
  if (!installed) {
    installed = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-app-'));
    process.on('exit', () => fs.rmSync(installed, { recursive: true, force: true }));
    installPackage(installed);
  }
  return installed;
}

/** Imports `specifier` ('tessera', 'tessera/convert') the way the app's own code would resolve it. */
export function importFromApp(specifier) {
  const require = createRequire(path.join(appDir(), 'package.json'));
  return import(pathToFileURL(require.resolve(specifier)).href);
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [dir, flag] = process.argv.slice(2);
  if (!dir) throw new Error('usage: node tests/wasm/package.mjs DIR [--no-build]');
  console.log(installPackage(path.resolve(dir), { build: flag !== '--no-build' }));
}
