import { EMA, SMA } from 'technicalindicators';
import { describe, expect, it } from 'vitest';
import { ema, sma } from './moving-averages';
import { randomWalk } from './test-series';

describe('sma', () => {
  it('computes a small case by hand, NaN before the first full window', () => {
    expect(Array.from(sma([1, 2, 3, 4, 5], 3))).toEqual([NaN, NaN, 2, 3, 4]);
    expect(Array.from(sma([4, 8], 1))).toEqual([4, 8]);
    expect(Array.from(sma([1, 2], 3))).toEqual([NaN, NaN]);
  });

  it('rejects periods below 1', () => {
    expect(() => sma([1, 2, 3], 0)).toThrow(RangeError);
  });
});

describe('ema', () => {
  it('seeds with the SMA of the first period values, then k = 2 / (period + 1)', () => {
    // period 3: seed (2 + 4 + 6) / 3 = 4 at index 2; k = 0.5: 4 + 0.5·(20 − 4) = 12; 12 + 0.5·(0 − 12) = 6.
    expect(Array.from(ema([2, 4, 6, 20, 0], 3))).toEqual([NaN, NaN, 4, 12, 6]);
    // period 4: k = 0.4; seed 2.5; 2.5 + 0.4·(10 − 2.5) = 5.5.
    expect(ema([1, 2, 3, 4, 10], 4)[4]).toBeCloseTo(5.5, 12);
    expect(Array.from(ema([1, 2], 3))).toEqual([NaN, NaN]);
  });

  it('rejects periods below 1', () => {
    expect(() => ema([1, 2, 3], 1.5)).toThrow(RangeError);
  });
});

describe('moving averages against technicalindicators (oracle)', () => {
  // technicalindicators' SMA and EMA do not round (its `precision` config is unset), and its EMA is
  // seeded with the SMA like TA-Lib, so the outputs align from index period − 1 and agree to 1e-9.
  it('agrees on seeded random walks', () => {
    let worst = 0;
    for (let seed = 1; seed <= 10; seed += 1) {
      const values = Array.from(randomWalk(seed, 200));
      for (const period of [1, 5, 20]) {
        const theirSma = SMA.calculate({ values, period });
        const oursSma = sma(values, period);
        expect(theirSma.length).toBe(200 - period + 1);
        theirSma.forEach((value, k) => (worst = Math.max(worst, Math.abs(oursSma[period - 1 + k]! - value))));
      }
      for (const period of [2, 12, 26]) {
        const theirEma = EMA.calculate({ values, period });
        const oursEma = ema(values, period);
        expect(theirEma.length).toBe(200 - period + 1);
        theirEma.forEach((value, k) => (worst = Math.max(worst, Math.abs(oursEma[period - 1 + k]! - value))));
      }
    }
    expect(worst).toBeLessThan(1e-9);
  });
});
