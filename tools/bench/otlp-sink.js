// @ts-check
// The collector of `npm run bench -- --tracing`: an OTLP/HTTP endpoint in the bench
// process that accepts the apps' trace exports (JSON, as @opentelemetry/exporter-trace-otlp-http
// sends them) and only counts their spans, so the figures are the apps' own cost of tracing
// (spans, headers, batching, export) and not a collector's. It counts without parsing (the
// bench process is also the load generator): in OTLP JSON each span, and nothing else, has
// a "kind" field.
const http = require('node:http');

const KIND = Buffer.from('"kind":');

/** @returns {Promise<{ url: string, spans: () => number, close: () => Promise<void> }>} */
function startOtlpSink() {
  let spans = 0;
  const server = http.createServer((request, response) => {
    /** @type {Buffer[]} */
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      if (request.method === 'POST' && request.url === '/v1/traces') {
        const body = Buffer.concat(chunks);
        for (let at = body.indexOf(KIND); at !== -1; at = body.indexOf(KIND, at + KIND.length)) spans++;
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${/** @type {import('node:net').AddressInfo} */ (server.address()).port}`,
        spans: () => spans,
        close: () => new Promise(/** @param {() => void} done */ (done) => server.close(() => done())),
      }),
    ),
  );
}

module.exports = { startOtlpSink };
