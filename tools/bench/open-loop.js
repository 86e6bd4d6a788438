// @ts-check
// An open-loop load generator for `npm run bench`: sends requests at a fixed rate,
// evenly spaced, whether or not earlier ones have been answered (like wrk2), and
// measures each from the moment it was due, so a stall shows in the latencies of every
// request it delayed. autocannon's overallRate instead sends each connection's share of
// a second back to back at the start of that second, which measures bursts, not a rate.
const https = require('node:https');

/**
 * What the benchmark is told of a phase of load (autocannon's figures, of the same names).
 * @typedef {{ requests: { average: number }, latency: { p50: number, p99: number }, errors: number, timeouts: number, non2xx: number }} LoadResult
 */
/**
 * @typedef {object} OpenLoopOptions
 * @property {string} url the base; each request goes to one of `paths` on it, in turn
 * @property {import('node:http').OutgoingHttpHeaders} [headers]
 * @property {string[]} paths
 * @property {number} rate requests per second
 * @property {number} warmupS
 * @property {number} durationS
 * @property {number} connections
 */

/**
 * One phase of load over the given agent's connections.
 * @param {https.Agent} agent
 * @param {Omit<OpenLoopOptions, 'warmupS' | 'connections'>} options
 * @returns {Promise<LoadResult>}
 */
function runOpenLoop(agent, { url, headers = {}, paths, rate, durationS }) {
  const base = new URL(url);
  const total = Math.round(rate * durationS);
  const intervalMs = 1000 / rate;
  /** @type {number[]} */
  const latencies = [];
  /** @type {number[]} */
  const slow = [];
  let sent = 0;
  let settled = 0;
  let errors = 0;
  let non2xx = 0;
  const start = performance.now();

  return new Promise((resolve) => {
    const finish = () => {
      if (process.env.BENCH_TRACE) process.stderr.write(`open-loop: slow (>15 ms) by 100 ms window: ${JSON.stringify(slow.reduce((c, w) => ({ ...c, [w]: (c[w] ?? 0) + 1 }), /** @type {Record<number, number>} */ ({})))}\n`);
      latencies.sort((a, b) => a - b);
      /** @param {number} q */
      const at = (q) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * q))] ?? 0);
      const elapsedS = (performance.now() - start) / 1000;
      resolve({ requests: { average: latencies.length / elapsedS }, latency: { p50: at(0.5), p99: at(0.99) }, errors, timeouts: 0, non2xx });
    };
    const settle = () => {
      if (++settled === total) finish();
    };
    /**
     * @param {string} path
     * @param {number} dueAt
     */
    const fire = (path, dueAt) => {
      const request = https.request(new URL(path, base), { agent, headers }, (response) => {
        response.resume();
        response.on('end', () => {
          // A response (unlike a request a server receives) always has its status code.
          const status = /** @type {number} */ (response.statusCode);
          if (status >= 200 && status < 300) {
            latencies.push(performance.now() - dueAt);
            if (process.env.BENCH_TRACE && performance.now() - dueAt > 15) slow.push(Math.floor((dueAt - start) / 100));
          }
          else if (++non2xx <= 3) process.stderr.write(`open-loop: ${path}: HTTP ${response.statusCode}\n`);
          settle();
        });
      });
      request.on('error', /** @param {NodeJS.ErrnoException} error */ (error) => {
        errors++;
        if (errors <= 3) process.stderr.write(`open-loop: ${path}: ${error.code ?? error.message}\n`);
        settle();
      });
      request.end();
    };
    const tick = () => {
      const due = Math.min(total, Math.floor((performance.now() - start) / intervalMs) + 1);
      for (; sent < due; sent++) fire(paths[sent % paths.length], start + sent * intervalMs);
      if (sent < total) setTimeout(tick, Math.max(0, start + sent * intervalMs - performance.now()));
    };
    tick();
  });
}

/**
 * Runs the load in a child process of its own: latencies are measured where the
 * requests are sent, so the generator's event loop must not share a heap (and its
 * garbage collections) with the benchmark's, which holds megabytes of setup data.
 * The child first sends warmupS seconds of the same load, unmeasured, over the same
 * connections (TLS handshakes, JIT on both sides), then measures durationS seconds,
 * going on through the paths where the warm-up stopped.
 *
 * @param {OpenLoopOptions} options
 * @returns {Promise<LoadResult>}
 */
function openLoop(options) {
  const { fork } = require('node:child_process');
  return new Promise((resolve, reject) => {
    const child = fork(__filename, ['child'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    child.once('message', (result) => {
      // The child's one message: its LoadResult.
      resolve(/** @type {LoadResult} */ (/** @type {unknown} */ (result)));
      child.kill();
    });
    child.once('exit', (code) => reject(new Error(`the load generator exited with ${code}`)));
    child.send(options);
  });
}

/** @param {OpenLoopOptions} options */
async function warmUpAndMeasure(options) {
  const agent = new https.Agent({ keepAlive: true, maxSockets: options.connections, rejectUnauthorized: false });
  const skip = Math.round(options.warmupS * options.rate) % options.paths.length;
  if (options.warmupS > 0) await runOpenLoop(agent, { ...options, durationS: options.warmupS });
  const paths = [...options.paths.slice(skip), ...options.paths.slice(0, skip)];
  const result = await runOpenLoop(agent, { ...options, paths });
  agent.destroy();
  return result;
}

if (require.main === module && process.argv[2] === 'child') {
  // Forked with an IPC channel, so process.send is there; the one message is openLoop's options.
  process.once('message', (options) =>
    warmUpAndMeasure(/** @type {OpenLoopOptions} */ (options)).then((result) => /** @type {NonNullable<typeof process.send>} */ (process.send)(result)),
  );
}

module.exports = { openLoop };
