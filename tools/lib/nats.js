// @ts-check
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { ROOT, log, portAnswers, freePort, findOnPath } = require('./workspace');

/**
 * @param {number} port
 * @param {number} timeoutMs
 */
async function waitForPort(port, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await portAnswers(port)) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}

function natsServerBinary() {
  const binary = findOnPath('nats-server', ['/usr/sbin', '/usr/local/sbin']);
  if (!binary) {
    throw new Error(
      'nats-server is not on PATH. Install it (Debian/Ubuntu: apt-get install nats-server; ' +
        'macOS: brew install nats-server) or set NATS_URL.',
    );
  }
  return binary;
}

/**
 * A nats-server this process started.
 * @typedef {object} NatsServer
 * @property {string} url
 * @property {number} port
 * @property {string} binary
 * @property {() => import('node:child_process').ChildProcess | null} process its current process (null before the first start)
 * @property {() => Promise<void>} start
 * @property {(signal?: NodeJS.Signals) => Promise<void>} kill
 */

/**
 * A nats-server from PATH on 127.0.0.1:<port> with JetStream stored in storeDir, or
 * run from configFile (which then says where it listens and what it stores).
 * `kill(signal)` stops it (as a crash would with SIGKILL) and `start()` starts it
 * again on the same port and store, so a caller can take the broker away and back;
 * `process()` is its current ChildProcess.
 * @param {{ port: number, storeDir: string, configFile?: string, pidFile?: string }} options
 * @returns {Promise<NatsServer>}
 */
async function startNatsServer({ port, storeDir, configFile, pidFile }) {
  const binary = natsServerBinary();
  fs.mkdirSync(storeDir, { recursive: true, mode: 0o700 });
  const args = configFile ? ['-c', configFile] : ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', storeDir];
  /** @type {import('node:child_process').ChildProcess | null} */
  let child = null;
  /** @type {NatsServer} */
  const server = {
    url: `nats://127.0.0.1:${port}`,
    port,
    binary,
    process: () => child,
    async start() {
      child = spawn(binary, args, { stdio: 'ignore' });
      if (pidFile) fs.writeFileSync(pidFile, `${child.pid}\n`, { mode: 0o600 });
      if (!(await waitForPort(port, 10_000))) throw new Error(`nats-server did not start on port ${port} within 10 s`);
    },
    kill(signal = 'SIGTERM') {
      const running = child;
      if (!running || running.exitCode !== null || running.signalCode !== null) return Promise.resolve();
      return new Promise(/** @param {() => void} resolve */ (resolve) => {
        running.once('exit', () => {
          if (pidFile) fs.rmSync(pidFile, { force: true });
          resolve();
        });
        running.kill(signal);
      });
    },
  };
  await server.start();
  return server;
}

/** The admin command line as built (dist/apps/admin). */
const ADMIN_ENTRY = path.join(ROOT, 'dist/apps/admin/src/main.js');

/**
 * Creates, where missing, the platform's secrets under secretsDir (an NKEY seed per
 * app, the signing secrets) and the broker's configuration listening on
 * 127.0.0.1:<port> with JetStream in storeDir: the admin command's `init-secrets`.
 * @param {string} secretsDir
 * @param {number} port
 * @param {string} storeDir
 * @returns {string[]} the files it created
 */
function initSecrets(secretsDir, port, storeDir) {
  const result = spawnSync(process.execPath, [ADMIN_ENTRY, 'init-secrets', '--dir', secretsDir, '--nats-listen', `127.0.0.1:${port}`, '--jetstream-dir', storeDir], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`init-secrets failed: ${result.stderr || result.error?.message}`);
  return JSON.parse(result.stdout).created;
}

/**
 * The secrets init-secrets creates under secretsDir besides the NKEY seeds (its
 * SECRET_FILES), by the apps that use them: each app is given its own and no other's.
 * @type {Record<string, Record<string, string>>}
 */
const APP_SECRET_FILES = {
  booking: { VOUCHER_SECRET: 'voucher-secret' },
  search: { RATE_ID_SECRET: 'rate-id-secret' },
  rates: { RATE_ID_SECRET: 'rate-id-secret' },
  webhooks: { WEBHOOK_SECRET_KEY: 'webhook-secret-key' },
};

/**
 * What an app needs to reach the bus as itself and to sign and seal what it does: its
 * files under secretsDir, as <NAME>_FILE. The variables themselves are emptied (empty is
 * unset), so that one left in the caller's environment cannot stand in for the file.
 * @param {string} secretsDir
 * @param {string} app
 */
