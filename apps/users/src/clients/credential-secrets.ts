import { createHash, randomBytes } from 'node:crypto';
import { CredentialKind } from '@hotel/contracts';

/** Prefixes tell a reader which credential a secret is, as Stripe's `sk_live_` does. */
export const SECRET_PREFIX = {
  live: 'hb_live_',
  sandbox: 'hb_test_',
  backend: 'hb_back_',
  user: 'hb_user_',
} as const satisfies Record<CredentialKind | 'user', string>;

export function newSecret(kind: keyof typeof SECRET_PREFIX): string {
  return SECRET_PREFIX[kind] + randomBytes(32).toString('base64url');
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}
