import { RateLimit } from '@hotel/contracts';
import { DomainError, KeyValueBucket, KeyValueEntry } from '@hotel/platform';
import { RateDecision } from './rate-limiter';

/**
 * Rate limits and in-flight bounds that hold across every gateway replica: the state is
 * in one key-value bucket they all reach (NATS JetStream KV, `hotel_rate_limits`),
 * written only by compare-and-set.
 *
 * Tokens: a client's buckets (its own, and each of its credentials') are one key,
 * `rate.<clientId>`, so that a request's two tokens are taken together, in one write.
 * Each replica takes them in small leases and spends them from memory, so a busy
 * credential costs a store round trip per lease, not per request. A lease is at most
 * LEASE_AHEAD_MS of the rate (and a twentieth of the burst), sized to the rate at which
 * the replica spends it, and its unspent tokens go after LEASE_TTL_MS. Every token spent
 * was taken from the shared buckets, so over any period a client gets at most burst +
 * rate × period, plus the tokens leased in the LEASE_TTL_MS before it and not yet spent:
 * at most min(rate × LEASE_TTL_MS, replicas × (lease − 1)) more per bucket, however many
 * replicas run. Clocks: a replica whose clock is ahead by d refills d × rate once.
 *
 * In flight: one count per client, `inflight.<clientId>`, each replica's share in it with
 * an expiry that the replica pushes forward while it holds places; a replica that died
 * holds none once its entry expires (IN_FLIGHT_TTL_MS).
 *
 * The store unreachable (or too contended to answer within CONTENTION_BUDGET_MS): the
 * request is answered 503 with Retry-After (DomainError SERVICE_UNAVAILABLE), never let
 * through unlimited. Tokens a replica already holds are still spent; places are given
 * back once the store answers again, or expire.
 */

/** How far ahead, in time at the rate a replica spends a budget, it leases tokens. */
export const LEASE_AHEAD_MS = 50;
/** Unspent leased tokens go after this: what bounds the slack over the limit to rate × this. */
export const LEASE_TTL_MS = 200;
/** A replica's places in a client's count stop counting this long after it last wrote them. */
export const IN_FLIGHT_TTL_MS = 10_000;
/** How long a lease or an admission keeps trying to write a contended key before it gives up (503). */
const CONTENTION_BUDGET_MS = 1000;

/**
 * The retries of a compare-and-set that lost: a random pause of up to 2^n times the round
 * trip that lost (at most 100 ms) after the nth loss, until CONTENTION_BUDGET_MS have
 * passed. Replicas that write one key at the same moment would otherwise keep colliding,
 * the same ones losing every time; scaled by the round trip, the pauses spread them
 * out whether the store answers in a tenth of a millisecond or in ten.
 */
class Contention {
  private readonly deadline = Date.now() + CONTENTION_BUDGET_MS;
  private lost = 0;

