/** When a call that is safe to repeat is sent again. */
export interface RetryPolicy {
  /** Sends in all, the first included (1 turns retries off). */
  maxAttempts: number;
  /** The first backoff step; each retry doubles it, up to `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** The longest `Retry-After` the client waits out; a longer one ends the call. */
  maxRetryAfterMs: number;
  /** A number in [0, 1): the jitter (Math.random unless a test fixes it). */
  random: () => number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 3,
  baseDelayMs: 200,
  maxDelayMs: 2_000,
  maxRetryAfterMs: 5_000,
  random: Math.random,
};

/**
 * `Retry-After` in milliseconds from now: delta-seconds or an HTTP date (RFC 9110 §10.2.3);
 * undefined when absent or unreadable.
 */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  // An HTTP date names its day and month ("Sun, 06 Nov 1994 08:49:37 GMT"); Date.parse alone would take "-1" as a year.
  const at = /[a-z]/i.test(trimmed) ? Date.parse(trimmed) : Number.NaN;
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

/**
 * How long to wait before attempt `attempt + 1`, or undefined to stop: the vendor's
 * `Retry-After` when it gave one (never sooner, plus up to one base step of jitter; not at
 * all past `maxRetryAfterMs`), else exponential backoff with full jitter; and never past the
 * call's deadline.
 */
export function retryDelay(policy: RetryPolicy, attempt: number, retryAfterMs: number | undefined, remainingMs: number): number | undefined {
  if (attempt >= policy.maxAttempts) return undefined;
  let delayMs: number;
  if (retryAfterMs !== undefined) {
    if (retryAfterMs > policy.maxRetryAfterMs) return undefined;
    // A little jitter on top, so clients told the same Retry-After do not all come back at once.
    delayMs = retryAfterMs + Math.round(policy.random() * policy.baseDelayMs);
  } else {
    const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
    delayMs = Math.round(policy.random() * step);
  }
  return delayMs < remainingMs ? delayMs : undefined;
}
