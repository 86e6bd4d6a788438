import { RateLimit } from '@hotel/contracts';

export interface RateLimitColumns {
  rate_limit_rps: number | null;
  rate_limit_burst: number | null;
}

/** A client's own limit from its row; null when the operator set none (the gateway's default applies). */
export function rateLimitOf(row: RateLimitColumns): RateLimit | null {
  return row.rate_limit_rps === null ? null : { rps: row.rate_limit_rps, burst: row.rate_limit_burst ?? row.rate_limit_rps * 2 };
}
