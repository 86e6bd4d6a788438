import { connect as tlsConnect, TLSSocket } from 'node:tls';
import { TestSystem } from './system';

/** A TLS connection to the gateway whose every byte in and its end the test sees. */
interface Connection {
  socket: TLSSocket;
  received: () => string;
  /** Resolves when the gateway (or the test) has closed it: how long it lived after it was opened. */
  closed: Promise<number>;
}

/**
 * Slow clients are cut off: a connection trickling its headers or its body is answered 408
 * and closed at the gateway's timeouts, an idle kept-alive one is closed, and one address
 * cannot hold more than its share of connections; readiness probes cost no round trip. The
 * gateway alone (no service runs), with short timeouts.
 */
describe('slow clients', () => {
  let system: TestSystem;

  beforeAll(async () => {
    system = await TestSystem.start(
      {
        HTTP_HEADERS_TIMEOUT_MS: '1000',
        HTTP_REQUEST_TIMEOUT_MS: '2000',
        HTTP_KEEP_ALIVE_TIMEOUT_MS: '500',
        MAX_CONNECTIONS_PER_ADDRESS: '4',
        // Loopback is a trusted proxy by default, whose connections are everyone's: not here.
        TRUSTED_PROXIES: '10.255.255.0/24',
        // One readiness round at start, the next a minute later: the probes below must not cause any.
        READY_CHECK_INTERVAL_MS: '60000',
      },
      [],
    );
  });
  afterAll(() => system?.close());

  function open(): Promise<Connection> {
    const url = new URL(system.url);
    const opened = Date.now();
    let text = '';
    return new Promise((resolve, reject) => {
      const socket = tlsConnect({ host: url.hostname, port: Number(url.port), rejectUnauthorized: false });
      const closed = new Promise<number>((done) => socket.once('close', () => done(Date.now() - opened)));
      socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
      let connected = false;
      socket.once('secureConnect', () => {
        connected = true;
        resolve({ socket, received: () => text, closed });
      });
      // After the handshake an error only ends the connection, which `closed` tells.
      socket.on('error', (error) => (connected ? undefined : reject(error)));
    });
  }

  /** Writes a chunk every `everyMs` until the connection is closed. */
  function trickle(connection: Connection, chunk: string, everyMs: number): void {
    const timer = setInterval(() => {
      if (connection.socket.destroyed || !connection.socket.writable) return clearInterval(timer);
      connection.socket.write(chunk);
    }, everyMs);
    void connection.closed.then(() => clearInterval(timer));
  }

  it('a client trickling its headers is answered 408 and closed', async () => {
    const connection = await open();
    connection.socket.write('GET /health HTTP/1.1\r\nHost: gateway\r\n');
    trickle(connection, 'X-Slow: 1\r\n', 200);
    const lived = await connection.closed;
    expect(connection.received()).toMatch(/^HTTP\/1\.1 408 /);
    // 1 s of head time, checked every 100 ms; far below what a trickle could otherwise hold.
    expect(lived).toBeLessThan(8_000);
  });

  it('a body that trickles is cut off at the request timeout', async () => {
    const connection = await open();
    connection.socket.write('POST /api/user HTTP/1.1\r\nHost: gateway\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{');
    trickle(connection, ' ', 200);
    const lived = await connection.closed;
    expect(lived).toBeLessThan(10_000);
  });

  it('an idle kept-alive connection is closed after its answer', async () => {
    const connection = await open();
    connection.socket.write('GET /health HTTP/1.1\r\nHost: gateway\r\n\r\n');
    const lived = await connection.closed;
    expect(connection.received()).toMatch(/^HTTP\/1\.1 \d{3} /);
    expect(lived).toBeLessThan(8_000);
  });

  it('one address holds at most MAX_CONNECTIONS_PER_ADDRESS connections; one more is closed at once', async () => {
    // Opened one after the other until one is refused: this address may hold others already (the test's own client).
    const held: Connection[] = [];
    let refused = false;
    while (!refused && held.length <= 4) {
      try {
        held.push(await open());
        // A refused connection may complete its handshake before the server's close arrives.
        await new Promise((resolve) => setTimeout(resolve, 50));
        if (held[held.length - 1].socket.destroyed) refused = Boolean(held.pop());
      } catch {
        refused = true;
      }
    }
    expect(refused).toBe(true);
    expect(held.length).toBeLessThanOrEqual(4);
    for (const connection of held) connection.socket.destroy();
    await Promise.all(held.map((connection) => connection.closed));
    // Freed (once the gateway has seen them close): the address may connect again.
    let again: Connection | undefined;
    for (const deadline = Date.now() + 5_000; !again; ) {
      again = await open().catch(async (error) => {
        if (Date.now() > deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100));
        return undefined;
      });
    }
    again.socket.write('GET /health HTTP/1.1\r\nHost: gateway\r\nConnection: close\r\n\r\n');
    await again.closed;
    expect(again.received()).toMatch(/^HTTP\/1\.1 \d{3} /);
    const metrics = await (await fetch(system.gateway.metricsUrl)).text();
    expect(metrics).toMatch(/hotel_http_connections_refused_total\{listener="https",app="gateway"\} [1-9]/);
  });

  it('a flood of readiness probes asks no service: each answer is the background check\'s', async () => {
    const healthAsks = async () =>
      [...(await (await fetch(system.gateway.metricsUrl)).text()).matchAll(/^hotel_rpc_sent_duration_seconds_count\{[^}]*subject="[a-z]+\.health\.check\.v1"[^}]*\} (\d+)$/gm)].reduce(
        (sum, match) => sum + Number(match[1]),
        0,
      );
    const before = await healthAsks();
    expect(before).toBeGreaterThan(0);
    for (let batch = 0; batch < 20; batch++) {
      const answers = await Promise.all(Array.from({ length: 3 }, () => system.request('GET', '/health/ready')));
      // No service runs: not ready, said at once from the last round.
      for (const answer of answers) expect(answer).toMatchObject({ status: 503, body: { code: 'SERVICE_UNAVAILABLE' } });
    }
    expect(await healthAsks()).toBe(before);
  });
});

