import { z } from 'zod';
import { singleLineText } from '../validation/text';
import { ideaStamps, origin, rateWithInterval } from './trades';

/**
 * The Crypto Scanner (`GET api/all_crypto_scanner`, issue 13): one row per coin, the fold of the
 * coin's events (docs/rules/crypto.md §3, trades/engines/crypto). Spec §3 "Crypto trade" first, then the fields
 * docs/rules/crypto.md §3.1 adds, then the stamps every idea row carries. Numbers are rounded to the spec
 * §9 formats (trades/engines/crypto/format.ts CRYPTO_DECIMALS: price 8, RSI 2, ATR 4, drop % 2, volume 2,
 * highs 8, swing 4); null where the field has no value (the screen and CSV show the default,
 * formatCryptoRow). `Unavailable` says why a field shows its default.
 */

const isoInstant = z.string();
const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date, YYYY-MM-DD');

export const cryptoSignal = z.enum(['Buy', 'Sell', 'Hold']);
export type CryptoSignal = z.infer<typeof cryptoSignal>;
export const cryptoHorizon = z.enum(['Short', 'Medium', 'Long']);
export const cryptoTrendLabel = z.enum(['Uptrend', 'Strong Uptrend', 'Downtrend', 'Strong Downtrend', 'No Clear Trend']);
export const cryptoSentiment = z.enum(['Positive', 'Negative', 'Neutral', 'Insufficient']);
export const cryptoVolumeLabel = z.enum(['High', 'Elevated', 'Normal', 'Low']);

/** A field shown at its default, and why (warm-up, close-only candles, no volume, no swing point). */
export const cryptoUnavailable = z.object({
  field: z.string(),
  code: z.enum(['warm_up', 'close_only', 'no_volume', 'no_swing_point']),
  reason: z.string(),
});

export const cryptoTrade = z.object({
  Symbol: z.string(),
  /** The last price: the intraday mark, else the last candle's close (8 decimals). */
  CurrentPrice: z.number(),
  /** RSI(14), Wilder (2 decimals). */
  RSIValue: z.number().nullable(),
  /** ATR(14), Wilder (4 decimals); null without High/Low. */
  ATR_14_Day: z.number().nullable(),
  /** max(0, (OneMonthHigh − CurrentPrice) / OneMonthHigh × 100), 2 decimals; null when the high is. */
  DropPercentage: z.number().nullable(),
  /** The same from SixMonthHigh. */
  DropPercentage60: z.number().nullable(),
  /** RVOL: the last candle's USD volume / the median of the 30 before it (2 decimals). */
  VolumeLevel: z.number().nullable(),
  /** max High over the last 30 / 180 candles (8 decimals); SixMonthHigh null ('N/A') below 180 candles. */
  OneMonthHigh: z.number().nullable(),
  SixMonthHigh: z.number().nullable(),
  /** The latest confirmed swing low or high within 90 candles nearer the close (4 decimals). */
  SwingLevel: z.number().nullable(),
  /** '1' when |close − SwingLevel| ≤ 0.5 × ATR14 (the 'Near Level' badge). */
  IsSwingLevel: z.enum(['1', '0']),
  Trend: cryptoTrendLabel,
  NewsSentiment: cryptoSentiment,
  ShortTermSignal: cryptoSignal,
  MediumTermSignal: cryptoSignal,
  LongTermSignal: cryptoSignal,
  /** The analyst's summary of the last 72 h, or 'No recent news summary available.' */
  News: z.string(),
  /** The pass at which any of the three signals last changed (the row's opening pass until one does). */
  DateCreated: isoInstant,
  /** The last write: the latest pass, or the intraday mark when later. */
  DateUpdated: isoInstant,
  // Added by docs/rules/crypto.md §3.1 and this engine.
  VolumeLabel: cryptoVolumeLabel.nullable(),
  /** DateCreated within 24 hours (the NEW badge): a signal changed in the last 24 h. */
  IsNew: z.boolean(),
  SwingKind: z.enum(['low', 'high']).nullable(),
  /** ADX(14), +DI, −DI behind Trend (2 decimals). */
  ADX: z.number().nullable(),
  PlusDI: z.number().nullable(),
  MinusDI: z.number().nullable(),
  /** The age-weighted headline score (docs/rules/crypto.md §3.2) and the headlines it counts. */
  NewsScore: z.number().nullable(),
  HeadlineCount: z.number().int().nonnegative(),
  /** Which analyst scored the headlines; null without headlines. */
  SentimentSource: z.string().nullable(),
  /** Candles through the last one, its date and its close. */
  Candles: z.number().int().positive(),
  CandleDate: isoDate,
  LastClose: z.number(),
  /** The candle of the last signal change (the first shown candle until one changes). */
  SignalChangedOn: isoDate,
  Unavailable: z.array(cryptoUnavailable),
  /** False once the coin left the universe. */
  IsActive: z.boolean(),
  ...ideaStamps,
});
export type CryptoTrade = z.infer<typeof cryptoTrade>;
/** GET api/all_crypto_scanner: one row per coin, by Symbol (code point). */
export const cryptoTradesResponse = z.array(cryptoTrade);

