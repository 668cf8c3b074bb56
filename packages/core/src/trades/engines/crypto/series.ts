import { directionalMovement } from '../../../indicators/adx';
import { atr } from '../../../indicators/atr';
import { ema, sma } from '../../../indicators/moving-averages';
import { rsi } from '../../../indicators/rsi';
import type { DailySeries } from '../../types';
import type { CryptoParams } from './params';

/**
 * A coin's causal indicator series and signal labels, computed once per candle buffer (as
 * kit/series indicatorsOf does for stocks: the runner hands one zero-copy view per session, so
 * recomputing over each view would be O(n²) per coin over a replay). Every value at index t reads
 * candles ≤ t only, so the numbers are the same, bit for bit, as a computation over the view that
 * ends at t (the truncation tests check it). The one exception is the fractal flags, which read
 * `fractalSide` candles after i: they are read only at i ≤ t − fractalSide ("confirmed").
 */
export interface CryptoIndicators {
  rsi: Float64Array;
  atr: Float64Array;
  adx: Float64Array;
  plusDi: Float64Array;
  minusDi: Float64Array;
  /** EMA(trendEma) (Trend) and EMA(shortEma) (Short signal). */
  trendEma: Float64Array;
  shortEma: Float64Array;
  /** SMA(mediumSma) and SMA(longSma). */
  mediumSma: Float64Array;
  longSma: Float64Array;
  /** 1 where candle i is a fractal swing low / high (Low strictly below the `fractalSide` candles each side). */
  swingLow: Uint8Array;
  swingHigh: Uint8Array;
  /** The last index ≤ i whose High/Low is not a usable range (not finite, ≤ 0, or High < Low); −1 when none. */
  lastBadRange: Int32Array;
  /** Raw and displayed labels per horizon: 1 Buy, −1 Sell, 0 Hold (docs/rules/crypto.md §3.3). */
  raw: Record<CryptoHorizon, Int8Array>;
  label: Record<CryptoHorizon, Int8Array>;
}

export type CryptoHorizon = 'Short' | 'Medium' | 'Long';
export const CRYPTO_HORIZONS: readonly CryptoHorizon[] = ['Short', 'Medium', 'Long'];
export type CryptoLabel = 'Buy' | 'Sell' | 'Hold';
export const CRYPTO_LABELS: readonly CryptoLabel[] = ['Buy', 'Sell', 'Hold'];

export function labelOf(code: number): CryptoLabel {
  return code > 0 ? 'Buy' : code < 0 ? 'Sell' : 'Hold';
}

const cache = new WeakMap<ArrayBufferLike, Map<number, { params: CryptoParams; indicators: CryptoIndicators }>>();

/** The view extended to the end of its buffer: the same start, every candle the buffer holds after it. */
function extended(values: Float64Array): Float64Array {
  return new Float64Array(values.buffer, values.byteOffset, (values.buffer.byteLength - values.byteOffset) / 8);
}

/** The coin's indicator series (valid at every index of the view; see CryptoIndicators). */
export function cryptoIndicatorsOf(series: DailySeries, params: CryptoParams): CryptoIndicators {
  const offset = series.close.byteOffset;
  let byOffset = cache.get(series.close.buffer);
  const hit = byOffset?.get(offset);
  if (hit && hit.params === params && hit.indicators.rsi.length >= series.close.length) return hit.indicators;
  const close = extended(series.close);
  const high = extended(series.high);
  const low = extended(series.low);
  const length = Math.min(close.length, high.length, low.length);
  const indicators = computeIndicators(close.subarray(0, length), high.subarray(0, length), low.subarray(0, length), params);
  if (!byOffset) {
    byOffset = new Map();
    cache.set(series.close.buffer, byOffset);
  }
  byOffset.set(offset, { params, indicators });
  return indicators;
}

