import { PlaceMatch } from '@hotel/contracts';
import { Place, gazetteer } from './gazetteer';
import { foldText } from './text';

interface Entry {
  key: string;
  place: Place;
  /** 0: the whole name starts with the query; 1: a later word of it does. */
  wordOffset: 0 | 1;
  /** log10(population + 1): computed once, as ranking reads it for every comparison. */
  size: number;
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
      const size = Math.log10(place.population + 1);
      this.entries.push({ key: folded, place, wordOffset: 0, size });
      const words = folded.split(' ');
      for (let i = 1; i < words.length; i++) {
        if (words[i].length >= 2) this.entries.push({ key: words.slice(i).join(' '), place, wordOffset: 1, size });
      }
    }
    this.entries.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    // The best SHORT_PREFIX_KEEP of each short prefix, kept while the entries go by in key
    // order: what sorting each prefix's whole bucket by rank (stable) and cutting it gave,
    // without sorting the 200,000 entries three times over (seconds at every start).
    const tops = new Map<string, Ranked[]>();
    for (const entry of this.entries) {
      for (let length = 1; length <= SHORT_PREFIX && length <= entry.key.length; length++) {
        const prefix = entry.key.slice(0, length);
        let top = tops.get(prefix);
        if (!top) tops.set(prefix, (top = []));
        keepIfAmongBest(top, { entry, score: score(entry, prefix) });
      }
    }
    for (const [prefix, top] of tops) this.shortPrefixTop.set(prefix, top.map((ranked) => ranked.entry));
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
function score(entry: Entry, query: string): number {
  return entry.size + (entry.key === query ? 1.5 : 0) - entry.wordOffset;
}

function byRank(query: string) {
  return (a: Entry, b: Entry) => score(b, query) - score(a, query);
}

interface Ranked {
  entry: Entry;
  score: number;
}

/**
 * Puts `candidate` into `top` (best first, at most SHORT_PREFIX_KEEP) after every entry
 * that scores at least as well: candidates come in key order, so ties keep it, as a
 * stable sort does.
 */
function keepIfAmongBest(top: Ranked[], candidate: Ranked): void {
  if (top.length === SHORT_PREFIX_KEEP && top[top.length - 1].score >= candidate.score) return;
  let at = top.length;
  while (at > 0 && top[at - 1].score < candidate.score) at--;
  top.splice(at, 0, candidate);
  if (top.length > SHORT_PREFIX_KEEP) top.pop();
}

export function formattedAddress(place: Place): string {
  if (place.kind === 'country') return place.countryName;
  return [place.name, place.region && place.region !== place.name ? place.region : '', place.countryName].filter(Boolean).join(', ');
}

export function toMatch(place: Place): PlaceMatch {
  return { placeId: place.placeId, destinationId: place.destinationId, name: place.name, formattedAddress: formattedAddress(place), kind: place.kind === 'country' ? 'country' : 'city' };
}
