import { describe, expect, it } from 'vitest';
import { latestRsi } from './rsi';
import { randomBars, seeded } from './test-series';
import { volumeProfileLevels, type VolumeProfileOptions } from './volume-profile';

// volumeProfileLevels and latestRsi were restructured for speed (fewer unpredictable branches,
// integer bins, branch-free peak search and seed). They must answer exactly what the straightforward
// versions below answer, bit for bit (Object.is: −0 is not 0), not merely to rounding: these are
// those versions as they were, written plainly, and the inputs include the odd cases the fast paths
// hand back to slower exact ones (plateaus, broken bars, subnormal and overflowing prices and
// volumes, infinite and signed-zero closes).

/** volumeProfileLevels before the restructuring: Math.floor bins, branches, peaks taken by repeated scans. */
function plainLevels(
  high: ArrayLike<number>,
  low: ArrayLike<number>,
  volume: ArrayLike<number>,
  { lookbackBars = 120, bins = 50, maxLevels = 5 }: VolumeProfileOptions = {},
): number[] {
  const n = high.length;
  const start = Math.max(0, n - lookbackBars);
  const usable = (i: number) => low[i]! <= high[i]! && volume[i]! >= 0 && Number.isFinite(high[i]! - low[i]! + volume[i]!);
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  let total = 0;
  for (let i = start; i < n; i += 1) {
    if (!usable(i)) continue;
    if (low[i]! < min) min = low[i]!;
    if (high[i]! > max) max = high[i]!;
    total += volume[i]!;
  }
  if (!(total > 0)) return [];
  if (max === min) return [min];
  const width = (max - min) / bins;
  const perBin = bins / (max - min);
  const histogram = new Float64Array(bins);
  const inner = new Float64Array(bins + 1);
  for (let i = start; i < n; i += 1) {
    if (!usable(i)) continue;
    const h = high[i]!;
    const l = low[i]!;
    const v = volume[i]!;
    let first = Math.floor((l - min) * perBin);
    let last = Math.floor((h - min) * perBin);
    if (last >= bins) {
      last = bins - 1;
      if (first >= bins) first = bins - 1;
    }
    if (first === last) {
      histogram[first] = histogram[first]! + v;
      continue;
    }
    const perPrice = v / (h - l);
    histogram[first] = histogram[first]! + (min + (first + 1) * width - l) * perPrice;
    histogram[last] = histogram[last]! + (h - (min + last * width)) * perPrice;
    if (last > first + 1) {
      inner[first + 1] = inner[first + 1]! + width * perPrice;
      inner[last] = inner[last]! - width * perPrice;
    }
  }
  let running = 0;
  for (let b = 0; b < bins; b += 1) {
    running += inner[b]!;
    histogram[b] = histogram[b]! + running;
  }
  const nearlyEqual = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b));
  const peaks: Array<{ bin: number; volume: number }> = [];
  for (let b = 0; b < bins; ) {
    const value = histogram[b]!;
    let end = b;
    while (end + 1 < bins && nearlyEqual(histogram[end + 1]!, value)) end += 1;
    const beforeLower = b === 0 || (histogram[b - 1]! < value && !nearlyEqual(histogram[b - 1]!, value));
    const afterLower = end === bins - 1 || histogram[end + 1]! < value;
    if (value > 0 && beforeLower && afterLower) peaks.push({ bin: (b + end) >> 1, volume: value });
    b = end + 1;
  }
  const levels: number[] = [];
  const chosen: number[] = [];
  while (chosen.length < maxLevels) {
    let best = -1;
    for (let p = 0; p < peaks.length; p += 1) {
      if (peaks[p]!.volume > 0 && (best < 0 || peaks[p]!.volume > peaks[best]!.volume)) best = p;
    }
    if (best < 0) break;
    const { bin } = peaks[best]!;
    peaks[best]!.volume = 0;
    if (chosen.every((other) => Math.abs(other - bin) > 2)) {
      chosen.push(bin);
      levels.push(min + (bin + 0.5) * width);
    }
  }
  return levels;
}

/** latestRsi before the restructuring: the seed branches on the sign of each change. */
function plainLatestRsi(closes: ArrayLike<number>, period = 14): number | null {
  const n = closes.length;
  if (n <= period) return null;
  let seedGain = 0;
  let seedLoss = 0;
  for (let i = 1; i <= period; i += 1) {
    const change = closes[i]! - closes[i - 1]!;
    if (change > 0) seedGain += change;
    else seedLoss -= change;
  }
  seedGain /= period;
  seedLoss /= period;
  const decay = (period - 1) / period;
  const weights = [1];
  for (let k = 1; k < n; k += 1) weights.push(weights[k - 1]! * decay);
  let doubledGains = 0;
  let moves = 0;
  for (let i = period + 1; i < n; i += 1) {
    const change = closes[i]! - closes[i - 1]!;
    const size = Math.abs(change);
    doubledGains += weights[n - 1 - i]! * (change + size);
    moves += weights[n - 1 - i]! * size;
  }
  const gains = doubledGains / 2;
  const steps = n - 1 - period;
  const gain = weights[steps]! * seedGain + gains / period;
  const loss = weights[steps]! * seedLoss + (moves - gains) / period;
  return gain + loss === 0 ? 0 : 100 * (gain / (gain + loss));
}

const KINDS = [
  'random walk',
  'cent prices (ties)',
  'wide and point bars',
  'broken bars',
  'one price',
  'repeated point bars',
  'one wide bar repeated (plateau)',
  'subnormal prices',
  'huge volumes on hairline bars',
  'overflowing volumes',
  'overflowing ranges',
  'signed zeros',
] as const;

