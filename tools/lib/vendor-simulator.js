// @ts-check
// The vendor simulator (apps/vendor-simulator) as `npm start`, the benchmark and the chaos
// run start it: three simulated vendors over HTTP on loopback, supervised like the apps,
// with their own schema in the platform's database. The platform reaches them with
// VENDOR_SIMULATOR_URL, as it would reach a real vendor, with credentials of their own.
const { randomBytes } = require('node:crypto');
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');
const { freePort, portAnswers } = require('./workspace');

const VENDORS = ['atlas', 'borealis', 'cobalt'];
/** Whose credentials are made: the vendors', and the sandbox desk's (every sandbox prebook and booking goes there). */
const COUNTERS = [...VENDORS, 'sandbox'];
const CREDENTIALS = { API_KEY: 'api-key', SECRET: 'secret' };

/** @typedef {keyof typeof CREDENTIALS} CredentialKind */

/**
 * Where a simulated vendor's credential is kept under secretsDir.
 * @param {string} secretsDir
 * @param {string} vendor
 * @param {CredentialKind} kind
 */
function credentialFile(secretsDir, vendor, kind) {
  return path.join(secretsDir, 'vendor-simulator', `${vendor}-${CREDENTIALS[kind]}`);
}

/**
 * The simulated vendors' credentials: created where missing (32 random bytes each, an
 * owner-only file under secretsDir/vendor-simulator, kept across restarts), as the
 * environment the simulator and the services that call it read them from
 * (VENDOR_<VENDOR>_API_KEY_FILE, VENDOR_<VENDOR>_SECRET_FILE; the variables themselves
 * emptied). No process then runs with the development values every clone shares.
 * @param {string} secretsDir
 */
function simulatorCredentialsEnv(secretsDir) {
  fs.mkdirSync(path.join(secretsDir, 'vendor-simulator'), { recursive: true, mode: 0o700 });
  /** @type {Record<string, string>} */
  const env = {};
  for (const vendor of COUNTERS) {
    for (const kind of /** @type {CredentialKind[]} */ (Object.keys(CREDENTIALS))) {
      const file = credentialFile(secretsDir, vendor, kind);
      try {
        fs.writeFileSync(file, `${randomBytes(32).toString('base64url')}\n`, { mode: 0o600, flag: 'wx' });
      } catch (error) {
        if (error.code !== 'EEXIST') throw error;
      }
      const name = `VENDOR_${vendor.toUpperCase()}_${kind}`;
      env[name] = '';
      env[`${name}_FILE`] = file;
    }
  }
  return env;
}

/**
 * One simulated vendor's credentials as simulatorCredentialsEnv keeps them: { apiKey, secret }.
 * @param {string} secretsDir
 * @param {string} vendor
 */
function readSimulatorCredentials(secretsDir, vendor) {
  /** @param {CredentialKind} kind */
  const read = (kind) => fs.readFileSync(credentialFile(secretsDir, vendor, kind), 'utf8').trim();
  return { apiKey: read('API_KEY'), secret: read('SECRET') };
}

/** The simulator's default port; a free one when it is taken (another run). */
const SIMULATOR_PORT = 8790;

/**
 * Whether the URL answers 200 (a fresh connection, 2 s at most).
 * @param {string} url
 * @returns {Promise<boolean>}
 */
function answers200(url) {
  return new Promise((resolve) => {
    const req = http.get(url, { agent: false, timeout: 2000 }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(false));
  });
}

/**
 * Starts the simulator under `supervisor` and resolves with its URL once it is ready.
 * `latency`: each vendor's own answer time (`atlas=…,borealis=…,cobalt=…` in ms);
 * `credentials`: the vendors' credentials (simulatorCredentialsEnv), the same the callers get.
 * @param {import('./supervisor').Supervisor} supervisor
 * @param {{ databaseUrl: string, latency: string, credentials: Record<string, string>, port?: number, timeoutMs?: number, stopped?: () => boolean }} options
 */
async function startVendorSimulator(supervisor, { databaseUrl, latency, credentials, port, timeoutMs = 60_000, stopped = () => false }) {
  const chosen = port ?? ((await portAnswers(SIMULATOR_PORT)) ? await freePort() : SIMULATOR_PORT);
  supervisor.start('vendor-simulator', { ...credentials, DATABASE_URL: databaseUrl, PORT: String(chosen), HOST: '127.0.0.1', VENDOR_LATENCY_MS: latency, DB_POOL_SIZE: '4' });
  const url = `http://127.0.0.1:${chosen}`;
  const deadline = Date.now() + timeoutMs;
  while (!(await answers200(`${url}/health/ready`))) {
    if (Date.now() > deadline || stopped()) throw new Error(`the vendor simulator did not become ready within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return url;
}

module.exports = { startVendorSimulator, simulatorCredentialsEnv, readSimulatorCredentials };
