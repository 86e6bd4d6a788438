import { TestSystem, bearer } from './system';

/** Decisions §11: per-credential rate limit with RateLimit-* headers and 429 + Retry-After; per client via the admin command. */
describe('rate limiting', () => {
  let system: TestSystem;

  beforeAll(async () => {
    system = await TestSystem.start({ RATE_LIMIT_RPS: '1', RATE_LIMIT_BURST: '5', AUTH_CACHE_TTL_MS: '100' }, ['users']);
  });
  afterAll(async () => {
    await system?.close();
  });

  it('answers 429 with Retry-After once the burst is spent, per credential', async () => {
    const acme = await system.createClient('Acme Travel');
    const started = Date.now();
    const responses = await Promise.all(Array.from({ length: 12 }, () => system.request('GET', '/me', { headers: bearer(acme.api_key) })));
    const elapsedSeconds = (Date.now() - started) / 1000;
    const allowed = responses.filter((response) => response.status === 200);
    const limited = responses.filter((response) => response.status === 429);
    // The burst of 5, plus at most one more per second the requests took (1 req/s refill).
    expect(allowed.length).toBeGreaterThanOrEqual(5);
    expect(allowed.length).toBeLessThanOrEqual(5 + Math.ceil(elapsedSeconds));
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

    // Another credential of the same client has its own bucket.
    expect((await system.request('GET', '/me', { headers: bearer(acme.sandbox_api_key) })).status).toBe(200);
  });

  it("an operator can raise one client's limit and restore the default", async () => {
    const busy = await system.createClient('Busy Travel');
    const set = await system.admin('set-rate-limit', '--client-id', String(busy.client_id), '--rps', '100', '--burst', '50');
    expect(set.code).toBe(0);
    expect(set.json).toEqual({ client_id: busy.client_id, rate_limit: { rps: 100, burst: 50 } });
    await new Promise((resolve) => setTimeout(resolve, 150));
    const statuses = [];
    for (let i = 0; i < 20; i++) statuses.push((await system.request('GET', '/me', { headers: bearer(busy.api_key) })).status);
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
});
