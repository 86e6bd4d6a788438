#!/usr/bin/env node
// @ts-check
// `node tools/sdk-package.js [--pack <dir>]`: builds the partners' SDK as the npm package
// it ships as, in dist/libs/sdk (what `nx build sdk` runs): TypeScript compiles
// libs/sdk/src (specs left out) into lib/ as CommonJS plus .d.ts declarations, beside
// package.json, README.md and CHANGELOG.md. With --pack, `npm pack` then writes the
// tarball into <dir> and its path is the last line printed.
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { ROOT, log, run } = require('./lib/workspace');

const SOURCE = path.join(ROOT, 'libs/sdk');
const PACKAGE = path.join(ROOT, 'dist/libs/sdk');
/** What the package holds beside lib/ (package.json's `files` adds CHANGELOG.md; npm adds README.md and package.json). */
const COPIED = ['package.json', 'README.md', 'CHANGELOG.md'];

/** @returns {string | undefined} the directory after --pack, if given */
function packDirectory() {
  const args = process.argv.slice(2);
  const at = args.indexOf('--pack');
  if (args.length === 0) return undefined;
  if (at !== 0 || args.length !== 2) {
    log('usage: node tools/sdk-package.js [--pack <dir>]');
    process.exit(2);
  }
  return path.resolve(args[1]);
}

function buildPackage() {
  // A fresh directory: a file the sources no longer have must not ship.
  fs.rmSync(PACKAGE, { recursive: true, force: true });
  run(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', path.join(SOURCE, 'tsconfig.lib.json')]);
  for (const file of COPIED) fs.copyFileSync(path.join(SOURCE, file), path.join(PACKAGE, file));
  const { name, version } = JSON.parse(fs.readFileSync(path.join(PACKAGE, 'package.json'), 'utf8'));
  log(`built ${name} ${version} -> ${path.relative(ROOT, PACKAGE)}`);
}

/** @param {string} directory */
function pack(directory) {
  fs.mkdirSync(directory, { recursive: true });
  const packed = spawnSync('npm', ['pack', PACKAGE, '--pack-destination', directory, '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8' });
  if (packed.status !== 0) {
    log(`npm pack failed: ${packed.stderr || packed.error}`);
    process.exit(packed.status ?? 1);
  }
  /** @type {{ filename: string }[]} */
  const [tarball] = JSON.parse(packed.stdout);
  process.stdout.write(`${path.join(directory, tarball.filename)}\n`);
}

const directory = packDirectory();
buildPackage();
if (directory) pack(directory);
