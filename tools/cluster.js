#!/usr/bin/env node
// @ts-check
// `npm run cluster`: the platform laid out as production runs it, on loopback: three
// nats-server nodes in one cluster with JetStream (the booking events and the shared rate
// limits kept on all three), two replicas of every app connected to all three nodes, and
// two gateways behind a TCP balancer of our own on one port (PORT, default 8443), with the
// identities and permissions of `npm start` and one PostgreSQL. Its state is under
// DATA_DIR (default .data/cluster), apart from `npm start`'s. What it proves and how to
// take parts of it away: docs/operations/deployment.md#one-machine-laid-out-as-production.
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');
const { ROOT, log, ensureDependencies, build, portAnswers, freePort } = require('./lib/workspace');
const { Supervisor, ProcessKeeper, SERVICES } = require('./lib/supervisor');
const { waitUntil200 } = require('./lib/https');
const { createShutdown } = require('./lib/shutdown');
const { startVendorSimulator, simulatorCredentialsEnv } = require('./lib/vendor-simulator');

/** NATS nodes of the cluster: as deploy/nats/values.yaml runs them (tools/deploy.spec.ts compares). */
const NATS_NODES = 3;
/** Replicas of every app (and gateways behind the balancer). */
const APP_REPLICAS = 2;
/**
 * What every app is given on top of its own: the copies JetStream keeps of what the apps
 * create there, one per node, as deploy/ sets them; each service's database budget shared by
 * its two replicas.
 */
const CLUSTER_ENV = { BOOKING_EVENTS_REPLICAS: String(NATS_NODES), RATE_LIMIT_STORE_REPLICAS: String(NATS_NODES), DB_MAX_REPLICAS: String(APP_REPLICAS) };

const DATA_DIR = path.resolve(ROOT, process.env.DATA_DIR || '.data/cluster');
const PORT = Number(process.env.PORT || 8443);
const READY_TIMEOUT_MS = Number(process.env.START_READY_TIMEOUT_MS || 180_000);
const SIMULATOR_LATENCY_MS = process.env.SIMULATOR_LATENCY_MS || 'atlas=50,borealis=150,cobalt=400';
/**
 * How long a NATS node that stopped stays down before it is started again (then doubling, as
 * the apps' restarts): longer than JetStream's election, NATS_RESTART_DELAY_MS=8000, makes
 * the other nodes elect new leaders meanwhile.
 */
const NATS_RESTART_DELAY_MS = Number(process.env.NATS_RESTART_DELAY_MS || 1000);

/** The name of replica `index` (0-based) of an app: `booking`, `booking@2`. */
const replicaName = (/** @type {string} */ app, /** @type {number} */ index) => (index === 0 ? app : `${app}@${index + 1}`);

/**
 * The configuration of node `index`: the platform's broker configuration (listen address,
 * identities and permissions, as init-secrets writes it for npm start) with the node's own
 * address, store and name, and the cluster's routes. Routes listen on loopback only.
 * @param {string} base the text of init-secrets' nats.conf
 * @param {{ index: number, clientPorts: number[], routePorts: number[], storeDir: string }} node
 */
function nodeConfig(base, { index, clientPorts, routePorts, storeDir }) {
  const shared = base
    .split('\n')
    .filter((line) => !/^(listen|jetstream):/.test(line))
    .join('\n');
  const routes = routePorts.map((port) => `"nats-route://127.0.0.1:${port}"`).join(', ');
  return [
    `server_name: "hotel-${index + 1}"`,
    `listen: "127.0.0.1:${clientPorts[index]}"`,
    `jetstream: ${JSON.stringify({ store_dir: storeDir })}`,
    `cluster: { name: "hotel", listen: "127.0.0.1:${routePorts[index]}", routes: [${routes}] }`,
    shared,
  ].join('\n');
}

/**
 * A TCP balancer on 127.0.0.1:port: each connection goes to the next backend in turn, or the
 * one after when a backend does not take it (a gateway stopped). TLS passes through untouched.
 * @param {number} port
 * @param {number[]} backends
 */
