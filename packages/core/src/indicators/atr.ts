import { assertPeriod, assertSameLength } from './validate';

/**
 * Average True Range as TA-Lib computes it (Wilder): TR[i] = max(H−L, |C[i−1]−H|, |C[i−1]−L|) for
 * i ≥ 1 (bar 0 has no TR); ATR[period] = mean(TR[1..period]); then ATR = (ATR·(period−1) + TR) / period.
 * NaN before index `period`. (StockCharts seeds with TR[0] = H−L one bar earlier; we follow TA-Lib.)
 */
export function atr(high: ArrayLike<number>, low: ArrayLike<number>, close: ArrayLike<number>, period = 14): Float64Array {
  assertPeriod('atr', period);
  assertSameLength('atr', high, low, close);
  const n = close.length;
  const out = new Float64Array(n).fill(Number.NaN);
  if (n <= period) return out;
  const trueRange = (i: number) =>
    Math.max(high[i]! - low[i]!, Math.abs(close[i - 1]! - high[i]!), Math.abs(close[i - 1]! - low[i]!));
  let value = 0;
  for (let i = 1; i <= period; i += 1) value += trueRange(i);
  value /= period;
  out[period] = value;
  for (let i = period + 1; i < n; i += 1) {
    value = (value * (period - 1) + trueRange(i)) / period;
    out[i] = value;
  }
  return out;
}
