import { VolumeProfile } from 'technicalindicators';
import { describe, expect, it } from 'vitest';
import { randomBars, seeded } from './test-series';
import { volumeProfileLevels } from './volume-profile';

/** Bars ranging 100–119 (0.5 either side of each price), with volume by price. */
function ranging(volumeAt: (price: number) => number, n = 120) {
  const high = new Float64Array(n);
  const low = new Float64Array(n);
  const close = new Float64Array(n);
  const volume = new Float64Array(n);
  for (let i = 0; i < n; i += 1) {
    const price = 100 + (i % 20);
    high[i] = price + 0.5;
    low[i] = price - 0.5;
    close[i] = price;
    volume[i] = volumeAt(price);
  }
  return { high, low, close, volume };
}

describe('volumeProfileLevels', () => {
  it('finds the planted high-volume node first', () => {
    const { high, low, close, volume } = ranging((price) => (price === 107 ? 50_000_000 : 1_000_000));
    const levels = volumeProfileLevels(high, low, close, volume);
    // 50 bins over 99.5–119.5 are 0.4 wide: the node lies on the planted bars' range, within a bin.
    expect(levels[0]).toBeGreaterThanOrEqual(106.5 - 0.4);
    expect(levels[0]).toBeLessThanOrEqual(107.5 + 0.4);
  });

  it('answers at most maxLevels nodes, most volume first', () => {
    const weights: Record<number, number> = { 103: 9, 110: 30, 116: 20 };
    const { high, low, close, volume } = ranging((price) => (weights[price] ?? 1) * 1e6);
    const levels = volumeProfileLevels(high, low, close, volume, { maxLevels: 3 });
    expect(levels).toHaveLength(3);
    [110, 116, 103].forEach((price, k) => expect(Math.abs(levels[k]! - price)).toBeLessThanOrEqual(0.6));
    expect(volumeProfileLevels(high, low, close, volume, { maxLevels: 1 })).toEqual(levels.slice(0, 1));
  });

  it('counts a flat run of bins once, at its middle', () => {
    // One bar covering the whole range: every bin has the same volume; the plateau is one node.
    const levels = volumeProfileLevels([110], [100], [105], [1000], { bins: 10 });
    expect(levels).toEqual([104.5]);
  });

  it('finds no node in a flat tail that one wide bar covers alone (rounding must not make a peak)', () => {
    // Two heavy bars at 99.9–101.2 and one light bar stretching to `top`: the bins above 101.2 hold
    // only the light bar's equal share, a plateau whose lower neighbour is higher. The end bin's share
    // comes out of (top − binStart) and differs from the others by rounding for these tops; it once
    // made a node at the top of the range.
    for (const top of [109.3, 110, 117.7, 123.45, 131.1]) {
      for (const lightLow of [99.2, 99.6, 99.87]) {
        const levels = volumeProfileLevels([101, top, 101.2], [100.1, lightLow, 99.9], [101, top, 101.2], [1e6, 1e4, 1e6]);
        expect(levels, `top ${top}, light bar from ${lightLow}`).toHaveLength(1);
        expect(levels[0]!).toBeGreaterThan(99.9);
        expect(levels[0]!).toBeLessThan(101.2);
      }
    }
  });

  it('uses only the last 120 bars', () => {
    const high = [...new Array(50).fill(500.5), ...new Array(120).fill(100.5)];
    const low = high.map((value) => value - 1);
    const levels = volumeProfileLevels(high, low, high, new Array(170).fill(1));
    expect(levels.length).toBeGreaterThan(0);
    expect(levels.every((level) => level < 101)).toBe(true);
  });

  it('answers nothing without volume, the price for a single-price history, and skips broken bars', () => {
    expect(volumeProfileLevels([], [], [], [])).toEqual([]);
    expect(volumeProfileLevels([2, 3], [1, 2], [2, 3], [0, 0])).toEqual([]);
    expect(volumeProfileLevels([5, 5], [5, 5], [5, 5], [10, 10])).toEqual([5]);
    expect(volumeProfileLevels([5, NaN], [5, 1], [5, 1], [10, 1e9])).toEqual([5]);
  });

  it('answers bin centres inside the price range on random bars', () => {
    const bars = randomBars(11, 250);
    const levels = volumeProfileLevels(bars.high, bars.low, bars.close, bars.volume);
    expect(levels.length).toBeGreaterThan(0);
    expect(levels.length).toBeLessThanOrEqual(5);
    const recentLow = Math.min(...bars.low.subarray(130));
    const recentHigh = Math.max(...bars.high.subarray(130));
    expect(levels.every((level) => level > recentLow && level < recentHigh)).toBe(true);
  });

  it('rejects bad options and misaligned inputs', () => {
    expect(() => volumeProfileLevels([1], [1], [1], [1], { bins: 0 })).toThrow(/bins must be/);
    expect(() => volumeProfileLevels([1], [1], [1], [1], { maxLevels: 0 })).toThrow(RangeError);
    expect(() => volumeProfileLevels([1], [1], [1], [1], { lookbackBars: -1 })).toThrow(RangeError);
    expect(() => volumeProfileLevels([1, 2], [1], [1], [1])).toThrow(RangeError);
  });
});

