import { isoFromDayNumber } from '../../../market/trading-calendar';
import type { DailySeries } from '../../types';
import type { CryptoExtras } from './extras';
import { NO_CRYPTO_NEWS, cryptoNewsSentiment, type CryptoSentiment } from './news';
import type { CryptoParams } from './params';
import { CRYPTO_HORIZONS, cryptoIndicatorsOf, labelOf, type CryptoHorizon, type CryptoLabel } from './series';

/**
 * A coin's fields on its last completed candle t (docs/rules/crypto.md §3.1), unrounded: what the
 * `opened` and `updated` events carry and the row folds (rounded there to the spec §9 formats).
 *
 * Definitions beyond the table:
 * - **Confirmed swing point**: a 5-candle fractal (§0.2): candle i is a swing low when its Low is
 *   strictly below the Lows of the 2 candles before and the 2 after it (a swing high: the High
 *   strictly above); it is confirmed, and usable, from candle i + 2 on. SwingLevel looks at fractals
 *   i in t − 89 .. t − 2 (within the last 90 candles), takes the latest swing low and the latest
 *   swing high, and keeps whichever is nearer the close (the low on a tie); null when neither exists.
 * - **RVOL** needs 31 candles (the last one and the 30 before it); the median of 30 values is the
 *   mean of the 15th and 16th smallest. USD volume is the candle's volume, or volume × close when
 *   the source gives coin volume (extras.cryptoVolumeUnit = 'base').
 * - **Returns over N candles**: close(t) / close(t − N) − 1 (a candle is a UTC day).
 *
 * Where a field cannot be computed it shows its default and `unavailable` says why:
 * - `warm_up`: too few candles (6M high below 180, RVOL below 31, Trend below 60);
 * - `close_only`: the source gives no High/Low for the coin (extras.cryptoCloseOnly), or a candle
 *   the field reads has no usable range (not finite, ≤ 0, or High < Low). ATR and ADX are Wilder
 *   averages over the whole history, so one bad candle leaves them (and Trend, IsSwingLevel)
 *   unavailable from then on; the highs and SwingLevel need only their own windows;
 * - `no_volume`: a volume the field reads is missing, not finite or negative, or the median is 0;
 * - `no_swing_point`: no confirmed swing point within the last 90 candles.
 */

export type CryptoTrend = 'Uptrend' | 'Strong Uptrend' | 'Downtrend' | 'Strong Downtrend' | 'No Clear Trend';
export type VolumeLabel = 'High' | 'Elevated' | 'Normal' | 'Low';
export type UnavailableCode = 'warm_up' | 'close_only' | 'no_volume' | 'no_swing_point';

/** A field shown at its default, and why. */
export interface CryptoUnavailable {
  /** The row field ('SixMonthHigh', 'ATR_14_Day', …). */
  field: string;
  code: UnavailableCode;
  reason: string;
}

/** The fields of a coin on candle t, unrounded. */
export type CryptoSnapshot = {
  /** Candles through t (t + 1). */
  candles: number;
  /** YYYY-MM-DD of candle t. */
  candleDate: string;
  close: number;
  rsi: number | null;
  atr: number | null;
  oneMonthHigh: number | null;
  sixMonthHigh: number | null;
  /** RVOL (VolumeLevel) and its label. */
  volumeLevel: number | null;
  volumeLabel: VolumeLabel | null;
  swingLevel: number | null;
  swingKind: 'low' | 'high' | null;
  isSwingLevel: '1' | '0';
  trend: CryptoTrend;
  adx: number | null;
  plusDi: number | null;
  minusDi: number | null;
  /** The displayed labels on candle t (§3.3). */
  signals: Record<CryptoHorizon, CryptoLabel>;
  sentiment: CryptoSentiment;
  newsScore: number | null;
  headlines: number;
  /** The analyst that scored the headlines, null without headlines. */
  sentimentSource: string | null;
  news: string;
  unavailable: CryptoUnavailable[];
};

