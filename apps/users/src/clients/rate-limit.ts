import { RateLimit } from '@hotel/contracts';

/** A client's own limit from its columns; null when the operator set none (the gateway's default applies). */
export function rateLimitOf(rps: number | null, burst: number | null): RateLimit | null {
  return rps === null ? null : { rps, burst: burst ?? rps * 2 };
}
