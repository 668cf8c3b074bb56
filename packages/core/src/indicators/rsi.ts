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
  const [gain, loss] = seedSums(closes, period);
  return [gain / period, loss / period];
}

/** The sums of the first `period` gains and losses (changes 1..period), in order. */
function seedSums(closes: ArrayLike<number>, period: number): [number, number] {
  let gain = 0;
  let loss = 0;
  for (let i = 1; i <= period; i += 1) {
    const change = closes[i]! - closes[i - 1]!;
    if (change > 0) gain += change;
    else loss -= change;
  }
  return [gain, loss];
}

/**
 * Relative Strength Index exactly as TA-Lib's ta_RSI.c (classic mode, no unstable period),
 * docs/providers.md §10.1. closes oldest-first; period ≥ 2 (default 14 bars).
 * - change[i] = close[i] − close[i−1]; gain = max(change, 0), loss = max(−change, 0).
 * - Seed: avgGain, avgLoss = plain means of the first `period` gains and losses (changes 1..period).
 * - Then Wilder smoothing: avg = (avg · (period − 1) + today's gain or loss) / period.
 * - out[i] = 100 · avgGain / (avgGain + avgLoss) from index `period` (the period+1-th close) on,
 *   the bar at i included; NaN before. Flat prices give 0 (see rsiOf).
 * Full-length output; for only the newest value use `latestRsi`, which does not allocate. `into`:
 * a buffer of at least closes.length values to write into (and answer) instead of a new array, for
 * scans over thousands of symbols (custom-scans/field-series.ts); only its first closes.length
 * values are written.
 */
export function rsi(closes: ArrayLike<number>, period = 14, into?: Float64Array): Float64Array {
  assertPeriod('rsi', period, 2);
  const n = closes.length;
  if (into && into.length < n) throw new RangeError(`rsi: the buffer holds ${into.length} values, ${n} needed`);
  const out = into ? into.fill(Number.NaN, 0, n) : new Float64Array(n).fill(Number.NaN);
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

/** Wilder's weights ((period − 1) / period)^k, k = 0, 1, …, per period, grown on demand (a memo, not state). */
const wilderWeights = new Map<number, Float64Array>();

function weightsFor(period: number, count: number): Float64Array {
  let weights = wilderWeights.get(period);
  if (!weights || weights.length < count) {
    const decay = (period - 1) / period;
    const grown = new Float64Array(Math.max(count, 2 * (weights?.length ?? 128)));
    grown[0] = 1;
    for (let k = 1; k < grown.length; k += 1) grown[k] = grown[k - 1]! * decay;
    wilderWeights.set(period, grown);
    weights = grown;
  }
  return weights;
}

/**
 * The newest value of `rsi(closes, period)` (the last close included), with no allocation: what
 * scans over thousands of symbols use (14DayRSI on daily bars, dailyrsi on 5-minute bars). Null
 * when there are not more than `period` closes.
 * Wilder's smoothing is linear, so after the seed the newest averages are weighted sums:
 *   avg_N = d^m · seed + (1/period) · Σ d^(N−i) · x_i,   d = (period − 1) / period, m = N − period,
 * summed here without the step-to-step dependency of the recursion (and without branches:
 * gain = (c + |c|) / 2, loss = |c| − gain), which makes it several times faster. Equal to
 * rsi(closes, period)[n − 1] up to rounding (≈1e-13 points), so to TA-Lib well within 1e-9.
 */
export function latestRsi(closes: ArrayLike<number>, period = 14): number | null {
  assertPeriod('latestRsi', period, 2);
  const n = closes.length;
  if (n <= period) return null;
  // The seed inline (no [gain, loss] pair per call), each close read once, and without a branch on
  // the sign of each change (a coin flip on real prices): gain = (c + |c|) · 0.5 is c or +0 and
  // loss = |c| − gain is −c or +0, the very terms seedAverages adds (adding +0 changes no sum).
  // Exact unless a change is not finite or near overflow (c + |c| = ∞); any such change leaves a
  // sum that is not finite, and the seed is then summed again seedAverages' way.
  let seedGain = 0;
  let seedLoss = 0;
  for (let i = 1; i <= period; i += 1) {
    const change = closes[i]! - closes[i - 1]!;
    const size = Math.abs(change);
    const gain = (change + size) * 0.5;
    seedGain += gain;
    seedLoss += size - gain;
  }
  if (!Number.isFinite(seedGain + seedLoss)) [seedGain, seedLoss] = seedSums(closes, period);
  seedGain /= period;
  seedLoss /= period;
  let previous = closes[period]!;
  const steps = n - 1 - period;
  const weights = weightsFor(period, steps + 1);
  let doubledGains = 0;
  let moves = 0;
  for (let i = period + 1; i < n; i += 1) {
    const close = closes[i]!;
    const change = close - previous;
    previous = close;
    const size = Math.abs(change);
    const weight = weights[n - 1 - i]!;
    doubledGains += weight * (change + size);
    moves += weight * size;
  }
  const gains = doubledGains / 2;
  const decay = weights[steps]!;
  return rsiOf(decay * seedGain + gains / period, decay * seedLoss + (moves - gains) / period);
}
