/**
 * xoshiro128** (Blackman & Vigna, 2018), the pseudo-random generator of the track record: the
 * random-entry baseline's draws (docs/rules/track-record.md §6.4 b, "the PRNG is part of the rule version") and
 * the bootstrap's resamples (§6.3). 128 bits of state, 32-bit outputs, no unseeded randomness.
 *
 * Seeding from 8 bytes (the baseline's "first 8 bytes of SHA-256(…)"): the bytes are read as one
 * big-endian 64-bit integer and expanded with SplitMix64, as the xoshiro authors recommend; its first
 * output fills state words 0 (high half) and 1 (low half), the second fills words 2 and 3.
 */

const MASK_64 = (1n << 64n) - 1n;
const TWO_32 = 4_294_967_296;

/** A seeded xoshiro128** stream. */
export interface Xoshiro128 {
  /** The next 32-bit output, as an unsigned integer in [0, 2³²). */
  nextUint32(): number;
  /** A float in [0, 1) with 32 random bits. */
  nextFloat(): number;
  /** An integer in [0, n) (n ≥ 1, n ≤ 2²¹ so the product stays exact): ⌊u32 × n / 2³²⌋. */
  nextInt(n: number): number;
}

/** A generator from an explicit 128-bit state (four 32-bit words, not all zero). */
export function xoshiro128ss(state: readonly [number, number, number, number]): Xoshiro128 {
  let s0 = state[0] >>> 0;
  let s1 = state[1] >>> 0;
  let s2 = state[2] >>> 0;
  let s3 = state[3] >>> 0;
  if ((s0 | s1 | s2 | s3) === 0) throw new RangeError('xoshiro128** needs a state that is not all zero');
  const nextUint32 = (): number => {
    const result = Math.imul(rotl(Math.imul(s1, 5), 7), 9) >>> 0;
    const t = s1 << 9;
    s2 ^= s0;
    s3 ^= s1;
    s1 ^= s2;
    s0 ^= s3;
    s2 ^= t;
    s3 = rotl(s3, 11);
    return result;
  };
  return {
    nextUint32,
    nextFloat: () => nextUint32() / TWO_32,
    nextInt: (n) => Math.floor((nextUint32() * n) / TWO_32),
  };
}

/** One SplitMix64 step: the new internal value and the output, both 64-bit (BigInt). */
export function splitMix64(value: bigint): { value: bigint; output: bigint } {
  const next = (value + 0x9e3779b97f4a7c15n) & MASK_64;
  let z = next;
  z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK_64;
  z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK_64;
  return { value: next, output: z ^ (z >> 31n) };
}

/** A generator seeded with the first 8 bytes of `seed` (big-endian 64 bits, expanded by SplitMix64). */
export function xoshiroFromSeedBytes(seed: Uint8Array): Xoshiro128 {
  if (seed.length < 8) throw new RangeError('the seed needs 8 bytes');
  let value = 0n;
  for (let i = 0; i < 8; i += 1) value = (value << 8n) | BigInt(seed[i]!);
  const first = splitMix64(value);
  const second = splitMix64(first.value);
  const words: [number, number, number, number] = [
    Number(first.output >> 32n),
    Number(first.output & 0xffffffffn),
    Number(second.output >> 32n),
    Number(second.output & 0xffffffffn),
  ];
  // SplitMix64 cannot answer two zero outputs in a row, so the state is never all zero.
  return xoshiro128ss(words);
}

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}