  /** After a write that lost in `roundTripMs`: false once the budget is spent. */
  async backOff(roundTripMs: number): Promise<boolean> {
    this.lost++;
    const pauseMs = Math.random() * Math.min(100, Math.max(0.5, roundTripMs) * 2 ** this.lost);
    if (Date.now() + pauseMs >= this.deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
    return true;
  }
}

/** One shared bucket as stored: its tokens at `at` (ms since the epoch, on the writer's clock). */
export interface BucketState {
  tokens: number;
  at: number;
}

/** A client's buckets as stored under `rate.<clientId>`: its own, and those of its credentials that are not full. */
export interface ClientBuckets {
  client: BucketState | null;
  credentials: Record<string, BucketState>;
}

/** What a request of one credential draws on: its client's bucket and its own, each with its limit. */
export interface ClientBudget {
  /** The client's key in the store: `rate.<clientId>`. */
  key: string;
  /** The credential's name among the client's buckets: `api.live.none`, `user.live.7`. */
  credential: string;
  clientLimit: RateLimit;
  credentialLimit: RateLimit;
}

/** The bucket's tokens at `now`: refilled at the rate since `at`, never over the burst (a clock behind `at` refills nothing). */
export function tokensAt(state: BucketState | null | undefined, limit: RateLimit, now: number): number {
  if (!state) return limit.burst;
  return Math.min(limit.burst, state.tokens + (Math.max(0, now - state.at) / 1000) * limit.rps);
}

/**
 * Takes up to `want` whole tokens from both the client's bucket and the credential's at
 * `now`: how many, what each has left, and the state to write (null when none was taken:
 * there is nothing to write). Credentials whose bucket has refilled are left out of it:
 * a missing bucket is a full one.
 */
export function takeTokens(
  state: ClientBuckets | null,
  budget: Pick<ClientBudget, 'credential' | 'clientLimit' | 'credentialLimit'>,
  want: number,
  now: number,
): { granted: number; client: number; credential: number; next: ClientBuckets | null } {
  const { credential: name, clientLimit, credentialLimit } = budget;
  const client = tokensAt(state?.client, clientLimit, now);
  const credential = tokensAt(state?.credentials[name], credentialLimit, now);
  const granted = Math.max(0, Math.min(want, Math.floor(client), Math.floor(credential)));
  if (granted === 0) return { granted, client, credential, next: null };
  const credentials: Record<string, BucketState> = {};
  for (const [other, bucket] of Object.entries(state?.credentials ?? {})) {
    if (other !== name && tokensAt(bucket, credentialLimit, now) < credentialLimit.burst) credentials[other] = bucket;
  }
  // `at` never goes back: a replica whose clock is behind must not refill the same time twice.
  credentials[name] = { tokens: credential - granted, at: Math.max(now, state?.credentials[name]?.at ?? now) };
  return {
    granted,
    client: client - granted,
    credential: credential - granted,
    next: { client: { tokens: client - granted, at: Math.max(now, state?.client?.at ?? now) }, credentials },
  };
}

/** Milliseconds until a bucket holding `tokens` has a whole one again. */
export function msUntilToken(tokens: number, limit: RateLimit): number {
  return tokens >= 1 ? 0 : ((1 - tokens) / limit.rps) * 1000;
}

/** The most tokens a replica leases at once: LEASE_AHEAD_MS of the rate, at most a twentieth of the burst, at least 1. */
export function maxLease(limit: RateLimit): number {
  return Math.max(1, Math.min(Math.ceil((limit.rps * LEASE_AHEAD_MS) / 1000), Math.floor(limit.burst / 20)));
}

/**
 * How many tokens to lease: LEASE_AHEAD_MS at the rate this replica spends the budget
 * (tokens a second; a quiet budget leases one at a time, exactly), within maxLease of
 * both limits, and at least one for each request waiting for it.
 */
export function leaseSize(limits: readonly RateLimit[], spendingRate: number, waiting: number): number {
  return Math.max(waiting, Math.min(...limits.map(maxLease), Math.max(1, Math.ceil((spendingRate * LEASE_AHEAD_MS) / 1000))));
}

/**
 * Tokens a second a replica spends of a budget: over the second before, or over this
 * one so far if faster (from its first tenth on, so a budget that gets busy leases more
 * within 100 ms).
 */
export function spendingRate(spent: number, spentBefore: number, msIntoSecond: number): number {
  return Math.max(spentBefore, (spent * 1000) / Math.max(100, msIntoSecond));
}

/** A client's places in flight as stored: per replica, [places, until ms since the epoch]. */
export type InFlightState = Record<string, [number, number]>;

/** The places the other replicas hold at `now` (an expired entry is a gone replica's). */
export function othersInFlight(state: InFlightState, replica: string, now: number): number {
  let total = 0;
  for (const [name, [places, until]] of Object.entries(state)) if (name !== replica && until > now) total += places;
  return total;
}

/** The state with this replica holding `places` until `until` (none: its entry goes), and expired entries gone. */
export function withOwnPlaces(state: InFlightState, replica: string, places: number, until: number, now: number): InFlightState {
  const next: InFlightState = {};
  for (const [name, entry] of Object.entries(state)) if (name !== replica && entry[1] > now) next[name] = entry;
  if (places > 0) next[replica] = [places, until];
  return next;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const encode = (value: unknown) => encoder.encode(JSON.stringify(value));

/** What was read of a key: its value (null: none yet) and the revision the next write names. */
interface Seen<T> {
  state: T | null;
  revision: number;
}

/** A key's value as JSON, or null (none, or not JSON: only the gateway writes the bucket, and it overwrites such a value). */
function parsed(entry: KeyValueEntry): unknown {
  try {
    return entry.value ? JSON.parse(decoder.decode(entry.value)) : null;
  } catch {
    return null;
  }
}

const isBucket = (value: unknown): value is BucketState =>
  !!value && typeof value === 'object' && Number.isFinite((value as BucketState).tokens) && Number.isFinite((value as BucketState).at);

/** A client's buckets as read; a bucket that is not one counts as full. */
function bucketsRead(entry: KeyValueEntry | null): Seen<ClientBuckets> {
  const value = entry && (parsed(entry) as Partial<ClientBuckets> | null);
  const credentials: Record<string, BucketState> = {};
  for (const [name, bucket] of Object.entries(value?.credentials ?? {})) if (isBucket(bucket)) credentials[name] = bucket;
  return { state: value ? { client: isBucket(value.client) ? value.client : null, credentials } : null, revision: entry?.revision ?? 0 };
}

function placesRead(entry: KeyValueEntry | null): Seen<InFlightState> {
  const value = entry && parsed(entry);
  const state: InFlightState = {};
  if (value && typeof value === 'object') {
    for (const [replica, places] of Object.entries(value)) {
      if (Array.isArray(places) && places.length === 2 && places.every((figure) => Number.isFinite(figure))) state[replica] = places as [number, number];
    }
  }
  return { state, revision: entry?.revision ?? 0 };
}

/** The store could not be asked, or other replicas kept writing first for CONTENTION_BUDGET_MS: answered 503. */
export function limitsUnavailable(): DomainError {
  return new DomainError('SERVICE_UNAVAILABLE', 'the rate limits cannot be checked just now; retry after Retry-After seconds', undefined, 1);
}

/** This replica's view of one client's key. */
interface ClientKey {
  key: string;
  /** The last state read or written: the next write names its revision. */
  seen: Seen<ClientBuckets> | null;
  /**
   * Whether the next lease reads first: not while only this replica writes the key (a
   * lease is then one round trip), but once another did (a write named an old revision),
   * so that a lease is a read and a write rather than a failed write, a read and a write.
   */
  readFirst: boolean;
  /** The lease being taken for one of the client's credentials (`leasingFor`): one at a time per key. */
  leasing: Promise<void> | null;
  leasingFor: Lease | null;
}

/** This replica's lease of one credential's tokens (each also one of its client's). */
interface Lease {
  store: ClientKey;
  budget: ClientBudget;
  /** Leased tokens not spent yet, until `expiresAt`. */
  held: number;
  expiresAt: number;
  /** Changes with every lease: a token given back goes to the lease it came from, or nowhere. */
  generation: number;
  /** A bucket had no whole token: refused without asking until then. */
  emptyUntil: number;
  /** Requests waiting for this lease now. */
  waiting: number;
  /** Tokens spent in the current second and in the one before (the lease size follows them). */
  second: number;
  spent: number;
  spentBefore: number;
  lastUsed: number;
}

/** Forgotten when unused this long (their state is in the store). */
const IDLE_MS = 10_000;

/** Token buckets shared by every replica (see the top of this file). */
export class SharedRateLimiter {
  private readonly keys = new Map<string, ClientKey>();
  private readonly leases = new Map<string, Lease>();
  private calls = 0;

  constructor(
    private readonly store: KeyValueBucket,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * A token of the credential's bucket and of its client's, both or neither; the decision
   * reports the bucket closest to empty and, when refused, the wait until both have a
   * token again. Throws limitsUnavailable() when the store cannot be asked.
   */
  async take(budget: ClientBudget): Promise<RateDecision> {
    if (++this.calls % 1024 === 0) this.forgetIdle();
    const lease = this.leaseOf(budget);
    let allowed: boolean;
    try {
      allowed = await this.takeOne(lease);
    } catch (error) {
      throw error instanceof DomainError && error.code === 'SERVICE_UNAVAILABLE' ? limitsUnavailable() : error;
    }
    return this.decision(lease, allowed);
  }

  /** Tokens this replica holds unspent for a credential (tests). */
  held(key: string, credential: string): number {
    const lease = this.leases.get(`${key}/${credential}`);
    return lease && this.now() < lease.expiresAt ? lease.held : 0;
  }

  private leaseOf(budget: ClientBudget): Lease {
    let store = this.keys.get(budget.key);
    if (!store) {
      store = { key: budget.key, seen: null, readFirst: false, leasing: null, leasingFor: null };
      this.keys.set(budget.key, store);
    }
    const id = `${budget.key}/${budget.credential}`;
    let lease = this.leases.get(id);
    if (!lease) {
      lease = { store, budget, held: 0, expiresAt: 0, generation: 0, emptyUntil: 0, waiting: 0, second: 0, spent: 0, spentBefore: 0, lastUsed: 0 };
      this.leases.set(id, lease);
    }
    const before = lease.budget;
    if (!sameLimit(before.clientLimit, budget.clientLimit) || !sameLimit(before.credentialLimit, budget.credentialLimit)) {
      // A changed limit (set-rate-limit) applies from now on: what was known empty under the old one is asked again.
      lease.emptyUntil = 0;
    }
    lease.budget = budget;
    return lease;
  }

  /** One token of the lease, or false (refused). */
  private async takeOne(lease: Lease): Promise<boolean> {
    lease.waiting++;
    try {
      for (;;) {
        const now = this.now();
        lease.lastUsed = now;
        if (now >= lease.expiresAt) lease.held = 0;
        if (lease.held >= 1) {
          lease.held--;
          this.countSpent(lease, now);
          return true;
        }
        if (now < lease.emptyUntil) return false;
        // One lease at a time per client key: the requests that arrive meanwhile wait for it, and it is sized for them.
        const { store } = lease;
        if (!store.leasing) {
          store.leasingFor = lease;
          store.leasing = this.lease(lease).finally(() => {
            store.leasing = null;
            store.leasingFor = null;
          });
        }
        // This credential's lease (its failure is this request's too), or another's: after it, this one's.
        if (store.leasingFor === lease) await store.leasing;
        else await store.leasing.catch(() => undefined);
      }
    } finally {
      lease.waiting--;
    }
  }

  /** Takes a lease of the credential's tokens (each also its client's), or learns until when a bucket is empty. */
  private async lease(lease: Lease): Promise<void> {
    const { store, budget } = lease;
    const contention = new Contention();
    for (;;) {
      if (!store.seen || store.readFirst) {
        const read = bucketsRead(await this.store.get(store.key));
        // Nobody else wrote since this replica's last write: back to writing without reading.
        if (store.seen && read.revision === store.seen.revision) store.readFirst = false;
        store.seen = read;
      }
      const now = this.now();
      const want = leaseSize([budget.clientLimit, budget.credentialLimit], spendingRate(lease.spent, lease.spentBefore, now - lease.second * 1000), lease.waiting);
      const { granted, client, credential, next } = takeTokens(store.seen.state, budget, want, now);
      if (!next) {
        // A stale read only ever shows more tokens than there are (others take, nobody adds), so "empty" is true.
        lease.emptyUntil = now + Math.max(msUntilToken(client, budget.clientLimit), msUntilToken(credential, budget.credentialLimit));
        return;
      }
      const sentAt = Date.now();
      const revision = await this.store.update(store.key, encode(next), store.seen.revision);
      if (revision === null) {
        // Another replica wrote first: read it again, and before the next leases too.
        store.seen = null;
        store.readFirst = true;
        if (!(await contention.backOff(Date.now() - sentAt))) throw limitsUnavailable();
        continue;
      }
      store.seen = { state: next, revision };
      lease.held = granted;
      lease.expiresAt = now + LEASE_TTL_MS;
      lease.generation++;
      return;
    }
  }

  private countSpent(lease: Lease, now: number) {
    const second = Math.floor(now / 1000);
    if (second !== lease.second) {
      lease.spentBefore = second === lease.second + 1 ? lease.spent : 0;
      lease.spent = 0;
      lease.second = second;
    }
    lease.spent++;
  }

  /** The RateLimit-* figures of the bucket closest to empty (of the two a request draws on). */
  private decision(lease: Lease, allowed: boolean): RateDecision {
    const now = this.now();
    const { budget } = lease;
    const state = lease.store.seen?.state;
    const held = now < lease.expiresAt ? lease.held : 0;
    const buckets = [
      { limit: budget.credentialLimit, tokens: Math.min(budget.credentialLimit.burst, tokensAt(state?.credentials[budget.credential], budget.credentialLimit, now) + held) },
      { limit: budget.clientLimit, tokens: Math.min(budget.clientLimit.burst, tokensAt(state?.client, budget.clientLimit, now) + held) },
    ];
    const binding = buckets[1].tokens / buckets[1].limit.burst < buckets[0].tokens / buckets[0].limit.burst ? buckets[1] : buckets[0];
    const waitMs = allowed ? 0 : Math.max(lease.emptyUntil - now, ...buckets.map((bucket) => msUntilToken(bucket.tokens, bucket.limit)));
    const tokens = allowed ? binding.tokens : Math.min(binding.tokens, 0);
    return {
      allowed,
      limit: Math.floor(binding.limit.burst),
      remaining: Math.max(0, Math.floor(tokens)),
      resetSeconds: Math.ceil((binding.limit.burst - tokens) / binding.limit.rps),
      retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil(waitMs / 1000)),
    };
  }

  private forgetIdle() {
    const now = this.now();
    const used = new Set<ClientKey>();
    for (const [id, lease] of this.leases) {
      if (lease.waiting === 0 && now - lease.lastUsed > IDLE_MS) this.leases.delete(id);
      else used.add(lease.store);
    }
    for (const [key, store] of this.keys) if (!used.has(store) && !store.leasing) this.keys.delete(key);
  }
}

function sameLimit(a: RateLimit, b: RateLimit): boolean {
  return a.rps === b.rps && a.burst === b.burst;
}

/** This replica's part of one client's count. */
interface Places {
  key: string;
  /** Places this replica's requests hold now. */
  own: number;
  /** What the store has for this replica (-1: unknown, after a failed write), and until when. */
  written: number;
  until: number;
  seen: Seen<InFlightState> | null;
  /** Requests waiting to be admitted or refused by the next write. */
  admits: { resolve(admitted: boolean): void; reject(error: unknown): void }[];
  writing: Promise<void> | null;
}

/**
 * At most `max` expensive requests of a client in flight across every replica (see the
 * top of this file). Admissions and releases that arrive while a write is on its way
 * go together in the next one.
 */
export class SharedInFlight {
  private readonly places = new Map<string, Places>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly store: KeyValueBucket,
    readonly max: number,
    /** This replica's name in the counts: unique per process. */
    private readonly replica: string,
    private readonly now: () => number = Date.now,
  ) {
    // Pushes the expiry of held places forward, and writes again what a failed write left out.
    this.timer = setInterval(() => this.refresh(), IN_FLIGHT_TTL_MS / 4).unref();
  }

  /**
   * A place for one of the client's requests, with the function that gives it back (once
   * its answer is sent), or null when the client has `max` in flight. Throws
   * limitsUnavailable() when the store cannot be asked.
   */
  async tryAcquire(clientId: number): Promise<(() => void) | null> {
    const places = this.placesOf(`inflight.${clientId}`);
    const admitted = await new Promise<boolean>((resolve, reject) => {
      places.admits.push({ resolve, reject });
      this.write(places);
    });
    if (!admitted) return null;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      places.own--;
      this.write(places);
    };
  }

