import type { ErrorCode, FieldError } from './types';

/** Where a failed call was going: its operation (operationId), method and path (without the query). */
export interface CallSite {
  operation: string;
  method: string;
  path: string;
}

/** The code of an answer whose body is not the platform's error envelope (a proxy's page, say). */
const CODE_BY_STATUS: Record<number, ErrorCode> = {
  400: 'VALIDATION_FAILED',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
  503: 'SERVICE_UNAVAILABLE',
};

/**
 * An answer other than 2xx, from the error envelope `{data: null, success: false, message,
 * code, errors?}`. Branch on `code` (stable), not on `message` (for people); report
 * `requestId` with anything that persists.
 */
export class HotelApiError extends Error {
  override readonly name = 'HotelApiError';
  /** The HTTP status. */
  readonly status: number;
  /** The platform's error code (`RATE_NOT_AVAILABLE`, …); for a body without one, the code of its status. */
  readonly code: ErrorCode | (string & {});
  /** The answer's `X-Request-Id` (the one the SDK sent, if the answer had none). */
  readonly requestId: string;
  /** Validation errors: one `{field, message}` per problem (empty otherwise). */
  readonly errors: FieldError[];
  /** `Retry-After` in seconds (429 and 503). */
  readonly retryAfterSeconds: number | undefined;
  readonly site: CallSite;
  /** How many times the call was sent (more than 1 after retries). */
  readonly attempts: number;

  constructor(init: Omit<HotelApiError, 'name' | 'stack' | 'cause'>) {
    super(init.message);
    this.status = init.status;
    this.code = init.code;
    this.requestId = init.requestId;
    this.errors = init.errors;
    this.retryAfterSeconds = init.retryAfterSeconds;
    this.site = init.site;
    this.attempts = init.attempts;
  }

  /** Reads an answer that was not 2xx: its body (the envelope, or anything else) and headers. */
  static async fromResponse(response: Response, sentRequestId: string, site: CallSite, attempts: number): Promise<HotelApiError> {
    const text = await response.text().catch(() => '');
    let body: { message?: unknown; code?: unknown; errors?: unknown } = {};
    try {
      const parsed: unknown = JSON.parse(text);
      if (parsed && typeof parsed === 'object') body = parsed;
    } catch {
      // not JSON: the status decides the code
    }
    const { status } = response;
    return new HotelApiError({
      status,
      code: typeof body.code === 'string' ? body.code : (CODE_BY_STATUS[status] ?? (status >= 500 ? 'INTERNAL_ERROR' : `HTTP_${status}`)),
      message: typeof body.message === 'string' ? body.message : `${status} ${response.statusText}`.trim(),
      requestId: response.headers.get('x-request-id') ?? sentRequestId,
      errors: Array.isArray(body.errors) ? (body.errors as FieldError[]) : [],
      retryAfterSeconds: parseRetryAfter(response.headers.get('retry-after')),
      site,
      attempts,
    });
  }
}

/**
 * No answer: `NETWORK_ERROR` (the connection failed or dropped), `TIMEOUT` (no answer within
 * the call's timeout) or `TLS_ERROR` (the server's certificate is not trusted: see the
 * client's `dispatcher` option or NODE_EXTRA_CA_CERTS; never retried).
 */
export class HotelNetworkError extends Error {
  override readonly name = 'HotelNetworkError';
  readonly code: 'TIMEOUT' | 'NETWORK_ERROR' | 'TLS_ERROR';
  /** The `X-Request-Id` the SDK sent. */
  readonly requestId: string;
  readonly site: CallSite;
  readonly attempts: number;

  constructor(init: Omit<HotelNetworkError, 'name' | 'stack'>) {
    super(init.message, { cause: init.cause });
    this.code = init.code;
    this.requestId = init.requestId;
    this.site = init.site;
    this.attempts = init.attempts;
  }
}

/** `Retry-After` as seconds: delay-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\s*\d+\s*$/.test(value)) return Number(value);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}