function appSecretsEnv(secretsDir, app) {
  /** @type {Record<string, string>} */
  const env = { NATS_NKEY_SEED: '', NATS_NKEY_SEED_FILE: path.join(secretsDir, 'nats', `${app}.nk`) };
  for (const [name, file] of Object.entries(APP_SECRET_FILES[app] ?? {})) {
    env[name] = '';
    env[`${name}_FILE`] = path.join(secretsDir, file);
  }
  return env;
}

/**
 * The platform's own broker: every app authenticates with its NKEY and may use
 * only its own subjects (the configuration init-secrets writes). No anonymous
 * connection is accepted.
 * @param {{ port: number, secretsDir: string, storeDir: string, pidFile?: string }} options
 */
async function startPlatformBroker({ port, secretsDir, storeDir, pidFile }) {
  const created = initSecrets(secretsDir, port, storeDir);
  const server = await startNatsServer({ port, storeDir, configFile: path.join(secretsDir, 'nats', 'nats.conf'), pidFile });
  return { ...server, created };
}

/**
 * Stops a broker an earlier `npm start` left running (killed before it could stop it).
 * @param {string} pidFile
 */
function stopStaleBroker(pidFile) {
  let pid;
  try {
    pid = Number(fs.readFileSync(pidFile, 'utf8').trim());
    if (!fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('nats-server')) return;
  } catch {
    return; // no pid file, or that process is gone
  }
  log(`stopping the nats-server an earlier start left running (pid ${pid})`);
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    // gone meanwhile
  }
}

/**
 * The bus for `npm start`. Secrets live in DATA_DIR/secrets (created once, owner
 * only), the broker's URL in DATA_DIR/nats.url for the admin command.
 * - NATS_URL set: that broker, which must know the apps' identities (its
 *   configuration is DATA_DIR/secrets/nats/nats.conf; a broker without
 *   authentication also takes them).
 * - else a nats-server from PATH with the platform's configuration on NATS_PORT
 *   (default 4222); a port already taken (say by a broker without
 *   authentication) is not reused: the broker goes on a free port instead.
 * @param {string} dataDir
 * @returns {Promise<Bus>}
 */
async function resolveNats(dataDir) {
  const secretsDir = path.resolve(dataDir, 'secrets');
  const storeDir = path.resolve(dataDir, 'nats');
  const urlFile = path.resolve(dataDir, 'nats.url');
  const runDir = path.resolve(dataDir, 'run');
  fs.mkdirSync(runDir, { recursive: true, mode: 0o700 });
  const pidFile = path.join(runDir, 'nats-server.pid');
  /** @param {string} url */
  const keepUrl = (url) => fs.writeFileSync(urlFile, `${url}\n`, { mode: 0o600 });
  /** @param {string} app */
  const appEnv = (app) => appSecretsEnv(secretsDir, app);

  if (process.env.NATS_URL) {
    const created = initSecrets(secretsDir, 4222, storeDir);
    if (created.length) log(`created secrets in ${secretsDir}: ${created.join(', ')}`);
    keepUrl(process.env.NATS_URL);
    return { url: process.env.NATS_URL, kind: 'NATS_URL', appEnv, secretsDir, stop: async () => undefined };
  }
  stopStaleBroker(pidFile);
  const wanted = Number(process.env.NATS_PORT || 4222);
  let port = wanted;
  if (await portAnswers(wanted)) {
    port = await freePort();
    log(`127.0.0.1:${wanted} is taken (a broker there is not reused: it does not know the platform's identities); the platform's broker goes on port ${port}`);
  }
  const server = await startPlatformBroker({ port, secretsDir, storeDir, pidFile });
  if (server.created.length) log(`created secrets in ${secretsDir}: ${server.created.join(', ')}`);
  keepUrl(server.url);
  return {
    url: server.url,
    kind: `nats-server with an NKEY identity per app (secrets in ${secretsDir})`,
    appEnv,
    secretsDir,
    stop: () => server.kill('SIGTERM'),
    // For a ProcessKeeper: the broker's process, and starting it again (same port, store and configuration).
    process: () => /** @type {import('node:child_process').ChildProcess} */ (server.process()),
    restart: async () => {
      await server.start();
      // start() has spawned it.
      return /** @type {import('node:child_process').ChildProcess} */ (server.process());
    },
  };
}

/**
 * The bus `npm start` uses (resolveNats).
 * @typedef {object} Bus
 * @property {string} url
 * @property {string} kind how the console describes it
 * @property {(app: string) => Record<string, string>} appEnv the environment that gives an app its identity and secrets
 * @property {string} secretsDir
 * @property {() => Promise<void>} stop
 * @property {() => import('node:child_process').ChildProcess} [process] the broker's process, when this process started it
 * @property {() => Promise<import('node:child_process').ChildProcess>} [restart] starting it again (same port, store and configuration)
 */

module.exports = { resolveNats, initSecrets, startNatsServer, startPlatformBroker, appSecretsEnv, APP_SECRET_FILES };
