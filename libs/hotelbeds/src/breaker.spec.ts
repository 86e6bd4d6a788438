import { CircuitBreaker } from './breaker';

describe('CircuitBreaker', () => {
  let now = 0;
  const states: string[] = [];
  const breaker = () => new CircuitBreaker({ failureThreshold: 2, cooldownMs: 1000 }, () => now, (state) => states.push(state));

  beforeEach(() => {
    now = 1_000_000;
    states.length = 0;
  });

  it('opens after N consecutive failures; a success in between starts the count again', () => {
    const b = breaker();
    b.failed();
    b.succeeded();
    b.failed();
    expect(b.health()).toEqual({ state: 'closed', failures: 1, openedAt: null });
    b.failed();
    expect(b.health()).toEqual({ state: 'open', failures: 2, openedAt: new Date(now) });
    expect(b.tryAcquire()).toBe(false);
  });

  it('lets one probe through after the cooldown; its success closes, its failure reopens', () => {
    const b = breaker();
    b.failed();
    b.failed();
    now += 999;
    expect(b.tryAcquire()).toBe(false);
    now += 1;
    expect(b.tryAcquire()).toBe(true);
    expect(b.health().state).toBe('half-open');
    expect(b.tryAcquire()).toBe(false);
    b.failed();
    expect(b.health()).toMatchObject({ state: 'open', openedAt: new Date(now) });
    now += 1000;
    expect(b.tryAcquire()).toBe(true);
    b.succeeded();
    expect(b.health()).toEqual({ state: 'closed', failures: 0, openedAt: null });
    expect(states).toEqual(['open', 'half-open', 'open', 'half-open', 'closed']);
  });

  it('a probe that was never sent frees the half-open slot', () => {
    const b = breaker();
    b.failed();
    b.failed();
    now += 1000;
    expect(b.tryAcquire()).toBe(true);
    b.released();
    expect(b.tryAcquire()).toBe(true);
  });

  it('a late failure does not prolong an open breaker', () => {
    const b = breaker();
    b.failed();
    b.failed();
    const openedAt = b.health().openedAt;
    now += 500;
    b.failed();
    expect(b.health().openedAt).toEqual(openedAt);
  });
});
