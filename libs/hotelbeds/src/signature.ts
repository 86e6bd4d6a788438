import { createHash } from 'node:crypto';

/**
 * The `X-Signature` header: SHA-256, in lower-case hex, of the API key, the shared secret and
 * the current Unix time in seconds, concatenated (developer.hotelbeds.com, "Getting started":
 * `echo -n ${apiKey}${secret}$(date +%s) | sha256sum`). It is computed for every request,
 * retries included, because the vendor checks the time in it against its own clock.
 */
export function hotelbedsSignature(apiKey: string, secret: string, unixSeconds: number): string {
  return createHash('sha256').update(`${apiKey}${secret}${unixSeconds}`).digest('hex');
}

export function unixSeconds(nowMs: number): number {
  return Math.floor(nowMs / 1000);
}
