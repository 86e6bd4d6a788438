import { createHmac, randomBytes } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';

/** A new signing secret in the Standard Webhooks form: `whsec_` + base64 of 32 random bytes. */
export function newSigningSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64');
}

/**
 * The `webhook-signature` header of the Standard Webhooks specification: for each
 * secret, `v1,` + base64 HMAC-SHA256 (keyed by the secret's bytes) of
 * `<id>.<timestamp>.<body>`, space-separated. Several secrets while a rotated one
 * is still honoured: a receiver that knows either verifies.
 */
export function signatureHeader(secrets: readonly string[], id: string, timestampS: number, body: string): string {
  const content = `${id}.${timestampS}.${body}`;
  return secrets
    .map((secret) => `v1,${createHmac('sha256', Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64')).update(content).digest('base64')}`)
    .join(' ');
}
