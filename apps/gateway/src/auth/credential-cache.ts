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
 * does not cost a users-service round trip every time. The users service
 * announces every revocation (an event every gateway replica receives), and the
 * entries of that client are forgotten at once; ttlMs only bounds how long an
 * entry lives if an announcement was missed (and the whole cache is dropped when
 * the connection to the broker comes back). A key in use is looked up again in
 * the background once its entry is past half its life, and concurrent misses share
 * one lookup: a busy key's entry does not expire under a burst of its requests,
 * which would otherwise all wait for the users service at once. Each replica keeps
 * its own: it is a cache, never the record. Hand-written rather than lru-cache: forgetting
 * a client's entries on a revocation event, and the generation that keeps an answer begun
 * before that event from being remembered, are what makes revocation immediate.
 */
export class CredentialCache {
  private readonly entries = new Map<string, Entry>();
  private readonly lookups = new Map<string, Promise<ResolvedCredential>>();
  /** Bumped by every forget: an answer to a lookup started before it is used once but not remembered. */
  private generation = 0;

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
      const started: Promise<ResolvedCredential> = this.lookUpAndRemember(key, token, lookup).finally(() => {
        if (this.lookups.get(key) === started) this.lookups.delete(key);
      });
      pending = started;
      this.lookups.set(key, pending);
    }
    return pending;
  }

  private async lookUpAndRemember(key: string, token: string, lookup: (token: string) => Promise<ResolvedCredential>): Promise<ResolvedCredential> {
    // The lifetime counts from the question, not the answer: a revoked key works at most ttlMs after it.
    const expiresAt = Date.now() + this.ttlMs;
    const generation = this.generation;
    try {
      const actor = await lookup(token);
      if (generation === this.generation) this.remember(key, { actor, expiresAt });
      return actor;
    } catch (error) {
      // Remember refusals too, so a flood of bad keys does not reach the users service.
      if (error instanceof DomainError && error.code === 'UNAUTHORIZED' && generation === this.generation) {
        this.remember(key, { error, expiresAt });
      }
      throw error;
    }
  }

  /** Forgets what is cached of a client's credentials (of one user's tokens, when given). */
  forgetClient(clientId: number, userId?: number): void {
    for (const [key, entry] of this.entries) {
      if (entry.actor?.clientId === clientId && (userId === undefined || entry.actor.userId === userId)) this.entries.delete(key);
    }
    this.forgetLookupsInFlight();
  }

  /** Forgets everything (announcements may have been missed). */
  clear(): void {
    this.entries.clear();
    this.forgetLookupsInFlight();
  }

  /** A lookup in flight may have read a credential before it changed: later requests do not share it, and its answer is not kept. */
  private forgetLookupsInFlight() {
    this.lookups.clear();
    this.generation++;
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
