import { ATR, EMA, SMA } from 'technicalindicators';
import { describe, expect, it } from 'vitest';
import { atr } from './atr';
import { ema, sma } from './moving-averages';
import { randomBars, randomWalk } from './test-series';

// providers.md §10.4 (StockCharts ATR worked example, 30 bars).
const H = [48.7, 48.72, 48.9, 48.87, 48.82, 49.05, 49.2, 49.35, 49.92, 50.19, 50.12, 49.66, 49.88, 50.19, 50.36, 50.57, 50.65, 50.43, 49.63, 50.33, 50.29, 50.17, 49.32, 48.5, 48.32, 46.8, 47.8, 48.39, 48.66, 48.79];
const L = [47.79, 48.14, 48.39, 48.37, 48.24, 48.635, 48.94, 48.86, 49.5, 49.87, 49.2, 48.9, 49.43, 49.725, 49.26, 50.09, 50.3, 49.21, 48.98, 49.61, 49.2, 49.43, 48.08, 47.64, 41.55, 44.283, 47.31, 47.2, 47.9, 47.73];
const C = [48.16, 48.61, 48.75, 48.63, 48.74, 49.03, 49.07, 49.32, 49.91, 50.13, 49.53, 49.5, 49.75, 50.03, 50.31, 50.52, 50.41, 49.34, 49.37, 50.23, 49.238, 49.93, 48.43, 48.18, 46.57, 45.41, 47.77, 47.72, 48.62, 47.85];
const TALIB_ATR = [0.5685714286, 0.562244898, 0.5470845481, 0.5951499375, 0.5990677991, 0.6248486706, 0.6580737656, 0.6776399252, 0.7613799305, 0.7684242212, 1.1971082054, 1.2913861907, 1.3698586057, 1.3570115624, 1.3272250222, 1.3081375207];

describe('ATR(14), TA-Lib (Wilder)', () => {
  it('matches the TA-Lib column of the reference series', () => {
    const out = atr(H, L, C, 14);
    for (let i = 0; i < 14; i += 1) expect(out[i]).toBeNaN();
    TALIB_ATR.forEach((value, k) => expect(Math.abs(out[14 + k]! - value)).toBeLessThan(1e-9));
  });

  it('gives 3.0 on the small case (no TR for bar 0)', () => {
    expect(atr([10, 12, 13, 14], [8, 9, 11, 10], [9, 11, 12, 13], 3)[3]).toBeCloseTo(3, 12);
  });

  it('rejects inputs of different lengths', () => {
    expect(() => atr([1, 2], [1], [1, 2], 1)).toThrow(RangeError);
  });

  it('follows technicalindicators (which seeds from bar 0) once the seeds wash out', () => {
    const bars = randomBars(7, 400);
    const theirs = ATR.calculate({ high: Array.from(bars.high), low: Array.from(bars.low), close: Array.from(bars.close), period: 14 });
    const ours = atr(bars.high, bars.low, bars.close, 14);
    // Their series starts one bar earlier (index 13) with a different seed; the difference decays by 13/14 a bar.
    const offset = 400 - theirs.length;
    expect(Math.abs(ours[399]! - theirs[399 - offset]!)).toBeLessThan(1e-6);
  });
});

describe('moving averages', () => {
  it('computes small cases by hand', () => {
    expect(Array.from(sma([1, 2, 3, 4, 5], 3))).toEqual([NaN, NaN, 2, 3, 4]);
    const out = ema([1, 2, 3, 4, 5], 3);
    expect(out[2]).toBe(2);
    expect(out[3]).toBe(3);
    expect(out[4]).toBe(4);
    expect(ema([2, 4, 6, 20], 3)[3]).toBeCloseTo((20 - 4) * 0.5 + 4, 12);
  });

  it('agrees with technicalindicators on random series', () => {
    for (let seed = 1; seed <= 10; seed += 1) {
      const values = Array.from(randomWalk(seed, 200));
      const theirSma = SMA.calculate({ values, period: 20 });
      const oursSma = sma(values, 20);
      theirSma.forEach((value, k) => expect(Math.abs(oursSma[19 + k]! - value)).toBeLessThan(1e-9));
      const theirEma = EMA.calculate({ values, period: 12 });
      const oursEma = ema(values, 12);
      theirEma.forEach((value, k) => expect(Math.abs(oursEma[11 + k]! - value)).toBeLessThan(1e-9));
    }
  });
});
