import { DEFAULT_RETRY_POLICY, parseRetryAfter, retryDelay, RetryPolicy } from './retry';

const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, maxAttempts: 3, baseDelayMs: 100, maxDelayMs: 1000, maxRetryAfterMs: 5000, random: () => 0.5 };

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-03-01T12:00:00Z');

  it('reads delta-seconds and HTTP dates', () => {
    expect(parseRetryAfter('3', now)).toBe(3000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Sun, 01 Mar 2026 12:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('Sun, 01 Mar 2026 11:59:00 GMT', now)).toBe(0);
  });

  it('ignores what it cannot read', () => {
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('-1', now)).toBeUndefined();
  });
});

describe('retryDelay', () => {
  it('backs off exponentially with jitter, capped', () => {
    expect(retryDelay(policy, 1, undefined, 60_000)).toBe(50);
    expect(retryDelay(policy, 2, undefined, 60_000)).toBe(100);
    expect(retryDelay({ ...policy, maxAttempts: 10 }, 8, undefined, 60_000)).toBe(500);
  });

  it('waits at least Retry-After, and not at all beyond the cap', () => {
    expect(retryDelay(policy, 1, 2000, 60_000)).toBe(2050);
    expect(retryDelay(policy, 1, 6000, 60_000)).toBeUndefined();
  });

  it('stops after maxAttempts or when the wait would pass the deadline', () => {
    expect(retryDelay(policy, 3, undefined, 60_000)).toBeUndefined();
    expect(retryDelay(policy, 1, 2000, 1500)).toBeUndefined();
  });
});
