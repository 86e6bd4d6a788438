import { TestResponse, answeredUnavailable, bearer, call } from '@hotel/testing';
import { TestSystem } from './system';

/**
 * A client's limits hold in total across gateway replicas (docs/rate-limits.md): three
 * gateways on one bus, the client's requests spread over them, and what it gets is its
 * limit once, not three times.
 */
describe('limits shared by three gateway replicas', () => {
  let system: TestSystem;
  let gateways: string[];

  beforeAll(async () => {
    system = await TestSystem.start(
      // No hold before a 429: the test counts answers, not time.
      { RATE_LIMIT_RPS: '2', RATE_LIMIT_BURST: '6', CLIENT_MAX_IN_FLIGHT: '3', AUTH_CACHE_TTL_MS: '100', RPC_TIMEOUT_MS: '1500', REFUSAL_HOLD_MS: '0' },
      ['users'],
    );
    await system.startGatewayReplica();
    await system.startGatewayReplica();
    gateways = [system.url, ...system.gatewayReplicas.map((replica) => replica.url)];
  });
  afterAll(async () => {
    await system?.close();
  });

  const statusCount = (responses: TestResponse[], status: number) => responses.filter((response) => response.status === status).length;

  it("a client's burst (6) holds in total over the three replicas, not once per replica, and every replica's headers count the others' requests", async () => {
    const acme = await system.createClient('Spread Travel');
    const started = Date.now();
    const responses: TestResponse[] = [];
    let firstSixS = 0;
    for (let i = 0; i < 24; i++) {
      responses.push(await call(gateways[i % 3], 'GET', '/me', { headers: bearer(acme.api_key) }));
      if (i === 5) firstSixS = (Date.now() - started) / 1000;
    }
    const elapsedS = (Date.now() - started) / 1000;
    const allowed = responses.filter((response) => response.status === 200);
    // The burst, plus what 2 requests a second refilled meanwhile; per-replica buckets would have allowed 18.
    expect(allowed.length).toBeGreaterThanOrEqual(6);
    expect(allowed.length).toBeLessThanOrEqual(6 + Math.ceil(2 * elapsedS));
    expect(statusCount(responses, 429)).toBe(24 - allowed.length);
    // The first six went to the three replicas in turn, and each saw the requests the others had taken.
    expect(responses.slice(0, 6).map((response) => response.status)).toEqual([200, 200, 200, 200, 200, 200]);
    const remaining = responses.slice(0, 6).map((response) => Number(response.headers['ratelimit-remaining']));
    expect(remaining[0]).toBe(5);
    for (let i = 1; i < 6; i++) expect(remaining[i]).toBeLessThanOrEqual(remaining[i - 1]);
    // None left after six, but what 2 a second refilled while they were answered (a CI run on a
    // loaded machine took long enough for 2); per-replica buckets would leave 4.
    expect(remaining[5]).toBeLessThanOrEqual(Math.max(1, Math.ceil(2 * firstSixS)));
    for (const response of responses) expect(response.headers['ratelimit-limit']).toBe('6');
    for (const response of responses.filter((answer) => answer.status === 429)) {
      expect(response.headers['retry-after']).toBe('1');
      expect(response.body).toMatchObject({ success: false, code: 'RATE_LIMITED' });
    }
  });

  it('a raised limit (50/s, burst 100) holds in total under concurrent load on the three replicas, leases and all', async () => {
    const busy = await system.createClient('Busy Travel');
    expect((await system.admin('set-rate-limit', '--client-id', String(busy.client_id), '--rps', '50', '--burst', '100')).code).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 150)); // the cached credential (100 ms) has gone
    const started = Date.now();
    let sent = 0;
    const responses: TestResponse[] = [];
    // 20 connections per replica, 300 requests in all, as fast as they are answered.
    await Promise.all(
      Array.from({ length: 60 }, async (_, worker) => {
        while (sent < 300) {
          sent++;
          responses.push(await call(gateways[worker % 3], 'GET', '/me', { headers: bearer(busy.api_key) }));
        }
      }),
    );
    const elapsedS = (Date.now() - started) / 1000;
    const allowed = statusCount(responses, 200);
    // Overloaded, the gateway fails closed: 503 with Retry-After, never a request let through.
    // A slow, busy machine met it: the three replicas' writes to the client's key colliding for
    // CONTENTION_BUDGET_MS ("the rate limits cannot be checked just now", 87 of 300 in one CI
    // run), and in another 36 more besides those (most likely one credential lookup outliving
    // the call, shared by the requests waiting on it). Anything else is named here.
    const failedClosed = responses.filter(answeredUnavailable).length;
    const others = responses.filter((response) => response.status !== 200 && response.status !== 429 && !answeredUnavailable(response));
    expect(others.map((response) => `${response.status} ${response.headers['retry-after']} ${JSON.stringify(response.body)}`)).toEqual([]);
    // At most burst + rate × time + the leases' slack: min(50/s × 0.2 s, 3 replicas × (3 − 1)) = 6.
    expect(allowed).toBeLessThanOrEqual(100 + 50 * elapsedS + 6);
    // And never refused within the burst: each of its 100 tokens was granted, or its request failed closed.
    expect(allowed + failedClosed).toBeGreaterThanOrEqual(100);
  });

  it("a client's expensive requests in flight (3) are bounded in total over the three replicas", async () => {
    // An accounting replica that takes list requests and never answers: they stay in flight until RPC_TIMEOUT_MS.
    let received = 0;
    const hung = await system.standInLedger(() => received++);
    try {
      const flooding = { authorization: (await system.createClient('Flooding Travel')).backend_token };
      const other = { authorization: (await system.createClient('Patient Travel')).backend_token };
      // One on each replica: the bound, in total.
      const held = gateways.map((url) => call(url, 'GET', '/api/accounting', { headers: flooding }));
      for (let i = 0; i < 200 && received < 3; i++) await new Promise((resolve) => setTimeout(resolve, 25));
      expect(received).toBe(3);
      // A fourth, on any replica, is refused; per-replica counts would have let 9 in.
      for (const url of gateways) {
        const refused = await call(url, 'GET', '/api/accounting', { headers: flooding });
        expect(refused.status).toBe(429);
        expect(refused.headers['retry-after']).toBe('1');
        expect(refused.body).toMatchObject({ success: false, code: 'RATE_LIMITED', message: expect.stringMatching(/in flight \(at most 3 /) });
      }
      expect(received).toBe(3);
      // Another client is not affected.
      const patient = call(gateways[1], 'GET', '/api/accounting', { headers: other });
      // Once its requests are answered (here 503: nobody answers), the client is admitted again, on any replica.
      expect((await Promise.all(held)).map((response) => response.status)).toEqual([503, 503, 503]);
      expect((await patient).status).toBe(503);
      expect((await call(gateways[2], 'GET', '/api/accounting', { headers: flooding })).status).toBe(503);
    } finally {
      await hung.close();
    }
  });
});
