import { LRUCache } from 'lru-cache';
import { PlacesReply } from '@hotel/contracts';

/** At most this many answers (each a few hundred bytes: about 10 MB at worst). */
const MAX_ENTRIES = 20_000;

/**
 * Place search answers are static data (the gazetteer changes only with a
 * release), and type-ahead repeats the same prefixes all day: the gateway keeps
 * recent answers for a while instead of asking the search service again. The
 * least recently used answer goes first; concurrent misses of one query share
 * one request to the search service.
 */
export class PlacesCache {
  private readonly entries: LRUCache<string, PlacesReply, () => Promise<PlacesReply>>;

  constructor(ttlMs: number) {
    this.entries = new LRUCache({ max: MAX_ENTRIES, ttl: ttlMs, fetchMethod: (_key, _stale, { context: load }) => load() });
  }

  async get(key: string, load: () => Promise<PlacesReply>): Promise<PlacesReply> {
    return (await this.entries.fetch(key, { context: load }))!;
  }
}