/** Seeded bars of one of KINDS: ordinary random walks and the odd inputs the fast paths hand over. */
function bars(kind: (typeof KINDS)[number], seed: number, n: number) {
  const next = seeded(seed);
  const { high, low, close, volume } = randomBars(seed, n);
  for (let i = 0; i < n; i += 1) {
    switch (kind) {
      case 'cent prices (ties)':
        high[i] = Math.round(high[i]! * 100) / 100;
        low[i] = Math.round(low[i]! * 100) / 100;
        close[i] = Math.round(close[i]! * 100) / 100;
        volume[i] = Math.round(volume[i]! / 1e5) * 1e5;
        break;
      case 'wide and point bars':
        if (next() < 0.3) high[i] = low[i]!;
        else if (next() < 0.2) high[i] = low[i]! * 1.3;
        break;
      case 'broken bars': {
        const u = next();
        if (u < 0.02) high[i] = Number.NaN;
        else if (u < 0.04) volume[i] = -1;
        else if (u < 0.06) low[i] = high[i]! + 1;
        else if (u < 0.08) volume[i] = Number.POSITIVE_INFINITY;
        break;
      }
      case 'one price':
        high[i] = 100;
        low[i] = 100;
        break;
      case 'repeated point bars':
        high[i] = 100 + (i % 7);
        low[i] = high[i]!;
        break;
      case 'one wide bar repeated (plateau)':
        high[i] = 110;
        low[i] = 100;
        volume[i] = 1000;
        break;
      case 'subnormal prices':
        low[i] = 5e-324 * (1 + Math.floor(next() * 40));
        high[i] = low[i]! + 5e-324 * Math.floor(next() * 3);
        break;
      case 'huge volumes on hairline bars':
        if (next() < 0.2) {
          high[i] = low[i]! * (1 + 1e-16);
          volume[i] = 1.7e308;
        }
        break;
      case 'overflowing volumes':
        if (next() < 0.1) volume[i] = 1.5e308;
        break;
      case 'overflowing ranges':
        high[i] = 1e300 * (1 + next());
        low[i] = -1e300 * (1 + next());
        break;
      case 'signed zeros':
        high[i] = next() < 0.5 ? 0 : -0;
        low[i] = next() < 0.5 ? 0 : -0;
        break;
      default:
        break;
    }
  }
  return { high, low, close, volume };
}

const OPTIONS: VolumeProfileOptions[] = [
  {},
  { bins: 20, maxLevels: 3 },
  { lookbackBars: 250, bins: 100, maxLevels: 10 },
  { lookbackBars: 30 },
  { bins: 1 },
  { bins: 2 },
  { bins: 7, lookbackBars: 5 },
  { maxLevels: 50 },
];
const LENGTHS = [0, 1, 2, 3, 15, 16, 60, 120, 121, 250];

/** Same numbers, compared as Object.is does (−0 differs from 0; NaN equals NaN). */
function sameNumbers(ours: readonly number[], plain: readonly number[]): boolean {
  return ours.length === plain.length && ours.every((value, k) => Object.is(value, plain[k]));
}

describe('volumeProfileLevels is bit-identical to the plain version', () => {
  it.each(KINDS)('on %s', (kind) => {
    let levels = 0;
    for (let seed = 1; seed <= 12; seed += 1) {
      for (const n of LENGTHS) {
        const { high, low, close, volume } = bars(kind, seed * 31 + n, n);
        for (const options of OPTIONS) {
          const ours = volumeProfileLevels(high, low, close, volume, options);
          const plain = plainLevels(high, low, volume, options);
          if (!sameNumbers(ours, plain)) expect({ kind, seed, n, options, ours }).toEqual({ kind, seed, n, options, ours: plain });
          levels += ours.length;
        }
        // Plain arrays too (the kernels take any ArrayLike).
        const arrays = [high, low, close, volume].map((column) => Array.from(column));
        expect(sameNumbers(volumeProfileLevels(arrays[0]!, arrays[1]!, arrays[2]!, arrays[3]!), plainLevels(arrays[0]!, arrays[1]!, arrays[3]!))).toBe(true);
      }
    }
    expect(levels).toBeGreaterThan(0);
  });
});

describe('latestRsi is bit-identical to the plain version', () => {
  it('on random walks, odd closes (infinite, overflowing, signed zeros, NaN) and every period', () => {
    for (let seed = 1; seed <= 40; seed += 1) {
      const next = seeded(seed + 900);
      for (const n of [0, 2, 3, 14, 15, 16, 40, 78, 250]) {
        const { close } = randomBars(seed, n);
        const odd = close.map((value) => {
          const u = next();
          if (seed % 4 === 1) return u < 0.05 ? Number.POSITIVE_INFINITY : u < 0.1 ? Number.NEGATIVE_INFINITY : value;
          if (seed % 4 === 2) return u < 0.1 ? 1.7e308 * (u < 0.05 ? 1 : -1) : value;
          if (seed % 4 === 3) return u < 0.5 ? 0 : u < 0.9 ? -0 : u < 0.95 ? Number.NaN : value;
          return value;
        });
        for (const closes of [close, odd]) {
          for (const period of [2, 3, 9, 14, 30]) {
            const ours = latestRsi(closes, period);
            const plain = plainLatestRsi(closes, period);
            if (!Object.is(ours, plain)) expect({ seed, n, period, ours }).toEqual({ seed, n, period, ours: plain });
          }
        }
      }
    }
  });
});
