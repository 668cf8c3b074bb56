import { assertPeriod } from './validate';

/** TA-Lib's seed: the plain averages of the first `period` gains and losses. */
function seedAverages(closes: ArrayLike<number>, period: number): [number, number] {
  let gain = 0;
  let loss = 0;
  for (let i = 1; i <= period; i += 1) {
    const change = closes[i]! - closes[i - 1]!;
    if (change > 0) gain += change;
    else loss -= change;
  }
  return [gain / period, loss / period];
}

/**
 * RSI exactly as TA-Lib computes it (Wilder): the first value at index `period`, seeded with the
 * plain average of the first `period` gains and losses, then Wilder smoothing
 * avg = (avg·(period−1) + x) / period; RSI = 100·avgGain / (avgGain + avgLoss).
 * Flat prices (no gains and no losses) give 0, as TA-Lib does. NaN before index `period`.
 */
export function rsi(closes: ArrayLike<number>, period = 14): Float64Array {
  assertPeriod('rsi', period, 2);
  const n = closes.length;
  const out = new Float64Array(n).fill(Number.NaN);
  if (n <= period) return out;
  let [gain, loss] = seedAverages(closes, period);
  out[period] = gain + loss === 0 ? 0 : (100 * gain) / (gain + loss);
  for (let i = period + 1; i < n; i += 1) {
    const change = closes[i]! - closes[i - 1]!;
    gain = (gain * (period - 1) + (change > 0 ? change : 0)) / period;
    loss = (loss * (period - 1) + (change < 0 ? -change : 0)) / period;
    out[i] = gain + loss === 0 ? 0 : (100 * gain) / (gain + loss);
  }
  return out;
}

/**
 * The last value of `rsi(closes, period)`, in one pass without allocating: what scans over
 * thousands of symbols use. Null when there are not more than `period` closes.
 */
export function latestRsi(closes: ArrayLike<number>, period = 14): number | null {
  assertPeriod('latestRsi', period, 2);
  const n = closes.length;
  if (n <= period) return null;
  let [gain, loss] = seedAverages(closes, period);
  for (let i = period + 1; i < n; i += 1) {
    const change = closes[i]! - closes[i - 1]!;
    gain = (gain * (period - 1) + (change > 0 ? change : 0)) / period;
    loss = (loss * (period - 1) + (change < 0 ? -change : 0)) / period;
  }
  return gain + loss === 0 ? 0 : (100 * gain) / (gain + loss);
}
