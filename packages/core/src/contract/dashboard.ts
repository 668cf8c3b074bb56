import { z } from 'zod';

/** Beyond the spec: the news' tone from the finance lexicon, and its score from -1 to +1. */
export const sentimentTone = z.enum(['positive', 'negative', 'mixed', 'neutral']);
export type SentimentTone = z.infer<typeof sentimentTone>;

/**
 * Spec §3 "Overall sentiment": the analyst's summary of the latest market news. GET
 * api/all_overall_sentiment answers the history, newest first (the screen shows the first).
 */
export const overallSentiment = z.object({
  GptSummary: z.string(),
  /** ISO 8601 (UTC). */
  DateCreated: z.string(),
  /** Beyond the spec: how many news items the summary read, and their tone and score. */
  NewsCount: z.number().int().nonnegative(),
  SentimentTone: sentimentTone,
  SentimentScore: z.number().min(-1).max(1),
});
export type OverallSentiment = z.infer<typeof overallSentiment>;
export const allOverallSentimentResponse = z.array(overallSentiment);

/**
 * Spec §3 "Sector sentiment", one per GICS sector (GET api/sector_sentiment_scanner). ValueRawJson is
 * a JSON text: an array of news items `{ title, url, image, summary }`, newest first.
 */
export const sectorSentiment = z.object({
  IndicatorName: z.string(),
  GptSummary: z.string(),
  /** ISO 8601 (UTC). */
  LastUpdatedUtc: z.string(),
  ValueRawJson: z.string(),
  /** Beyond the spec: the sector news' tone and score (-1 … +1). */
  SentimentTone: sentimentTone,
  SentimentScore: z.number().min(-1).max(1),
});
export type SectorSentiment = z.infer<typeof sectorSentiment>;
export const sectorSentimentResponse = z.array(sectorSentiment);

/**
 * Spec §3 "Economic indicator" (GET api/top_economic_indicators). ValueRawJson is a JSON text: an
 * array of `{ date, value }`, newest first; the screen shows the first 2.
 */
export const economicIndicator = z.object({
  IndicatorName: z.string(),
  IndicatorCode: z.string(),
  Interval: z.string(),
  Unit: z.string(),
  GptSummary: z.string(),
  /** ISO 8601 (UTC). */
  LastUpdatedUtc: z.string(),
  ValueRawJson: z.string(),
});
export type EconomicIndicator = z.infer<typeof economicIndicator>;
export const economicIndicatorsResponse = z.array(economicIndicator);

/** One instrument of the dashboard's index strip (the index ETFs and Bitcoin). */
export const overviewQuote = z.object({
  symbol: z.string(),
  name: z.string(),
  price: z.number(),
  change: z.number(),
  percentChange: z.number(),
  currency: z.enum(['USD', 'CAD']),
  /** Unix seconds of the price. */
  timestamp: z.number(),
  /** true: the price is an imported price file's last close (docs/data-in-and-out.md), not a quote. */
  imported: z.literal(true).optional(),
});
export type OverviewQuote = z.infer<typeof overviewQuote>;

/** One tile of the sector heatmap: the sector's SPDR ETF move today. */
export const sectorMove = z.object({
  sector: z.string(),
  etf: z.string(),
  price: z.number(),
  percentChange: z.number(),
  /** true: the price is an imported price file's last close, not a quote. */
  imported: z.literal(true).optional(),
});
export type SectorMove = z.infer<typeof sectorMove>;

/** GET api/market_overview (beyond the spec): market status, the index strip and the sector heatmap. */
export const marketOverviewResponse = z.object({
  /** ISO 8601: the market clock's now. */
  asOf: z.string(),
  market: z.object({
    phase: z.enum(['pre-market', 'open', 'after-close', 'closed']),
    /** ISO 8601 of the next open (when not open) or of today's close (when open). */
    nextChange: z.string(),
  }),
  indices: z.array(overviewQuote),
  sectors: z.array(sectorMove),
  /** Instruments that could not be quoted, with the reason. */
  failed: z.array(z.object({ symbol: z.string(), msg: z.string() })),
});
export type MarketOverview = z.infer<typeof marketOverviewResponse>;
