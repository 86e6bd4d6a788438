// An open-loop load generator for `npm run bench`: sends requests at a fixed rate,
// evenly spaced, whether or not earlier ones have been answered (like wrk2), and
// measures each from the moment it was due, so a stall shows in the latencies of every
// request it delayed. autocannon's overallRate instead sends each connection's share of
// a second back to back at the start of that second, which measures bursts, not a rate.
const https = require('node:https');

/** One phase of load over the given agent's connections. */
function runOpenLoop(agent, { url, headers = {}, paths, rate, durationS }) {
  const base = new URL(url);
  const total = Math.round(rate * durationS);
  const intervalMs = 1000 / rate;
  const latencies = [];
  const slow = [];
  let sent = 0;
  let settled = 0;
  let errors = 0;
  let non2xx = 0;
  const start = performance.now();

  return new Promise((resolve) => {
    const finish = () => {
      if (process.env.BENCH_TRACE) process.stderr.write(`open-loop: slow (>15 ms) by 100 ms window: ${JSON.stringify(slow.reduce((c, w) => ({ ...c, [w]: (c[w] ?? 0) + 1 }), {}))}\n`);
      latencies.sort((a, b) => a - b);
      const at = (q) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * q))] ?? 0);
      const elapsedS = (performance.now() - start) / 1000;
      resolve({ requests: { average: latencies.length / elapsedS }, latency: { p50: at(0.5), p99: at(0.99) }, errors, timeouts: 0, non2xx });
    };
    const settle = () => {
      if (++settled === total) finish();
    };
    const fire = (path, dueAt) => {
      const request = https.request(new URL(path, base), { agent, headers }, (response) => {
        response.resume();
        response.on('end', () => {
          if (response.statusCode >= 200 && response.statusCode < 300) {
            latencies.push(performance.now() - dueAt);
            if (process.env.BENCH_TRACE && performance.now() - dueAt > 15) slow.push(Math.floor((dueAt - start) / 100));
          }
          else if (++non2xx <= 3) process.stderr.write(`open-loop: ${path}: HTTP ${response.statusCode}\n`);
          settle();
        });
      });
      request.on('error', (error) => {
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
 * @param {{ url: string, headers?: object, paths: string[], rate: number, warmupS: number, durationS: number, connections: number }} options
 * @returns {Promise<{ requests: { average: number }, latency: { p50: number, p99: number }, errors: number, timeouts: number, non2xx: number }>}
 */
function openLoop(options) {
  const { fork } = require('node:child_process');
  return new Promise((resolve, reject) => {
    const child = fork(__filename, ['child'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    child.once('message', (result) => {
      resolve(result);
      child.kill();
    });
    child.once('exit', (code) => reject(new Error(`the load generator exited with ${code}`)));
    child.send(options);
  });
}

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
  process.once('message', (options) => warmUpAndMeasure(options).then((result) => process.send(result)));
}

module.exports = { openLoop };
