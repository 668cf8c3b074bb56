import { assertPeriod } from './validate';

/** Simple moving average; NaN until `period` values exist. */
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

/** Exponential moving average, k = 2 / (period + 1), seeded with the SMA of the first `period` values (TA-Lib). */
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
