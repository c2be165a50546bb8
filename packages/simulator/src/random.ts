/** A source of uniform numbers in [0, 1). */
export type Random = () => number;

/** Hashes the parts into an unsigned 32-bit integer (cyrb53, folded), stable across runs and platforms. */
export function hashParts(...parts: ReadonlyArray<string | number>): number {
  // A separator no prompt is likely to contain keeps ('ab','c') and ('a','bc') apart.
  const text = parts.map(String).join('\u241f');
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (h1 ^ h2) >>> 0;
}

/** A number in [0, 1) fixed by the parts: a one-shot draw that needs no generator. */
export function unitHash(...parts: ReadonlyArray<string | number>): number {
  return hashParts(...parts) / 4294967296;
}

/** The mulberry32 generator: tiny, fast and good enough for picking words. */
export function mulberry32(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

/** A generator seeded by hashing the parts, so the same parts always replay the same stream. */
export function seededRandom(...parts: ReadonlyArray<string | number>): Random {
  return mulberry32(hashParts(...parts));
}

/** One item, chosen uniformly; the list must not be empty. */
export function pickOne<T>(random: Random, items: readonly T[]): T {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new Error('pickOne needs at least one item');
  return item;
}

/** True with the given probability. */
export function chance(random: Random, probability: number): boolean {
  return random() < probability;
}

/** An integer in [min, max], both included. */
export function integerBetween(random: Random, min: number, max: number): number {
  return min + Math.floor(random() * (max - min + 1));
}
