// How the vendor's error answers map onto HotelbedsError kinds and codes. The vendor sends
// errors two ways (developer.hotelbeds.com, "Hotel API errors"): formatted, a JSON body
// `{auditData, error: {code, message}}` from the API itself; or a short message from its API
// gateway (Mashery) for authentication and throttling, with the header X-Mashery-Error-Code
// and a body such as `<h1>Developer Over Qps</h1>`.
import type { IncomingHttpHeaders } from 'node:http';
import type { HotelbedsErrorCode, HotelbedsErrorKind } from './errors';

export interface VendorFault {
  kind: HotelbedsErrorKind;
  code: HotelbedsErrorCode;
  /** Worth sending again (for calls safe to repeat): throttling and server failures. */
  transient: boolean;
  /** Counts against the breaker: the vendor failed, not the request. */
  vendorFailed: boolean;
  vendorCode: string | undefined;
  vendorMessage: string | undefined;
}

/** The gateway's codes for the throttle (queries per second) and the daily quota, both HTTP 403. */
const OVER_QPS = 'ERR_403_DEVELOPER_OVER_QPS';
const OVER_RATE = 'ERR_403_DEVELOPER_OVER_RATE';

/** The formatted error code of a product refusal (allotment, price, stop sales…). */
const PRODUCT_ERROR = 'PRODUCT_ERROR';

/** Refusal messages, read only to tell a rate gone from a price changed (both are PRODUCT_ERROR). */
const PRICE_CHANGED = /price (has )?(changed|increased)|tolerance/i;
const RATE_GONE = /allotment|stop ?sales?|not available|no longer available|sold out|no availability|minimum stay|release|closed/i;

/** The vendor's code and message in a body of any of its shapes, or none. */
export function vendorErrorOf(body: Buffer, headers: IncomingHttpHeaders): { vendorCode?: string; vendorMessage?: string } {
  const gatewayCode = headerText(headers['x-mashery-error-code']);
  const text = body.toString('utf8');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    // A gateway page (`<h1>Developer Over Qps</h1>`) or plain text: keep it short and tagless.
    const plain = text.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim().slice(0, 300);
    return { vendorCode: gatewayCode, vendorMessage: plain || headerText(headers['x-error-detail-header']) };
  }
  const error = isObject(parsed) ? parsed.error : undefined;
  if (isObject(error)) {
    return { vendorCode: stringOr(error.code) ?? gatewayCode, vendorMessage: stringOr(error.message) };
  }
  if (typeof error === 'string') return { vendorCode: gatewayCode, vendorMessage: error };
  return { vendorCode: gatewayCode, vendorMessage: isObject(parsed) ? stringOr(parsed.message) : undefined };
}

/** What an answer carrying an error means (any status, a 2xx with an `error` element included). */
export function classifyVendorError(status: number, vendorCode: string | undefined, vendorMessage: string | undefined): VendorFault {
  const fault = (kind: HotelbedsErrorKind, code: HotelbedsErrorCode, transient = false, vendorFailed = false): VendorFault => ({
    kind,
    code,
    transient,
    vendorFailed,
    vendorCode,
    vendorMessage,
  });
  const message = vendorMessage ?? '';
  // A product error is the vendor's "no" whatever the status; 410 is the same refusal repeated
  // ("a failed request repeated within 15 minutes", per the errors page).
  if (vendorCode === PRODUCT_ERROR || status === 410) {
    return fault('refused', PRICE_CHANGED.test(message) ? 'PRICE_CHANGED' : RATE_GONE.test(message) ? 'RATE_NOT_AVAILABLE' : 'REFUSED');
  }
  if (status === 429) return fault('unavailable', 'RATE_LIMITED', true);
  if (status === 403 && (vendorCode === OVER_QPS || /over qps/i.test(message))) return fault('unavailable', 'RATE_LIMITED', true);
  if (status === 403 && (vendorCode === OVER_RATE || /over rate/i.test(message))) return fault('unavailable', 'QUOTA_EXCEEDED');
  if (status === 401 || status === 403) return fault('invalid', 'UNAUTHORIZED');
  if (status === 404) return fault('invalid', 'NOT_FOUND');
  if (status >= 500) return fault('unavailable', 'VENDOR_FAILURE', true, true);
  if (status >= 400) return fault('invalid', 'INVALID_REQUEST');
  // A 2xx whose body carries an error element (the vendor's SDK treats it as a failure).
  return vendorCode === 'SYSTEM_ERROR' ? fault('unavailable', 'VENDOR_FAILURE', false, true) : fault('invalid', 'INVALID_REQUEST');
}

function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function stringOr(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
