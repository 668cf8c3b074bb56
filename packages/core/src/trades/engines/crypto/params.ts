/**
 * The parameter table of `crypto@1.0.0` (docs/rules/crypto.md §3). Frozen per rule version: changing a
 * value changes the ParamHash and needs a new version (§0.4). Counts are UTC daily candles.
 */
export interface CryptoParams {
  /** A coin is shown once it has this many candles (§3.1 Display). */
  displayCandles: number;
  /** Candles before the first replayed session (§7: 200 warm-up candles, so SMA200 is warm). */
  replayWarmupCandles: number;
  rsiPeriod: number;
  atrPeriod: number;
  adxPeriod: number;
  /** OneMonthHigh / SixMonthHigh windows (High over the last N candles, the last one included). */
  oneMonthCandles: number;
  sixMonthCandles: number;
  /** RVOL: the last candle's USD volume / the median of the N candles before it. */
  rvolCandles: number;
  /** VolumeLabel cuts: High ≥ high, Elevated ≥ elevated, Normal ≥ normal, else Low. */
  volumeHigh: number;
  volumeElevated: number;
  volumeNormal: number;
  /** SwingLevel: confirmed fractal swing points within the last N candles. */
  swingCandles: number;
  /** A fractal needs this many candles each side (2: the 5-candle fractal of §0.2). */
  fractalSide: number;
  /** IsSwingLevel: |close − SwingLevel| ≤ this × ATR14. */
  swingNearAtr: number;
  /** Trend: 'No Clear Trend' below this many candles; ADX ≥ trendAdx, 'Strong ' from strongAdx; close vs EMA(trendEma). */
  trendMinCandles: number;
  trendAdx: number;
  strongAdx: number;
  trendEma: number;
  /** Short: close vs EMA(shortEma), the shortReturnCandles-candle return, RSI cuts. */
  shortEma: number;
  shortReturnCandles: number;
  rsiOverbought: number;
  rsiOversold: number;
  /** Medium: close vs SMA(mediumSma), its slope over mediumSlopeCandles, the mediumReturnCandles-candle return. */
  mediumSma: number;
  mediumSlopeCandles: number;
  mediumReturnCandles: number;
  /** Long: close and SMA(mediumSma) vs SMA(longSma). */
  longSma: number;
  /** News (§3.2): headlines of the last newsHours, weight 0.5^(age_h / halfLifeHours), labels. */
  newsHours: number;
  newsHalfLifeHours: number;
  minHeadlines: number;
  sentimentPositive: number;
  sentimentNegative: number;
  /** NEW badge: DateCreated within this many hours. */
  newHours: number;
  /** Scorecard forward returns (§3.4), in days. */
  scorecardDays: number[];
}

export const CRYPTO_PARAMS: CryptoParams = {
  displayCandles: 30,
  replayWarmupCandles: 200,
  rsiPeriod: 14,
  atrPeriod: 14,
  adxPeriod: 14,
  oneMonthCandles: 30,
  sixMonthCandles: 180,
  rvolCandles: 30,
  volumeHigh: 2,
  volumeElevated: 1.3,
  volumeNormal: 0.7,
  swingCandles: 90,
  fractalSide: 2,
  swingNearAtr: 0.5,
  trendMinCandles: 60,
  trendAdx: 25,
  strongAdx: 40,
  trendEma: 50,
  shortEma: 20,
  shortReturnCandles: 7,
  rsiOverbought: 70,
  rsiOversold: 30,
  mediumSma: 50,
  mediumSlopeCandles: 10,
  mediumReturnCandles: 28,
  longSma: 200,
  newsHours: 72,
  newsHalfLifeHours: 24,
  minHeadlines: 3,
  sentimentPositive: 0.2,
  sentimentNegative: -0.2,
  newHours: 24,
  scorecardDays: [7, 30, 90],
};

export const CRYPTO_RULE_VERSION = 'crypto@1.0.0';
