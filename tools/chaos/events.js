// @ts-check
// The booking events under faults: every status change's event is written to the outbox,
// published to the BOOKING_EVENTS stream exactly once, and delivered to the client's webhook
// receiver. The run registers a receiver of its own (plain HTTP on loopback, which the
// webhooks service accepts with WEBHOOK_ALLOW_PRIVATE_TARGETS=1) for every client before any
// load, so every event of the run is owed to it.
const http = require('node:http');
const path = require('node:path');
const { ROOT } = require('../lib/workspace');
const { request } = require('../lib/https');

/** @typedef {import('./checks').Violation} Violation */
/** @typedef {import('pg').Client} Sql */
/** @typedef {{ type: string, bookingId: number | null, sequence: number | null, count: number }} Received */

const STREAM = 'BOOKING_EVENTS';

/**
 * An HTTP receiver on 127.0.0.1 that answers every POST 204 and remembers it by its webhook-id.
 * @returns {Promise<{ url: string, received: Map<string, Received>, close(): Promise<void> }>}
 */
async function startWebhookReceiver() {
  /** @type {Map<string, Received>} */
  const received = new Map();
  const server = http.createServer((req, res) => {
    /** @type {Buffer[]} */
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const id = String(req.headers['webhook-id'] ?? '');
      try {
        const event = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        const known = received.get(id);
        if (known) known.count += 1;
        else received.set(id, { type: event.type, bookingId: event.data?.id ?? null, sequence: event.sequence ?? null, count: 1 });
      } catch {
        // Not JSON: not a delivery of ours; answered all the same.
      }
      res.writeHead(204).end();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const address = /** @type {import('node:net').AddressInfo} */ (server.address());
  return {
    url: `http://127.0.0.1:${address.port}/hooks`,
    received,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Registers the receiver as a webhook endpoint of every client (all booking events).
 * @param {string} gateway
 * @param {import('./platform').ChaosClient[]} clients
 * @param {string} url
 */
async function registerEndpoints(gateway, clients, url) {
  for (const client of clients) {
    const answer = await request(gateway, 'POST', '/api/webhook', { headers: { authorization: client.backend_token }, json: { url, description: 'chaos receiver' } });
    if (answer.status !== 201) throw new Error(`registering the webhook receiver for client ${client.client_id}: ${answer.status} ${JSON.stringify(answer.body)}`);
  }
}

/**
 * The platform's BOOKING_EVENTS stream, read as the admin identity: its leader's node name and every message on it.
 * @param {string} natsUrl every node's address, comma-separated
 * @param {string} seed the admin identity's NKEY seed
 */
async function streamReader(natsUrl, seed) {
  const { connect } = require('nats');
  // The platform's connection options, as built (its contracts' decorators need the metadata API).
  require('reflect-metadata');
  /** @type {typeof import('../../libs/platform/src/nats/nats-options')} */
  const { natsConnectionOptions } = require(path.join(ROOT, 'dist/libs/platform/src/nats/nats-options.js'));
  const connection = await connect(natsConnectionOptions({ url: natsUrl, identity: 'admin', seed }));
  const info = async () => (await connection.jetstreamManager({ checkAPI: false })).streams.info(STREAM);
  return {
    /** The stream's leader (a node's server name) now; null while none is elected. */
    async leader() {
      return info().then((stream) => stream.cluster?.leader ?? null, () => null);
    },
    /**
     * Every message on the stream: its id (Nats-Msg-Id), and the booking and sequence it names.
     * @returns {Promise<{ msgId: string, bookingId: number, sequence: number }[]>}
     */
    async messages() {
      const { state } = await info();
      const consumer = await connection.jetstream().consumers.get(STREAM);
      const found = [];
      while (found.length < state.messages) {
        const batch = await consumer.fetch({ max_messages: Math.min(500, state.messages - found.length), expires: 5000 });
        let got = 0;
        for await (const message of batch) {
          const event = message.json();
          found.push({ msgId: message.headers?.get('Nats-Msg-Id') ?? '', bookingId: event.booking?.id, sequence: event.sequence });
          got += 1;
        }
        if (got === 0) throw new Error(`the stream holds ${state.messages} messages, ${found.length} could be read`);
      }
      return found;
    },
    close: () => connection.close(),
  };
}

/**
 * @param {() => Promise<boolean>} done
 * @param {number} maxWaitMs
 */
async function waitFor(done, maxWaitMs) {
  const deadline = Date.now() + maxWaitMs;
  while (!(await done()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 250));
}

/**
 * The checks of the booking events, once every saga has ended: each booking's events are in
 * the outbox without a gap, all published, each on the stream exactly once, and each
 * delivered to the client's receiver. Publishing and delivering go on after the sagas end
 * (a relay or a dispatcher that was killed hands over after its lease), so this waits up to
 * maxWaitMs for them.
 * @param {Sql} sql
 * @param {Awaited<ReturnType<typeof streamReader>>} stream
 * @param {Map<string, Received>} received
 * @param {number} maxWaitMs
 * @returns {Promise<Violation[]>}
 */
async function eventViolations(sql, stream, received, maxWaitMs) {
  /** @type {Violation[]} */
  const violations = [];
  const { rows: gaps } = await sql.query(
    `SELECT b.id AS booking_id, b.status, b.event_sequence, count(e.id)::int AS events, max(e.sequence) AS last_sequence
       FROM booking.bookings b LEFT JOIN booking.booking_events e ON e.booking_id = b.id
      GROUP BY b.id HAVING count(e.id) <> b.event_sequence OR coalesce(max(e.sequence), 0) <> b.event_sequence
      ORDER BY b.id`,
  );
  if (gaps.length) violations.push({ name: 'booking_events_without_gap', rule: "a booking's events in the outbox are numbered 1 to its event_sequence, one for each", rows: gaps });

  const unsent = async () => (await sql.query(`SELECT id, booking_id, sequence, type, created_at FROM booking.booking_events WHERE sent_at IS NULL ORDER BY created_at`)).rows;
  await waitFor(async () => (await unsent()).length === 0, maxWaitMs);
  const stillUnsent = await unsent();
  if (stillUnsent.length) violations.push({ name: 'booking_events_published', rule: `every event in the outbox is published within ${maxWaitMs / 1000} s of the sagas ending`, rows: stillUnsent });

  /** @type {{ id: string, booking_id: number, sequence: number, type: string }[]} */
  const outbox = (await sql.query(`SELECT id, booking_id, sequence, type FROM booking.booking_events ORDER BY booking_id, sequence`)).rows;
  const messages = await stream.messages();
  /** @type {Map<string, number>} */
  const copies = new Map();
  for (const message of messages) copies.set(message.msgId, (copies.get(message.msgId) ?? 0) + 1);
  /** @type {Map<string, number>} */
  const bySequence = new Map();
  for (const message of messages) bySequence.set(`${message.bookingId}/${message.sequence}`, (bySequence.get(`${message.bookingId}/${message.sequence}`) ?? 0) + 1);
  /** @type {Record<string, string | number>[]} */
  const repeated = [...copies].filter(([, count]) => count > 1).map(([msgId, count]) => ({ msg_id: msgId, copies: count }));
  repeated.push(...[...bySequence].filter(([, count]) => count > 1).map(([key, count]) => ({ booking_sequence: key, copies: count })));
  if (repeated.length) violations.push({ name: 'booking_events_on_stream_once', rule: 'each event is on the stream once (one message per id, one per booking and sequence)', rows: repeated });
  const missing = outbox.filter((event) => !copies.has(event.id));
  if (missing.length) violations.push({ name: 'booking_events_on_stream', rule: 'every published event of the outbox is on the stream', rows: missing });
  const outboxIds = new Set(outbox.map((event) => event.id));
  const stray = messages.filter((message) => !outboxIds.has(message.msgId));
  if (stray.length) violations.push({ name: 'booking_events_from_the_outbox', rule: 'every message on the stream is an event of the outbox', rows: stray });

  const undelivered = () => outbox.filter((event) => !received.has(event.id));
  await waitFor(async () => undelivered().length === 0, maxWaitMs);
  const late = undelivered();
  if (late.length) {
    const { rows: deliveries } = await sql.query(
      `SELECT event_id, status, attempts, last_status_code, last_error FROM webhooks.deliveries WHERE event_id = ANY($1::text[])`,
      [late.map((event) => event.id)],
    );
    const deliveryOf = new Map(deliveries.map((row) => [row.event_id, row]));
    violations.push({
      name: 'booking_events_delivered',
      rule: `every event reaches the client's webhook receiver within ${maxWaitMs / 1000} s of the sagas ending`,
      rows: late.map((event) => ({ ...event, delivery: deliveryOf.get(event.id) ?? 'none' })),
    });
  }
  return violations;
}

module.exports = { startWebhookReceiver, registerEndpoints, streamReader, eventViolations };
