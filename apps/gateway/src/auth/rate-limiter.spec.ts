import { RateLimiter } from './rate-limiter';

describe('RateLimiter', () => {
  const limit = { rps: 10, burst: 20 };

  it('allows the burst, then refills at the rate', () => {
    const limiter = new RateLimiter();
    for (let i = 0; i < 20; i++) expect(limiter.take('k', limit, 0).allowed).toBe(true);
    const refused = limiter.take('k', limit, 0);
    expect(refused).toMatchObject({ allowed: false, remaining: 0, retryAfterSeconds: 1 });
    // 100 ms later one token has come back.
    expect(limiter.take('k', limit, 100).allowed).toBe(true);
    expect(limiter.take('k', limit, 100).allowed).toBe(false);
  });

  it('keeps credentials apart', () => {
    const limiter = new RateLimiter();
    for (let i = 0; i < 20; i++) limiter.take('a', limit, 0);
    expect(limiter.take('a', limit, 0).allowed).toBe(false);
    expect(limiter.take('b', limit, 0).allowed).toBe(true);
  });

  it('reports the limit, what remains and when it resets', () => {
    const decision = new RateLimiter().take('k', limit, 0);
    expect(decision).toEqual({ allowed: true, limit: 20, remaining: 19, resetSeconds: 1, retryAfterSeconds: 0 });
  });

  it('draws on every budget or none: a credential and its client', () => {
    const limiter = new RateLimiter();
    const client = { rps: 10, burst: 30 };
    const budgets = (credential: string) => [
      { key: credential, limit },
      { key: 'client', limit: client },
    ];
    for (let i = 0; i < 20; i++) expect(limiter.takeAll(budgets('live'), 0).allowed).toBe(true);
    // The live key's bucket is empty; the client's still has 10.
    expect(limiter.takeAll(budgets('live'), 0)).toMatchObject({ allowed: false, remaining: 0, retryAfterSeconds: 1 });
    for (let i = 0; i < 10; i++) expect(limiter.takeAll(budgets('sandbox'), 0).allowed).toBe(true);
    // Now the client's budget binds, for every credential of it.
    const refused = limiter.takeAll(budgets('user'), 0);
    expect(refused).toMatchObject({ allowed: false, limit: 30, remaining: 0 });
    // A refusal takes nothing: the user's own bucket is still full once the client's refills.
    expect(limiter.takeAll(budgets('user'), 100)).toMatchObject({ allowed: true, limit: 30, remaining: 0 });
  });

  it('reports the budget that binds', () => {
    const limiter = new RateLimiter();
    const decision = limiter.takeAll([
      { key: 'credential', limit: { rps: 10, burst: 20 } },
      { key: 'client', limit: { rps: 100, burst: 1000 } },
    ]);
    expect(decision).toMatchObject({ allowed: true, limit: 20, remaining: 19 });
  });
});
