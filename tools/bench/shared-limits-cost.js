// @ts-check
// What the limits shared by the gateway replicas cost a request: the gateway's own
// SharedRateLimiter and SharedInFlight (as built in dist/) over a JetStream KV bucket on a
// nats-server of their own (JetStream in a scratch directory), one request after another.
// For each case: the gateway's CPU per request (this process), the broker's CPU per request
// (from /proc), the store calls per request and the time a request waits for them.
// `node tools/bench/shared-limits-cost.js` after `npm run build`; `npm run bench` prints it too.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { ROOT, freePort } = require('../lib/workspace');
const { startNatsServer } = require('../lib/nats');

/**
 * Clock ticks of a process's CPU (user + system), from /proc (Linux); null elsewhere.
 * @param {number} pid
 */
function processTicks(pid) {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return null;
  }
}

const TICK_MS = 10; // USER_HZ is 100 on Linux

/**
 * The cost of one case, each request a call of `run`.
 * @param {string} name
 * @param {number} requests
 * @param {(i: number) => Promise<unknown>} run
 * @param {{ get: number, update: number }} calls the store calls so far, counted by the stores
 * @param {number} brokerPid
 */
async function measure(name, requests, run, calls, brokerPid) {
  for (let i = 0; i < Math.min(200, requests / 10); i++) await run(i); // warm-up: JIT, the bucket, the connection
  const before = { ...calls };
  const ticks = processTicks(brokerPid);
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < requests; i++) await run(i);
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  const brokerTicks = processTicks(brokerPid);
  const storeCalls = calls.get + calls.update - before.get - before.update;
  return {
    name,
    gatewayCpuUsPerRequest: (used.user + used.system) / requests,
    brokerCpuUsPerRequest: ticks === null || brokerTicks === null ? null : ((brokerTicks - ticks) * TICK_MS * 1000) / requests,
    storeCallsPerRequest: storeCalls / requests,
    usPerRequest: (wallMs * 1000) / requests,
  };
}

/**
 * Every case, on a broker of its own; the results in the order measured.
 * @param {{ requests?: number }} [options]
 */
async function sharedLimitsCost({ requests = 5000 } = {}) {
  require('reflect-metadata');
  /** @type {typeof import('../../libs/platform/src/index')} */
  const { ServiceClient } = require(path.join(ROOT, 'dist/libs/platform/src/index.js'));
  /** @type {typeof import('../../apps/gateway/src/auth/shared-limits')} */
  const { SharedInFlight, SharedRateLimiter } = require(path.join(ROOT, 'dist/apps/gateway/src/auth/shared-limits.js'));
  const storeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hotel-limits-bench-'));
  const pidFile = path.join(storeDir, 'nats.pid');
  const server = await startNatsServer({ port: await freePort(), storeDir: path.join(storeDir, 'js'), pidFile });
  const brokerPid = Number(fs.readFileSync(pidFile, 'utf8'));
  /** @type {import('../../libs/platform/src/index').ServiceClient[]} */
  const clients = [];
  const calls = { get: 0, update: 0 };
  /**
   * One gateway replica's store: its own connection, as each replica has.
   * @returns {Promise<import('../../libs/platform/src/index').KeyValueBucket>}
   */
  const replicaStore = async () => {
    const client = new ServiceClient({ url: server.url, identity: 'gateway' }, 5000);
    await client.connect();
    clients.push(client);
    const bucket = client.keyValue({ bucket: 'hotel_rate_limits', storage: 'file', replicas: 1, maxAgeMs: 3_600_000, timeoutMs: 1000 });
    return {
      get: (key) => (calls.get++, bucket.get(key)),
      update: (key, value, revision) => (calls.update++, bucket.update(key, value, revision)),
    };
  };
  try {
    const stores = [await replicaStore(), await replicaStore(), await replicaStore()];
    // A request of a client's live API key: its bucket and its client's, one key in the store.
    /**
     * @param {number} client
     * @param {import('../../libs/contracts/src/index').RateLimit} limit
     */
    const budget = (client, limit) => ({ key: `rate.${client}`, credential: 'api.live.none', clientLimit: limit, credentialLimit: limit });
    const results = [];
    // The bench's own limits (a million a second): a busy client's leases are large.
    const one = new SharedRateLimiter(stores[0]);
    results.push(await measure('rate limit, a busy client on one replica (leases)', requests, () => one.take(budget(1, { rps: 1_000_000, burst: 1_000_000 })), calls, brokerPid));
    // Leases of one token (a quiet client, under 20 requests a second per replica): a write per request.
    results.push(await measure('rate limit, one token per lease (quiet client), one replica', requests, () => one.take(budget(2, { rps: 10, burst: 1_000_000_000 })), calls, brokerPid));
    const three = stores.map((store) => new SharedRateLimiter(store));
    results.push(await measure('rate limit, one token per lease, three replicas in turn', requests, (i) => three[i % 3].take(budget(3, { rps: 10, burst: 1_000_000_000 })), calls, brokerPid));
    // An expensive request: admitted, then its place given back once answered.
    const inFlight = stores.map((store, i) => new SharedInFlight(store, 32, `bench-${i}`));
    /** @param {InstanceType<typeof SharedInFlight>} replica */
    const admitted = async (replica) => {
      const release = await replica.tryAcquire(4);
      // One request at a time, under a limit of 32: never refused.
      if (!release) throw new Error('the in-flight limit refused a request of the benchmark');
      release();
      await new Promise((resolve) => setImmediate(resolve)); // the release's write goes out
    };
    results.push(await measure('in flight, admit and release, one replica', requests, () => admitted(inFlight[0]), calls, brokerPid));
    results.push(await measure('in flight, admit and release, three replicas in turn', requests, (i) => admitted(inFlight[i % 3]), calls, brokerPid));
    for (const replica of inFlight) await replica.close();
    return results;
  } finally {
    for (const client of clients) await client.close();
    await server.kill();
    fs.rmSync(storeDir, { recursive: true, force: true });
  }
}

module.exports = { sharedLimitsCost };

if (require.main === module) {
  sharedLimitsCost().then(
    (results) => {
      console.table(
        results.map((result) => ({
          case: result.name,
          'gateway CPU µs/req': result.gatewayCpuUsPerRequest.toFixed(1),
          'broker CPU µs/req': result.brokerCpuUsPerRequest?.toFixed(1) ?? 'n/a',
          'store calls/req': result.storeCallsPerRequest.toFixed(3),
          'µs/req': result.usPerRequest.toFixed(1),
        })),
      );
    },
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
