#!/usr/bin/env node
// @ts-check
// The machine's own baseline for `npm run bench`, measured in the same run as the
// platform: `node baseline.js echo NATS_URL` answers NATS requests on one subject;
// `node baseline.js server NATS_URL PORT CERT KEY` serves a bare Fastify JSON route
// (/json) and the same route answering through one NATS request to the echo (/nats).
const fs = require('node:fs');
const { connect, StringCodec } = require('nats');

const ECHO_SUBJECT = 'bench.baseline.echo';
const [mode, natsUrl, port, certFile, keyFile] = process.argv.slice(2);

async function echo() {
  const nc = await connect({ servers: natsUrl });
  nc.subscribe(ECHO_SUBJECT, { queue: 'bench-echo', callback: (_error, message) => message.respond(message.data) });
  process.send?.('ready');
}

async function server() {
  const fastify = require('fastify')({
    https: { cert: fs.readFileSync(certFile), key: fs.readFileSync(keyFile) },
    logger: false,
  });
  const nc = await connect({ servers: natsUrl });
  const codec = StringCodec();
  fastify.get('/json', async () => ({ data: { hello: 'world' }, success: true, message: null }));
  fastify.get('/nats', async () => {
    const reply = await nc.request(ECHO_SUBJECT, codec.encode(JSON.stringify({ hello: 'world' })), { timeout: 5000 });
    return { data: JSON.parse(codec.decode(reply.data)), success: true, message: null };
  });
  await fastify.listen({ port: Number(port), host: '127.0.0.1' });
  process.send?.('ready');
}

(mode === 'echo' ? echo() : server()).catch((error) => {
  console.error(error);
  process.exit(1);
});
