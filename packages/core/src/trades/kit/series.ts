import { atr } from '../../indicators/atr';
import { sma } from '../../indicators/moving-averages';
import { rsi } from '../../indicators/rsi';
import type { DailySeries } from '../types';

/**
 * Causal indicator series of a symbol's bars, computed once per underlying buffer.
 *
 * The runner hands engines zero-copy `subarray` views that end at the session decided, one view
 * per session. Recomputing SMA200, ATR14, RSI2 over each view would be O(n²) per symbol across a
 * replay. Every series here is causal (the value at t reads bars ≤ t only, with the same
 * floating-point operations whatever comes after), so it is computed once over the whole buffer
 * behind the view and read at indexes ≤ the view's last bar: the same numbers as a computation over
 * the view itself, bit for bit (the truncation tests check it). Buffers must not be written after
 * they are handed to an engine.
 *
 * `swingLow[i]` / `swingHigh[i]` (5-bar fractals) read bars i+1 and i+2: engines read them only
 * at i ≤ t − 2, where those bars exist in the view (a swing point is usable from bar i + 2 on).
 */
export interface SeriesIndicators {
  sma20: Float64Array;
  sma50: Float64Array;
  sma150: Float64Array;
  sma200: Float64Array;
  atr14: Float64Array;
  rsi2: Float64Array;
  /** 1 where bar i is a 5-bar fractal swing low (read only at i ≤ t − 2). */
  swingLow: Uint8Array;
  swingHigh: Uint8Array;
}

const cache = new WeakMap<ArrayBufferLike, Map<number, SeriesIndicators>>();

/** The view extended to the end of its buffer: the same start, every bar the buffer holds after it. */
function extended(values: Float64Array): Float64Array {
  return new Float64Array(values.buffer, values.byteOffset, (values.buffer.byteLength - values.byteOffset) / 8);
}

/** The indicator series of `series`, valid at every index of the view (see SeriesIndicators). */
export function indicatorsOf(series: DailySeries): SeriesIndicators {
  let byOffset = cache.get(series.close.buffer);
  const offset = series.close.byteOffset;
  const hit = byOffset?.get(offset);
  // A cached entry covers the whole buffer; a view can only be shorter.
  if (hit && hit.sma20.length >= series.close.length) return hit;
  const close = extended(series.close);
  const high = extended(series.high);
  const low = extended(series.low);
  const length = Math.min(close.length, high.length, low.length);
  const c = close.subarray(0, length);
  const h = high.subarray(0, length);
  const l = low.subarray(0, length);
  const computed: SeriesIndicators = {
    sma20: sma(c, 20),
    sma50: sma(c, 50),
    sma150: sma(c, 150),
    sma200: sma(c, 200),
    atr14: atr(h, l, c, 14),
    rsi2: rsi(c, 2),
    swingLow: fractals(l, -1),
    swingHigh: fractals(h, 1),
  };
  if (!byOffset) {
    byOffset = new Map();
    cache.set(series.close.buffer, byOffset);
  }
  byOffset.set(offset, computed);
  return computed;
}

/** 5-bar fractals: sign −1 marks lows strictly below the two bars either side, +1 highs strictly above. */
function fractals(values: Float64Array, sign: 1 | -1): Uint8Array {
  const out = new Uint8Array(values.length);
  for (let i = 2; i + 2 < values.length; i += 1) {
    const v = values[i]! * sign;
    if (v > values[i - 1]! * sign && v > values[i - 2]! * sign && v > values[i + 1]! * sign && v > values[i + 2]! * sign) out[i] = 1;
  }
  return out;
}

/** Index of the last bar of the view (the bar the session decides). */
export function lastIndex(series: DailySeries): number {
  return series.close.length - 1;
}

/** The highest of values[t−n+1 .. t] (an N-session high, bar t included); NaN when the window is short. */
export function highestOver(values: ArrayLike<number>, t: number, n: number): number {
  if (t - n + 1 < 0) return Number.NaN;
  let best = -Infinity;
  for (let i = t - n + 1; i <= t; i += 1) if (values[i]! > best) best = values[i]!;
  return best;
}

/** The lowest of values[t−n+1 .. t]; NaN when the window is short. */
export function lowestOver(values: ArrayLike<number>, t: number, n: number): number {
  if (t - n + 1 < 0) return Number.NaN;
  let best = Infinity;
  for (let i = t - n + 1; i <= t; i += 1) if (values[i]! < best) best = values[i]!;
  return best;
}

/** The highest of values[t−n .. t−1] ("prior N", bar t excluded); NaN when the window is short. */
export function highestPrior(values: ArrayLike<number>, t: number, n: number): number {
  return t < 1 ? Number.NaN : highestOver(values, t - 1, n);
}

/** The mean of values[t−n .. t−1]: an average of the N sessions before t (docs/rules/conventions.md §0.2). */
export function averageBefore(values: ArrayLike<number>, t: number, n: number): number {
  if (t - n < 0) return Number.NaN;
  let sum = 0;
  for (let i = t - n; i < t; i += 1) sum += values[i]!;
  return sum / n;
}

/** The mean of close × volume over the N sessions before t (dollar volume). */
export function averageDollarVolumeBefore(series: DailySeries, t: number, n: number): number {
  if (t - n < 0) return Number.NaN;
  let sum = 0;
  for (let i = t - n; i < t; i += 1) sum += series.close[i]! * series.volume[i]!;
  return sum / n;
}

/**
 * The highest confirmed swing low of the last `sessions` bars (t−sessions+1 .. t) that is ≤ `ceiling`,
 * or null. Confirmed: the fractal at i is known from bar i + 2, so only i ≤ t − 2 counts.
 */
export function highestSwingLowAtMost(series: DailySeries, indicators: SeriesIndicators, t: number, sessions: number, ceiling: number): number | null {
  let best: number | null = null;
  for (let i = Math.max(2, t - sessions + 1); i <= t - 2; i += 1) {
    if (indicators.swingLow[i] !== 1) continue;
    const level = series.low[i]!;
    if (level <= ceiling && (best === null || level > best)) best = level;
  }
  return best;
}

/** Index of the last bar dated on or before `day` (a day number), −1 when none. Binary search. */
export function indexOnOrBefore(days: Int32Array, day: number): number {
  let lo = 0;
  let hi = days.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (days[mid]! <= day) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/** A view of the series ending at bar `end` (inclusive): zero-copy, as the runner passes them. */
export function viewThrough(series: DailySeries, end: number): DailySeries {
  const stop = end + 1;
  return {
    symbol: series.symbol,
    market: series.market,
    day: series.day.subarray(0, stop),
    open: series.open.subarray(0, stop),
    high: series.high.subarray(0, stop),
    low: series.low.subarray(0, stop),
    close: series.close.subarray(0, stop),
    volume: series.volume.subarray(0, stop),
  };
}
