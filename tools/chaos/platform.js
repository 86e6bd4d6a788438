// @ts-check
// The platform `npm run chaos` breaks: its own nats-server with an NKEY identity per
// app, as `npm start` runs it (so it can be killed and started again on the same port), a fresh database that the apps reach through a
// TCP proxy in this process (so the connections can be cut), every app as an OS
// process under the Supervisor (restarted when it dies), and the clients and promo
// codes the load uses, made with the admin command as an operator would. With
// `cluster`, laid out as `npm run cluster` runs it: three NATS nodes, two replicas of
// every app, two gateways behind a balancer. A webhook receiver of the run's own takes
// every client's booking events.
const { execFile } = require('node:child_process');
const fs = require('node:fs');
const { randomBytes } = require('node:crypto');
const path = require('node:path');
const { ROOT, portAnswers } = require('../lib/workspace');
const { startPlatformBroker, appSecretsEnv } = require('../lib/nats');
const { CLUSTER_ENV, appOf, portSource, startNatsCluster, startReplicas, startBalancer } = require('../lib/cluster');
const { startWebhookReceiver, registerEndpoints, streamReader } = require('./events');
const { startEmbedded, withDatabase } = require('../lib/postgres');
const { Supervisor, SERVICES } = require('../lib/supervisor');
const { waitUntil200 } = require('../lib/https');
const { startVendorSimulator, simulatorCredentialsEnv } = require('../lib/vendor-simulator');

const APPS = [...SERVICES, 'gateway'];

/**
 * What tools/chaos.js configures (its CONFIG).
 * @typedef {object} ChaosConfig
 * @property {number} leaseS SAGA_LEASE_S (and SUPPLIER_ATTEMPT_S)
 * @property {number} recoveryIntervalMs
 * @property {number} rpcTimeoutMs
 * @property {number} restartDelayMs how long a killed app stays down
 * @property {number} natsDownMs
 * @property {number} clusterNatsDownMs how long a cluster's NATS node stays down (past JetStream's election)
 * @property {number} postgresCutMs
 * @property {number} vendorFaultMs
 * @property {{ name: string, creditLimit: number, currency: string }[]} clients
 * @property {Record<string, string>} fxRates EUR per unit, as the ECB writes them
 * @property {{ code: string, args: string[] }[]} promos
 */

/**
 * A client the run made (admin create-client: its keys), with what it was made with.
 * @typedef {{ name: string, creditLimit: number, currency: string, client_id: number, api_key: string, sandbox_api_key: string, backend_token: string }} ChaosClient
 */

/** @typedef {(message: string) => void} Log */

/**
 * The server to create the scratch database in: CHAOS_DATABASE_URL, else 127.0.0.1:5432, else (or with EMBEDDED_PG=1) an embedded one.
 * @param {string} workDir
 * @param {Log} log
 * @returns {Promise<{ serverUrl: string, kind: string, stop: () => Promise<void> }>}
 */
async function databaseServer(workDir, log) {
  if (process.env.CHAOS_DATABASE_URL) return { serverUrl: process.env.CHAOS_DATABASE_URL, kind: 'CHAOS_DATABASE_URL', stop: async () => undefined };
  if (process.env.EMBEDDED_PG !== '1' && (await portAnswers(5432))) return { serverUrl: 'postgres://postgres@127.0.0.1:5432/postgres', kind: 'local server on 127.0.0.1:5432', stop: async () => undefined };
  log('starting an embedded PostgreSQL');
  process.env.EMBEDDED_PG_PORT ??= '0';
  const embedded = await startEmbedded(workDir);
  return { serverUrl: embedded.serverUrl, kind: 'embedded', stop: embedded.stop };
}

/**
 * @param {string} serverUrl
 * @param {string} sql
 */
async function adminQuery(serverUrl, sql) {
  const { Client } = require('pg');
  const client = new Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * The admin command line (dist/apps/admin) against this platform's NATS, as the admin identity; its one JSON object.
 * @param {string} natsUrl
 * @param {string} secretsDir
 * @param {string[]} args
 * @returns {Promise<unknown>}
 */
function admin(natsUrl, secretsDir, args) {
  const env = { ...process.env, NATS_URL: natsUrl, NATS_NKEY_SEED: '', NATS_NKEY_SEED_FILE: appSecretsEnv(secretsDir, 'admin').NATS_NKEY_SEED_FILE };
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [path.join(ROOT, 'dist/apps/admin/src/main.js'), ...args], { cwd: ROOT, env, timeout: 30_000 }, (error, stdout, stderr) => {
      if (error) return reject(new Error(`admin ${args.join(' ')} failed: ${stderr || error.message}`));
      resolve(JSON.parse(stdout));
    });
  });
}

