import { CallSite, HotelApiError, HotelNetworkError } from './errors';
import { Failure, RetryEvent, RetryOptions, retryDelay } from './retry';

/** Options every method takes as its last argument. */
export interface CallOptions {
  /** Aborts the call, its retries and their waits (the signal's reason is thrown). */
  signal?: AbortSignal;
  /** The `X-Request-Id` to send (default: a new UUID; each retry of the call sends the same). */
  requestId?: string;
  /** The longest wait for one attempt's answer (default: the client's `timeoutMs`). */
  timeoutMs?: number;
}

export interface TransportSettings {
  fetch: typeof fetch;
  /** Passed to fetch as is (Node's fetch takes an undici `dispatcher`: another agent, a CA). */
  dispatcher?: unknown;
  timeoutMs: number;
  /** false: one attempt for every call. */
  retry: RetryOptions | false;
  onRetry?: (event: RetryEvent) => void;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  now: () => number;
}

/** One call as it goes out: everything but the request id, which the transport adds. */
export interface OutgoingCall {
  site: CallSite;
  url: URL;
  headers: Record<string, string>;
  body?: string;
  /** Whether the call may be sent again after a 429, a 503 or no answer. */
  retryable: boolean;
  /** How a 2xx body is read: JSON (undefined when empty) or bytes. */
  read: 'json' | 'bytes';
}

const TIMED_OUT = Symbol('timed out');
/** The codes of a certificate the client does not trust (OpenSSL's and Node's): no retry mends them. */
const CERTIFICATE_ERROR = /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER|ERR_TLS/;

/** Sends calls with fetch: per attempt a timeout, then retries as the settings allow. */
export class Transport {
  constructor(private readonly settings: TransportSettings) {}

  async send(call: OutgoingCall, options: CallOptions = {}): Promise<unknown> {
    const requestId = options.requestId ?? globalThis.crypto.randomUUID();
    const started = this.settings.now();
    for (let attempt = 1; ; attempt++) {
      const outcome = await this.attempt(call, requestId, attempt, options);
      if (outcome.ok) return outcome.value;
      const { retry } = this.settings;
      const delayMs = retry && call.retryable ? retryDelay(outcome.error, attempt, this.settings.now() - started, retry) : undefined;
      if (delayMs === undefined) throw outcome.error;
      this.settings.onRetry?.({ attempt, delayMs, error: outcome.error });
      await this.settings.sleep(delayMs, options.signal);
    }
  }

  private async attempt(call: OutgoingCall, requestId: string, attempt: number, options: CallOptions): Promise<{ ok: true; value: unknown } | { ok: false; error: Failure }> {
    if (options.signal?.aborted) throw options.signal.reason;
    const controller = new AbortController();
    const timeoutMs = options.timeoutMs ?? this.settings.timeoutMs;
    const timer = setTimeout(() => controller.abort(TIMED_OUT), timeoutMs);
    const callerAborted = () => controller.abort(options.signal?.reason);
    options.signal?.addEventListener('abort', callerAborted, { once: true });
    try {
      const init = {
        method: call.site.method,
        headers: { ...call.headers, 'x-request-id': requestId },
        body: call.body,
        signal: controller.signal,
        ...(this.settings.dispatcher !== undefined && { dispatcher: this.settings.dispatcher }),
      };
      const response = await this.settings.fetch(call.url, init as RequestInit);
      if (!response.ok) return { ok: false, error: await HotelApiError.fromResponse(response, requestId, call.site, attempt) };
      if (call.read === 'bytes') return { ok: true, value: new Uint8Array(await response.arrayBuffer()) };
      const text = await response.text();
      return { ok: true, value: text === '' ? undefined : JSON.parse(text) };
    } catch (error) {
      // The caller's abort ends the call; a timeout or a failed connection is a failure like a 503.
      if (options.signal?.aborted) throw options.signal.reason;
      if (error instanceof SyntaxError) throw error;
      const timedOut = controller.signal.reason === TIMED_OUT;
      const reason = describe(error);
      return {
        ok: false,
        error: new HotelNetworkError({
          code: timedOut ? 'TIMEOUT' : CERTIFICATE_ERROR.test(reason) ? 'TLS_ERROR' : 'NETWORK_ERROR',
          message: timedOut ? `no answer within ${timeoutMs} ms` : `no answer: ${reason}`,
          requestId,
          site: call.site,
          attempts: attempt,
          cause: error,
        }),
      };
    } finally {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', callerAborted);
    }
  }
}

/** fetch's own message is "fetch failed"; what failed is in its cause (ECONNREFUSED, …). */
function describe(error: unknown): string {
  const cause = error instanceof Error ? (error.cause as { code?: string; message?: string } | undefined) : undefined;
  const message = error instanceof Error ? error.message : String(error);
  return cause?.code ?? cause?.message ?? message;
}