function computeIndicators(close: Float64Array, high: Float64Array, low: Float64Array, params: CryptoParams): CryptoIndicators {
  const n = close.length;
  const dm = directionalMovement(high, low, close, params.adxPeriod);
  const lastBadRange = new Int32Array(n);
  let bad = -1;
  for (let i = 0; i < n; i += 1) {
    const h = high[i]!;
    const l = low[i]!;
    if (!(Number.isFinite(h) && Number.isFinite(l) && l > 0 && h >= l)) bad = i;
    lastBadRange[i] = bad;
  }
  const base = {
    rsi: rsi(close, params.rsiPeriod),
    atr: atr(high, low, close, params.atrPeriod),
    adx: dm.adx,
    plusDi: dm.plusDi,
    minusDi: dm.minusDi,
    trendEma: ema(close, params.trendEma),
    shortEma: ema(close, params.shortEma),
    mediumSma: sma(close, params.mediumSma),
    longSma: sma(close, params.longSma),
    swingLow: fractals(low, -1, params.fractalSide),
    swingHigh: fractals(high, 1, params.fractalSide),
    lastBadRange,
  };
  const raw = {
    Short: new Int8Array(n),
    Medium: new Int8Array(n),
    Long: new Int8Array(n),
  };
  for (let t = 0; t < n; t += 1) {
    raw.Short[t] = rawShort(params, close, base.shortEma, base.rsi, t);
    raw.Medium[t] = rawMedium(params, close, base.mediumSma, t);
    raw.Long[t] = rawLong(close, base.mediumSma, base.longSma, t);
  }
  return { ...base, raw, label: { Short: hysteresis(raw.Short), Medium: hysteresis(raw.Medium), Long: hysteresis(raw.Long) } };
}

/** Fractals: sign −1 marks values strictly below the `side` values either side, +1 strictly above. */
export function fractals(values: Float64Array, sign: 1 | -1, side: number): Uint8Array {
  const out = new Uint8Array(values.length);
  for (let i = side; i + side < values.length; i += 1) {
    const v = values[i]! * sign;
    let extreme = Number.isFinite(v);
    for (let k = 1; k <= side && extreme; k += 1) extreme = v > values[i - k]! * sign && v > values[i + k]! * sign;
    if (extreme) out[i] = 1;
  }
  return out;
}

/** The return over `candles` candles ending at t; NaN when t − candles < 0. */
function returnOver(close: ArrayLike<number>, t: number, candles: number): number {
  return t - candles < 0 ? Number.NaN : close[t]! / close[t - candles]! - 1;
}

/**
 * Short (§3.3): Buy when close > EMA20, the 7-candle return > 0 and RSI14 < 70; Sell when close <
 * EMA20, the return < 0 and RSI14 > 30; else Hold (also when an input is missing: NaN compares false).
 */
export function rawShort(params: CryptoParams, close: ArrayLike<number>, shortEma: ArrayLike<number>, rsi14: ArrayLike<number>, t: number): number {
  const c = close[t]!;
  const e = shortEma[t]!;
  const r = returnOver(close, t, params.shortReturnCandles);
  const strength = rsi14[t]!;
  if (c > e && r > 0 && strength < params.rsiOverbought) return 1;
  if (c < e && r < 0 && strength > params.rsiOversold) return -1;
  return 0;
}

/** Medium: close > SMA50, SMA50 > SMA50(t−10), the 28-candle return > 0 (Buy); the mirror (Sell); else Hold. */
export function rawMedium(params: CryptoParams, close: ArrayLike<number>, mediumSma: ArrayLike<number>, t: number): number {
  const c = close[t]!;
  const m = mediumSma[t]!;
  const before = t - params.mediumSlopeCandles < 0 ? Number.NaN : mediumSma[t - params.mediumSlopeCandles]!;
  const r = returnOver(close, t, params.mediumReturnCandles);
  if (c > m && m > before && r > 0) return 1;
  if (c < m && m < before && r < 0) return -1;
  return 0;
}

/** Long: close > SMA200 and SMA50 > SMA200 (Buy); close < SMA200 and SMA50 < SMA200 (Sell); else Hold. */
export function rawLong(close: ArrayLike<number>, mediumSma: ArrayLike<number>, longSma: ArrayLike<number>, t: number): number {
  const c = close[t]!;
  const m = mediumSma[t]!;
  const l = longSma[t]!;
  if (c > l && m > l) return 1;
  if (c < l && m < l) return -1;
  return 0;
}

/**
 * The displayed labels (§3.3 two-close hysteresis): L(t) = raw(t) if raw(t) = raw(t − 1), else
 * L(t − 1), starting at Hold (L(0) = Hold: candle 0 has no previous raw). Every change, a return
 * to Hold included, needs the same raw label on two consecutive closes.
 */
export function hysteresis(raw: ArrayLike<number>): Int8Array {
  const out = new Int8Array(raw.length);
  let label = 0;
  for (let t = 1; t < raw.length; t += 1) {
    if (raw[t] === raw[t - 1]) label = raw[t]!;
    out[t] = label;
  }
  return out;
}
