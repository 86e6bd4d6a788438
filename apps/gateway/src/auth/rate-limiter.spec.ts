import { RateLimiter } from './rate-limiter';

describe('RateLimiter', () => {
  const limit = { rps: 10, burst: 20 };

  it('allows the burst, then refills at the rate', () => {
    const limiter = new RateLimiter(1);
    for (let i = 0; i < 20; i++) expect(limiter.take('k', limit, 0).allowed).toBe(true);
    const refused = limiter.take('k', limit, 0);
    expect(refused).toMatchObject({ allowed: false, remaining: 0, retryAfterSeconds: 1 });
    // 100 ms later one token has come back.
    expect(limiter.take('k', limit, 100).allowed).toBe(true);
    expect(limiter.take('k', limit, 100).allowed).toBe(false);
  });

  it('keeps credentials apart', () => {
    const limiter = new RateLimiter(1);
    for (let i = 0; i < 20; i++) limiter.take('a', limit, 0);
    expect(limiter.take('a', limit, 0).allowed).toBe(false);
    expect(limiter.take('b', limit, 0).allowed).toBe(true);
  });

  it('gives each of N replicas its share', () => {
    const limiter = new RateLimiter(4);
    let allowed = 0;
    for (let i = 0; i < 20; i++) if (limiter.take('k', limit, 0).allowed) allowed++;
    expect(allowed).toBe(5);
  });

  it('reports the limit, what remains and when it resets', () => {
    const decision = new RateLimiter(1).take('k', limit, 0);
    expect(decision).toEqual({ allowed: true, limit: 20, remaining: 19, resetSeconds: 1, retryAfterSeconds: 0 });
  });
});
