import { RateLimit } from '@hotel/contracts';

interface Bucket {
  tokens: number;
  updatedAt: number;
}

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the bucket is full again (RateLimit-Reset), or until one request is allowed (Retry-After). */
  resetSeconds: number;
  retryAfterSeconds: number;
}

const MAX_BUCKETS = 100_000;

/**
 * A token bucket per credential. Each gateway replica enforces its share of the
 * limit (limit / replicas), so replicas need none of each other's state; with
 * requests spread evenly by the load balancer the total matches the limit.
 */
export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(private readonly replicas: number) {}

  take(key: string, limit: RateLimit, now = Date.now()): RateDecision {
    const rps = limit.rps / this.replicas;
    const burst = Math.max(1, limit.burst / this.replicas);
    let bucket = this.buckets.get(key);
    if (!bucket) {
      if (this.buckets.size >= MAX_BUCKETS) this.evictFull(now, rps, burst);
      bucket = { tokens: burst, updatedAt: now };
      this.buckets.set(key, bucket);
    }
    bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.updatedAt) / 1000) * rps);
    bucket.updatedAt = now;
    const allowed = bucket.tokens >= 1;
    if (allowed) bucket.tokens -= 1;
    return {
      allowed,
      limit: Math.floor(burst),
      remaining: Math.max(0, Math.floor(bucket.tokens)),
      resetSeconds: Math.ceil((burst - bucket.tokens) / rps),
      retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((1 - bucket.tokens) / rps)),
    };
  }

  /** Forgets buckets that have refilled: they hold nothing a fresh bucket would not. */
  private evictFull(now: number, rps: number, burst: number) {
    for (const [key, bucket] of this.buckets) {
      if (bucket.tokens + ((now - bucket.updatedAt) / 1000) * rps >= burst) this.buckets.delete(key);
    }
    if (this.buckets.size >= MAX_BUCKETS) this.buckets.clear();
  }
}
