export interface Trend {
  direction: 'up' | 'down' | 'sideways';
  /** Fitted change per bar, percent (log-linear fit: 0.2 = +0.2 % a bar). */
  slopePercentPerDay: number;
  /** Share of the variance of log closes the line explains, 0–1. */
  rSquared: number;
}

/**
 * Trend of the last `days` closes: a least-squares line through their logarithms. Up or down when
 * the line moves at least `minSlopePercent` (0.1 %) a bar and explains at least `minRSquared` (0.3)
 * of the variance; otherwise sideways.
 */
export function trendDirection(
  close: ArrayLike<number>,
  options: { days?: number; minSlopePercent?: number; minRSquared?: number } = {},
): Trend {
  const { days = 20, minSlopePercent = 0.1, minRSquared = 0.3 } = options;
  const start = Math.max(0, close.length - days);
  const n = close.length - start;
  if (n < 3) return { direction: 'sideways', slopePercentPerDay: 0, rSquared: 0 };
  let sumX = 0;
  let sumY = 0;
  let sumXY = 0;
  let sumXX = 0;
  let sumYY = 0;
  for (let k = 0; k < n; k += 1) {
    const y = Math.log(close[start + k]!);
    sumX += k;
    sumY += y;
    sumXY += k * y;
    sumXX += k * k;
    sumYY += y * y;
  }
  const covariance = sumXY - (sumX * sumY) / n;
  const varianceX = sumXX - (sumX * sumX) / n;
  const varianceY = sumYY - (sumY * sumY) / n;
  const slope = varianceY <= 1e-12 * n ? 0 : covariance / varianceX;
  const rSquared = varianceY <= 1e-12 * n ? 0 : Math.min(1, (covariance * covariance) / (varianceX * varianceY));
  const slopePercentPerDay = (Math.exp(slope) - 1) * 100;
  const direction =
    rSquared >= minRSquared && Math.abs(slopePercentPerDay) >= minSlopePercent ? (slope > 0 ? 'up' : 'down') : 'sideways';
  return { direction, slopePercentPerDay, rSquared };
}
