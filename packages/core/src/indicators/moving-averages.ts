import { assertPeriod } from './validate';

/**
 * Simple moving average: out[i] = mean(values[i−period+1 .. i]), the bar at i included, in the
 * units of the input. NaN for i < period − 1 (TA-Lib's lookback is period − 1). Running sum, O(n).
 * Inputs must be finite: a NaN poisons every later value of the running sum.
 */
export function sma(values: ArrayLike<number>, period: number): Float64Array {
  assertPeriod('sma', period);
  const out = new Float64Array(values.length).fill(Number.NaN);
  let sum = 0;
  for (let i = 0; i < values.length; i += 1) {
    sum += values[i]!;
    if (i >= period) sum -= values[i - period]!;
    if (i >= period - 1) out[i] = sum / period;
  }
  return out;
}

/**
 * Exponential moving average as TA-Lib's default: k = 2 / (period + 1); the first value, at index
 * period − 1, is the SMA of the first `period` values; then ema = ema + k·(value − ema). NaN before
 * index period − 1. Units of the input.
 */
export function ema(values: ArrayLike<number>, period: number): Float64Array {
  assertPeriod('ema', period);
  const out = new Float64Array(values.length).fill(Number.NaN);
  if (values.length < period) return out;
  const k = 2 / (period + 1);
  let seed = 0;
  for (let i = 0; i < period; i += 1) seed += values[i]!;
  let value = seed / period;
  out[period - 1] = value;
  for (let i = period; i < values.length; i += 1) {
    value = (values[i]! - value) * k + value;
    out[i] = value;
  }
  return out;
}