// ---- Oracles on seeded random series -----------------------------------------------------------

/** Equal within rounding: the kernel sums the same terms in another order than the reference. */
const same = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b));

/**
 * The nodes of a histogram, by the definition in volume-profile.ts, written plainly: a peak is a run
 * of (near-)equal bins whose neighbours on both sides are lower; its bin is the run's middle (rounded
 * down). Peaks are taken by volume, largest first (the lower bin on a tie), skipping any within 2
 * bins of one already taken, until `maxLevels` are taken. Answers bin indices.
 */
function referenceNodes(histogram: number[], maxLevels: number): number[] {
  const bins = histogram.length;
  const peaks: Array<{ bin: number; volume: number }> = [];
  for (let start = 0; start < bins; start += 1) {
    const value = histogram[start]!;
    if (start > 0 && same(histogram[start - 1]!, value)) continue; // not the start of its run
    let end = start;
    while (end + 1 < bins && same(histogram[end + 1]!, value)) end += 1;
    const lowerLeft = start === 0 || histogram[start - 1]! < value;
    const lowerRight = end === bins - 1 || histogram[end + 1]! < value;
    if (value > 0 && lowerLeft && lowerRight) peaks.push({ bin: Math.floor((start + end) / 2), volume: value });
  }
  peaks.sort((a, b) => b.volume - a.volume || a.bin - b.bin);
  const taken: number[] = [];
  for (const peak of peaks) {
    if (taken.length === maxLevels) break;
    if (taken.every((bin) => Math.abs(bin - peak.bin) > 2)) taken.push(peak.bin);
  }
  return taken;
}

interface ProfileOptions {
  lookbackBars: number;
  bins: number;
  maxLevels: number;
}

/**
 * volumeProfileLevels by brute force, O(bars × bins): for every bin, every usable bar of the lookback
 * adds volume × (overlap of [low, high] with the bin) / (high − low); a bar with high = low adds all
 * its volume to the bin holding its price (the top edge belongs to the last bin).
 */
function referenceLevels(high: ArrayLike<number>, low: ArrayLike<number>, volume: ArrayLike<number>, options: ProfileOptions): number[] {
  const { lookbackBars, bins, maxLevels } = options;
  const bars: Array<{ h: number; l: number; v: number }> = [];
  for (let i = Math.max(0, high.length - lookbackBars); i < high.length; i += 1) {
    const h = high[i]!;
    const l = low[i]!;
    const v = volume[i]!;
    if (Number.isFinite(h) && Number.isFinite(l) && Number.isFinite(v) && l <= h && v >= 0) bars.push({ h, l, v });
  }
  if (!(bars.reduce((sum, bar) => sum + bar.v, 0) > 0)) return [];
  const min = Math.min(...bars.map((bar) => bar.l));
  const max = Math.max(...bars.map((bar) => bar.h));
  if (min === max) return [min];
  const width = (max - min) / bins;
  const histogram = Array.from({ length: bins }, (_, b) => {
    const bottom = min + b * width;
    const top = b === bins - 1 ? max : min + (b + 1) * width;
    let sum = 0;
    for (const { h, l, v } of bars) {
      if (h === l) {
        if (Math.min(bins - 1, Math.floor((l - min) / width)) === b) sum += v;
      } else {
        const overlap = Math.min(h, top) - Math.max(l, bottom);
        if (overlap > 0) sum += (v * overlap) / (h - l);
      }
    }
    return sum;
  });
  return referenceNodes(histogram, maxLevels).map((b) => min + (b + 0.5) * width);
}

const DEFAULTS: ProfileOptions = { lookbackBars: 120, bins: 50, maxLevels: 5 };
const OPTION_CASES: ProfileOptions[] = [
  DEFAULTS,
  { lookbackBars: 120, bins: 20, maxLevels: 3 },
  { lookbackBars: 250, bins: 100, maxLevels: 10 },
  { lookbackBars: 30, bins: 50, maxLevels: 5 },
];

/** Seeded random bars; odd seeds also carry broken bars (NaN high, negative volume, low above high). */
function barsFor(seed: number) {
  const bars = randomBars(seed, 60 + ((seed * 37) % 240));
  if (seed % 2 === 1) {
    const n = bars.high.length;
    bars.high[n - 3] = Number.NaN;
    bars.volume[n - 7] = -5;
    bars.low[n - 11] = bars.high[n - 11]! + 1;
  }
  return bars;
}

