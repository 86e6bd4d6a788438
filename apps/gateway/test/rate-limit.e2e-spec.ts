import { request } from 'node:https';
import { connect } from 'nats';
import { SUBJECTS } from '@hotel/contracts';
import { natsConnectionOptions } from '@hotel/platform';
import { bearer } from '@hotel/testing';
import { TestSystem } from './system';

/**
 * Rate limits (docs/rate-limits.md): a token bucket per credential and one per client (all its keys and
 * users together), RateLimit-* headers and 429 + Retry-After; per client via the admin
 * command; and a bound on a client's expensive requests in flight.
 */
describe('rate limiting', () => {
  let system: TestSystem;

  beforeAll(async () => {
    system = await TestSystem.start(
      { RATE_LIMIT_RPS: '1', RATE_LIMIT_BURST: '5', RATE_LIMIT_CLIENT_BURST: '8', CLIENT_MAX_IN_FLIGHT: '2', AUTH_CACHE_TTL_MS: '100', RPC_TIMEOUT_MS: '1500' },
      ['users'],
    );
  });
  afterAll(async () => {
    await system?.close();
  });

  it('answers 429 with Retry-After once the burst is spent, per credential and per client', async () => {
    const acme = await system.createClient('Acme Travel');
    const started = Date.now();
    const responses = await Promise.all(Array.from({ length: 12 }, () => system.request('GET', '/me', { headers: bearer(acme.api_key) })));
    const allowed = responses.filter((response) => response.status === 200);
    const limited = responses.filter((response) => response.status === 429);
    // The burst of 5, plus at most one more per second the requests took (1 req/s refill).
    expect(allowed.length).toBeGreaterThanOrEqual(5);
    expect(allowed.length).toBeLessThanOrEqual(5 + Math.ceil((Date.now() - started) / 1000));
    expect(allowed.length + limited.length).toBe(12);
    for (const response of allowed) {
      expect(response.headers['ratelimit-limit']).toBe('5');
      expect(Number(response.headers['ratelimit-remaining'])).toBeLessThan(5);
      expect(Number(response.headers['ratelimit-reset'])).toBeGreaterThan(0);
    }
    for (const response of limited) {
      expect(response.headers['retry-after']).toBe('1');
      expect(response.headers['ratelimit-remaining']).toBe('0');
      expect(response.body).toMatchObject({ data: null, success: false, code: 'RATE_LIMITED' });
    }

    // Another credential of the same client has a full bucket of its own, but draws on the
    // client's budget of 8 too: only what the live key left of it (plus the refill).
    const sandbox = [];
    for (let i = 0; i < 8; i++) sandbox.push(await system.request('GET', '/me', { headers: bearer(acme.sandbox_api_key) }));
    const sandboxAllowed = sandbox.filter((response) => response.status === 200).length;
    expect(sandboxAllowed).toBeLessThanOrEqual(8 - allowed.length + Math.ceil((Date.now() - started) / 1000));
    const refused = sandbox.find((response) => response.status === 429)!;
    expect(refused.headers['ratelimit-limit']).toBe('8');
    expect(refused.body).toMatchObject({ data: null, success: false, code: 'RATE_LIMITED' });

    // Another client is not affected.
    const other = await system.createClient('Other Travel');
    expect((await system.request('GET', '/me', { headers: bearer(other.api_key) })).status).toBe(200);
  });

  it("an operator can raise one client's limit and restore the default", async () => {
    const busy = await system.createClient('Busy Travel');
    const set = await system.admin('set-rate-limit', '--client-id', String(busy.client_id), '--rps', '100', '--burst', '50');
    expect(set.code).toBe(0);
    expect(set.json).toEqual({ client_id: busy.client_id, rate_limit: { rps: 100, burst: 50 } });
    await new Promise((resolve) => setTimeout(resolve, 150));
    const statuses = [];
    // The client's limit replaces both defaults: one key may use it, or several together.
    for (let i = 0; i < 20; i++) statuses.push((await system.request('GET', '/me', { headers: bearer(i % 2 ? busy.api_key : busy.sandbox_api_key) })).status);
    expect(statuses.every((status) => status === 200)).toBe(true);

    const reset = await system.admin('set-rate-limit', '--client-id', String(busy.client_id), '--default');
    expect(reset.json).toEqual({ client_id: busy.client_id, rate_limit: null });
  });

  it('refuses bad set-rate-limit arguments', async () => {
    expect((await system.admin('set-rate-limit', '--client-id', '1')).code).toBe(2);
    expect((await system.admin('set-rate-limit', '--client-id', '1', '--rps', '0')).code).toBe(2);
    expect((await system.admin('set-rate-limit', '--client-id', '1', '--default', '--rps', '5')).code).toBe(2);
    expect((await system.admin('set-rate-limit', '--client-id', '999999', '--rps', '5')).code).toBe(1);
  });

  it("bounds a client's expensive requests in flight (2 here), not other clients' and not cheap ones", async () => {
    // An accounting replica that takes list requests and never answers: they stay in flight until RPC_TIMEOUT_MS.
    let received = 0;
    const hung = await connect(natsConnectionOptions(system.nats.bus('accounting')));
    hung.subscribe(SUBJECTS.ACCOUNTING_ENTRY_LIST, { queue: 'accounting', callback: () => received++ });
    try {
      const flooding = { authorization: (await system.createClient('Flooding Travel')).backend_token };
      const other = { authorization: (await system.createClient('Patient Travel')).backend_token };
      const held = [system.request('GET', '/api/accounting', { headers: flooding }), system.request('GET', '/api/accounting', { headers: flooding })];
      for (let i = 0; i < 200 && received < 2; i++) await new Promise((resolve) => setTimeout(resolve, 25));
      expect(received).toBe(2);

      const third = await system.request('GET', '/api/accounting', { headers: flooding });
      expect(third.status).toBe(429);
      expect(third.headers['retry-after']).toBe('1');
      expect(third.body).toMatchObject({ data: null, success: false, code: 'RATE_LIMITED', message: expect.stringMatching(/in flight/) });
      // Cheap requests of the same client are not bounded; another client's expensive one is admitted.
      expect((await system.request('GET', '/api/user/999', { headers: flooding })).status).toBe(404);
      const patient = system.request('GET', '/api/accounting', { headers: other });

      // Once its requests are answered (here 503: nobody answers), the client is admitted again.
      expect((await Promise.all(held)).map((response) => response.status)).toEqual([503, 503]);
      expect((await patient).status).toBe(503);
      expect((await system.request('GET', '/api/accounting', { headers: flooding })).status).toBe(503);

      // Dropping the connection does not give the place back while the services still work on the request.
      const leaving = { authorization: (await system.createClient('Leaving Travel')).backend_token };
      const before = received;
      const dropped = [0, 1].map(() => request(`${system.url}/api/accounting`, { headers: leaving, rejectUnauthorized: false, agent: false }));
      for (const call of dropped) call.on('error', () => undefined).end();
      for (let i = 0; i < 200 && received < before + 2; i++) await new Promise((resolve) => setTimeout(resolve, 25));
      for (const call of dropped) call.destroy();
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect((await system.request('GET', '/api/accounting', { headers: leaving })).status).toBe(429);
    } finally {
      await hung.close();
    }
  });
});
