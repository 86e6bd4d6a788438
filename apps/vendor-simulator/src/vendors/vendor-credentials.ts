import { createHash, timingSafeEqual } from 'node:crypto';
import type { VendorCode } from '../inventory/simulated-inventory';

export interface VendorCredentials {
  apiKey: string;
  secret: string;
}

/** Each simulated vendor's, and the sandbox desk's. */
export type CredentialsByVendor = Record<VendorCode | 'sandbox', VendorCredentials>;

/**
 * Whether `signature` is the vendor's X-Signature (SHA-256 hex of key + secret + Unix
 * seconds) for a second within `skewSeconds` of `nowMs`. The vendor documents only that
 * the client's clock must be right; the window is the simulator's choice.
 */
export function signatureValid(credentials: VendorCredentials, signature: string | undefined, nowMs: number, skewSeconds: number): boolean {
  if (!signature || !/^[0-9a-f]{64}$/i.test(signature)) return false;
  const given = Buffer.from(signature.toLowerCase(), 'hex');
  const now = Math.floor(nowMs / 1000);
  let valid = false;
  // Every second of the window is hashed, so the time taken does not say how close a guess came.
  for (let seconds = now - skewSeconds; seconds <= now + skewSeconds; seconds++) {
    const expected = createHash('sha256').update(`${credentials.apiKey}${credentials.secret}${seconds}`).digest();
    if (timingSafeEqual(expected, given)) valid = true;
  }
  return valid;
}

/** Whether the Api-key header is the vendor's key (compared in constant time). */
export function apiKeyValid(credentials: VendorCredentials, apiKey: string | undefined): boolean {
  if (apiKey === undefined) return false;
  const given = createHash('sha256').update(apiKey).digest();
  return timingSafeEqual(given, createHash('sha256').update(credentials.apiKey).digest());
}
