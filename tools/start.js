#!/usr/bin/env node
// @ts-check
// `npm start`: installs dependencies if missing, builds, finds or starts PostgreSQL
// and NATS, starts the vendor simulator (the three simulated vendors, over HTTP on
// loopback), the services and the gateway, waits until the gateway is ready and says
// how to make a first call. An app that dies is restarted with
// backoff (tools/lib/supervisor.js); its pid is in DATA_DIR/run/<app>.pid. So are the
// broker and the embedded PostgreSQL when it started them itself. Ctrl-C stops
// everything it started.
const fs = require('node:fs');
const path = require('node:path');
const { ROOT, log, ensureDependencies, build, portAnswers, freePort } = require('./lib/workspace');
const { Supervisor, ProcessKeeper, SERVICES } = require('./lib/supervisor');
const { waitUntil200 } = require('./lib/https');
const { createShutdown } = require('./lib/shutdown');
const { startVendorSimulator, simulatorCredentialsEnv } = require('./lib/vendor-simulator');

const DATA_DIR = path.resolve(ROOT, process.env.DATA_DIR || '.data');
const PORT = Number(process.env.PORT || 8443);
const HOST = process.env.HOST || '127.0.0.1';
const READY_TIMEOUT_MS = Number(process.env.START_READY_TIMEOUT_MS || 120_000);
/**
 * The simulated vendors' own answer times (ms): they differ as real vendors do, and all fit in
 * V2's 3-second deadline. SIMULATOR_LATENCY_MS changes them (e.g. `atlas=400,borealis=1500,cobalt=4000`).
 */
const SIMULATOR_LATENCY_MS = process.env.SIMULATOR_LATENCY_MS || 'atlas=50,borealis=150,cobalt=400';
/** The gateway's metrics port (METRICS_PORT), then one per service in SERVICES order: each on its own /metrics. */
const FIRST_METRICS_PORT = Number(process.env.METRICS_PORT || 9464);

/** @type {import('./lib/supervisor').Supervisor | null} */
let supervisor = null;
const shutdownControl = createShutdown({ supervisor: () => supervisor });
const cleanups = shutdownControl.cleanups;
/** @param {number} code */
const shutdown = (code) => shutdownControl.stop(code);

/**
 * A metrics port per app, from FIRST_METRICS_PORT on (the gateway's METRICS_PORT, the
 * services' HEALTH_PORT, where they also answer probes); one taken already, say by
 * another run, is replaced by a free one.
 */
async function metricsPortsByApp() {
  /** @type {Record<string, number>} */
  const ports = {};
  for (const [index, app] of ['gateway', ...SERVICES].entries()) {
    const preferred = FIRST_METRICS_PORT + index;
    ports[app] = (await portAnswers(preferred)) ? await freePort() : preferred;
  }
  return ports;
}

/**
 * Restarts a process this start began itself (the broker, the embedded PostgreSQL; not a
 * server it found) when it exits unexpectedly, as the supervisor restarts the apps; the apps
 * reconnect on their own. Stopped watching before it is stopped.
 * @param {string} name
 * @param {import('./lib/postgres').Database | import('./lib/nats').Bus} started
 */
function keepRunning(name, started) {
  // (A process this start began has both; a server it found, neither.)
  if (!started.restart || !started.process) return;
  const keeper = new ProcessKeeper(name, { restart: started.restart });
  keeper.watch(started.process());
  cleanups.push(() => keeper.stop());
}

