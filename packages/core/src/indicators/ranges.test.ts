import { Highest, Lowest } from 'technicalindicators';
import { describe, expect, it } from 'vitest';
import { highestHigh, lowestLow } from './ranges';
import { randomBars } from './test-series';

describe('highestHigh and lowestLow', () => {
  const high = [10, 30, 12, 11, 15];

  it('covers the last N bars, today included, and tells which bar', () => {
    expect(highestHigh(high, 1)).toEqual({ value: 15, index: 4 });
    expect(highestHigh(high, 3)).toEqual({ value: 15, index: 4 });
    expect(highestHigh(high, 4)).toEqual({ value: 30, index: 1 });
    expect(lowestLow([5, 3, 4, 2.5, 6], 2)).toEqual({ value: 2.5, index: 3 });
    expect(lowestLow([1, 3, 4, 2.5, 6], 4)).toEqual({ value: 2.5, index: 3 });
  });

  it('uses all available bars when there are fewer than the window', () => {
    expect(highestHigh(high, 100)).toEqual({ value: 30, index: 1 });
    expect(lowestLow(high, 100)).toEqual({ value: 10, index: 0 });
  });

  it('answers the latest bar on ties and skips missing bars', () => {
    expect(lowestLow([5, 3, 4, 3, 6], 5)).toEqual({ value: 3, index: 3 });
    expect(highestHigh([9, 9, 2], 3)).toEqual({ value: 9, index: 1 });
    expect(highestHigh([NaN, 7, NaN], 3)).toEqual({ value: 7, index: 1 });
  });

  it('answers null without bars and rejects windows below 1', () => {
    expect(highestHigh([], 5)).toBeNull();
    expect(lowestLow([NaN], 5)).toBeNull();
    expect(() => highestHigh(high, 0)).toThrow(/highestHigh: window must be an integer of at least 1/);
    expect(() => lowestLow(high, 2.5)).toThrow(RangeError);
  });
});

describe('highestHigh and lowestLow against technicalindicators (oracle)', () => {
  // technicalindicators 3.1.0's Highest/Lowest answer the rolling max/min of the last `period`
  // values, the current one included; its k-th output is the window ending at our index period − 1 + k.
  // Our kernels answer only the newest window, so each prefix high[0..i] is asked in turn.
  // Max and min are exact, so the values must be identical, not merely close.
  it('agrees with Highest/Lowest at every window end on seeded random bars', () => {
    let compared = 0;
    for (let seed = 1; seed <= 8; seed += 1) {
      const bars = randomBars(seed, 160);
      const highs = Array.from(bars.high);
      const lows = Array.from(bars.low);
      for (const window of [1, 2, 5, 21, 126]) {
        const theirHigh = Highest.calculate({ values: highs, period: window });
        const theirLow = Lowest.calculate({ values: lows, period: window });
        expect(theirHigh).toHaveLength(160 - window + 1);
        expect(theirLow).toHaveLength(160 - window + 1);
        for (let k = 0; k < theirHigh.length; k += 1) {
          const end = window - 1 + k;
          const high = highestHigh(bars.high.subarray(0, end + 1), window)!;
          const low = lowestLow(bars.low.subarray(0, end + 1), window)!;
          expect(high.value).toBe(theirHigh[k]);
          expect(low.value).toBe(theirLow[k]);
          // The index names a bar of the window that made the extreme: the latest such bar.
          expect(high.index).toBe(highs.lastIndexOf(high.value, end));
          expect(low.index).toBe(lows.lastIndexOf(low.value, end));
          expect(high.index).toBeGreaterThan(end - window);
          expect(low.index).toBeGreaterThan(end - window);
          compared += 1;
        }
      }
    }
    expect(compared).toBe(8 * (160 * 5 - (0 + 1 + 4 + 20 + 125)));
  });

  it('uses all bars when the series is shorter than the window (technicalindicators answers nothing)', () => {
    const bars = randomBars(42, 30);
    expect(Highest.calculate({ values: Array.from(bars.high), period: 126 })).toEqual([]);
    expect(highestHigh(bars.high, 126)!.value).toBe(Highest.calculate({ values: Array.from(bars.high), period: 30 })[0]);
    expect(lowestLow(bars.low, 126)!.value).toBe(Lowest.calculate({ values: Array.from(bars.low), period: 30 })[0]);
  });
});
