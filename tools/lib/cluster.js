// @ts-check
// The production layout on loopback, shared by `npm run cluster` and `npm run chaos --
// --cluster`: a NATS cluster of three JetStream nodes with the platform's identities and
// permissions, two replicas of every app, and a TCP balancer over the gateways.
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');
const { freePort } = require('./workspace');
const { initSecrets, startNatsServer, appSecretsEnv } = require('./nats');
const { SERVICES } = require('./supervisor');

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

/** The name of replica `index` (0-based) of an app: `booking`, `booking@2`. */
const replicaName = (/** @type {string} */ app, /** @type {number} */ index) => (index === 0 ? app : `${app}@${index + 1}`);

// The app a replica runs (`booking` for `booking@2`): shared with the supervisor's Node flags.
const { appOf } = require('./app-memory');

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

/** Free loopback ports, never the same one twice (freePort alone may hand out a port again before it is bound). */
function portSource() {
  /** @type {Set<number>} */
  const taken = new Set();
  return async () => {
    for (;;) {
      const port = await freePort();
      if (!taken.has(port)) {
        taken.add(port);
        return port;
      }
    }
  };
}

/**
 * The NATS cluster: NATS_NODES nodes named hotel-1..n, each with its client port, route port
 * and JetStream store under dataDir (nats-<n>), with the secrets init-secrets creates under
 * secretsDir. Resolves once every node listens; the caller restarts a node that stops.
 * @param {{ dataDir: string, secretsDir: string, runDir?: string, port: () => Promise<number> }} options
 * @returns {Promise<{ url: string, nodes: import('./nats').NatsServer[] }>} url: every node's address, comma-separated, as the apps take NATS_URL
 */
async function startNatsCluster({ dataDir, secretsDir, runDir, port }) {
  const clientPorts = [];
  const routePorts = [];
  for (let index = 0; index < NATS_NODES; index++) clientPorts.push(await port());
  for (let index = 0; index < NATS_NODES; index++) routePorts.push(await port());
  initSecrets(secretsDir, clientPorts[0], path.join(dataDir, 'nats-1'));
  const base = fs.readFileSync(path.join(secretsDir, 'nats', 'nats.conf'), 'utf8');
  const starting = [];
  for (let index = 0; index < NATS_NODES; index++) {
    const configFile = path.join(secretsDir, 'nats', `node-${index + 1}.conf`);
    const storeDir = path.join(dataDir, `nats-${index + 1}`);
    fs.writeFileSync(configFile, nodeConfig(base, { index, clientPorts, routePorts, storeDir }), { mode: 0o600 });
    // Started side by side: a node waits for its routes to form JetStream's quorum.
    starting.push(startNatsServer({ port: clientPorts[index], storeDir, configFile, pidFile: runDir ? path.join(runDir, `nats-${index + 1}.pid`) : undefined }));
  }
  const nodes = await Promise.all(starting);
  return { url: clientPorts.map((clientPort) => `nats://127.0.0.1:${clientPort}`).join(','), nodes };
}

/**
 * Starts APP_REPLICAS replicas of every service, then of the gateway, each gateway on a port of
 * its own, under a supervisor whose `entry` runs appOf(name). Every replica gets its app's
 * secrets; a service's health port is left to the system (two replicas cannot share one).
 * @param {import('./supervisor').Supervisor} supervisor
 * @param {{ secretsDir: string, port: () => Promise<number>, serviceEnv: (service: string) => Record<string, string>, gatewayEnv: Record<string, string> }} options
 * @returns {Promise<number[]>} the gateways' ports
 */
async function startReplicas(supervisor, { secretsDir, port, serviceEnv, gatewayEnv }) {
  for (let index = 0; index < APP_REPLICAS; index++) {
    for (const service of SERVICES) supervisor.start(replicaName(service, index), { ...appSecretsEnv(secretsDir, service), HEALTH_PORT: '0', ...serviceEnv(service) });
  }
  const gatewayPorts = [];
  for (let index = 0; index < APP_REPLICAS; index++) {
    const gatewayPort = await port();
    gatewayPorts.push(gatewayPort);
    supervisor.start(replicaName('gateway', index), { ...appSecretsEnv(secretsDir, 'gateway'), PORT: String(gatewayPort), HOST: '127.0.0.1', ...gatewayEnv });
  }
  return gatewayPorts;
}

/**
 * A TCP balancer on 127.0.0.1:port: each connection goes to the next backend in turn, or the
 * one after when a backend does not take it (a gateway stopped). TLS passes through untouched.
 * @param {number} port
 * @param {number[]} backends
 * @returns {Promise<{ close(): Promise<void> }>}
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
  return new Promise((resolve, reject) => {
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
}

module.exports = { NATS_NODES, APP_REPLICAS, CLUSTER_ENV, replicaName, appOf, nodeConfig, portSource, startNatsCluster, startReplicas, startBalancer };