const finiteOrNull = (value: number): number | null => (Number.isFinite(value) ? value : null);

/** The median of values[from .. to − 1] (a copy is sorted). */
function medianOf(values: ArrayLike<number>, from: number, to: number): number {
  const window = new Float64Array(to - from);
  for (let i = from; i < to; i += 1) window[i - from] = values[i]!;
  window.sort();
  const mid = window.length >> 1;
  return window.length % 2 === 1 ? window[mid]! : (window[mid - 1]! + window[mid]!) / 2;
}

export function volumeLabelOf(rvol: number, params: Pick<CryptoParams, 'volumeHigh' | 'volumeElevated' | 'volumeNormal'>): VolumeLabel {
  if (rvol >= params.volumeHigh) return 'High';
  if (rvol >= params.volumeElevated) return 'Elevated';
  if (rvol >= params.volumeNormal) return 'Normal';
  return 'Low';
}

/** Trend (§3.1) from ADX, ±DI, the close and EMA50 on one candle. */
export function trendOf(adx: number, plusDi: number, minusDi: number, close: number, ema: number, params: Pick<CryptoParams, 'trendAdx' | 'strongAdx'>): CryptoTrend {
  if (!(adx >= params.trendAdx)) return 'No Clear Trend';
  const strong = adx >= params.strongAdx ? 'Strong ' : '';
  if (plusDi > minusDi && close > ema) return `${strong}Uptrend` as CryptoTrend;
  if (minusDi > plusDi && close < ema) return `${strong}Downtrend` as CryptoTrend;
  return 'No Clear Trend';
}

