import { HotelApiError, HotelNetworkError, parseRetryAfter } from './errors';
import { retryDelay } from './retry';

const site = { operation: 'listBookings', method: 'GET', path: '/book' };

function answer(status: number, retryAfterSeconds?: number) {
  return new HotelApiError({ status, code: status === 429 ? 'RATE_LIMITED' : 'SERVICE_UNAVAILABLE', message: 'm', requestId: 'r', errors: [], retryAfterSeconds, site, attempts: 1 });
}
const noAnswer = new HotelNetworkError({ code: 'NETWORK_ERROR', message: 'no answer: ECONNRESET', requestId: 'r', site, attempts: 1 });

describe('retryDelay', () => {
  const top = () => 0.999999;
  const bottom = () => 0;

  it('backs off exponentially with full jitter, up to maxDelayMs', () => {
    const options = { baseDelayMs: 100, maxDelayMs: 1000, maxAttempts: 10 };
    expect([1, 2, 3, 4, 5, 6].map((attempt) => retryDelay(noAnswer, attempt, 0, { ...options, random: top }))).toEqual([100, 200, 400, 800, 1000, 1000]);
    expect([1, 2, 3].map((attempt) => retryDelay(noAnswer, attempt, 0, { ...options, random: bottom }))).toEqual([0, 0, 0]);
    expect(retryDelay(noAnswer, 3, 0, { ...options, random: () => 0.5 })).toBe(200);
  });

  it('waits at least Retry-After, plus the jitter', () => {
    const options = { baseDelayMs: 100 };
    expect(retryDelay(answer(503, 1), 1, 0, { ...options, random: bottom })).toBe(1000);
    expect(retryDelay(answer(503, 1), 1, 0, { ...options, random: top })).toBe(1100);
    expect(retryDelay(answer(429, 2), 2, 0, { ...options, random: top })).toBe(2200);
    expect(retryDelay(answer(429), 1, 0, { ...options, random: top })).toBe(100);
  });

  it('retries only 429, 503 and no answer', () => {
    expect(retryDelay(answer(503), 1, 0)).toBeDefined();
    expect(retryDelay(answer(429), 1, 0)).toBeDefined();
    expect(retryDelay(noAnswer, 1, 0)).toBeDefined();
    for (const status of [400, 404, 409, 500, 502]) expect(retryDelay(answer(status), 1, 0)).toBeUndefined();
  });

  it('stops after maxAttempts, and before a wait that would end past maxElapsedMs', () => {
    expect(retryDelay(noAnswer, 2, 0, { maxAttempts: 3 })).toBeDefined();
    expect(retryDelay(noAnswer, 3, 0, { maxAttempts: 3 })).toBeUndefined();
    expect(retryDelay(answer(503, 120), 1, 0, { maxElapsedMs: 60_000 })).toBeUndefined();
    expect(retryDelay(answer(503, 1), 1, 59_500, { maxElapsedMs: 60_000, random: bottom })).toBeUndefined();
    expect(retryDelay(answer(503, 1), 1, 58_000, { maxElapsedMs: 60_000, random: bottom })).toBe(1000);
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates, and nothing else', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('2', now)).toBe(2);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:05 GMT', now)).toBe(5);
    expect(parseRetryAfter('Wed, 31 Dec 2025 23:59:00 GMT', now)).toBe(0);
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter('', now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
  });
});
