import { Highest, Lowest } from 'technicalindicators';
import { describe, expect, it } from 'vitest';
import { ONE_MONTH_TRADING_DAYS, rangeMetrics, SIX_MONTH_TRADING_DAYS } from './metrics';
import { highestHigh, lowestLow } from './ranges';
import { randomBars } from './test-series';

describe('rangeMetrics', () => {
  it('uses 21 and 126 trading days', () => {
    expect(ONE_MONTH_TRADING_DAYS).toBe(21);
    expect(SIX_MONTH_TRADING_DAYS).toBe(126);
  });

  it('counts today and exactly the last 21 / 126 bars', () => {
    // Highs fall (1000 − i) and lows rise (100 + i), so each window's extremes sit on its oldest bar;
    // then a spike planted today wins every window.
    const n = 200;
    const high = Array.from({ length: n }, (_, i) => 1000 - i);
    const low = Array.from({ length: n }, (_, i) => 100 + i);
    expect(rangeMetrics(high, low)).toEqual({
      '1MonthHigh': 1000 - (n - 21),
      '1MonthLow': 100 + (n - 21),
      '6MonthHigh': 1000 - (n - 126),
      '6MonthLow': 100 + (n - 126),
    });
    high[n - 1] = 5000;
    low[n - 1] = 1;
    expect(rangeMetrics(high, low)).toEqual({ '1MonthHigh': 5000, '1MonthLow': 1, '6MonthHigh': 5000, '6MonthLow': 1 });
  });

  it('equals the window functions on random bars of any length', () => {
    for (const length of [1, 5, 21, 100, 126, 250]) {
      const bars = randomBars(length, length);
      expect(rangeMetrics(bars.high, bars.low)).toEqual({
        '1MonthHigh': highestHigh(bars.high, 21)!.value,
        '1MonthLow': lowestLow(bars.low, 21)!.value,
        '6MonthHigh': highestHigh(bars.high, 126)!.value,
        '6MonthLow': lowestLow(bars.low, 126)!.value,
      });
    }
  });

  it('answers nulls without bars', () => {
    expect(rangeMetrics([], [])).toEqual({ '1MonthHigh': null, '1MonthLow': null, '6MonthHigh': null, '6MonthLow': null });
  });
});

describe('rangeMetrics against technicalindicators (oracle)', () => {
  // Highest/Lowest with period 21 and 126: their last output is the window ending today.
  it('equals the last Highest/Lowest value of 21 and 126 bars on seeded random bars', () => {
    for (let seed = 1; seed <= 10; seed += 1) {
      const bars = randomBars(seed, 126 + seed * 13);
      const highs = Array.from(bars.high);
      const lows = Array.from(bars.low);
      const last = (values: number[]) => values[values.length - 1];
      expect(rangeMetrics(bars.high, bars.low)).toEqual({
        '1MonthHigh': last(Highest.calculate({ values: highs, period: 21 })),
        '1MonthLow': last(Lowest.calculate({ values: lows, period: 21 })),
        '6MonthHigh': last(Highest.calculate({ values: highs, period: 126 })),
        '6MonthLow': last(Lowest.calculate({ values: lows, period: 126 })),
      });
    }
  });
});
