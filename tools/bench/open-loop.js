// An open-loop load generator for `npm run bench`: sends requests at a fixed rate,
// evenly spaced, whether or not earlier ones have been answered (like wrk2), and
// measures each from the moment it was due, so a stall shows in the latencies of every
// request it delayed. autocannon's overallRate instead sends each connection's share of
// a second back to back at the start of that second, which measures bursts, not a rate.
const https = require('node:https');

/**
 * @param {{ url: string, headers?: object, paths: string[], rate: number, durationS: number, connections: number }} options
 * @returns {Promise<{ requests: { average: number }, latency: { p50: number, p99: number }, errors: number, timeouts: number, non2xx: number }>}
 */
function openLoop({ url, headers = {}, paths, rate, durationS, connections }) {
  const agent = new https.Agent({ keepAlive: true, maxSockets: connections, rejectUnauthorized: false });
  const base = new URL(url);
  const total = Math.round(rate * durationS);
  const intervalMs = 1000 / rate;
  const latencies = [];
  let sent = 0;
  let settled = 0;
  let errors = 0;
  let non2xx = 0;
  const start = performance.now();

  return new Promise((resolve) => {
    const finish = () => {
      agent.destroy();
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
          if (response.statusCode >= 200 && response.statusCode < 300) latencies.push(performance.now() - dueAt);
          else non2xx++;
          settle();
        });
      });
      request.on('error', () => {
        errors++;
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

module.exports = { openLoop };