/**
 * The last lines of each gateway log in `logDir`: the work directory is removed when the run
 * ends, so a gateway that never became ready says why in the error itself.
 * @param {string} logDir
 */
function lastGatewayLines(logDir) {
  try {
    return fs
      .readdirSync(logDir)
      .filter((name) => name.startsWith('gateway'))
      .map((name) => `--- ${name} (last lines) ---\n${fs.readFileSync(path.join(logDir, name), 'utf8').trimEnd().split('\n').slice(-15).join('\n')}`)
      .join('\n');
  } catch (error) {
    return `(the gateway logs could not be read: ${error instanceof Error ? error.message : String(error)})`;
  }
}

/**
 * Starts everything; `cleanups` receives each stop step as soon as there is
 * something to stop, so a failure half-way still cleans up.
 * @param {{ workDir: string, config: ChaosConfig, cleanups: (() => unknown)[], log: Log, keepDatabase?: boolean, cluster?: boolean }} options
 */
async function startPlatform({ workDir, config, cleanups, log, keepDatabase = false, cluster = false }) {
  // The TCP proxy of the system tests (built into dist by the build).
  /** @type {typeof import('../../libs/testing/src/tcp-proxy')} */
  const { startTcpProxy } = require(path.join(ROOT, 'dist/libs/testing/src/tcp-proxy.js'));

  const secretsDir = path.join(workDir, 'secrets');
  const port = portSource();
  /** @type {import('../lib/nats').NatsServer[]} the broker, or the cluster's nodes */
  let natsNodes;
  let natsUrl;
  if (cluster) {
    ({ url: natsUrl, nodes: natsNodes } = await startNatsCluster({ dataDir: workDir, secretsDir, port }));
    log(`NATS: a cluster of ${natsNodes.length} nodes (${natsUrl}), an NKEY identity per app, the booking events on every node`);
  } else {
    const broker = await startPlatformBroker({ port: await port(), secretsDir, storeDir: path.join(workDir, 'nats') });
    natsNodes = [broker];
    natsUrl = broker.url;
    log(`NATS: nats-server ${natsUrl} (an NKEY identity per app), JetStream in ${path.join(workDir, 'nats')}`);
  }
  for (const node of natsNodes) cleanups.push(() => node.kill('SIGKILL'));

  const server = await databaseServer(workDir, log);
  cleanups.push(server.stop);
  const databaseName = `hotel_chaos_${randomBytes(4).toString('hex')}`;
  await adminQuery(server.serverUrl, `CREATE DATABASE ${databaseName}`);
  if (!keepDatabase) cleanups.push(() => adminQuery(server.serverUrl, `DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`));
  const databaseUrl = withDatabase(server.serverUrl, databaseName);
  const direct = new URL(databaseUrl);
  const proxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
  cleanups.push(() => proxy.close());
  const viaProxy = new URL(databaseUrl);
  viaProxy.host = `127.0.0.1:${proxy.port}`;
  log(`PostgreSQL: ${server.kind}, database ${databaseName}, apps through a proxy on port ${proxy.port}`);

  const receiver = await startWebhookReceiver();
  cleanups.push(() => receiver.close());
  const supervisor = new Supervisor({
    logDir: path.join(workDir, 'logs'),
    runDir: path.join(workDir, 'run'),
    env: {
      NATS_URL: natsUrl,
      DATABASE_URL: viaProxy.toString(),
      LOG_LEVEL: 'warn',
      SAGA_LEASE_S: String(config.leaseS),
      // A supplier booking whose answer could not be recorded (the database cut) is asked of its vendor again after this.
      SUPPLIER_ATTEMPT_S: String(config.leaseS),
      RECOVERY_INTERVAL_MS: String(config.recoveryIntervalMs),
      RPC_TIMEOUT_MS: String(config.rpcTimeoutMs),
      RATE_LIMIT_RPS: '100000',
      RATE_LIMIT_BURST: '100000',
      VENDOR_LATENCY_MS: 'atlas=0,borealis=0,cobalt=0',
      DB_POOL_SIZE: '4',
      SHUTDOWN_GRACE_MS: '1000',
      // "Ready again" is the gateway's last background readiness check: a fresh one, so a round's clock starts when the platform is.
      READY_CHECK_INTERVAL_MS: '250',
      // The run's receiver is plain HTTP on loopback; a delivery a fault failed is tried again within seconds.
      WEBHOOK_ALLOW_PRIVATE_TARGETS: '1',
      WEBHOOK_RETRY_SCHEDULE_S: '1,1,2,2,3,3,5,5,10,10',
      // A breaker the vendor faults opened probes again within the bound every booking must end in (30 s by default).
      VENDOR_BREAKER_COOLDOWN_MS: '2000',
      ...(cluster && CLUSTER_ENV),
    },
    log: (message) => log(message),
    entry: (name) => path.join(ROOT, 'dist/apps', appOf(name), 'src/main.js'),
  });
  cleanups.push(() => supervisor.stopAll(3000));
  // The vendors, outside the platform: on the database directly (a cut of the platform's connections is not theirs).
  // On a free port: npm start (or a test starting it) may hold the simulator's default one.
  const credentials = simulatorCredentialsEnv(secretsDir);
  const simulatorUrl = await startVendorSimulator(supervisor, { databaseUrl, latency: 'atlas=0,borealis=0,cobalt=0', credentials, port: await port() });
  log(`vendors: the vendor simulator at ${simulatorUrl}`);
  const vendors = { VENDOR_SIMULATOR_URL: simulatorUrl, ...credentials };
  /** @param {string} service */
  const serviceEnv = (service) => (service === 'search' || service === 'rates' ? vendors : {});
  // Metrics on a free port: another run (npm start, a test) may hold the default.
  const gatewayEnv = { DATA_DIR: workDir, METRICS_PORT: '0' };
  /** @type {number[]} */
  let gatewayPorts;
  let gatewayPort;
  if (cluster) {
    gatewayPorts = await startReplicas(supervisor, { secretsDir, port, serviceEnv, gatewayEnv });
    gatewayPort = await port();
    const balancer = await startBalancer(gatewayPort, gatewayPorts);
    cleanups.push(() => balancer.close());
  } else {
    for (const service of SERVICES) supervisor.start(service, { ...appSecretsEnv(secretsDir, service), ...serviceEnv(service) });
    gatewayPort = await port();
    gatewayPorts = [gatewayPort];
    supervisor.start('gateway', { ...appSecretsEnv(secretsDir, 'gateway'), PORT: String(gatewayPort), HOST: '127.0.0.1', ...gatewayEnv });
  }
  const gateway = `https://127.0.0.1:${gatewayPort}`;
  const started = Date.now();
  for (const each of gatewayPorts) {
    if (!(await waitUntil200(`https://127.0.0.1:${each}/health/ready`, 120_000))) {
      throw new Error(`the platform did not become ready within 120 s; logs in ${path.join(workDir, 'logs')}\n${lastGatewayLines(path.join(workDir, 'logs'))}`);
    }
  }
  log(`platform ready in ${((Date.now() - started) / 1000).toFixed(1)} s at ${gateway}${cluster ? ` (a balancer over gateways on ports ${gatewayPorts.join(' and ')})` : ''}`);

  const ratesFile = path.join(workDir, 'eurofxref-daily.xml');
  /** @type {typeof import('../../libs/testing/src/ecb-rates')} */
  const { ecbDailyXml } = require(path.join(ROOT, 'dist/libs/testing/src/ecb-rates.js'));
  fs.writeFileSync(ratesFile, ecbDailyXml(new Date().toISOString().slice(0, 10), config.fxRates));
  const fx = /** @type {{ date: string, in_force: string }} what import-fx-rates prints */ (await admin(natsUrl, secretsDir, ['import-fx-rates', '--file', ratesFile]));
  log(`exchange rates of ${fx.in_force} in force`);
  /** @type {ChaosClient[]} */
  const clients = [];
  for (const { name, creditLimit, currency } of config.clients) {
    const keys = /** @type {{ client_id: number, api_key: string, sandbox_api_key: string, backend_token: string }} what create-client prints */ (
      await admin(natsUrl, secretsDir, ['create-client', '--name', name, '--credit-limit', String(creditLimit), '--currency', currency])
    );
    clients.push({ name, creditLimit, currency, ...keys });
  }
  for (const promo of config.promos) await admin(natsUrl, secretsDir, ['create-promo', '--code', promo.code, ...promo.args]);
  log(`${clients.length} clients (credit limits ${clients.map((client) => `${client.creditLimit} ${client.currency}`).join(', ')}), promo codes ${config.promos.map((promo) => promo.code).join(', ')}`);

  const { Client } = require('pg');
  const sql = new Client({ connectionString: databaseUrl });
  await sql.connect();
  sql.on('error', () => undefined);
  cleanups.push(() => sql.end());

  // Before any load: every event of the run is owed to the receiver.
  await registerEndpoints(gateway, clients, receiver.url);
  const stream = await streamReader(natsUrl, fs.readFileSync(path.join(secretsDir, 'nats', 'admin.nk'), 'utf8').trim());
  cleanups.push(() => stream.close());

  return { natsNodes, proxy, supervisor, gateway, simulatorUrl, databaseUrl, databaseName, sql, clients, receiver, stream, logDir: path.join(workDir, 'logs') };
}

/** @typedef {Awaited<ReturnType<typeof startPlatform>>} Platform */

module.exports = { APPS, startPlatform };
