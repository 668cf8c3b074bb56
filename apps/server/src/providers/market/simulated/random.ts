/**
 * Deterministic randomness: every number the simulated market draws is a pure function of a
 * string key (symbol, day, purpose), so every process, and every restart, sees the same market.
 */

/** 32-bit FNV-1a hash of a string. */
export function hashString(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** Integer mix of up to three 32-bit values (a murmur3-style finaliser): fast per-day seeds. */
export function mix(a: number, b: number, c = 0): number {
  let h = (a ^ Math.imul(b, 0x9e3779b1) ^ Math.imul(c + 0x6a09e667, 0x85ebca77)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x21f0aaad);
  h = Math.imul(h ^ (h >>> 15), 0x735a2d97);
  return (h ^ (h >>> 15)) >>> 0;
}

/** A uniform [0, 1) value from a seed. */
export const unit = (seed: number) => seed / 4_294_967_296;

/** A standard normal value from a seed. */
export function gaussian(seed: number): number {
  const u = Math.max(unit(mix(seed, 1)), 1e-12);
  const v = unit(mix(seed, 2));
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}