function startBalancer(port, backends) {
  let next = 0;
  /** Open connections, ended with the balancer (a client's kept-alive connection would hold its close for ever). */
  const open = new Set();
  const server = net.createServer((client) => {
    open.add(client);
    client.once('close', () => open.delete(client));
    client.pause();
    const tryBackend = (/** @type {number} */ attempt) => {
      if (attempt >= backends.length) return client.destroy();
      const backend = backends[(next + attempt) % backends.length];
      const upstream = net.connect({ host: '127.0.0.1', port: backend });
      upstream.once('connect', () => {
        next = (next + attempt + 1) % backends.length;
        upstream.removeAllListeners('error');
        upstream.on('error', () => client.destroy());
        client.on('error', () => upstream.destroy());
        client.pipe(upstream);
        upstream.pipe(client);
        client.resume();
      });
      upstream.once('error', () => tryBackend(attempt + 1));
    };
    tryBackend(0);
  });
  /** @type {Promise<{ close(): Promise<void> }>} */
  const listening = new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () =>
      resolve({
        close: () =>
          new Promise((closed) => {
            server.close(() => closed());
            for (const socket of open) socket.destroy();
          }),
      }),
    );
  });
  return listening;
}

/** @type {Supervisor | null} */
let supervisor = null;
const shutdownControl = createShutdown({ supervisor: () => supervisor });
const cleanups = shutdownControl.cleanups;
/** @param {number} code */
const shutdown = (code) => shutdownControl.stop(code);