/**
 * What one source address may cost without a credential: requests to routes that take
 * none, and failed authentications, each limited apart; beyond them 429 with Retry-After,
 * before any work. Behind a trusted proxy, the address is the forwarded one.
 */
describe('limits per source address', () => {
  let system: TestSystem;

  beforeAll(async () => {
    system = await TestSystem.start({ ADDRESS_RATE_LIMIT_RPS: '1', ADDRESS_RATE_LIMIT_BURST: '5', REFUSAL_HOLD_MS: '0' }, []);
  });
  afterAll(() => system?.close());

  /** Statuses of `count` requests one after the other. */
  async function statuses(count: number, path: string, headers: Record<string, string> = {}): Promise<number[]> {
    const seen: number[] = [];
    for (let index = 0; index < count; index++) seen.push((await system.request('GET', path, { headers })).status);
    return seen;
  }

  it('requests without a credential: the burst, then 429 with Retry-After', async () => {
    const seen = await statuses(8, '/health');
    expect(seen.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(seen.slice(5).every((status) => status === 429)).toBe(true);
    const refused = await system.request('GET', '/openapi.json');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(refused.body).toMatchObject({ code: 'RATE_LIMITED', message: expect.stringContaining('without a credential from this address') });
  });

  it('failed authentications: the burst of 401s, then 429 before the credential is looked at; another address (behind a trusted proxy) is not affected', async () => {
    // Loopback is a trusted proxy by default: the forwarded address is the source.
    const from = (address: string) => ({ 'x-forwarded-for': address });
    const seen = await statuses(7, '/book', from('203.0.113.7'));
    expect(seen.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(seen.slice(5)).toEqual([429, 429]);
    const refused = await system.request('GET', '/book', { headers: { ...from('203.0.113.7'), authorization: 'Bearer hb_live_whatever' } });
    expect(refused).toMatchObject({ status: 429, body: { message: expect.stringContaining('too many failed authentications') } });
    expect((await system.request('GET', '/book', { headers: from('203.0.113.8') })).status).toBe(401);
  });
});
