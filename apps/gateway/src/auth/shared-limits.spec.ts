import { RateLimit } from '@hotel/contracts';
import { DomainError, KeyValueBucket, KeyValueEntry } from '@hotel/platform';
import {
  ClientBudget,
  IN_FLIGHT_TTL_MS,
  LEASE_TTL_MS,
  SharedInFlight,
  SharedRateLimiter,
  leaseSize,
  maxLease,
  spendingRate,
  othersInFlight,
  takeTokens,
  tokensAt,
  withOwnPlaces,
} from './shared-limits';

/** The shared bucket as JetStream KV keeps it: one value and revision per key, compare-and-set writes. */
class MemoryBucket implements KeyValueBucket {
  readonly values = new Map<string, KeyValueEntry>();
  private sequence = 0;
  calls = { get: 0, update: 0, conflicts: 0 };
  /** While set, every call fails as an unreachable store does. */
  down = false;
  /** Each call answers after this many ms (0: on the next microtask). */
  latencyMs = 0;

  async get(key: string): Promise<KeyValueEntry | null> {
    await this.answer();
    this.calls.get++;
    return this.values.get(key) ?? null;
  }

  async update(key: string, value: Uint8Array, revision: number): Promise<number | null> {
    await this.answer();
    this.calls.update++;
    if ((this.values.get(key)?.revision ?? 0) !== revision) {
      this.calls.conflicts++;
      return null;
    }
    this.values.set(key, { value, revision: ++this.sequence });
    return this.sequence;
  }

  json(key: string): unknown {
    const entry = this.values.get(key);
    return entry?.value ? JSON.parse(new TextDecoder().decode(entry.value)) : undefined;
  }

  private async answer() {
    if (this.latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, this.latencyMs));
    else await Promise.resolve();
    if (this.down) throw new DomainError('SERVICE_UNAVAILABLE', 'the bucket cannot be reached', undefined, 1);
  }
}

/** A clock the test moves. */
function clock(start = 1_000_000) {
  const state = { now: start };
  return { now: () => state.now, advance: (ms: number) => (state.now += ms), set: (ms: number) => (state.now = ms) };
}

/** A request of one credential of client `client`, the same limit for both buckets unless said. */
const budget = (client: number, limit: RateLimit, credential = 'api.live.none', clientLimit = limit): ClientBudget => ({ key: `rate.${client}`, credential, clientLimit, credentialLimit: limit });


