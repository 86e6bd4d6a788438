import { connect, headers as natsHeaders } from 'nats';
import { HEADERS, SUBJECTS } from '@hotel/contracts';
import { TestNats, startTestNats } from '@hotel/testing';
import { natsConnectionOptions } from './nats-options';
import { ServiceClient } from './service-client';

/**
 * An answer in several messages (a head, then raw chunks), as the search service gives
 * V2 rates, read by a real client over a real broker: handed over part by part, and
 * failed when it stops coming instead of waiting for ever.
 */
describe('ServiceClient.sendForEach', () => {
  let nats: TestNats;
  let client: ServiceClient;
  const TIMEOUT_MS = 400;

  beforeAll(async () => {
    nats = await startTestNats();
    client = new ServiceClient(nats.bus('gateway'), TIMEOUT_MS);
    await client.connect();
  });
  afterAll(async () => {
    await client?.close();
    await nats?.stop();
  });

  /** A stand-in search service answering each request with `parts` (raw chunks after a JSON head), then, if `last`, the end. */
  async function responder(parts: string[], last: boolean, gapMs = 0) {
    const connection = await connect(natsConnectionOptions(nats.bus('search')));
    connection.subscribe(SUBJECTS.SEARCH_V2_RATES_SEARCH, {
      callback: (_error, message) => {
        message.respond(new TextEncoder().encode(JSON.stringify({ id: 'x', response: { head: { search_completed: true } }, isDisposed: false })));
        parts.forEach((part, i) =>
          setTimeout(() => {
            const headers = natsHeaders();
            headers.set(HEADERS.RAW_REPLY, last && i === parts.length - 1 ? 'last' : 'more');
            message.respond(new TextEncoder().encode(part), { headers });
          }, gapMs * (i + 1)),
        );
      },
    });
    await connection.flush();
    return connection;
  }

  const request = { actor: { clientId: 1, sandbox: false, role: 'client' }, search: {} } as never;

  it('hands over each part as it comes, in order, and resolves after the last, however long the whole answer takes', async () => {
    // Five parts TIMEOUT_MS / 2 apart: the whole answer takes longer than the timeout, no gap does.
    const responding = await responder(['a', 'b', 'c', 'd', 'e'], true, TIMEOUT_MS / 2);
    try {
      const seen: unknown[] = [];
      await client.sendForEach(SUBJECTS.SEARCH_V2_RATES_SEARCH, request, (reply) => seen.push(reply instanceof Uint8Array ? Buffer.from(reply).toString() : reply));
      expect(seen).toEqual([{ head: { search_completed: true } }, 'a', 'b', 'c', 'd', 'e']);
    } finally {
      await responding.close();
    }
  });

  it('fails with 503 SERVICE_UNAVAILABLE when the answer stops coming, after handing over what came', async () => {
    const responding = await responder(['a', 'b'], false);
    try {
      const seen: unknown[] = [];
      const started = Date.now();
      await expect(client.sendForEach(SUBJECTS.SEARCH_V2_RATES_SEARCH, request, (reply) => seen.push(reply))).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
      expect(seen).toHaveLength(3);
      expect(Date.now() - started).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    } finally {
      await responding.close();
    }
  });
});

/**
 * Lanes: calls on a subject with large answers go over a connection of their own, so
 * the other calls' answers do not queue behind theirs in one TCP stream.
 */
