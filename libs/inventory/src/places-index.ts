import { PlaceMatch } from '@hotel/contracts';
import { Place, gazetteer } from './gazetteer';
import { foldText } from './text';

interface Entry {
  key: string;
  place: Place;
  /** 0: the whole name starts with the query; 1: a later word of it does. */
  wordOffset: 0 | 1;
}

const SHORT_PREFIX = 3;
const SHORT_PREFIX_KEEP = 50;

/**
 * Text search over places: case and accent insensitive, by prefix of the name
 * or of any word in it, ranked exact > name prefix > word prefix, then by
 * population. Built once per process from the gazetteer (static data).
 */
export class PlacesIndex {
  private readonly entries: Entry[] = [];
  /** Best places for queries of up to three characters, where the prefix range is huge. */
  private readonly shortPrefixTop = new Map<string, Entry[]>();

  constructor(places: Place[] = gazetteer().places) {
    for (const place of places) {
      const folded = foldText(place.name);
      if (!folded) continue;
      this.entries.push({ key: folded, place, wordOffset: 0 });
      const words = folded.split(' ');
      for (let i = 1; i < words.length; i++) {
        if (words[i].length >= 2) this.entries.push({ key: words.slice(i).join(' '), place, wordOffset: 1 });
      }
    }
    this.entries.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    const buckets = new Map<string, Entry[]>();
    for (const entry of this.entries) {
      for (let length = 1; length <= SHORT_PREFIX && length <= entry.key.length; length++) {
        const prefix = entry.key.slice(0, length);
        const bucket = buckets.get(prefix) ?? [];
        bucket.push(entry);
        buckets.set(prefix, bucket);
      }
    }
    for (const [prefix, bucket] of buckets) this.shortPrefixTop.set(prefix, bucket.sort(byRank(prefix)).slice(0, SHORT_PREFIX_KEEP));
  }

  search(text: string, limit = 10): PlaceMatch[] {
    const query = foldText(text);
    if (!query) return [];
    const candidates = query.length <= SHORT_PREFIX ? (this.shortPrefixTop.get(query) ?? []) : this.range(query);
    const seen = new Set<Place>();
    const results: PlaceMatch[] = [];
    for (const entry of [...candidates].sort(byRank(query))) {
      if (seen.has(entry.place)) continue;
      seen.add(entry.place);
      results.push(toMatch(entry.place));
      if (results.length === limit) break;
    }
    return results;
  }

  private range(prefix: string): Entry[] {
    let low = 0;
    let high = this.entries.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.entries[middle].key < prefix) low = middle + 1;
      else high = middle;
    }
    const found: Entry[] = [];
    for (let i = low; i < this.entries.length && this.entries[i].key.startsWith(prefix); i++) found.push(this.entries[i]);
    return found;
  }
}

/**
 * Bigger places first, with a boost for an exact name and a handicap for a match
 * on a later word, so "par" offers Paris before the hamlet called Par.
 */
function byRank(query: string) {
  const score = (entry: Entry) => Math.log10(entry.place.population + 1) + (entry.key === query ? 1.5 : 0) - entry.wordOffset;
  return (a: Entry, b: Entry) => score(b) - score(a);
}

export function formattedAddress(place: Place): string {
  if (place.kind === 'country') return place.countryName;
  return [place.name, place.region && place.region !== place.name ? place.region : '', place.countryName].filter(Boolean).join(', ');
}

export function toMatch(place: Place): PlaceMatch {
  return { placeId: place.placeId, destinationId: place.destinationId, name: place.name, formattedAddress: formattedAddress(place), kind: place.kind === 'country' ? 'country' : 'city' };
}
