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
const path = require('node:path');
const { ROOT, log, ensureDependencies, build, portAnswers } = require('./lib/workspace');
const { Supervisor, ProcessKeeper } = require('./lib/supervisor');
const { waitUntil200 } = require('./lib/https');
const { createShutdown } = require('./lib/shutdown');
const { startVendorSimulator, simulatorCredentialsEnv } = require('./lib/vendor-simulator');
const { NATS_NODES, APP_REPLICAS, CLUSTER_ENV, appOf, portSource, startNatsCluster, startReplicas, startBalancer } = require('./lib/cluster');

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
  // A database of its own (hotel_cluster) when it shares a PostgreSQL server with npm start.
  const postgres = await resolvePostgres(DATA_DIR, process.env.DATABASE_NAME || 'hotel_cluster');
  cleanups.push(postgres.stop);
  log(`PostgreSQL: ${postgres.kind}`);

  const distinctPort = portSource();
  const secretsDir = path.join(DATA_DIR, 'secrets');
  const { url: natsUrl, nodes } = await startNatsCluster({ dataDir: DATA_DIR, secretsDir, runDir, port: distinctPort });
  for (const [index, server] of nodes.entries()) {
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
  // The admin command finds the broker here (any node will do; it is given all three).
  fs.writeFileSync(path.join(DATA_DIR, 'nats.url'), `${natsUrl}\n`, { mode: 0o600 });
  log(`NATS: a cluster of ${NATS_NODES} nodes (${natsUrl})`);

  supervisor = new Supervisor({
    logDir,
    runDir,
    env: { DATABASE_URL: postgres.url, NATS_URL: natsUrl, LOG_LEVEL: process.env.LOG_LEVEL || 'info', ...CLUSTER_ENV },
    echo: true,
    entry: (name) => path.join(ROOT, 'dist/apps', appOf(name), 'src/main.js'),
  });
  const publicBase = `https://localhost:${PORT}`;
  const credentials = simulatorCredentialsEnv(secretsDir);
  const simulatorUrl = await startVendorSimulator(supervisor, { databaseUrl: postgres.url, latency: SIMULATOR_LATENCY_MS, credentials, stopped: shutdownControl.isStopping });
  const vendors = { VENDOR_SIMULATOR_URL: simulatorUrl, ...credentials };
  const gatewayPorts = await startReplicas(supervisor, {
    secretsDir,
    port: distinctPort,
    serviceEnv: (service) => ({
      ...(service === 'booking' && { PUBLIC_BASE_URL: process.env.PUBLIC_BASE_URL || publicBase }),
      ...((service === 'search' || service === 'rates') && vendors),
    }),
    // One DATA_DIR for both: the same development certificate behind the balancer.
    gatewayEnv: { DATA_DIR, METRICS_PORT: '0' },
  });
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

module.exports = { NATS_NODES, APP_REPLICAS, CLUSTER_ENV };

if (require.main === module) {
  main().catch((error) => {
    log(`cluster failed: ${error instanceof Error ? error.stack : error}`);
    void shutdown(1);
  });
}