async function main() {
  ensureDependencies();
  // START_SKIP_BUILD=1: the caller (the test runner, the benchmark) has just built, and other
  // processes may be running the built apps; a rebuild would rewrite files under them.
  if (process.env.START_SKIP_BUILD !== '1') build({ quiet: false });
  fs.mkdirSync(DATA_DIR, { recursive: true });
  const logDir = path.join(DATA_DIR, 'logs');

  process.on('SIGINT', () => shutdown(0));
  process.on('SIGTERM', () => shutdown(0));

  const { resolvePostgres } = require('./lib/postgres');
  const { resolveNats } = require('./lib/nats');
  const postgres = await resolvePostgres(DATA_DIR);
  cleanups.push(postgres.stop);
  keepRunning('embedded PostgreSQL', postgres);
  log(`PostgreSQL: ${postgres.kind}`);
  const nats = await resolveNats(DATA_DIR);
  cleanups.push(nats.stop);
  keepRunning('nats-server', nats);
  log(`NATS: ${nats.kind} (${nats.url})`);

  // APP_NODE_FLAGS passes Node flags to every app, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof" or
  // "--trace-gc" (Node refuses both in NODE_OPTIONS).
  supervisor = new Supervisor({
    logDir,
    runDir: path.join(DATA_DIR, 'run'),
    env: { DATABASE_URL: postgres.url, NATS_URL: nats.url, LOG_LEVEL: process.env.LOG_LEVEL || 'info' },
    nodeFlags: (process.env.APP_NODE_FLAGS ?? '').split(' ').filter(Boolean),
    echo: true,
  });
  const base = `https://${['0.0.0.0', '127.0.0.1', '::', '::1'].includes(HOST) ? 'localhost' : HOST}:${PORT}`;
  // Voucher links point at this gateway unless PUBLIC_BASE_URL names another address.
  const publicBase = { PUBLIC_BASE_URL: process.env.PUBLIC_BASE_URL || base };
  const metricsPorts = await metricsPortsByApp();
  // The vendors are outside the platform: the search and rates services reach them over HTTP.
  // Every secret an app reads is one made for this installation (nats.appEnv: the files init-secrets made), the simulated vendors' credentials too.
  const credentials = simulatorCredentialsEnv(nats.secretsDir);
  const simulatorUrl = await startVendorSimulator(supervisor, { databaseUrl: postgres.url, latency: SIMULATOR_LATENCY_MS, credentials, stopped: shutdownControl.isStopping });
  const vendors = { VENDOR_SIMULATOR_URL: simulatorUrl, ...credentials };
  for (const service of SERVICES) {
    supervisor.start(service, {
      ...nats.appEnv(service),
      HEALTH_PORT: String(metricsPorts[service]),
      ...(service === 'booking' && publicBase),
      ...((service === 'search' || service === 'rates') && vendors),
    });
  }
  supervisor.start('gateway', { ...nats.appEnv('gateway'), PORT: String(PORT), HOST, DATA_DIR, METRICS_PORT: String(metricsPorts.gateway) });

  log(`waiting for ${base}/health/ready ...`);
  if (!(await waitUntil200(`${base}/health/ready`, READY_TIMEOUT_MS, { stopped: shutdownControl.isStopping }))) {
    log(`the system did not become ready within ${READY_TIMEOUT_MS / 1000} s; logs are in ${logDir}`);
    return shutdown(1);
  }
  // `npm run example` finds the gateway here, whatever PORT this start was given.
  fs.writeFileSync(path.join(DATA_DIR, 'gateway.url'), `${base}\n`);
  // The admin command finds the broker (DATA_DIR/nats.url) and its identity (DATA_DIR/secrets) itself.
  const dataHint = process.env.DATA_DIR ? `DATA_DIR=${DATA_DIR} ` : '';
  process.stdout.write(`
Hotel booking platform is ready.

  Booking API   ${base}/
  Backend API   ${base}/api
  Health        ${base}/health/ready
  API docs      ${base}/docs (OpenAPI: ${base}/openapi.json)
  Finance       ${base}/finance/ (the finance console: a finance token from create-finance-token)
  PostgreSQL    ${postgres.kind}
  NATS          ${nats.url} (${nats.kind})
  Vendors       ${simulatorUrl}/{atlas,borealis,cobalt} (the vendor simulator, Hotelbeds protocol)
  Secrets       ${path.join(DATA_DIR, 'secrets')} (owner-only files, created once)
  Logs          ${logDir}/<app>.log (JSON lines)
  Metrics       ${Object.entries(metricsPorts).map(([app, port]) => `${app} http://127.0.0.1:${port}/metrics`).join('\n                ')}

Create a client (prints its API key, sandbox key and backend token once):
  ${dataHint}npm run --silent admin -- create-client --name "Acme Travel" --credit-limit 10000

First call (-k accepts the generated development certificate):
  curl -k -H "Authorization: Bearer <api_key>" ${base}/me

An app that stops is restarted, and so are the broker and the embedded PostgreSQL when npm start
started them (pids in ${path.join(DATA_DIR, 'run')}). Press Ctrl-C to stop.
`);
}

main().catch((error) => {
  log(`start failed: ${error instanceof Error ? error.message : error}`);
  void shutdown(1);
});
