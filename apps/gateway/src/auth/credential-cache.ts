import { createHash } from 'node:crypto';
import { ResolvedCredential } from '@hotel/contracts';
import { DomainError } from '@hotel/platform';

interface Entry {
  actor?: ResolvedCredential;
  error?: DomainError;
  expiresAt: number;
}

const MAX_ENTRIES = 50_000;

/**
 * A short-lived cache of credential resolutions, so an authenticated request
 * does not cost a users-service round trip every time. Entries live ttlMs, which
 * bounds how long a revoked key keeps working. Each replica keeps its own: it is
 * a cache, never the record.
 */
export class CredentialCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly ttlMs: number) {}

  async resolve(token: string, lookup: (token: string) => Promise<ResolvedCredential>): Promise<ResolvedCredential> {
    if (this.ttlMs === 0) return lookup(token);
    const key = createHash('sha256').update(token).digest('base64');
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && hit.expiresAt > now) {
      if (hit.error) throw hit.error;
      return hit.actor!;
    }
    try {
      const actor = await lookup(token);
      this.remember(key, { actor, expiresAt: now + this.ttlMs });
      return actor;
    } catch (error) {
      // Remember refusals too, so a flood of bad keys does not reach the users service.
      if (error instanceof DomainError && error.code === 'UNAUTHORIZED') {
        this.remember(key, { error, expiresAt: now + this.ttlMs });
      }
      throw error;
    }
  }

  private remember(key: string, entry: Entry) {
    if (this.entries.size >= MAX_ENTRIES) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.delete(key);
    this.entries.set(key, entry);
  }
}
