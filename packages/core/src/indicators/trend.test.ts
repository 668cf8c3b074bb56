import { describe, expect, it } from 'vitest';
import { randomWalk, seeded } from './test-series';
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

// ---- Oracle on seeded random series ------------------------------------------------------------
// technicalindicators 3.1.0 has no linear-regression indicator, so the oracle is an independent
// least-squares fit written the textbook way: two passes (means first, then centred sums) and r² from
// the residuals, 1 − SSres/SStot, where the kernel uses one pass of raw sums and cov²/(varX·varY).

/** OLS of ln(close) on the bar offset over the last `days` bars, usable closes only. */
function referenceFit(close: ArrayLike<number>, days: number): { slope: number; rSquared: number; points: number } {
  const start = Math.max(0, close.length - days);
  const points: Array<[number, number]> = [];
  for (let i = start; i < close.length; i += 1) {
    const price = close[i]!;
    if (Number.isFinite(price) && price > 0) points.push([i - start, Math.log(price)]);
  }
  const meanX = points.reduce((sum, [x]) => sum + x, 0) / points.length;
  const meanY = points.reduce((sum, [, y]) => sum + y, 0) / points.length;
  const sxy = points.reduce((sum, [x, y]) => sum + (x - meanX) * (y - meanY), 0);
  const sxx = points.reduce((sum, [x]) => sum + (x - meanX) ** 2, 0);
  const slope = sxy / sxx;
  const intercept = meanY - slope * meanX;
  const ssRes = points.reduce((sum, [x, y]) => sum + (y - (intercept + slope * x)) ** 2, 0);
  const ssTot = points.reduce((sum, [, y]) => sum + (y - meanY) ** 2, 0);
  return { slope, rSquared: 1 - ssRes / ssTot, points: points.length };
}

/** A random walk with a drift per bar (−1.5 % to +1.5 %), some seeds with unusable closes. */
function driftingSeries(seed: number): Float64Array {
  const next = seeded(seed + 7000);
  const drift = (next() - 0.5) * 0.03;
  const closes = randomWalk(seed, 30 + (seed % 90)).map((close, i) => close * Math.exp(drift * i));
  if (seed % 5 === 0) {
    closes[closes.length - 2] = Number.NaN;
    closes[closes.length - 6] = 0;
    closes[closes.length - 9] = -3;
  }
  return closes;
}

describe('trendDirection against an independent least-squares fit (oracle)', () => {
  const CASES = [
    { days: 20, minSlopePercent: 0.1, minRSquared: 0.3 },
    { days: 5, minSlopePercent: 0.1, minRSquared: 0.3 },
    { days: 60, minSlopePercent: 0.05, minRSquared: 0.5 },
    { days: 250, minSlopePercent: 0.2, minRSquared: 0.1 },
  ];

  it('agrees on slope, r² and direction on seeded random series', () => {
    const directions = { up: 0, down: 0, sideways: 0 };
    for (let seed = 1; seed <= 200; seed += 1) {
      const closes = driftingSeries(seed);
      for (const options of CASES) {
        const trend = trendDirection(closes, options);
        const fit = referenceFit(closes, options.days);
        const label = `seed ${seed} ${JSON.stringify(options)}`;
        expect(fit.points, label).toBeGreaterThanOrEqual(3);
        expect(trend.slopePercentPerDay, label).toBeCloseTo(Math.expm1(fit.slope) * 100, 9);
        expect(trend.rSquared, label).toBeCloseTo(fit.rSquared, 9);
        // The direction is the fitted slope's sign when both thresholds are met, else sideways.
        // Fits within rounding of a threshold could go either way and are not judged.
        const slopePercent = Math.expm1(fit.slope) * 100;
        const nearThreshold = Math.abs(Math.abs(slopePercent) - options.minSlopePercent) < 1e-9 || Math.abs(fit.rSquared - options.minRSquared) < 1e-9;
        if (nearThreshold) continue;
        const trending = Math.abs(slopePercent) >= options.minSlopePercent && fit.rSquared >= options.minRSquared;
        const expected = trending ? (fit.slope > 0 ? 'up' : 'down') : 'sideways';
        expect(trend.direction, label).toBe(expected);
        directions[expected] += 1;
      }
    }
    // The series cover all three answers, each many times.
    expect(directions.up).toBeGreaterThan(50);
    expect(directions.down).toBeGreaterThan(50);
    expect(directions.sideways).toBeGreaterThan(50);
  });

  it('never calls a trend against the sign of the fitted slope', () => {
    for (let seed = 1; seed <= 200; seed += 1) {
      const closes = driftingSeries(seed);
      for (const days of [5, 20, 60]) {
        const { direction, slopePercentPerDay } = trendDirection(closes, { days, minSlopePercent: 0, minRSquared: 0 });
        const { slope } = referenceFit(closes, days);
        // With both thresholds at 0, only the slope's sign decides.
        expect(direction).toBe(slope > 0 ? 'up' : 'down');
        expect(Math.sign(slopePercentPerDay)).toBe(Math.sign(slope));
      }
    }
  });
});
