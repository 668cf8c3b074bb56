import { describe, expect, it } from 'vitest';
import { nearestLevelWithin, supportResistance, swingLevels, volumeProfileLevels } from './levels';
import { highestHigh, lowestLow, rangeMetrics } from './ranges';
import { randomBars } from './test-series';
import { trendDirection } from './trend';

describe('highs and lows', () => {
  it('covers the last N bars, today included, and tells which bar', () => {
    const high = [10, 30, 12, 11, 15];
    expect(highestHigh(high, 3)).toEqual({ value: 15, index: 4 });
    expect(highestHigh(high, 4)).toEqual({ value: 30, index: 1 });
    expect(highestHigh(high, 100)).toEqual({ value: 30, index: 1 });
    expect(lowestLow([5, 3, 4, 3, 6], 5)).toEqual({ value: 3, index: 3 });
    expect(highestHigh([], 5)).toBeNull();
  });

  it('computes the four range metrics in one pass, equal to the window functions', () => {
    for (const length of [5, 21, 100, 250]) {
      const bars = randomBars(length, length);
      expect(rangeMetrics(bars.high, bars.low)).toEqual({
        '1MonthHigh': highestHigh(bars.high, 21)!.value,
        '1MonthLow': lowestLow(bars.low, 21)!.value,
        '6MonthHigh': highestHigh(bars.high, 126)!.value,
        '6MonthLow': lowestLow(bars.low, 126)!.value,
      });
    }
    expect(rangeMetrics([], [])['1MonthHigh']).toBeNull();
  });
});

describe('volume profile', () => {
  it('finds the planted high-volume node', () => {
    const n = 120;
    const high = new Float64Array(n);
    const low = new Float64Array(n);
    const close = new Float64Array(n);
    const volume = new Float64Array(n);
    for (let i = 0; i < n; i += 1) {
      const price = 100 + (i % 20); // ranging 100–119
      high[i] = price + 0.5;
      low[i] = price - 0.5;
      close[i] = price;
      volume[i] = price === 107 ? 50_000_000 : 1_000_000;
    }
    const [top] = volumeProfileLevels(high, low, close, volume);
    // 50 bins over 99.5–119.5 are 0.4 wide: the node lies on the planted bar's range, give or take a bin.
    expect(top).toBeGreaterThanOrEqual(106.5 - 0.4);
    expect(top).toBeLessThanOrEqual(107.5 + 0.4);
  });

  it('uses only the last 120 bars', () => {
    const high = [...new Array(50).fill(500.5), ...new Array(120).fill(100.5)];
    const low = high.map((value) => value - 1);
    const levels = volumeProfileLevels(high, low, high, new Array(170).fill(1));
    expect(levels.every((level) => level < 101)).toBe(true);
  });
});

describe('swing levels and support/resistance', () => {
  const zigzag = (peaks: number[]) => {
    const high: number[] = [];
    const low: number[] = [];
    for (const peak of peaks) {
      for (let k = 0; k < 6; k += 1) {
        const up = peak - 10 + k * (10 / 6);
        high.push(up + 0.5);
        low.push(up - 0.5);
      }
      for (let k = 0; k < 6; k += 1) {
        const down = peak - k * (10 / 6);
        high.push(down + 0.5);
        low.push(down - 0.5);
      }
    }
    return { high, low, close: high.map((value) => value - 0.5) };
  };

  it('finds planted pivots and merges nearby ones into a level', () => {
    const { high, low, close } = zigzag([120, 121, 120.5, 140, 141]);
    const swings = swingLevels(high, low, { leftBars: 3, rightBars: 3 });
    expect(swings.filter((s) => s.kind === 'high').map((s) => s.price)).toEqual([120.5, 121.5, 121, 140.5, 141.5]);
    const levels = supportResistance(high, low, close, { leftBars: 3, rightBars: 3 });
    expect(levels.some((level) => Math.abs(level - 121) < 0.5)).toBe(true);
    expect([...levels].sort((a, b) => a - b)).toEqual(levels);
  });

  it('tells whether a level lies within a fraction of the price', () => {
    expect(nearestLevelWithin([90, 104, 130], 100, 0.05)).toBe(104);
    expect(nearestLevelWithin([90, 130], 100, 0.05)).toBeNull();
  });
});

describe('trend direction', () => {
  it('reads rising, falling and flat series', () => {
    const rising = Array.from({ length: 30 }, (_, i) => 100 * 1.01 ** i);
    expect(trendDirection(rising)).toMatchObject({ direction: 'up' });
    expect(trendDirection(rising).slopePercentPerDay).toBeCloseTo(1, 6);
    expect(trendDirection(rising).rSquared).toBeCloseTo(1, 9);
    expect(trendDirection([...rising].reverse()).direction).toBe('down');
    expect(trendDirection(new Array(30).fill(50))).toMatchObject({ direction: 'sideways', rSquared: 0 });
    const noisy = Array.from({ length: 30 }, (_, i) => 100 + (i % 2 === 0 ? 3 : -3));
    expect(trendDirection(noisy).direction).toBe('sideways');
  });
});
