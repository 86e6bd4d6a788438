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
 * bounds how long a revoked key keeps working. A key in use is looked up again in
 * the background once its entry is past half its life, and concurrent misses share
 * one lookup: a busy key's entry does not expire under a burst of its requests,
 * which would otherwise all wait for the users service at once. Each replica keeps
 * its own: it is a cache, never the record.
 */
export class CredentialCache {
  private readonly entries = new Map<string, Entry>();
  private readonly lookups = new Map<string, Promise<ResolvedCredential>>();

  constructor(private readonly ttlMs: number) {}

  async resolve(token: string, lookup: (token: string) => Promise<ResolvedCredential>): Promise<ResolvedCredential> {
    if (this.ttlMs === 0) return lookup(token);
    const key = createHash('sha256').update(token).digest('base64');
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && hit.expiresAt > now) {
      if (hit.expiresAt - now < this.ttlMs / 2) this.lookUp(key, token, lookup).catch(() => undefined);
      if (hit.error) throw hit.error;
      return hit.actor!;
    }
    return this.lookUp(key, token, lookup);
  }

  private lookUp(key: string, token: string, lookup: (token: string) => Promise<ResolvedCredential>): Promise<ResolvedCredential> {
    let pending = this.lookups.get(key);
    if (!pending) {
      pending = this.lookUpAndRemember(key, token, lookup).finally(() => this.lookups.delete(key));
      this.lookups.set(key, pending);
    }
    return pending;
  }

  private async lookUpAndRemember(key: string, token: string, lookup: (token: string) => Promise<ResolvedCredential>): Promise<ResolvedCredential> {
    // The lifetime counts from the question, not the answer: a revoked key works at most ttlMs after it.
    const expiresAt = Date.now() + this.ttlMs;
    try {
      const actor = await lookup(token);
      this.remember(key, { actor, expiresAt });
      return actor;
    } catch (error) {
      // Remember refusals too, so a flood of bad keys does not reach the users service.
      if (error instanceof DomainError && error.code === 'UNAUTHORIZED') {
        this.remember(key, { error, expiresAt });
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
