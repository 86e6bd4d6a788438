import { HotelApiError, HotelNetworkError } from './errors';

/** When and how often a call is sent again after a 429, a 503 or no answer. */
export interface RetryOptions {
  /** Sends in all, the first included (default 5; 1 turns retries off). */
  maxAttempts?: number;
  /** The first backoff step (default 250 ms); each retry doubles it, up to `maxDelayMs`. */
  baseDelayMs?: number;
  /** The largest backoff step (default 8 s). */
  maxDelayMs?: number;
  /**
   * The time a call may take with its retries (default 60 s): a retry that would start
   * later (a long `Retry-After`, say) is not made, and the last error is thrown.
   */
  maxElapsedMs?: number;
  /** A number in [0, 1) (default Math.random): the jitter. */
  random?: () => number;
}

export type Failure = HotelApiError | HotelNetworkError;

/** What `onRetry` is told before the SDK waits and sends a call again. */
export interface RetryEvent {
  /** The attempt that failed (1 for the first send). */
  attempt: number;
  /** How long the SDK waits before the next attempt. */
  delayMs: number;
  error: Failure;
}

/** Whether a failure may go away by itself: 429, 503, or no answer (but for an untrusted certificate). */
export function isTransient(error: Failure): boolean {
  if (error instanceof HotelNetworkError) return error.code !== 'TLS_ERROR';
  return error.status === 429 || error.status === 503;
}

/**
 * How long to wait before sending again, or undefined to give up. Exponential backoff with
 * full jitter (a random wait up to the step), added to `Retry-After` when the answer gave
 * one: never sooner than the platform asked, and callers told the same `Retry-After` do
 * not all come back at once.
 */
export function retryDelay(error: Failure, attempt: number, elapsedMs: number, options: RetryOptions = {}): number | undefined {
  const { maxAttempts = 5, baseDelayMs = 250, maxDelayMs = 8_000, maxElapsedMs = 60_000, random = Math.random } = options;
  if (!isTransient(error) || attempt >= maxAttempts) return undefined;
  const step = Math.min(maxDelayMs, baseDelayMs * 2 ** (attempt - 1));
  const retryAfterMs = error instanceof HotelApiError && error.retryAfterSeconds !== undefined ? error.retryAfterSeconds * 1000 : 0;
  const delayMs = Math.round(retryAfterMs + random() * step);
  return elapsedMs + delayMs > maxElapsedMs ? undefined : delayMs;
}

/** Waits `ms`, or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
