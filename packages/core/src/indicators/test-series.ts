/** Seeded random series for the indicator tests (mulberry32 PRNG). Not exported; not used by production code. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** A random walk of `length` closes starting at 100, with ±2 % daily moves. */
export function randomWalk(seed: number, length: number): Float64Array {
  const next = seeded(seed);
  const out = new Float64Array(length);
  let price = 100;
  for (let i = 0; i < length; i += 1) {
    price *= 1 + (next() - 0.5) * 0.04;
    out[i] = price;
  }
  return out;
}

/** OHLCV bars around a random walk. */
export function randomBars(seed: number, length: number) {
  const next = seeded(seed + 1000);
  const close = randomWalk(seed, length);
  const open = new Float64Array(length);
  const high = new Float64Array(length);
  const low = new Float64Array(length);
  const volume = new Float64Array(length);
  for (let i = 0; i < length; i += 1) {
    open[i] = i === 0 ? 100 : close[i - 1]!;
    high[i] = Math.max(open[i]!, close[i]!) * (1 + next() * 0.01);
    low[i] = Math.min(open[i]!, close[i]!) * (1 - next() * 0.01);
    volume[i] = 1_000_000 * (0.5 + next());
  }
  return { open, high, low, close, volume };
}
