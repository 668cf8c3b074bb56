import { assertPeriod } from './validate';

/**
 * RSI from Wilder's averages: 100 · avgGain / (avgGain + avgLoss), in points 0–100.
 * Flat prices (avgGain + avgLoss exactly 0) give 0, as TA-Lib does; other libraries give 50 or 100.
 * Classic TA-Lib tests that sum against 1e-8 (TA_IS_ZERO) rather than 0, which turns the RSI of
 * sub-cent coins into 0; we test for exact 0 so tiny prices keep a real RSI. Otherwise identical.
 */
function rsiOf(avgGain: number, avgLoss: number): number {
  const sum = avgGain + avgLoss;
  return sum === 0 ? 0 : 100 * (avgGain / sum);
}

/** TA-Lib's seed: the plain means of the first `period` gains and losses (changes 1..period). */
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
 * Relative Strength Index exactly as TA-Lib's ta_RSI.c (classic mode, no unstable period),
 * providers.md §10.1. closes oldest-first; period ≥ 2 (default 14 bars).
 * - change[i] = close[i] − close[i−1]; gain = max(change, 0), loss = max(−change, 0).
 * - Seed: avgGain, avgLoss = plain means of the first `period` gains and losses (changes 1..period).
 * - Then Wilder smoothing: avg = (avg · (period − 1) + today's gain or loss) / period.
 * - out[i] = 100 · avgGain / (avgGain + avgLoss) from index `period` (the period+1-th close) on,
 *   the bar at i included; NaN before. Flat prices give 0 (see rsiOf).
 * Full-length output; for only the newest value use `latestRsi`, which does not allocate.
 */
export function rsi(closes: ArrayLike<number>, period = 14): Float64Array {
  assertPeriod('rsi', period, 2);
  const n = closes.length;
  const out = new Float64Array(n).fill(Number.NaN);
  if (n <= period) return out;
  let [gain, loss] = seedAverages(closes, period);
  out[period] = rsiOf(gain, loss);
  for (let i = period + 1; i < n; i += 1) {
    const change = closes[i]! - closes[i - 1]!;
    gain = (gain * (period - 1) + (change > 0 ? change : 0)) / period;
    loss = (loss * (period - 1) + (change < 0 ? -change : 0)) / period;
    out[i] = rsiOf(gain, loss);
  }
  return out;
}

/**
 * The newest value of `rsi(closes, period)` (the last close included), bit-identical to
 * rsi(closes, period)[closes.length − 1], computed in one pass with no allocation: what scans over
 * thousands of symbols use (14DayRSI on daily bars, dailyrsi on 5-minute bars). Null when there
 * are not more than `period` closes.
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
  return rsiOf(gain, loss);
}
