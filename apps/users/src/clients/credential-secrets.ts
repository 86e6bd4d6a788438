import { randomBytes } from 'node:crypto';
import { CredentialKind, FINANCE_TOKEN_PREFIX, USER_TOKEN_PREFIX } from '@hotel/contracts';

/** Prefixes tell a reader which credential a secret is, as Stripe's `sk_live_` does. */
export const SECRET_PREFIX = {
  live: 'hb_live_',
  sandbox: 'hb_test_',
  backend: 'hb_back_',
  user: USER_TOKEN_PREFIX,
  finance: FINANCE_TOKEN_PREFIX,
} as const satisfies Record<CredentialKind | 'user' | 'finance', string>;

export function newSecret(kind: keyof typeof SECRET_PREFIX): string {
  return SECRET_PREFIX[kind] + randomBytes(32).toString('base64url');
}
