import type { HotelbedsOperation } from './operations';

/**
 * - `refused`: the vendor answered and said no for a business reason (a rate gone, a price
 *   changed, a booking it will not cancel): asking again will not change it.
 * - `unavailable`: no usable answer (no connection, the deadline passed, 5xx, throttled past
 *   the retries, the breaker open): the vendor may answer later.
 * - `invalid`: the vendor (or the client, before sending) found the request wrong: 4xx,
 *   credentials, a value out of the documented bounds.
 * - `malformed`: an answer came but cannot be read as documented (not JSON, wrong shape,
 *   too big, an unknown encoding).
 */
export type HotelbedsErrorKind = 'refused' | 'unavailable' | 'invalid' | 'malformed';

/** The client's stable codes; `vendorCode` carries the vendor's own (`INVALID_DATA`, `PRODUCT_ERROR`…). */
export type HotelbedsErrorCode =
  // refused
  | 'RATE_NOT_AVAILABLE'
  | 'PRICE_CHANGED'
  | 'REFUSED'
  // unavailable
  | 'CONNECTION_FAILED'
  | 'TIMEOUT'
  | 'VENDOR_FAILURE'
  | 'RATE_LIMITED'
  | 'QUOTA_EXCEEDED'
  | 'BREAKER_OPEN'
  // invalid
  | 'INVALID_REQUEST'
  | 'TOO_MANY_HOTELS'
  | 'UNAUTHORIZED'
  | 'NOT_FOUND'
  // malformed
  | 'BAD_JSON'
  | 'BAD_SHAPE'
  | 'BODY_TOO_LARGE'
  | 'BAD_ENCODING';

export interface HotelbedsErrorInit {
  kind: HotelbedsErrorKind;
  code: HotelbedsErrorCode;
  message: string;
  operation: HotelbedsOperation;
  status?: number;
  vendorCode?: string;
  vendorMessage?: string;
  retryAfterMs?: number;
  attempts?: number;
  outcomeUnknown?: boolean;
  cause?: unknown;
}

/** A call to Hotelbeds that did not give a documented success. Branch on `kind`, then `code`. */
export class HotelbedsError extends Error {
  override readonly name = 'HotelbedsError';
  readonly kind: HotelbedsErrorKind;
  readonly code: HotelbedsErrorCode;
  readonly operation: HotelbedsOperation;
  /** The HTTP status of the last answer, if one came. */
  readonly status: number | undefined;
  /** The vendor's error code (`error.code` of its body, or its gateway's `X-Mashery-Error-Code`). */
  readonly vendorCode: string | undefined;
  /** The vendor's error text, as it wrote it. */
  readonly vendorMessage: string | undefined;
  /** How long the vendor asked to wait (`Retry-After`), when it did. */
  readonly retryAfterMs: number | undefined;
  /** Requests sent (more than 1 after retries; 0 when refused before sending). */
  readonly attempts: number;
  /**
   * True when a request that changes something (a booking, a cancellation) may have been
   * carried out although no answer says so: find out by asking (booking detail, or the
   * booking list by client reference), never by sending it again.
   */
  readonly outcomeUnknown: boolean;

  constructor(init: HotelbedsErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.kind = init.kind;
    this.code = init.code;
    this.operation = init.operation;
    this.status = init.status;
    this.vendorCode = init.vendorCode;
    this.vendorMessage = init.vendorMessage;
    this.retryAfterMs = init.retryAfterMs;
    this.attempts = init.attempts ?? 0;
    this.outcomeUnknown = init.outcomeUnknown ?? false;
  }

  /** The same error, as seen after `attempts` sends (the breaker and retry loop fill it in). */
  withAttempts(attempts: number, outcomeUnknown = this.outcomeUnknown): HotelbedsError {
    const { kind, code, message, operation, status, vendorCode, vendorMessage, retryAfterMs, cause } = this;
    return new HotelbedsError({ kind, code, message, operation, status, vendorCode, vendorMessage, retryAfterMs, cause, attempts, outcomeUnknown });
  }
}