/** One replica whose credential (client 1, 1000/s) has been busy long enough to hold a lease of at least `tokens` tokens. */
async function busyReplica(tokens: number) {
  const store = new MemoryBucket();
  const time = clock();
  const limiter = new SharedRateLimiter(store, time.now);
  const limit = { rps: 1000, burst: 1000 };
  for (let i = 0; i < 200; i++) {
    time.advance(1);
    await limiter.take(budget(1, limit));
  }
  while (limiter.held('rate.1', 'api.live.none') < tokens) await limiter.take(budget(1, limit));
  return { store, time, limiter, limit };
}
describe('shared token bucket arithmetic', () => {
  const limit = { rps: 10, burst: 20 };
  const both = { credential: 'api.live.none', clientLimit: limit, credentialLimit: limit };

  it('refills at the rate up to the burst, and never for a clock behind the last write', () => {
    expect(tokensAt(null, limit, 0)).toBe(20);
    expect(tokensAt({ tokens: 0, at: 1000 }, limit, 1500)).toBe(5);
    expect(tokensAt({ tokens: 0, at: 1000 }, limit, 10_000)).toBe(20);
    expect(tokensAt({ tokens: 3, at: 1000 }, limit, 900)).toBe(3);
  });

  it("takes whole tokens from the client's bucket and the credential's together, and writes nothing when it takes none", () => {
    const state = { client: { tokens: 2.5, at: 0 }, credentials: { 'api.live.none': { tokens: 7, at: 0 } } };
    expect(takeTokens(state, both, 5, 0)).toEqual({
      granted: 2,
      client: 0.5,
      credential: 5,
      next: { client: { tokens: 0.5, at: 0 }, credentials: { 'api.live.none': { tokens: 5, at: 0 } } },
    });
    expect(takeTokens({ client: { tokens: 0.5, at: 0 }, credentials: {} }, both, 1, 0)).toEqual({ granted: 0, client: 0.5, credential: 20, next: null });
    // A writer whose clock is behind takes from the state as it is, and leaves its time as it was.
    expect(takeTokens({ client: { tokens: 4, at: 5000 }, credentials: {} }, both, 1, 4000).next).toEqual({
      client: { tokens: 3, at: 5000 },
      credentials: { 'api.live.none': { tokens: 19, at: 4000 } },
    });
  });

  it("keeps only the credentials' buckets that have not refilled (a missing bucket is a full one)", () => {
    const state = { client: null, credentials: { 'user.live.1': { tokens: 0, at: 0 }, 'user.live.2': { tokens: 0, at: 1000 } } };
    // At 2.5 s user 1 has refilled (20 tokens at 10/s take 2 s), user 2 has not.
    expect(Object.keys(takeTokens(state, both, 1, 2500).next!.credentials).sort()).toEqual(['api.live.none', 'user.live.2']);
  });

  it('leases at most 50 ms of the rate and a twentieth of the burst, one at a time for a quiet budget', () => {
    const defaults = { rps: 250, burst: 500 };
    expect(maxLease(defaults)).toBe(13);
    expect(maxLease({ rps: 1000, burst: 200 })).toBe(10);
    expect(maxLease({ rps: 1, burst: 5 })).toBe(1);
    expect(leaseSize([defaults, defaults], 0, 1)).toBe(1);
    expect(leaseSize([defaults, defaults], 100, 1)).toBe(5);
    expect(leaseSize([defaults, defaults], 10_000, 1)).toBe(13);
    expect(leaseSize([defaults, { rps: 1000, burst: 200 }], 10_000, 1)).toBe(10);
    // Requests waiting now get a token each, whatever the lease size.
    expect(leaseSize([defaults, defaults], 0, 30)).toBe(30);
    expect(spendingRate(30, 0, 50)).toBe(300);
    expect(spendingRate(30, 0, 500)).toBe(60);
    expect(spendingRate(30, 200, 500)).toBe(200);
  });

  it("counts the other replicas' live places only, and drops the expired ones when writing", () => {
    const state = { a: [2, 5000], b: [3, 4000], me: [1, 9000] } as Record<string, [number, number]>;
    expect(othersInFlight(state, 'me', 4500)).toBe(2);
    expect(withOwnPlaces(state, 'me', 4, 20_000, 4500)).toEqual({ a: [2, 5000], me: [4, 20_000] });
    expect(withOwnPlaces(state, 'me', 0, 20_000, 4500)).toEqual({ a: [2, 5000] });
  });
});

