import { assertPeriod, assertSameLength } from './validate';

/**
 * Average True Range exactly as TA-Lib's ta_ATR.c (docs/providers.md §10.2), in price units.
 * - TR[i] = max(H[i] − L[i], |C[i−1] − H[i]|, |C[i−1] − L[i]|) for i ≥ 1; bar 0 has no TR.
 * - ATR[period] = mean(TR[1..period]): the first value is at index `period`, NaN before.
 * - Then Wilder smoothing: ATR[i] = (ATR[i−1] · (period − 1) + TR[i]) / period, the bar at i included.
 * The StockCharts spreadsheet instead sets TR[0] = H[0] − L[0] and starts one bar earlier
 * (index period − 1); the two differ by a few hundredths for a while (§10.4). We follow TA-Lib,
 * which technicalindicators' ATR also does. period ≥ 1 (default 14 bars).
 */
export function atr(high: ArrayLike<number>, low: ArrayLike<number>, close: ArrayLike<number>, period = 14): Float64Array {
  assertPeriod('atr', period);
  assertSameLength('atr', high, low, close);
  const n = close.length;
  const out = new Float64Array(n).fill(Number.NaN);
  if (n <= period) return out;
  let value = 0;
  for (let i = 1; i <= period; i += 1) value += trueRange(high, low, close, i);
  value /= period;
  out[period] = value;
  for (let i = period + 1; i < n; i += 1) {
    value = (value * (period - 1) + trueRange(high, low, close, i)) / period;
    out[i] = value;
  }
  return out;
}

/** True range of bar i ≥ 1: its high–low range stretched to the previous close. */
function trueRange(high: ArrayLike<number>, low: ArrayLike<number>, close: ArrayLike<number>, i: number): number {
  const previous = close[i - 1]!;
  const h = high[i]!;
  const l = low[i]!;
  return Math.max(h - l, Math.abs(previous - h), Math.abs(previous - l));
}
