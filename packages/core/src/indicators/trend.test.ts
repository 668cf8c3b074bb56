import { describe, expect, it } from 'vitest';
import { randomWalk } from './test-series';
import { trendDirection } from './trend';

const compounding = (ratePerDay: number, length = 30) => Array.from({ length }, (_, i) => 100 * (1 + ratePerDay) ** i);

describe('trendDirection', () => {
  it('reads a rising series: +1 % a day, perfect fit', () => {
    const trend = trendDirection(compounding(0.01));
    expect(trend.direction).toBe('up');
    expect(trend.slopePercentPerDay).toBeCloseTo(1, 9);
    expect(trend.rSquared).toBeCloseTo(1, 9);
  });

  it('reads a falling series', () => {
    const trend = trendDirection(compounding(-0.02));
    expect(trend.direction).toBe('down');
    expect(trend.slopePercentPerDay).toBeCloseTo(-2, 9);
    expect(trend.rSquared).toBeCloseTo(1, 9);
  });

  it('reads flat and oscillating series as sideways', () => {
    expect(trendDirection(new Array(30).fill(50))).toEqual({ direction: 'sideways', slopePercentPerDay: 0, rSquared: 0 });
    const noisy = Array.from({ length: 30 }, (_, i) => 100 + (i % 2 === 0 ? 3 : -3));
    const trend = trendDirection(noisy);
    expect(trend.direction).toBe('sideways');
    expect(trend.rSquared).toBeLessThan(0.3);
  });

  it('is sideways below the slope threshold even with a perfect fit', () => {
    const slow = compounding(0.0005); // 0.05 % a day
    expect(trendDirection(slow)).toMatchObject({ direction: 'sideways' });
    expect(trendDirection(slow, { minSlopePercent: 0.01 }).direction).toBe('up');
  });

  it('fits only the last `days` bars, today included', () => {
    // 40 bars of decline, then 20 of rise: the default 20-day window sees only the rise.
    const closes = [...compounding(-0.01, 40), ...compounding(0.01, 20).map((c) => c * 0.5)];
    expect(trendDirection(closes).direction).toBe('up');
    expect(trendDirection(closes, { days: 60 }).direction).not.toBe('up');
  });

  it('skips unusable closes and needs 3 usable ones', () => {
    const closes = compounding(0.01, 20);
    closes[5] = Number.NaN;
    closes[9] = 0;
    expect(trendDirection(closes).slopePercentPerDay).toBeCloseTo(1, 9);
    expect(trendDirection([100, 101])).toEqual({ direction: 'sideways', slopePercentPerDay: 0, rSquared: 0 });
  });

  it('keeps r² within 0–1 on random walks and rejects bad options', () => {
    for (let seed = 1; seed <= 20; seed += 1) {
      const { rSquared } = trendDirection(randomWalk(seed, 60));
      expect(rSquared).toBeGreaterThanOrEqual(0);
      expect(rSquared).toBeLessThanOrEqual(1);
    }
    expect(() => trendDirection([1, 2, 3], { days: 1 })).toThrow(/days must be an integer of at least 2/);
    expect(() => trendDirection([1, 2, 3], { minRSquared: Number.NaN })).toThrow(RangeError);
  });
});
