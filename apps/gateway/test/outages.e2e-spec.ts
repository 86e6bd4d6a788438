import { GUEST, TcpProxy, prebookV1, startTcpProxy, staySequence, testServerUrl } from '@hotel/testing';
import { TestSystem } from './system';

const freshStay = staySequence(150);

/**
 * A dependency that is down answers 503 SERVICE_UNAVAILABLE with Retry-After,
 * never 500, and a request in flight learns it within the call's timeout.
 */
describe('outages', () => {
  let system: TestSystem, auth: { authorization: string };
  let proxy: TcpProxy;

  beforeAll(async () => {
    // The services reach PostgreSQL through a proxy the test can cut.
    const direct = new URL(testServerUrl());
    proxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
    const databaseUrl = (url: string) => {
      const viaProxy = new URL(url);
      viaProxy.host = `127.0.0.1:${proxy.port}`;
      return viaProxy.toString();
    };
    ({ system, auth } = await TestSystem.startWithClient({ AUTH_CACHE_TTL_MS: '0', RPC_TIMEOUT_MS: '3000' }, { databaseUrl }));
  });
  afterAll(async () => {
    await system?.close();
    await proxy?.close();
  });

  const expectUnavailable = (response: { status: number; body: any; headers: Record<string, unknown> }) => {
    expect(response.status).toBe(503);
    expect(response.body).toMatchObject({ success: false, data: null, code: 'SERVICE_UNAVAILABLE' });
    expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
  };

  it('a database cut answers 503 with Retry-After on every path, then serves again', async () => {
    const { path } = await prebookV1(system, auth, freshStay());
    const cut = proxy.cut(2500);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const during = await Promise.all([
      system.request('GET', '/me', { headers: auth }),
      system.request('GET', '/book', { headers: auth }),
      system.request('POST', '/search', { headers: auth, json: { place_id: 'gn:2988507', ...freshStay() } }),
      system.request('POST', path, { headers: auth, json: GUEST }),
    ]);
    for (const response of during) expectUnavailable(response);
    await cut;
    let after = await system.request('GET', '/book', { headers: auth });
    for (let i = 0; i < 50 && after.status !== 200; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      after = await system.request('GET', '/book', { headers: auth });
    }
    expect(after.status).toBe(200);
    expect((await system.request('POST', path, { headers: auth, json: GUEST })).status).toBe(201);
  });

  it('a request in flight when NATS dies gets 503 at once, and the platform serves again once NATS is back', async () => {
    const { path } = await prebookV1(system, auth, freshStay());
    // The supplier hangs (the vendor answers a booking after 4 s), so the booking is in flight when NATS goes.
    const release = await system.slowVendorBookings(4000);
    try {
      const started = Date.now();
      const inFlight = system.request('POST', path, { headers: auth, json: { ...GUEST, idempotency_key: 'through-nats-restart' } });
      await new Promise((resolve) => setTimeout(resolve, 300));
      const restart = system.nats.restart(1500);
      const answer = await inFlight;
      // The booking service would answer `pending` only at its deadline (2.4 s); the gateway
      // learns of the lost connection at once instead of waiting out its 3 s timeout.
      expectUnavailable(answer);
      expect(Date.now() - started).toBeLessThan(2400);
      expectUnavailable(await system.request('GET', '/book', { headers: auth }));
      await restart;
    } finally {
      await release();
    }
    let ready = await system.request('GET', '/health/ready');
    for (let i = 0; i < 100 && ready.status !== 200; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      ready = await system.request('GET', '/health/ready');
    }
    expect(ready.status).toBe(200);
    const repeat = await system.request('POST', path, { headers: auth, json: { ...GUEST, idempotency_key: 'through-nats-restart' } });
    expect([200, 201]).toContain(repeat.status);
  });
});