describe('SharedRateLimiter', () => {
  it("holds a client's burst in total across three replicas, not three times over", async () => {
    const store = new MemoryBucket();
    const time = clock();
    const replicas = [0, 1, 2].map(() => new SharedRateLimiter(store, time.now));
    const limit = { rps: 10, burst: 20 };
    const remaining: number[] = [];
    let allowed = 0;
    for (let i = 0; i < 60; i++) {
      const decision = await replicas[i % 3].take(budget(1, limit));
      if (decision.allowed) {
        allowed++;
        remaining.push(decision.remaining);
      }
    }
    expect(allowed).toBe(20);
    // Each replica's answer counts what the others took.
    expect(remaining.slice(0, 5)).toEqual([19, 18, 17, 16, 15]);
    // 100 ms later, one token, for whichever replica asks first.
    time.advance(100);
    expect((await replicas[2].take(budget(1, limit))).allowed).toBe(true);
    expect((await replicas[0].take(budget(1, limit))).allowed).toBe(false);
  });

  it('refuses with the RateLimit figures and Retry-After, and asks the store no more until a token is due', async () => {
    const store = new MemoryBucket();
    const time = clock();
    const limiter = new SharedRateLimiter(store, time.now);
    const limit = { rps: 0.5, burst: 2 };
    expect(await limiter.take(budget(1, limit))).toEqual({ allowed: true, limit: 2, remaining: 1, resetSeconds: 2, retryAfterSeconds: 0 });
    await limiter.take(budget(1, limit));
    const calls = store.calls.get + store.calls.update;
    for (let i = 0; i < 100; i++) expect(await limiter.take(budget(1, limit))).toEqual({ allowed: false, limit: 2, remaining: 0, resetSeconds: 4, retryAfterSeconds: 2 });
    expect(store.calls.get + store.calls.update).toBe(calls);
    time.advance(2000);
    expect((await limiter.take(budget(1, limit))).allowed).toBe(true);
  });

  it('draws on the credential and its client, both or neither, in one write', async () => {
    const store = new MemoryBucket();
    const time = clock();
    const [a, b] = [new SharedRateLimiter(store, time.now), new SharedRateLimiter(store, time.now)];
    const credential = { rps: 10, burst: 20 };
    const client = { rps: 10, burst: 30 };
    for (let i = 0; i < 20; i++) expect((await (i % 2 ? a : b).take(budget(1, credential, 'api.live.none', client))).allowed).toBe(true);
    // One write per request (and a repeat for each that another replica's write beat).
    expect(store.calls.update - store.calls.conflicts).toBe(20);
    expect(await a.take(budget(1, credential, 'api.live.none', client))).toMatchObject({ allowed: false, limit: 20, remaining: 0, retryAfterSeconds: 1 });
    for (let i = 0; i < 10; i++) expect((await b.take(budget(1, credential, 'api.sandbox.none', client))).allowed).toBe(true);
    // The client's bucket binds now, for every credential of it, on every replica.
    expect(await a.take(budget(1, credential, 'user.live.7', client))).toMatchObject({ allowed: false, limit: 30, remaining: 0 });
    // The refusal took nothing from the user's own bucket: it is whole once the client's refills.
    time.advance(100);
    expect(await a.take(budget(1, credential, 'user.live.7', client))).toMatchObject({ allowed: true, limit: 30, remaining: 0 });
    expect(store.json('rate.1')).toMatchObject({ credentials: { 'user.live.7': { tokens: 19 } } });
  });

  // Measured: 0.08 with one replica (a write per lease), 0.43 with three (a read and a write per lease, smaller leases).
  it.each([
    [1, 0.1],
    [3, 0.5],
  ])('a busy credential costs store calls per lease, not per request (%i replicas)', async (count, callsPerRequest) => {
    const store = new MemoryBucket();
    const time = clock();
    const replicas = Array.from({ length: count }, () => new SharedRateLimiter(store, time.now));
    const limit = { rps: 250, burst: 500 };
    let requests = 0;
    // The replicas serving one client at its rate, in turn, for 4 s.
    for (let ms = 0; ms < 4000; ms += 4) {
      time.advance(4);
      expect((await replicas[requests % count].take(budget(1, limit))).allowed).toBe(true);
      requests++;
    }
    expect((store.calls.get + store.calls.update) / requests).toBeLessThan(callsPerRequest);
  });

  it('never lets a client past burst + rate × period + min(rate × lease life, replicas × (lease − 1)), whatever the interleaving', async () => {
    const limit = { rps: 1000, burst: 200 };
    const slack = Math.min((limit.rps * LEASE_TTL_MS) / 1000, 3 * (maxLease(limit) - 1));
    let seed = 42;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let run = 0; run < 5; run++) {
      const store = new MemoryBucket();
      const time = clock();
      const replicas = [0, 1, 2].map(() => new SharedRateLimiter(store, time.now));
      const allowedAt: number[] = [];
      for (let i = 0; i < 1500; i++) {
        // Bursts and pauses, on random replicas, some requests concurrent.
        time.advance(random() < 0.1 ? Math.floor(random() * 300) : random() < 0.5 ? 1 : 0);
        const concurrent = Math.ceil(random() * 4);
        const decisions = await Promise.all(Array.from({ length: concurrent }, () => replicas[Math.floor(random() * 3)].take(budget(1, limit))));
        for (const decision of decisions) if (decision.allowed) allowedAt.push(time.now());
      }
      // The most allowed in any period that starts and ends with an allowed request.
      let worst = -Infinity;
      for (let first = 0; first < allowedAt.length; first++) {
        for (let last = first; last < allowedAt.length && allowedAt[last] - allowedAt[first] <= 2000; last++) {
          worst = Math.max(worst, last - first + 1 - (limit.burst + (limit.rps * (allowedAt[last] - allowedAt[first])) / 1000));
        }
      }
      expect(worst).toBeLessThanOrEqual(slack);
      // And over the whole run, exactly the token bucket: burst + rate × time.
      expect(allowedAt.length).toBeLessThanOrEqual(limit.burst + (limit.rps * (allowedAt[allowedAt.length - 1] - allowedAt[0])) / 1000);
    }
  });

  it('reaches that slack at worst: every replica holding a full lease when the bucket is full again', async () => {
    const limit = { rps: 1000, burst: 200 };
    const slack = 3 * (maxLease(limit) - 1);
    const store = new MemoryBucket();
    const time = clock(0);
    const replicas = [0, 1, 2].map(() => new SharedRateLimiter(store, time.now));
    // A busy second on every replica, so that each leases its most (10 here) …
    for (let ms = 0; ms < 1000; ms++) {
      time.advance(1);
      await replicas[ms % 3].take(budget(1, limit));
    }
    // … a pause that refills the bucket and lets those leases expire, then one request per
    // replica (each leases 10 and keeps 9), and the 30 ms that refill what they took.
    time.advance(500);
    for (const replica of replicas) await replica.take(budget(1, limit));
    time.advance(30);
    let allowed = 0;
    for (let i = 0; i < 600; i++) if ((await replicas[i % 3].take(budget(1, limit))).allowed) allowed++;
    expect(allowed).toBe(limit.burst + slack);
  });

  it('requests that arrive together on a replica share one lease, whichever credentials they come with', async () => {
    const store = new MemoryBucket();
    store.latencyMs = 5;
    const limiter = new SharedRateLimiter(store);
    const limit = { rps: 100, burst: 100 };
    const decisions = await Promise.all(Array.from({ length: 10 }, () => limiter.take(budget(1, limit))));
    expect(decisions.every((decision) => decision.allowed)).toBe(true);
    expect(store.calls.update).toBe(1);
    // Two credentials of one client lease in turn on the one key: no write of this replica loses to another of its own.
    const mixed = await Promise.all(Array.from({ length: 10 }, (_, i) => limiter.take(budget(1, limit, i % 2 ? 'api.live.none' : 'backend.live.none'))));
    expect(mixed.every((decision) => decision.allowed)).toBe(true);
    expect(store.calls.conflicts).toBe(0);
  });

  it('replicas writing one client at once all get their tokens (a lost compare-and-set reads again)', async () => {
    const store = new MemoryBucket();
    store.latencyMs = 2;
    const replicas = [0, 1, 2].map(() => new SharedRateLimiter(store));
    const limit = { rps: 1, burst: 30 };
    const decisions = await Promise.all(Array.from({ length: 30 }, (_, i) => replicas[i % 3].take(budget(1, limit))));
    expect(decisions.filter((decision) => decision.allowed)).toHaveLength(30);
    expect(store.calls.conflicts).toBeGreaterThan(0);
    expect(await replicas[0].take(budget(1, limit))).toMatchObject({ allowed: false });
  });

  it('fails safe: with the store unreachable a request is refused 503, never let through; leased tokens are still spent', async () => {
    // A busy credential: this replica holds a lease.
    const { store, limiter, limit } = await busyReplica(2);
    const held = limiter.held('rate.1', 'api.live.none');
    store.down = true;
    for (let i = 0; i < held; i++) expect((await limiter.take(budget(1, limit))).allowed).toBe(true);
    await expect(limiter.take(budget(1, limit))).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE', retryAfterSeconds: 1, message: expect.stringMatching(/rate limits cannot be checked/) });
    await expect(limiter.take(budget(2, limit))).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    // Requests waiting for one lease all learn of its failure from it (one store call, not one each).
    store.latencyMs = 5;
    const calls = store.calls.get + store.calls.update;
    const waiting = await Promise.allSettled(Array.from({ length: 5 }, () => limiter.take(budget(3, limit))));
    expect(waiting.every((outcome) => outcome.status === 'rejected')).toBe(true);
    expect(store.calls.get + store.calls.update - calls).toBeLessThanOrEqual(1);
    store.down = false;
    expect((await limiter.take(budget(2, limit))).allowed).toBe(true);
  });

  it('overwrites a value it did not write (not JSON, or not buckets) rather than fail', async () => {
    const store = new MemoryBucket();
    await store.update('rate.1', new TextEncoder().encode('not json'), 0);
    await store.update('rate.2', new TextEncoder().encode('{"client":{"tokens":"many"},"credentials":[1]}'), 0);
    const limiter = new SharedRateLimiter(store);
    expect(await limiter.take(budget(1, { rps: 1, burst: 5 }))).toMatchObject({ allowed: true, remaining: 4 });
    expect(await limiter.take(budget(2, { rps: 1, burst: 5 }))).toMatchObject({ allowed: true, remaining: 4 });
    expect(store.json('rate.1')).toEqual({ client: { tokens: 4, at: expect.any(Number) }, credentials: { 'api.live.none': { tokens: 4, at: expect.any(Number) } } });
  });

  it('unspent leased tokens go after the lease life', async () => {
    const { time, limiter } = await busyReplica(1);
    time.advance(LEASE_TTL_MS);
    expect(limiter.held('rate.1', 'api.live.none')).toBe(0);
  });
});

