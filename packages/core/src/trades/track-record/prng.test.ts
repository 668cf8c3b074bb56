import { describe, expect, it } from 'vitest';
import { splitMix64, xoshiro128ss, xoshiroFromSeedBytes } from './prng';

describe('xoshiro128**', () => {
  it('matches the reference outputs from state {1, 2, 3, 4}', () => {
    // By hand from the reference C code: out = rotl(s1 × 5, 7) × 9.
    // 1st: rotl(10, 7) × 9 = 1280 × 9 = 11520; the update gives s = {7, 0, 1026, 12288}.
    // 2nd: s1 = 0 → 0; s becomes {12295, 1029, 1026, 25165824}.
    // 3rd: rotl(1029 × 5 = 5145, 7) × 9 = 658560 × 9 = 5927040.
    const rng = xoshiro128ss([1, 2, 3, 4]);
    expect([rng.nextUint32(), rng.nextUint32(), rng.nextUint32()]).toEqual([11520, 0, 5927040]);
  });

  it('refuses the all-zero state', () => {
    expect(() => xoshiro128ss([0, 0, 0, 0])).toThrow(RangeError);
  });

  it('answers floats in [0, 1) and integers in [0, n)', () => {
    const rng = xoshiro128ss([5, 6, 7, 8]);
    for (let i = 0; i < 1000; i += 1) {
      const f = rng.nextFloat();
      expect(f).toBeGreaterThanOrEqual(0);
      expect(f).toBeLessThan(1);
      const k = rng.nextInt(7);
      expect(Number.isInteger(k) && k >= 0 && k < 7).toBe(true);
    }
  });
});

describe('seeding from 8 bytes', () => {
  it('uses SplitMix64, whose first output from 0 is 0xe220a8397b1dcdaf', () => {
    expect(splitMix64(0n).output).toBe(0xe220a8397b1dcdafn);
  });

  it('is deterministic and depends on every one of the 8 bytes', () => {
    const seed = new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 99]);
    const a = xoshiroFromSeedBytes(seed);
    const b = xoshiroFromSeedBytes(seed.slice(0, 8));
    const first = [a.nextUint32(), a.nextUint32(), a.nextUint32()];
    expect([b.nextUint32(), b.nextUint32(), b.nextUint32()]).toEqual(first);
    for (let i = 0; i < 8; i += 1) {
      const changed = seed.slice(0, 8);
      changed[i] = changed[i]! ^ 1;
      const c = xoshiroFromSeedBytes(changed);
      expect([c.nextUint32(), c.nextUint32(), c.nextUint32()]).not.toEqual(first);
    }
  });

  it('needs 8 bytes', () => {
    expect(() => xoshiroFromSeedBytes(new Uint8Array(7))).toThrow(RangeError);
  });
});
