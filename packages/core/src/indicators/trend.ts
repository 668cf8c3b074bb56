import { assertFraction, assertPeriod } from './validate';

export interface Trend {
  direction: 'up' | 'down' | 'sideways';
  /** Fitted compound change per bar in percent (0.2 = +0.2 % a bar); per day on daily bars. */
  slopePercentPerDay: number;
  /** Share of the variance of the log closes that the fitted line explains, 0–1. */
  rSquared: number;
}

export interface TrendOptions {
  /** Bars fitted, today included (default 20). */
  days?: number;
  /** Smallest |slope| in percent per bar that counts as a trend (default 0.1, i.e. ~2 % over 20 days). */
  minSlopePercent?: number;
  /** Smallest r² that counts as a trend (default 0.3); below it the line explains too little. */
  minRSquared?: number;
}

/** Flat within this variance of log closes (rounding noise): slope 0, r² 0. */
const FLAT_LOG_VARIANCE = 1e-12;

/**
 * Trend of the last `days` closes (oldest-first, today included): an ordinary least-squares line
 * through ln(close) against the bar offset. slopePercentPerDay = (e^slope − 1)·100 is the fitted
 * compound change per bar; rSquared is the fit's coefficient of determination.
 * direction is 'up' or 'down' (the slope's sign) when |slopePercentPerDay| ≥ minSlopePercent (0.1)
 * AND rSquared ≥ minRSquared (0.3); otherwise 'sideways'. Flat closes give slope 0 and r² 0.
 * Non-positive or non-finite closes are left out of the fit (their bar offset still counts);
 * with fewer than 3 usable closes the answer is sideways, 0, 0. days: integer ≥ 2.
 */
export function trendDirection(close: ArrayLike<number>, options: TrendOptions = {}): Trend {
  const { days = 20, minSlopePercent = 0.1, minRSquared = 0.3 } = options;
  assertPeriod('trendDirection', days, 2, 'days');
  assertFraction('trendDirection', minSlopePercent, 'minSlopePercent');
  assertFraction('trendDirection', minRSquared, 'minRSquared');
  const start = Math.max(0, close.length - days);
  let count = 0;
  let sumX = 0;
  let sumY = 0;
  let sumXY = 0;
  let sumXX = 0;
  let sumYY = 0;
  for (let i = start; i < close.length; i += 1) {
    const price = close[i]!;
    if (!(price > 0) || !Number.isFinite(price)) continue;
    const x = i - start;
    const y = Math.log(price);
    count += 1;
    sumX += x;
    sumY += y;
    sumXY += x * y;
    sumXX += x * x;
    sumYY += y * y;
  }
  if (count < 3) return { direction: 'sideways', slopePercentPerDay: 0, rSquared: 0 };
  const covariance = sumXY - (sumX * sumY) / count;
  const varianceX = sumXX - (sumX * sumX) / count;
  const varianceY = sumYY - (sumY * sumY) / count;
  if (varianceY <= FLAT_LOG_VARIANCE * count) return { direction: 'sideways', slopePercentPerDay: 0, rSquared: 0 };
  const slope = covariance / varianceX;
  const rSquared = Math.min(1, (covariance * covariance) / (varianceX * varianceY));
  const slopePercentPerDay = Math.expm1(slope) * 100;
  const trending = rSquared >= minRSquared && Math.abs(slopePercentPerDay) >= minSlopePercent;
  return { direction: trending ? (slope > 0 ? 'up' : 'down') : 'sideways', slopePercentPerDay, rSquared };
}