describe('SharedInFlight', () => {
  afterEach(() => jest.useRealTimers());

  it("bounds a client's requests in flight across replicas, and admits again once one is answered", async () => {
    const store = new MemoryBucket();
    const [a, b, c] = ['a', 'b', 'c'].map((name) => new SharedInFlight(store, 3, name));
    const first = (await a.tryAcquire(1))!;
    const second = (await a.tryAcquire(1))!;
    const third = (await b.tryAcquire(1))!;
    expect([first, second, third].every((release) => typeof release === 'function')).toBe(true);
    expect(await c.tryAcquire(1)).toBeNull();
    expect(await a.tryAcquire(1)).toBeNull();
    // Another client is not affected.
    expect(await c.tryAcquire(2)).not.toBeNull();
    first();
    first(); // once only
    await new Promise((resolve) => setImmediate(resolve));
    expect(store.json('inflight.1')).toEqual({ a: [1, expect.any(Number)], b: [1, expect.any(Number)] });
    // c read the count while it was full: it reads again rather than refuse on what it saw.
    expect(await c.tryAcquire(1)).not.toBeNull();
    expect(await b.tryAcquire(1)).toBeNull();
    await Promise.all([a, b, c].map((replica) => replica.close()));
  });

  it('admits the requests that arrive together with one write, up to the bound', async () => {
    const store = new MemoryBucket();
    store.latencyMs = 5;
    const replica = new SharedInFlight(store, 4, 'a');
    const answers = await Promise.all(Array.from({ length: 6 }, () => replica.tryAcquire(1)));
    expect(answers.filter((release) => release !== null)).toHaveLength(4);
    expect(store.calls.update).toBeLessThanOrEqual(2);
    await replica.close();
  });

  it("a replica that stops (crashed) holds no places once its entry expires; a live one keeps its own", async () => {
    jest.useFakeTimers({ now: 1_000_000 });
    const store = new MemoryBucket();
    const live = new SharedInFlight(store, 2, 'live');
    const crashed = new SharedInFlight(store, 2, 'crashed');
    const other = new SharedInFlight(store, 2, 'other');
    expect(await live.tryAcquire(1)).not.toBeNull();
    expect(await crashed.tryAcquire(1)).not.toBeNull();
    await crashed.close(); // stops refreshing: as a process that died with a place held
    expect(await other.tryAcquire(1)).toBeNull();
    for (let i = 0; i < 8; i++) {
      jest.advanceTimersByTime(IN_FLIGHT_TTL_MS / 4);
      await new Promise(jest.requireActual('timers').setImmediate);
    }
    // The dead replica's place came back; the live one's did not.
    expect(await other.tryAcquire(1)).not.toBeNull();
    expect(await other.tryAcquire(1)).toBeNull();
    expect(Object.keys(store.json('inflight.1') as object).sort()).toEqual(['live', 'other']);
    await Promise.all([live.close(), other.close()]);
  });

  it('fails safe: with the store unreachable an admission is refused 503; a place given back meanwhile is written once it answers', async () => {
    jest.useFakeTimers({ now: 1_000_000 });
    const store = new MemoryBucket();
    const replica = new SharedInFlight(store, 1, 'a');
    const release = (await replica.tryAcquire(1))!;
    store.down = true;
    await expect(replica.tryAcquire(2)).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE', retryAfterSeconds: 1 });
    release();
    await new Promise(jest.requireActual('timers').setImmediate);
    expect(store.json('inflight.1')).toEqual({ a: [1, expect.any(Number)] });
    store.down = false;
    jest.advanceTimersByTime(IN_FLIGHT_TTL_MS / 4);
    await new Promise(jest.requireActual('timers').setImmediate);
    expect(store.json('inflight.1')).toEqual({});
    expect(replica.held(1)).toBe(0);
    await replica.close();
  });
});