async function main() {
  ensureDependencies();
  if (process.env.START_SKIP_BUILD !== '1') build({ quiet: false });
  fs.mkdirSync(DATA_DIR, { recursive: true, mode: 0o700 });
  const runDir = path.join(DATA_DIR, 'run');
  const logDir = path.join(DATA_DIR, 'logs');
  fs.mkdirSync(runDir, { recursive: true, mode: 0o700 });
  process.on('SIGINT', () => shutdown(0));
  process.on('SIGTERM', () => shutdown(0));

  const { resolvePostgres } = require('./lib/postgres');
  const { initSecrets, startNatsServer, appSecretsEnv } = require('./lib/nats');
  // A database of its own (hotel_cluster) when it shares a PostgreSQL server with npm start.
  const postgres = await resolvePostgres(DATA_DIR, process.env.DATABASE_NAME || 'hotel_cluster');
  cleanups.push(postgres.stop);
  log(`PostgreSQL: ${postgres.kind}`);

  // The cluster: three nodes, each with its client port, route port and store.
  /** @type {Set<number>} */
  const taken = new Set();
  const distinctPort = async () => {
    for (;;) {
      const port = await freePort();
      if (!taken.has(port)) {
        taken.add(port);
        return port;
      }
    }
  };
  const clientPorts = [];
  const routePorts = [];
  for (let index = 0; index < NATS_NODES; index++) clientPorts.push(await distinctPort());
  for (let index = 0; index < NATS_NODES; index++) routePorts.push(await distinctPort());
  const secretsDir = path.join(DATA_DIR, 'secrets');
  initSecrets(secretsDir, clientPorts[0], path.join(DATA_DIR, 'nats-1'));
  const base = fs.readFileSync(path.join(secretsDir, 'nats', 'nats.conf'), 'utf8');
  const nodes = [];
  for (let index = 0; index < NATS_NODES; index++) {
    const configFile = path.join(secretsDir, 'nats', `node-${index + 1}.conf`);
    const storeDir = path.join(DATA_DIR, `nats-${index + 1}`);
    fs.writeFileSync(configFile, nodeConfig(base, { index, clientPorts, routePorts, storeDir }), { mode: 0o600 });
    // Started side by side: a node waits for its routes to form JetStream's quorum.
    nodes.push(startNatsServer({ port: clientPorts[index], storeDir, configFile, pidFile: path.join(runDir, `nats-${index + 1}.pid`) }));
  }
  for (const [index, server] of (await Promise.all(nodes)).entries()) {
    cleanups.push(() => server.kill('SIGTERM'));
    const keeper = new ProcessKeeper(`nats-${index + 1}`, {
      backoff: { initialMs: NATS_RESTART_DELAY_MS },
      restart: async () => {
        await server.start();
        return /** @type {import('node:child_process').ChildProcess} */ (server.process());
      },
    });
    keeper.watch(/** @type {import('node:child_process').ChildProcess} */ (server.process()));
    cleanups.push(() => keeper.stop());
  }
  const natsUrl = clientPorts.map((port) => `nats://127.0.0.1:${port}`).join(',');
  // The admin command finds the broker here (any node will do; it is given all three).
  fs.writeFileSync(path.join(DATA_DIR, 'nats.url'), `${natsUrl}\n`, { mode: 0o600 });
  log(`NATS: a cluster of ${NATS_NODES} nodes (${natsUrl})`);

  supervisor = new Supervisor({
    logDir,
    runDir,
    env: { DATABASE_URL: postgres.url, NATS_URL: natsUrl, LOG_LEVEL: process.env.LOG_LEVEL || 'info', ...CLUSTER_ENV },
    echo: true,
    entry: (name) => path.join(ROOT, 'dist/apps', name.replace(/@\d+$/, ''), 'src/main.js'),
  });
  const publicBase = `https://localhost:${PORT}`;
  const credentials = simulatorCredentialsEnv(secretsDir);
  const simulatorUrl = await startVendorSimulator(supervisor, { databaseUrl: postgres.url, latency: SIMULATOR_LATENCY_MS, credentials, stopped: shutdownControl.isStopping });
  const vendors = { VENDOR_SIMULATOR_URL: simulatorUrl, ...credentials };
  for (let index = 0; index < APP_REPLICAS; index++) {
    for (const service of SERVICES) {
      supervisor.start(replicaName(service, index), {
        ...appSecretsEnv(secretsDir, service),
        HEALTH_PORT: '0',
        ...(service === 'booking' && { PUBLIC_BASE_URL: process.env.PUBLIC_BASE_URL || publicBase }),
        ...((service === 'search' || service === 'rates') && vendors),
      });
    }
  }
  const gatewayPorts = [];
  for (let index = 0; index < APP_REPLICAS; index++) {
    const port = await distinctPort();
    gatewayPorts.push(port);
    // One DATA_DIR for both: the same development certificate behind the balancer.
    supervisor.start(replicaName('gateway', index), { ...appSecretsEnv(secretsDir, 'gateway'), PORT: String(port), HOST: '127.0.0.1', DATA_DIR, METRICS_PORT: '0' });
  }
  if (await portAnswers(PORT)) {
    log(`127.0.0.1:${PORT} is taken; set PORT to another port`);
    return shutdown(1);
  }
  const balancer = await startBalancer(PORT, gatewayPorts);
  cleanups.push(() => balancer.close());

  log(`waiting for both gateways' /health/ready ...`);
  for (const port of gatewayPorts) {
    if (!(await waitUntil200(`https://localhost:${port}/health/ready`, READY_TIMEOUT_MS, { stopped: shutdownControl.isStopping }))) {
      log(`the cluster did not become ready within ${READY_TIMEOUT_MS / 1000} s; logs are in ${logDir}`);
      return shutdown(1);
    }
  }
  fs.writeFileSync(path.join(DATA_DIR, 'gateway.url'), `${publicBase}\n`);
  process.stdout.write(`
Hotel booking platform is ready, laid out as production runs it.

  Booking API   ${publicBase}/ (a TCP balancer over gateways on ports ${gatewayPorts.join(' and ')})
  NATS          ${NATS_NODES} nodes in one cluster with JetStream: ${natsUrl} (pids in ${runDir}/nats-<n>.pid)
  Apps          ${APP_REPLICAS} replicas of each (pids in ${runDir}/<app>[@2].pid, logs in ${logDir})
  PostgreSQL    ${postgres.kind}
  Vendors       ${simulatorUrl}

Create a client:
  DATA_DIR=${DATA_DIR} npm run --silent admin -- create-client --name "Acme Travel" --credit-limit 10000

Take something away (the platform keeps booking; what stops comes back):
  kill -9 $(cat ${runDir}/nats-1.pid)      a NATS node
  kill -9 $(cat ${runDir}/booking@2.pid)   a replica
Press Ctrl-C to stop.
`);
}

module.exports = { NATS_NODES, APP_REPLICAS, CLUSTER_ENV, nodeConfig };

if (require.main === module) {
  main().catch((error) => {
    log(`cluster failed: ${error instanceof Error ? error.stack : error}`);
    void shutdown(1);
  });
}
