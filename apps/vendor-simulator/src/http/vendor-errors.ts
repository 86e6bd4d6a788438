import { randomBytes } from 'node:crypto';
import type { AuditData } from '@hotel/hotelbeds';

/**
 * The codes of the vendor's formatted errors (its "Hotel API errors" page): INVALID_REQUEST
 * (bad syntax or shape), INVALID_DATA (well formed, wrong values), PRODUCT_ERROR (the
 * product says no: allotment, a price changed, a rate gone), SYSTEM_ERROR (its failure).
 */
export type VendorErrorCode = 'INVALID_REQUEST' | 'INVALID_DATA' | 'PRODUCT_ERROR' | 'SYSTEM_ERROR';

/**
 * An answer the vendor gives instead of what was asked, with its status: the API's
 * formatted `{auditData, error: {code, message}}`. Thrown anywhere under a route, written
 * by the exception filter.
 */
export class VendorError extends Error {
  override readonly name = 'VendorError';
  constructor(
    readonly status: number,
    readonly code: VendorErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export const invalidRequest = (message: string) => new VendorError(400, 'INVALID_REQUEST', message);
export const invalidData = (message: string) => new VendorError(400, 'INVALID_DATA', message);
/**
 * The product's refusal. The messages matter to the platform's client, which tells a
 * changed price ("Price has changed") from a rate gone ("Insufficient allotment", "no
 * longer available") by their words, as the vendor gives no finer code.
 */
export const productError = (message: string) => new VendorError(400, 'PRODUCT_ERROR', message);
export const notFound = (message: string) => new VendorError(404, 'INVALID_DATA', message);

/**
 * A short answer of the vendor's API gateway (Mashery), before the API itself: a status,
 * `<h1>text</h1>` and X-Mashery-Error-Code (authentication, throttling).
 */
export interface GatewayAnswer {
  status: number;
  text: string;
  code?: string;
  headers?: Record<string, string>;
}

export const NOT_AUTHORIZED: GatewayAnswer = { status: 401, text: 'Not Authorized', code: 'ERR_401_NOT_AUTHORIZED' };

/** The vendor's diagnostics block, present on every formatted answer. */
export function auditData(now: number, startedAt: number, requestHost: string | undefined): AuditData {
  return {
    processTime: String(Math.max(0, Math.round(now - startedAt))),
    timestamp: new Date(now).toISOString().replace('T', ' ').replace('Z', ''),
    requestHost: requestHost ?? '',
    serverId: 'vendor-simulator',
    environment: '[simulator]',
    release: '1.0',
    token: randomBytes(16).toString('hex').toUpperCase(),
  };
}

export function errorBody(error: VendorError, audit: AuditData): { auditData: AuditData; error: { code: string; message: string } } {
  return { auditData: audit, error: { code: error.code, message: error.message } };
}
