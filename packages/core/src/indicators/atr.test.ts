import { ATR } from 'technicalindicators';
import { describe, expect, it } from 'vitest';
import { atr } from './atr';
import { randomBars } from './test-series';

// docs/providers.md §10.4 (StockCharts ATR worked example, 30 bars) and its TA-Lib column.
const H = [48.7, 48.72, 48.9, 48.87, 48.82, 49.05, 49.2, 49.35, 49.92, 50.19, 50.12, 49.66, 49.88, 50.19, 50.36, 50.57, 50.65, 50.43, 49.63, 50.33, 50.29, 50.17, 49.32, 48.5, 48.32, 46.8, 47.8, 48.39, 48.66, 48.79];
const L = [47.79, 48.14, 48.39, 48.37, 48.24, 48.635, 48.94, 48.86, 49.5, 49.87, 49.2, 48.9, 49.43, 49.725, 49.26, 50.09, 50.3, 49.21, 48.98, 49.61, 49.2, 49.43, 48.08, 47.64, 41.55, 44.283, 47.31, 47.2, 47.9, 47.73];
const C = [48.16, 48.61, 48.75, 48.63, 48.74, 49.03, 49.07, 49.32, 49.91, 50.13, 49.53, 49.5, 49.75, 50.03, 50.31, 50.52, 50.41, 49.34, 49.37, 50.23, 49.238, 49.93, 48.43, 48.18, 46.57, 45.41, 47.77, 47.72, 48.62, 47.85];
const TALIB_ATR = [0.5685714286, 0.562244898, 0.5470845481, 0.5951499375, 0.5990677991, 0.6248486706, 0.6580737656, 0.6776399252, 0.7613799305, 0.7684242212, 1.1971082054, 1.2913861907, 1.3698586057, 1.3570115624, 1.3272250222, 1.3081375207];

describe('atr: TA-Lib convention', () => {
  it('matches the TA-Lib column of the reference series (first value at index 14)', () => {
    const out = atr(H, L, C, 14);
    expect(out).toHaveLength(30);
    for (let i = 0; i < 14; i += 1) expect(out[i]).toBeNaN();
    TALIB_ATR.forEach((value, k) => expect(out[14 + k]).toBeCloseTo(value, 9));
  });

  it('gives 3.0 on the small case (no TR for bar 0), not the TR[0]-seeded 26/9', () => {
    const out = atr([10, 12, 13, 14], [8, 9, 11, 10], [9, 11, 12, 13], 3);
    expect(Array.from(out.subarray(0, 3))).toEqual([NaN, NaN, NaN]);
    expect(out[3]).toBeCloseTo(3, 12);
  });

  it('is the true range itself for period 1', () => {
    // TR[1] = max(12 − 9, |9 − 12|, |9 − 9|) = 3; TR[2] = max(2, |11 − 13|, |11 − 11|) = 2.
    expect(Array.from(atr([10, 12, 13], [8, 9, 11], [9, 11, 12], 1))).toEqual([NaN, 3, 2]);
  });

  it('needs more than `period` bars and equal-length inputs', () => {
    expect(Array.from(atr([1, 2], [1, 2], [1, 2], 2))).toEqual([NaN, NaN]);
    expect(() => atr([1, 2], [1], [1, 2], 1)).toThrow(RangeError);
    expect(() => atr([1, 2], [1, 2], [1, 2], 0)).toThrow(RangeError);
  });
});

describe('atr against technicalindicators (oracle)', () => {
  // technicalindicators 3.1.0's TrueRange yields nothing for bar 0 and its WEMA seeds with the SMA of
  // the first `period` true ranges, so its ATR follows TA-Lib: its k-th output is our index period + k.
  // It does not round (its `precision` config is unset), so the series agree to 1e-9 at every index.
  it('agrees at every aligned index on seeded random bars', () => {
    let worst = 0;
    for (let seed = 1; seed <= 10; seed += 1) {
      const bars = randomBars(seed, 300);
      const input = { high: Array.from(bars.high), low: Array.from(bars.low), close: Array.from(bars.close) };
      for (const period of [1, 5, 14]) {
        const theirs = ATR.calculate({ ...input, period });
        const ours = atr(bars.high, bars.low, bars.close, period);
        expect(theirs.length).toBe(300 - period);
        theirs.forEach((value, k) => (worst = Math.max(worst, Math.abs(ours[period + k]! - value))));
      }
    }
    expect(worst).toBeLessThan(1e-9);
  });
});