describe('volumeProfileLevels against a brute-force reference (oracle)', () => {
  it('answers the reference nodes, in order, on seeded random bars', () => {
    let levelsSeen = 0;
    for (let seed = 1; seed <= 40; seed += 1) {
      const bars = barsFor(seed);
      for (const options of OPTION_CASES) {
        const ours = volumeProfileLevels(bars.high, bars.low, bars.close, bars.volume, options);
        const expected = referenceLevels(bars.high, bars.low, bars.volume, options);
        expect(ours.length, `seed ${seed} ${JSON.stringify(options)}`).toBe(expected.length);
        ours.forEach((level, k) => expect(level).toBeCloseTo(expected[k]!, 9));
        levelsSeen += ours.length;
      }
    }
    expect(levelsSeen).toBeGreaterThan(40 * OPTION_CASES.length); // more than one node per case on average
  });

  it('keeps its invariants: within the lookback range, at most maxLevels, nodes more than 2 bins apart', () => {
    for (let seed = 1; seed <= 40; seed += 1) {
      const bars = barsFor(seed);
      for (const options of OPTION_CASES) {
        const levels = volumeProfileLevels(bars.high, bars.low, bars.close, bars.volume, options);
        const start = Math.max(0, bars.high.length - options.lookbackBars);
        const usable = Array.from({ length: bars.high.length - start }, (_, k) => start + k).filter(
          (i) => bars.low[i]! <= bars.high[i]! && bars.volume[i]! >= 0,
        );
        const lowest = Math.min(...usable.map((i) => bars.low[i]!));
        const highest = Math.max(...usable.map((i) => bars.high[i]!));
        const width = (highest - lowest) / options.bins;
        expect(levels.length).toBeGreaterThan(0);
        expect(levels.length).toBeLessThanOrEqual(options.maxLevels);
        for (const level of levels) {
          expect(level).toBeGreaterThanOrEqual(lowest + width / 2 - 1e-9);
          expect(level).toBeLessThanOrEqual(highest - width / 2 + 1e-9);
          // A bin centre: lowest + (b + 0.5)·width for a whole b.
          const b = (level - lowest) / width - 0.5;
          expect(Math.abs(b - Math.round(b))).toBeLessThan(1e-6);
        }
        for (let a = 0; a < levels.length; a += 1) {
          for (let c = a + 1; c < levels.length; c += 1) expect(Math.abs(levels[a]! - levels[c]!)).toBeGreaterThan(2.5 * width);
        }
      }
    }
  });

  // technicalindicators 3.1.0's VolumeProfile cuts [min, max] of the bars into `noOfBars` equal bins,
  // like ours, but adds a bar's whole volume to every bin its range touches (no apportioning), so on
  // ranged bars its histogram is another measure. On point bars (high = low = close, a close-only
  // series) both measures put each bar's volume into the one bin holding its price, so the nodes of
  // its histogram must be ours. The lowest and highest points carry no volume: they sit on the outer
  // bin edges, which it counts inclusively (and its last edge accumulates rounding).
  it('on point bars, finds the nodes of technicalindicators VolumeProfile', () => {
    let compared = 0;
    for (let seed = 1; seed <= 30; seed += 1) {
      const next = seeded(seed + 500);
      const n = 120;
      const price = Array.from({ length: n }, () => 50 + next() * 30 + (next() < 0.3 ? 10 : 0));
      const volume = Array.from({ length: n }, () => 1e5 * (0.1 + next()));
      volume[price.indexOf(Math.min(...price))] = 0;
      volume[price.indexOf(Math.max(...price))] = 0;
      const theirs = VolumeProfile.calculate({ open: price, high: price, low: price, close: price, volume, noOfBars: 50 }) as unknown as Array<{
        rangeStart: number;
        rangeEnd: number;
        totalVolume: number;
      }>;
      expect(theirs).toHaveLength(50);
      const expected = referenceNodes(
        theirs.map((bin) => bin.totalVolume),
        5,
      ).map((b) => (theirs[b]!.rangeStart + theirs[b]!.rangeEnd) / 2);
      const ours = volumeProfileLevels(price, price, price, volume);
      expect(ours.length).toBe(expected.length);
      ours.forEach((level, k) => expect(level).toBeCloseTo(expected[k]!, 9));
      compared += ours.length;
    }
    expect(compared).toBeGreaterThanOrEqual(30 * 3);
  });

  it('answers centres of the technicalindicators VolumeProfile bins on ranged bars', () => {
    for (let seed = 1; seed <= 10; seed += 1) {
      const bars = randomBars(seed, 120); // opens and closes lie within [low, high], as its range needs
      const theirs = VolumeProfile.calculate({
        open: Array.from(bars.open),
        high: Array.from(bars.high),
        low: Array.from(bars.low),
        close: Array.from(bars.close),
        volume: Array.from(bars.volume),
        noOfBars: 50,
      }) as unknown as Array<{ rangeStart: number; rangeEnd: number }>;
      const centres = theirs.map((bin) => (bin.rangeStart + bin.rangeEnd) / 2);
      for (const level of volumeProfileLevels(bars.high, bars.low, bars.close, bars.volume)) {
        expect(Math.min(...centres.map((centre) => Math.abs(centre - level)))).toBeLessThan(1e-9);
      }
    }
  });
});
