// @ts-check
// What recording metrics costs a request, measured in this process with the platform's
// own AppMetrics (as built in dist/): the series a gateway request records (the HTTP
// histogram) and a NATS hop records (sent on one side, handled on the other), each an
// observe() with its labels. The scrape's cost is a scenario of its own (GET /metrics).
const path = require('node:path');
const { ROOT } = require('../lib/workspace');

/**
 * Nanoseconds per observation, and per request of one HTTP series and `hops` NATS hops (2 series each).
 * @param {{ iterations?: number, hops?: number }} [options]
 */
function metricsRecordingCost({ iterations = 300_000, hops = 1 } = {}) {
  require('reflect-metadata'); // the contracts it imports are decorated classes
  /** @type {typeof import('../../libs/platform/src/metrics/app-metrics')} */
  const { AppMetrics } = require(path.join(ROOT, 'dist/libs/platform/src/metrics/app-metrics'));
  const metrics = new AppMetrics('bench');
  const http = metrics.histogram('bench_http_request_duration_seconds', 'bench', ['method', 'route', 'status']);
  const handled = metrics.histogram('bench_rpc_handled_duration_seconds', 'bench', ['subject', 'code']);
  /** @param {number} i */
  const record = (i) => {
    http.observe({ method: 'GET', route: '/book', status: '200' }, (i % 100) / 1000);
    metrics.rpcSent.observe({ subject: 'booking.booking.list.v1', code: 'OK' }, (i % 50) / 1000);
    handled.observe({ subject: 'booking.booking.list.v1', code: 'OK' }, (i % 40) / 1000);
  };
  for (let i = 0; i < 20_000; i++) record(i); // warm up
  const start = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) record(i);
  const perObservation = Number(process.hrtime.bigint() - start) / iterations / 3;
  return { perObservationNs: perObservation, perRequestNs: perObservation * (1 + 2 * hops) };
}

module.exports = { metricsRecordingCost };