/**
 * GET api/all_crypto_scanner's optional filters (none: every coin): `symbol` a case-insensitive
 * contains; `signal` the coins showing that label on `horizon` (on any of the three without it;
 * `horizon` alone is refused).
 */
export const cryptoScannerQuery = z
  .object({
    symbol: singleLineText('symbol', { max: 20, examples: ['BT'] }).optional(),
    signal: z.enum(['Buy', 'Sell', 'Hold'], { message: 'signal must be Buy, Sell or Hold' }).optional(),
    horizon: z.enum(['Short', 'Medium', 'Long'], { message: 'horizon must be Short, Medium or Long' }).optional(),
  })
  .strict();

/** GET api/crypto_scorecard?from&to&symbol: signals dated in [from, to] (YYYY-MM-DD, UTC days), coins whose symbol contains `symbol`. */
export const cryptoScorecardQuery = z
  .object({
    from: singleLineText('from', { max: 10, examples: ['2026-01-01'] })
      .regex(/^\d{4}-\d{2}-\d{2}$/, 'from must be a date (YYYY-MM-DD)')
      .optional(),
    to: singleLineText('to', { max: 10, examples: ['2026-11-19'] })
      .regex(/^\d{4}-\d{2}-\d{2}$/, 'to must be a date (YYYY-MM-DD)')
      .optional(),
    symbol: singleLineText('symbol', { max: 20, examples: ['BTC'] }).optional(),
  })
  .strict();

/** The BTC benchmark over the same windows as a scorecard cell's signals. */
export const cryptoScorecardBenchmark = z.object({
  symbol: z.string(),
  /** Signals whose window the benchmark covers (both closes known). */
  n: z.number().int().nonnegative(),
  /** Mean raw k-day return of the benchmark over those windows (fraction). */
  meanReturn: z.number().nullable(),
  /** Mean of (signed score − sign × benchmark return) over those windows. */
  meanExcess: z.number().nullable(),
});

/** One (horizon, label) at one horizon of k days (docs/rules/crypto.md §3.4, docs/rules/track-record.md §6.3). Returns are fractions. */
export const cryptoScorecardCell = z.object({
  days: z.number().int().positive(),
  /** Signals whose d + k has passed and whose closes are known. */
  n: z.number().int().nonnegative(),
  /** Signals in scope whose d + k has not passed yet (or whose close on d + k is missing). */
  pending: z.number().int().nonnegative(),
  /** Mean, median of the signed scores (sign × forward return; Sell flips the sign). */
  mean: z.number().nullable(),
  median: z.number().nullable(),
  /** Share of signed scores > 0, with its 95 % Wilson interval. */
  sharePositive: rateWithInterval.nullable(),
  /** 95 % block-bootstrap interval of the mean (weeks of the signal date, 2,000 resamples, fixed seed). */
  meanInterval: z.object({ low: z.number(), high: z.number() }).nullable(),
  /** Signed mean k-day forward return of each signal's coin over every day of the window, averaged over the signals. */
  baseline: z.number().nullable(),
  /** mean − baseline. */
  excess: z.number().nullable(),
  benchmark: cryptoScorecardBenchmark,
});

export const cryptoScorecardGroup = z.object({
  ruleVersion: z.string(),
  origin,
  horizon: cryptoHorizon,
  /** The label changed to. */
  label: cryptoSignal,
  /** +1, or −1 for Sell (scored with the sign flipped). */
  sign: z.union([z.literal(1), z.literal(-1)]),
  /** Changes to this label in scope. */
  signals: z.number().int().nonnegative(),
  cells: z.array(cryptoScorecardCell),
});

/** The crypto engine's track record: the signal scorecard (docs/rules/crypto.md §3.4). */
export const cryptoScorecard = z.object({
  /** The last completed candle (UTC day) the forward returns may read. */
  asOf: isoDate,
  /** The scorecard window: signals dated in it are scored, and the baseline averages over its days. */
  window: z.object({ from: isoDate.nullable(), to: isoDate }),
  symbol: z.string().nullable(),
  days: z.array(z.number().int().positive()),
  benchmarkSymbol: z.string(),
  groups: z.array(cryptoScorecardGroup),
});
export type CryptoScorecard = z.infer<typeof cryptoScorecard>;
/** The scorecard call's answer (the next session names the route; the server computes it with computeCryptoScorecard). */
export const cryptoScorecardResponse = cryptoScorecard;
export type CryptoScorecardGroup = z.infer<typeof cryptoScorecardGroup>;
export type CryptoScorecardCell = z.infer<typeof cryptoScorecardCell>;
