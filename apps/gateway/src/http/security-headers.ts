import { FastifyInstance, FastifyReply } from 'fastify';

/** Sent with every answer of both APIs. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'strict-transport-security': 'max-age=63072000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

/**
 * The content security policy of a page the gateway serves (the API reference, the
 * finance console): only its own scripts, styles and requests, nothing from elsewhere,
 * no framing, no forms posted away. `inlineStyles` for a page whose library sets
 * element styles from script (Swagger UI).
 */
export function pageContentSecurityPolicy(options: { inlineStyles: boolean }): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    `style-src 'self'${options.inlineStyles ? " 'unsafe-inline'" : ''}`,
    "img-src 'self' data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Banners that would tell a caller what runs here. */
const BANNERS = ['server', 'x-powered-by'];

/**
 * Sets the security headers on a reply, and `Cache-Control: no-store` unless the
 * route chose its own caching (the voucher PDF): answers carry credentials (user
 * tokens), bookings, guests and ledger entries, none of which a cache may keep.
 */
export function secureReply(reply: FastifyReply): void {
  reply.headers(SECURITY_HEADERS);
  if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
  for (const banner of BANNERS) reply.removeHeader(banner);
}

/** On every answer, errors included, just before it is sent. */
export function installSecurityHeaders(fastify: FastifyInstance): void {
  fastify.addHook('onSend', (_request, reply, payload, done) => {
    secureReply(reply);
    done(null, payload);
  });
}
