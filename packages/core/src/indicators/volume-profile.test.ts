import { describe, expect, it } from 'vitest';
import { randomBars } from './test-series';
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
