// A small seeded generator (mulberry32) so generated quizzes and demo
// weights are the same on every load for the same seed.

/** A function returning floats in [0, 1), determined by the 32-bit `seed`. */
export function seededRandom(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A fresh 32-bit seed. */
export function newSeed() {
  if (globalThis.crypto?.getRandomValues) return globalThis.crypto.getRandomValues(new Uint32Array(1))[0];
  return Math.floor(Math.random() * 2 ** 32);
}

/** One of `items`, chosen with `random`. */
export function pick(random, items) {
  return items[Math.floor(random() * items.length)];
}

/** A shuffled copy of `items` (Fisher-Yates, driven by `random`). */
export function shuffle(random, items) {
  const a = items.slice();
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}

/**
 * A 32-bit seed derived from `seed` and a string (FNV-1a over the string's
 * UTF-16 units, mixed with the seed, then one murmur3 finaliser), so one
 * learner's seed gives each quiz its own, stable option order.
 */
export function deriveSeed(seed, text) {
  let h = (0x811c9dc5 ^ (seed >>> 0)) >>> 0;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b) >>> 0;
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35) >>> 0;
  return (h ^ (h >>> 16)) >>> 0;
}

/** A permutation of 0 … n−1 decided by the 32-bit `seed`: display slot → original index. */
export function seededOrder(seed, n) {
  return shuffle(
    seededRandom(seed),
    Array.from({ length: n }, (_, i) => i),
  );
}
