import { PlacesReply } from '@hotel/contracts';

const MAX_ENTRIES = 20_000;

/**
 * Place search answers are static data (the gazetteer changes only with a
 * release), and type-ahead repeats the same prefixes all day: the gateway keeps
 * recent answers for a while instead of asking the search service again.
 */
export class PlacesCache {
  private readonly entries = new Map<string, { reply: PlacesReply; expiresAt: number }>();

  constructor(private readonly ttlMs: number) {}

  async get(key: string, load: () => Promise<PlacesReply>): Promise<PlacesReply> {
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && hit.expiresAt > now) return hit.reply;
    const reply = await load();
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { reply, expiresAt: now + this.ttlMs });
    return reply;
  }
}
