/**
 * Stable, machine-readable error codes. They cross NATS inside {@link RpcErrorPayload}
 * and reach API callers in the `code` field of the error envelope; docs/errors.md lists
 * each with what to do (whether a retry is safe). Never change the meaning of an existing code.
 */
export const ERROR_CODES = [
  'VALIDATION_FAILED',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'NOT_FOUND',
  'CONFLICT',
  'SESSION_EXPIRED',
  'RATE_NOT_AVAILABLE',
  'PREBOOK_REQUIRED',
  'INSUFFICIENT_FUNDS',
  'DUPLICATE_CLIENT_REFERENCE',
  'IDEMPOTENCY_CONFLICT',
  'PAYMENT_DECLINED',
  'PAYMENT_INCOMPLETE',
  'PAYMENT_METHOD_UNAVAILABLE',
  'CURRENCY_MISMATCH',
  'PREBOOK_ALREADY_BOOKED',
  'PROMO_CODE_INVALID',
  'SUPPLIER_ERROR',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'RATE_LIMITED',
  'SERVICE_UNAVAILABLE',
  'FX_RATES_STALE',
  'FX_RATE_UNAVAILABLE',
  'INTERNAL_ERROR',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export interface FieldError {
  field: string;
  message: string;
}

/** What a service answers on the wire when a request fails. */
export interface RpcErrorPayload {
  code: ErrorCode;
  message: string;
  errors?: FieldError[];
  retryAfterSeconds?: number;
}

export function isRpcErrorPayload(value: unknown): value is RpcErrorPayload {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Record<string, unknown>;
  return (
    typeof candidate.code === 'string' &&
    (ERROR_CODES as readonly string[]).includes(candidate.code) &&
    typeof candidate.message === 'string'
  );
}
