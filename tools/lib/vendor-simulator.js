// The vendor simulator (apps/vendor-simulator) as `npm start`, the benchmark and the chaos
// run start it: three simulated vendors over HTTP on loopback, supervised like the apps,
// with their own schema in the platform's database. The platform reaches them with
// VENDOR_SIMULATOR_URL, as it would reach a real vendor.
const http = require('node:http');
const { freePort, portAnswers } = require('./workspace');

/** The simulator's default port; a free one when it is taken (another run). */
const SIMULATOR_PORT = 8790;

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
 * `latency`: each vendor's own answer time (`atlas=…,borealis=…,cobalt=…` in ms).
 */
async function startVendorSimulator(supervisor, { databaseUrl, latency, port, timeoutMs = 60_000, stopped = () => false }) {
  const chosen = port ?? ((await portAnswers(SIMULATOR_PORT)) ? await freePort() : SIMULATOR_PORT);
  supervisor.start('vendor-simulator', { DATABASE_URL: databaseUrl, PORT: String(chosen), HOST: '127.0.0.1', VENDOR_LATENCY_MS: latency, DB_POOL_SIZE: '4' });
  const url = `http://127.0.0.1:${chosen}`;
  const deadline = Date.now() + timeoutMs;
  while (!(await answers200(`${url}/health/ready`))) {
    if (Date.now() > deadline || stopped()) throw new Error(`the vendor simulator did not become ready within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return url;
}

module.exports = { startVendorSimulator };
