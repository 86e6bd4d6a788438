import { RateLimit } from '@hotel/contracts';

interface Bucket {
  tokens: number;
  updatedAt: number;
  rps: number;
  burst: number;
}

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the bucket is full again (RateLimit-Reset), or until one request is allowed (Retry-After). */
  resetSeconds: number;
  retryAfterSeconds: number;
}

/** One budget a request draws on: a bucket's key and its limit. */
export interface Budget {
  key: string;
  limit: RateLimit;
}

const MAX_BUCKETS = 100_000;

/**
 * Token buckets in this process: a request draws one token from each budget it
 * belongs to, and only if every one of them has a token. The per-address limits use
 * them (each replica its own); a client's limits are shared by every replica
 * (shared-limits.ts).
 */
export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  take(key: string, limit: RateLimit, now = Date.now()): RateDecision {
    return this.takeAll([{ key, limit }], now);
  }

  /** Whether a request could take a token now, without taking it. */
  peek(key: string, limit: RateLimit, now = Date.now()): RateDecision {
    const bucket = this.refilled(key, limit, now);
    const allowed = bucket.tokens >= 1;
    return {
      allowed,
      limit: Math.floor(bucket.burst),
      remaining: Math.max(0, Math.floor(bucket.tokens)),
      resetSeconds: Math.ceil((bucket.burst - bucket.tokens) / bucket.rps),
      retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((1 - bucket.tokens) / bucket.rps)),
    };
  }

  /**
   * Takes a token from every budget, or from none. The decision reports the
   * budget closest to empty (the one that binds), and, when refused, the wait
   * until every budget has a token again.
   */
  takeAll(budgets: readonly Budget[], now = Date.now()): RateDecision {
    const buckets = budgets.map(({ key, limit }) => this.refilled(key, limit, now));
    const allowed = buckets.every((bucket) => bucket.tokens >= 1);
    if (allowed) for (const bucket of buckets) bucket.tokens -= 1;
    const binding = buckets.reduce((tightest, bucket) => (bucket.tokens / bucket.burst < tightest.tokens / tightest.burst ? bucket : tightest));
    const wait = allowed ? 0 : Math.max(...buckets.map((bucket) => Math.ceil(Math.max(0, 1 - bucket.tokens) / bucket.rps)));
    return {
      allowed,
      limit: Math.floor(binding.burst),
      remaining: Math.max(0, Math.floor(binding.tokens)),
      resetSeconds: Math.ceil((binding.burst - binding.tokens) / binding.rps),
      retryAfterSeconds: allowed ? 0 : Math.max(1, wait),
    };
  }

  private refilled(key: string, limit: RateLimit, now: number): Bucket {
    const { rps, burst } = limit;
    let bucket = this.buckets.get(key);
    if (!bucket) {
      if (this.buckets.size >= MAX_BUCKETS) this.evictFull(now);
      bucket = { tokens: burst, updatedAt: now, rps, burst };
      this.buckets.set(key, bucket);
    }
    // A changed limit (an operator's set-rate-limit) applies from now on.
    bucket.rps = rps;
    bucket.burst = burst;
    bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.updatedAt) / 1000) * rps);
    bucket.updatedAt = now;
    return bucket;
  }

  /** Forgets buckets that have refilled: they hold nothing a fresh bucket would not. */
  private evictFull(now: number) {
    for (const [key, bucket] of this.buckets) {
      if (bucket.tokens + ((now - bucket.updatedAt) / 1000) * bucket.rps >= bucket.burst) this.buckets.delete(key);
    }
    if (this.buckets.size >= MAX_BUCKETS) this.buckets.clear();
  }
}