describe('ServiceClient.withLanes', () => {
  let nats: TestNats;
  let client: ServiceClient;

  beforeAll(async () => {
    nats = await startTestNats();
    client = new ServiceClient(nats.bus('gateway'), 2000).withLanes([SUBJECTS.SEARCH_V2_RATES_SEARCH, SUBJECTS.SEARCH_SESSION_POLL]);
    await client.connect();
  });
  afterAll(async () => {
    await client?.close();
    await nats?.stop();
  });

  it("answers calls on a lane's subject and on the others, the lane's through a reply inbox (and connection) of its own", async () => {
    const replyTo: Record<string, string> = {};
    const search = await connect(natsConnectionOptions(nats.bus('search')));
    for (const subject of [SUBJECTS.SEARCH_V2_RATES_SEARCH, SUBJECTS.SEARCH_SESSION_POLL, SUBJECTS.SEARCH_PLACE_FIND]) {
      search.subscribe(subject, {
        callback: (_error, message) => {
          replyTo[subject] = message.reply!;
          message.respond(new TextEncoder().encode(JSON.stringify({ id: 'x', response: { subject }, isDisposed: true })));
        },
      });
    }
    await search.flush();
    try {
      const seen: unknown[] = [];
      await client.sendForEach(SUBJECTS.SEARCH_V2_RATES_SEARCH, { actor: { clientId: 1 }, search: {} } as never, (reply) => seen.push(reply));
      expect(seen).toEqual([{ subject: SUBJECTS.SEARCH_V2_RATES_SEARCH }]);
      expect(await client.send(SUBJECTS.SEARCH_SESSION_POLL, { sessionId: 'x' } as never)).toEqual({ subject: SUBJECTS.SEARCH_SESSION_POLL });
      expect(await client.send(SUBJECTS.SEARCH_PLACE_FIND, { text_query: 'par' } as never)).toEqual({ subject: SUBJECTS.SEARCH_PLACE_FIND });
      // Replies come to `_INBOX_<identity>.<inbox id>.…`: the main connection's shared inbox,
      // the poll lane's own, and the V2 call's (subscribed on its lane's connection).
      const connectionOf = (subject: string) => replyTo[subject].split('.')[1];
      expect(new Set([SUBJECTS.SEARCH_V2_RATES_SEARCH, SUBJECTS.SEARCH_SESSION_POLL, SUBJECTS.SEARCH_PLACE_FIND].map(connectionOf)).size).toBe(3);
    } finally {
      await search.close();
    }
  });
});

/**
 * checkEachSend: the gateway's check that a route sends only what its definition
 * declares. A refused call is not sent at all (no responder sees it); another goes out.
 */
describe('ServiceClient.checkEachSend', () => {
  let nats: TestNats;
  let client: ServiceClient;

  beforeAll(async () => {
    nats = await startTestNats();
    client = new ServiceClient(nats.bus('gateway'), 2000).checkEachSend((subject) => {
      if (subject === SUBJECTS.PROMO_CODE_QUOTE) throw new Error(`refused: ${subject}`);
    });
    await client.connect();
  });
  afterAll(async () => {
    await client?.close();
    await nats?.stop();
  });

  it('fails a refused call unsent and sends the others', async () => {
    const connection = await connect(natsConnectionOptions(nats.bus('promo')));
    const received: string[] = [];
    for (const subject of [SUBJECTS.PROMO_CODE_QUOTE, SUBJECTS.PROMO_HEALTH_CHECK]) {
      connection.subscribe(subject, {
        callback: (_error, message) => {
          received.push(message.subject);
          message.respond(new TextEncoder().encode(JSON.stringify({ id: 'x', response: { service: 'promo', status: 'ok' }, isDisposed: true })));
        },
      });
    }
    await connection.flush();
    try {
      await expect(client.send(SUBJECTS.PROMO_CODE_QUOTE, {} as never)).rejects.toThrow(`refused: ${SUBJECTS.PROMO_CODE_QUOTE}`);
      await expect(client.sendForAll(SUBJECTS.PROMO_CODE_QUOTE, {} as never)).rejects.toThrow('refused');
      await expect(client.send(SUBJECTS.PROMO_HEALTH_CHECK, {})).resolves.toMatchObject({ status: 'ok' });
      expect(received).toEqual([SUBJECTS.PROMO_HEALTH_CHECK]);
    } finally {
      await connection.close();
    }
  });
});
