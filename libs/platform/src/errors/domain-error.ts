import { ErrorCode, FieldError, RpcErrorPayload } from '@hotel/contracts';
import { ValidationError } from 'class-validator';

/**
 * The one error type of the platform. Services throw it; it crosses NATS as an
 * {@link RpcErrorPayload}; the gateway turns its code into an HTTP status
 * ({@link HTTP_STATUS_BY_CODE}) and the error envelope.
 */
export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly errors?: FieldError[],
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'DomainError';
  }

  static validation(errors: FieldError[]): DomainError {
    const first = errors[0];
    const message = first ? `${first.field}: ${first.message}` : 'invalid request';
    return new DomainError('VALIDATION_FAILED', errors.length > 1 ? `${message} (and ${errors.length - 1} more)` : message, errors);
  }

  static notFound(what: string): DomainError {
    return new DomainError('NOT_FOUND', `${what} not found`);
  }

  /** The same refusal, its message and fields reworded (a service's field names in an API's words, say). */
  reworded(words: (text: string) => string): DomainError {
    return new DomainError(this.code, words(this.message), this.errors?.map((error) => ({ field: words(error.field), message: words(error.message) })), this.retryAfterSeconds);
  }

  static fromWire(payload: RpcErrorPayload): DomainError {
    return new DomainError(payload.code, payload.message, payload.errors, payload.retryAfterSeconds);
  }

  toWire(): RpcErrorPayload {
    const payload: RpcErrorPayload = { code: this.code, message: this.message };
    if (this.errors) payload.errors = this.errors;
    if (this.retryAfterSeconds !== undefined) payload.retryAfterSeconds = this.retryAfterSeconds;
    return payload;
  }
}

/** The single mapping from error code to HTTP status, used by the gateway's filter. */
export const HTTP_STATUS_BY_CODE: Record<ErrorCode, number> = {
  VALIDATION_FAILED: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  SESSION_EXPIRED: 404,
  RATE_NOT_AVAILABLE: 404,
  PREBOOK_REQUIRED: 400,
  INSUFFICIENT_FUNDS: 400,
  DUPLICATE_CLIENT_REFERENCE: 400,
  IDEMPOTENCY_CONFLICT: 409,
  PAYMENT_DECLINED: 400,
  PAYMENT_INCOMPLETE: 400,
  PAYMENT_METHOD_UNAVAILABLE: 400,
  CURRENCY_MISMATCH: 400,
  PREBOOK_ALREADY_BOOKED: 409,
  PROMO_CODE_INVALID: 400,
  SUPPLIER_ERROR: 400,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  SERVICE_UNAVAILABLE: 503,
  FX_RATES_STALE: 503,
  FX_RATE_UNAVAILABLE: 503,
  INTERNAL_ERROR: 500,
};

/** Flattens class-validator's tree into `{field, message}` pairs with dotted paths. */
export function flattenValidationErrors(errors: ValidationError[], parent = ''): FieldError[] {
  const out: FieldError[] = [];
  for (const error of errors) {
    const field = parent ? `${parent}.${error.property}` : error.property;
    for (const message of Object.values(error.constraints ?? {})) {
      out.push({ field, message: message.replace(/^property (\S+) should not exist$/, 'unknown field') });
    }
    if (error.children?.length) out.push(...flattenValidationErrors(error.children, field));
  }
  return out;
}