  /** The places this replica holds for a client (tests). */
  held(clientId: number): number {
    return this.places.get(`inflight.${clientId}`)?.own ?? 0;
  }

  /** Stops refreshing, once the writes on their way are done. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await Promise.all([...this.places.values()].map((places) => places.writing));
  }

  private placesOf(key: string): Places {
    let places = this.places.get(key);
    if (!places) {
      places = { key, own: 0, written: 0, until: 0, seen: null, admits: [], writing: null };
      this.places.set(key, places);
    }
    return places;
  }

  private write(places: Places) {
    if (places.writing) return; // the write on its way takes this change too
    places.writing = this.writeAll(places).then((ok) => {
      places.writing = null;
      // A change made after the last write's check but before this point goes out now
      // (after a failure, the refresh writes it: admissions were answered 503).
      if (ok && this.needsWrite(places, this.now())) this.write(places);
      else if (places.own === 0 && places.written === 0 && places.admits.length === 0) this.places.delete(places.key);
    });
  }

  private needsWrite(places: Places, now: number): boolean {
    return places.admits.length > 0 || places.own !== places.written || (places.written > 0 && now > places.until - (IN_FLIGHT_TTL_MS * 2) / 3);
  }

  /** Writes until nothing is left to write: false when the store failed. */
  private async writeAll(places: Places): Promise<boolean> {
    while (this.needsWrite(places, this.now())) {
      const batch = places.admits.splice(0);
      try {
        await this.writeOnce(places, batch);
      } catch {
        // The store did not answer: whether it took the write is unknown, so the refresh writes it again.
        places.written = -1;
        for (const admit of [...batch, ...places.admits.splice(0)]) admit.reject(limitsUnavailable());
        return false;
      }
    }
    return true;
  }

