/**
 * Deterministic hashing: the catalog and the simulated suppliers derive every
 * attribute from ids with these, so every replica and every restart agrees
 * without storing anything.
 */
export function hash32(...parts: (string | number)[]): number {
  let hash = 0x811c9dc5;
  const text = parts.join('|');
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  // final avalanche (murmur3 fmix32) so nearby inputs spread
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return hash >>> 0;
}

/** A number in [0, 1) fixed by the parts. */
export function unit(...parts: (string | number)[]): number {
  return hash32(...parts) / 0x1_0000_0000;
}

/** An integer in [min, max] fixed by the parts. */
export function between(min: number, max: number, ...parts: (string | number)[]): number {
  return min + Math.floor(unit(...parts) * (max - min + 1));
}

export function pick<T>(items: readonly T[], ...parts: (string | number)[]): T {
  return items[hash32(...parts) % items.length];
}

/** `count` distinct items, in a stable order fixed by the parts. */
export function pickSome<T>(items: readonly T[], count: number, ...parts: (string | number)[]): T[] {
  return [...items]
    .map((item, index) => ({ item, key: hash32(...parts, index) }))
    .sort((a, b) => a.key - b.key)
    .slice(0, Math.min(count, items.length))
    .map(({ item }) => item);
}

/**
 * A seeded generator (mulberry32) for drawing many attributes of one thing
 * cheaply: seed it with hash32(id) and draw in a fixed order.
 */
export class SeededRandom {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 0x1_0000_0000;
  }

  between(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  /** `count` distinct items (a partial Fisher-Yates shuffle). */
  pickSome<T>(items: readonly T[], count: number): T[] {
    const copy = [...items];
    const take = Math.min(count, copy.length);
    for (let i = 0; i < take; i++) {
      const j = i + Math.floor(this.next() * (copy.length - i));
      [copy[i], copy[j]] = [copy[j], copy[i]];
    }
    return copy.slice(0, take);
  }
}

/** An integer-only hash of two numbers, for hot loops where building strings would cost too much. */
export function mix32(a: number, b: number): number {
  let hash = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b) ^ b;
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x7feb352d);
  hash ^= hash >>> 15;
  hash = Math.imul(hash, 0x846ca68b);
  hash ^= hash >>> 16;
  return hash >>> 0;
}
