import { CardProcessorUnavailable, CircuitBreaker } from './stripe-payment-processor';

describe('the card processor circuit breaker', () => {
  it('opens after the threshold of transport failures in a row, fails fast while open, then opens again at the first failure', () => {
    let now = 0;
    const breaker = new CircuitBreaker(3, 1000, () => now);
    expect(breaker.failed()).toBe(false);
    breaker.succeeded(); // an answer resets the count
    expect(breaker.failed()).toBe(false);
    expect(breaker.failed()).toBe(false);
    expect(() => breaker.admit()).not.toThrow();
    expect(breaker.failed()).toBe(true);
    expect(() => breaker.admit()).toThrow(CardProcessorUnavailable);
    now = 999;
    expect(() => breaker.admit()).toThrow(CardProcessorUnavailable);
    now = 1000;
    expect(() => breaker.admit()).not.toThrow();
    expect(breaker.failed()).toBe(true);
    expect(() => breaker.admit()).toThrow(CardProcessorUnavailable);
    now = 2000;
    breaker.succeeded();
    expect(breaker.failed()).toBe(false);
  });
});