  private async writeOnce(places: Places, batch: Places['admits']): Promise<void> {
    const contention = new Contention();
    for (;;) {
      const fresh = !places.seen;
      places.seen ??= placesRead(await this.store.get(places.key));
      const now = this.now();
      const others = othersInFlight(places.seen.state ?? {}, this.replica, now);
      const granted = Math.min(batch.length, Math.max(0, this.max - others - places.own));
      if (granted < batch.length && !fresh) {
        // Others may have given places back since this was read: refuse only on a fresh read.
        places.seen = null;
        continue;
      }
      const own = places.own + granted;
      if (granted === 0 && own === places.written && now <= places.until - (IN_FLIGHT_TTL_MS * 2) / 3) {
        for (const admit of batch) admit.resolve(false);
        return;
      }
      const until = now + IN_FLIGHT_TTL_MS;
      const next = withOwnPlaces(places.seen.state ?? {}, this.replica, own, until, now);
      const sentAt = Date.now();
      const revision = await this.store.update(places.key, encode(next), places.seen.revision);
      if (revision === null) {
        places.seen = null;
        if (!(await contention.backOff(Date.now() - sentAt))) throw limitsUnavailable();
        continue;
      }
      places.seen = { state: next, revision };
      // Releases while the write was on its way lowered `own`: they go in the next write.
      places.own += granted;
      places.written = own;
      places.until = until;
      batch.forEach((admit, index) => admit.resolve(index < granted));
      return;
    }
  }

  private refresh() {
    const now = this.now();
    for (const places of this.places.values()) if (this.needsWrite(places, now)) this.write(places);
  }
}
