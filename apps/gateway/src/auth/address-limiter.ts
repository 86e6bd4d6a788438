import { isIP } from 'node:net';
import { RateLimit } from '@hotel/contracts';
import { DomainError } from '@hotel/platform';
import { TrustedProxies } from '../http/trusted-proxies';
import { RateLimiter } from './rate-limiter';

/**
 * Limits per source address, for what costs the platform before anyone is known: requests
 * to routes that take no credential, and failed authentications (each its own bucket).
 * Behind a trusted proxy the source is the nearest untrusted address of X-Forwarded-For.
 * Each gateway replica keeps its own buckets.
 */
export class AddressLimiter {
  private readonly limiter = new RateLimiter();
  private readonly limit: RateLimit;

  constructor(
    rps: number,
    burst: number,
    private readonly proxies: TrustedProxies,
  ) {
    this.limit = { rps, burst };
  }

  /** The address a request comes from. */
  sourceOf(peer: string | undefined, forwardedFor: string | string[] | undefined): string {
    if (!this.proxies.trusts(peer) || forwardedFor === undefined) return peer ?? 'unknown';
    const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor).split(',').map((hop) => hop.trim());
    for (let index = hops.length - 1; index >= 0; index--) {
      if (isIP(hops[index]) === 0) break;
      if (!this.proxies.trusts(hops[index])) return hops[index];
    }
    return peer ?? 'unknown';
  }

  /** A request without a credential from `source`: a token, or 429. */
  takeAnonymous(source: string): void {
    this.take(`anonymous:${source}`, 'too many requests without a credential from this address');
  }

  /** Before a credential is checked: 429 at once if this address has used up its failed authentications. */
  checkFailures(source: string): void {
    const decision = this.limiter.peek(`failed:${source}`, this.limit);
    if (!decision.allowed) throw refusal('too many failed authentications from this address', decision.retryAfterSeconds);
  }

  /** A failed authentication from `source` counts against it. */
  countFailure(source: string): void {
    this.limiter.take(`failed:${source}`, this.limit);
  }

  private take(key: string, message: string): void {
    const decision = this.limiter.take(key, this.limit);
    if (!decision.allowed) throw refusal(message, decision.retryAfterSeconds);
  }
}

function refusal(message: string, retryAfterSeconds: number): DomainError {
  return new DomainError('RATE_LIMITED', `${message}; retry after Retry-After seconds`, undefined, Math.max(1, retryAfterSeconds));
}