/** The coin's fields on the last candle of `series` at the pass `nowMs` (see the header). */
export function cryptoFieldsAt(params: CryptoParams, series: DailySeries, extras: CryptoExtras, nowMs: number): CryptoSnapshot {
  const t = series.close.length - 1;
  const candles = t + 1;
  const ind = cryptoIndicatorsOf(series, params);
  const close = series.close[t]!;
  const unavailable: CryptoUnavailable[] = [];
  const missing = (field: string, code: UnavailableCode, reason: string) => unavailable.push({ field, code, reason });
  const closeOnly = extras.cryptoCloseOnly?.has(series.symbol) === true;
  /** Do candles from .. t all have a usable High/Low? */
  const rangeFrom = (from: number) => !closeOnly && ind.lastBadRange[t]! < from;
  const noRange = closeOnly ? 'the source gives only closes for this coin (no High/Low)' : 'a candle it reads has no usable High/Low';

  const rsi = finiteOrNull(ind.rsi[t]!);

  let atr: number | null = null;
  if (!rangeFrom(0)) missing('ATR_14_Day', 'close_only', noRange);
  else atr = finiteOrNull(ind.atr[t]!);

  const highOver = (n: number): number => {
    let best = -Infinity;
    for (let i = t - n + 1; i <= t; i += 1) if (series.high[i]! > best) best = series.high[i]!;
    return best;
  };
  let oneMonthHigh: number | null = null;
  const oneMonthFrom = Math.max(0, t - params.oneMonthCandles + 1);
  if (candles < params.oneMonthCandles) missing('OneMonthHigh', 'warm_up', `needs ${params.oneMonthCandles} candles, has ${candles}`);
  else if (!rangeFrom(oneMonthFrom)) missing('OneMonthHigh', 'close_only', noRange);
  else oneMonthHigh = highOver(params.oneMonthCandles);
  let sixMonthHigh: number | null = null;
  if (candles < params.sixMonthCandles) missing('SixMonthHigh', 'warm_up', `needs ${params.sixMonthCandles} candles, has ${candles}`);
  else if (!rangeFrom(t - params.sixMonthCandles + 1)) missing('SixMonthHigh', 'close_only', noRange);
  else sixMonthHigh = highOver(params.sixMonthCandles);

  let volumeLevel: number | null = null;
  if (candles < params.rvolCandles + 1) missing('VolumeLevel', 'warm_up', `needs ${params.rvolCandles + 1} candles, has ${candles}`);
  else {
    const base = extras.cryptoVolumeUnit === 'base';
    const usd = (i: number) => (base ? series.volume[i]! * series.close[i]! : series.volume[i]!);
    const window = new Float64Array(params.rvolCandles + 1);
    let valid = true;
    for (let i = t - params.rvolCandles; i <= t; i += 1) {
      const v = usd(i);
      if (!(Number.isFinite(v) && v >= 0)) valid = false;
      window[i - (t - params.rvolCandles)] = v;
    }
    const median = valid ? medianOf(window, 0, params.rvolCandles) : Number.NaN;
    if (!valid || !(median > 0)) missing('VolumeLevel', 'no_volume', valid ? 'the median volume of the 30 candles before is 0' : 'a candle it reads has no volume');
    else volumeLevel = window[params.rvolCandles]! / median;
  }

  let swingLevel: number | null = null;
  let swingKind: 'low' | 'high' | null = null;
  const swingFrom = Math.max(params.fractalSide, t - params.swingCandles + 1);
  if (!rangeFrom(Math.max(0, t - params.swingCandles + 1 - params.fractalSide))) missing('SwingLevel', 'close_only', noRange);
  else {
    let low: number | null = null;
    let high: number | null = null;
    for (let i = t - params.fractalSide; i >= swingFrom && (low === null || high === null); i -= 1) {
      if (low === null && ind.swingLow[i] === 1) low = series.low[i]!;
      if (high === null && ind.swingHigh[i] === 1) high = series.high[i]!;
    }
    if (low !== null && (high === null || Math.abs(close - low) <= Math.abs(close - high))) {
      swingLevel = low;
      swingKind = 'low';
    } else if (high !== null) {
      swingLevel = high;
      swingKind = 'high';
    } else missing('SwingLevel', 'no_swing_point', `no confirmed swing point within the last ${params.swingCandles} candles`);
  }
  const isSwingLevel = swingLevel !== null && atr !== null && Math.abs(close - swingLevel) <= params.swingNearAtr * atr ? '1' : '0';

  let trend: CryptoTrend = 'No Clear Trend';
  const adx = rangeFrom(0) ? finiteOrNull(ind.adx[t]!) : null;
  const plusDi = rangeFrom(0) ? finiteOrNull(ind.plusDi[t]!) : null;
  const minusDi = rangeFrom(0) ? finiteOrNull(ind.minusDi[t]!) : null;
  if (candles < params.trendMinCandles) missing('Trend', 'warm_up', `needs ${params.trendMinCandles} candles, has ${candles}`);
  else if (!rangeFrom(0)) missing('Trend', 'close_only', noRange);
  else if (adx !== null && plusDi !== null && minusDi !== null) trend = trendOf(adx, plusDi, minusDi, close, ind.trendEma[t]!, params);

  const signals = {} as Record<CryptoHorizon, CryptoLabel>;
  for (const horizon of CRYPTO_HORIZONS) signals[horizon] = labelOf(ind.label[horizon][t]!);

  const news = cryptoNewsSentiment(extras.cryptoNews?.get(series.symbol), nowMs, params);
  const summary = extras.cryptoNewsSummaries?.get(series.symbol)?.trim();
  return {
    candles,
    candleDate: isoFromDayNumber(series.day[t]!),
    close,
    rsi,
    atr,
    oneMonthHigh,
    sixMonthHigh,
    volumeLevel,
    volumeLabel: volumeLevel === null ? null : volumeLabelOf(volumeLevel, params),
    swingLevel,
    swingKind,
    isSwingLevel,
    trend,
    adx,
    plusDi,
    minusDi,
    signals,
    sentiment: news.sentiment,
    newsScore: news.score,
    headlines: news.headlines,
    sentimentSource: news.headlines > 0 ? (extras.cryptoSentimentSource ?? null) : null,
    news: summary ? summary : NO_CRYPTO_NEWS,
    unavailable,
  };
}
