import { z } from 'zod';
import { isIsoDate } from '../market/trading-calendar';
import { singleLineText } from '../validation/text';
import { symbolText } from './watchlist';

/** Symbols of the market-data calls: favourites' rules (bare crypto tickers pass them too). */
const symbolParam = symbolText((input) => (input === undefined ? 'Symbol is required' : 'Symbol must be text'));

const isoDate = (name: string) =>
  singleLineText(name, {
    typeError: (input) => (input === undefined ? `${name} is required (YYYY-MM-DD)` : `${name} must be a date as YYYY-MM-DD`),
    examples: ['2026-11-02'],
  }).refine(isIsoDate, { message: `${name} must be a date as YYYY-MM-DD` });

/** A whole number in [min, max], from JSON or from a form field (text). */
const intInRange = (name: string, min: number, max: number) =>
  z
    .union([z.number(), singleLineText(name, { examples: [String(min)] })], { error: (issue) => (issue.input === undefined ? `${name} is required` : `${name} must be a whole number`) })
    .transform((value, context) => {
      const number = typeof value === 'number' ? value : /^\s*[+-]?\d+\s*$/.test(value) ? Number(value) : Number.NaN;
      if (!Number.isInteger(number)) {
        context.addIssue({ code: 'custom', message: typeof value === 'string' && value.trim() === '' ? `${name} is required` : `${name} must be a whole number` });
        return z.NEVER;
      }
      if (number < min || number > max) {
        context.addIssue({ code: 'custom', message: `${name} must be between ${min} and ${max}` });
        return z.NEVER;
      }
      return number;
    });

/** GET api/symbol_lookup?q=&exchange=US|TO */
export const symbolLookupQuery = z.object({
  q: singleLineText('q', { typeError: 'q is required', required: true, max: 50, examples: ['apple'] }),
  exchange: z.enum(['US', 'TO'], { error: 'exchange must be US or TO' }).default('US'),
});
export const symbolLookupResponse = z.object({
  result: z.array(z.object({ symbol: z.string(), description: z.string(), exchange: z.string() })),
});
export type SymbolLookupResponse = z.infer<typeof symbolLookupResponse>;

/** GET api/symbol_search?symbol= */
export const symbolSearchQuery = z.object({
  symbol: singleLineText('symbol', { typeError: 'symbol is required', required: true, max: 50, examples: ['AAPL'] }),
});
export const symbolSearchResponse = z.object({
  results: z.array(z.object({ symbol: z.string(), instrument_name: z.string(), country: z.string(), exchange: z.string() })),
});
export type SymbolSearchResponse = z.infer<typeof symbolSearchResponse>;

export const symbolQuery = z.object({ symbol: symbolParam });

/** Every answer built on market data says whether it is the last good value after an upstream failure. */
const freshness = { stale: z.boolean(), as_of: z.number().describe('Unix seconds the data was fetched') };
/** Set on a figure computed from an imported price file's daily bars (docs/data-in-and-out.md "Where imported figures are labelled"). */
const importedFigures = { imported: z.literal(true).optional().describe("true: computed from an imported price file's daily bars (docs/data-in-and-out.md); absent otherwise") };

/** GET api/quote and api/quote_td */
export const quoteResponse = z.object({
  symbol: z.string(),
  current_price: z.number(),
  change: z.number(),
  percent_change: z.number(),
  previous_close: z.number(),
  open: z.number(),
  high: z.number(),
  low: z.number(),
  volume: z.number(),
  timestamp: z.number().describe('Unix seconds of the price'),
  last_bar: z.boolean().optional().describe('true: the price is the last bar of an imported price file (docs/data-in-and-out.md), the close of the session `timestamp` ends, not a quote'),
  ...freshness,
});
export type QuoteResponse = z.infer<typeof quoteResponse>;

/** GET api/fetch_metrics: spec §3 "Stock metrics". Highs and lows from daily highs and lows, today included. */
export const metricsResponse = z.object({
  symbol: z.string(),
  '1MonthHigh': z.number().nullable(),
  '1MonthLow': z.number().nullable(),
  '6MonthHigh': z.number().nullable(),
  '6MonthLow': z.number().nullable(),
  '14DayRSI': z.number().nullable(),
  dailyrsi: z.number().nullable(),
  bullishPercent: z.number(),
  bearishPercent: z.number(),
  volumeProfileLevels: z.array(z.number()),
  ...freshness,
  ...importedFigures,
});
export type MetricsResponse = z.infer<typeof metricsResponse>;

/** api/rsi instants lie in [2000-01-01, 2100-01-01) (Unix seconds). */
const RSI_EARLIEST_SECONDS = Date.UTC(2000, 0, 1) / 1000;
const RSI_LATEST_SECONDS = Date.UTC(2100, 0, 1) / 1000;
/** The widest api/rsi range: 5 years (with a leap day). */
const RSI_MAX_SPAN_DAYS = 5 * 365 + 2;

/** Unix seconds or YYYY-MM-DD (00:00 UTC), within [2000-01-01, 2100-01-01). */
const instant = (name: string) =>
  z
    .union([singleLineText(name, { examples: ['2026-06-01', '1780272000'] }), z.number()], { error: `${name} must be Unix seconds or YYYY-MM-DD` })
    .optional()
    .transform((value, context) => {
      if (value === undefined || (typeof value === 'string' && value.trim() === '')) return undefined;
      const text = String(value);
      let seconds = Number.NaN;
      if (/^\d{1,16}$/.test(text)) seconds = Number(text);
      else if (isIsoDate(text)) seconds = Date.parse(`${text}T00:00:00Z`) / 1000;
      if (!Number.isSafeInteger(seconds)) {
        context.addIssue({ code: 'custom', message: `${name} must be Unix seconds or YYYY-MM-DD` });
        return z.NEVER;
      }
      if (seconds / 1000 >= RSI_EARLIEST_SECONDS && seconds / 1000 < RSI_LATEST_SECONDS) {
        context.addIssue({ code: 'custom', message: `${name} must be Unix seconds, not milliseconds` });
        return z.NEVER;
      }
      if (seconds < RSI_EARLIEST_SECONDS || seconds >= RSI_LATEST_SECONDS) {
        context.addIssue({ code: 'custom', message: `${name} must lie between 2000-01-01 and 2099-12-31` });
        return z.NEVER;
      }
      return seconds;
    });

/**
 * GET api/rsi?symbol=&from=&to=: RSI of the daily closes in [from, to] (both or neither; without
 * them, the same recent history as fetch_metrics' 14DayRSI, so the two agree).
 */
export const rsiQuery = z
  .object({ symbol: symbolParam, from: instant('from'), to: instant('to') })
  .refine((query) => (query.from === undefined) === (query.to === undefined), {
    message: 'Give both from and to, or neither',
  })
  .refine((query) => query.from === undefined || query.to === undefined || query.from < query.to, {
    message: 'from must be before to',
  })
  .refine((query) => query.from === undefined || query.to === undefined || query.to - query.from <= RSI_MAX_SPAN_DAYS * 86_400, {
    message: 'The range may span at most 5 years',
  });
export const rsiResponse = z.object({
  symbol: z.string(),
  latest_rsi: z.number().nullable().describe('RSI(14), Wilder, on daily closes in the range'),
  daily_rsi: z.number().nullable().describe("RSI(14) on today's 5-minute closes"),
  ...freshness,
  ...importedFigures,
});
export type RsiResponse = z.infer<typeof rsiResponse>;

/** GET api/news-sentiment?symbol= */
export const newsSentimentResponse = z.object({
  symbol: z.string(),
  sectorAverageBullishPercent: z.number().describe('fraction 0–1'),
  sectorAverageNewsScore: z.number(),
  companyNewsScore: z.number(),
  sentiment: z.object({ bullishPercent: z.number(), bearishPercent: z.number() }),
  buzz: z.object({ articlesInLastWeek: z.number(), weeklyAverage: z.number() }),
  ...freshness,
});
export type NewsSentimentResponse = z.infer<typeof newsSentimentResponse>;

/** GET api/support-resistance?symbol=&resolution=D */
export const supportResistanceQuery = z.object({
  symbol: symbolParam,
  resolution: z.enum(['D', 'W', 'M'], { error: 'resolution must be D, W or M' }).default('D'),
});
export const supportResistanceResponse = z.object({ symbol: z.string(), resolution: z.string(), levels: z.array(z.number()), ...freshness, ...importedFigures });

/** POST api/stock-high-low (form) and api/stock-high-td (JSON): symbol, days. */
export const highLowRequest = z.object({ symbol: symbolParam, days: intInRange('days', 1, 730) });
export const highLowResponse = z.object({
  symbol: z.string(),
  days: z.number(),
  high: z.number(),
  high_date: z.string(),
  low: z.number(),
  low_date: z.string(),
  ...freshness,
  ...importedFigures,
});
export type HighLowResponse = z.infer<typeof highLowResponse>;

/** POST api/trend-direction: symbol, days, interval. */
export const trendDirectionRequest = z.object({
  symbol: symbolParam,
  days: intInRange('days', 5, 730).default(20),
  interval: z.enum(['1day', '1week', 'daily', 'weekly', 'D', 'W'], { error: 'interval must be 1day or 1week' }).default('1day'),
});
export const trendDirectionResponse = z.object({
  symbol: z.string(),
  days: z.number(),
  interval: z.enum(['1day', '1week']),
  direction: z.enum(['up', 'down', 'sideways']),
  slope_percent_per_bar: z.number(),
  r_squared: z.number(),
  ...freshness,
  ...importedFigures,
});

/** POST api/earnings_calendar and api/earnings_calendar_td: start_date, end_date (at most 92 days). */
export const earningsCalendarRequest = z
  .object({ start_date: isoDate('start_date'), end_date: isoDate('end_date') })
  .refine((body) => body.start_date <= body.end_date, { message: 'end_date must not be before start_date' })
  .refine((body) => (Date.parse(body.end_date) - Date.parse(body.start_date)) / 86_400_000 <= 92, {
    message: 'The range may span at most 92 days',
  });
export const earningsTime = z.enum(['Pre Market', 'After Hours', 'Time Not Supplied', 'Transfer Agent']);
/** Spec §3 "Earnings row". */
export const earningsRow = z.object({
  symbol: z.string(),
  date: z.string(),
  time: earningsTime,
  eps_actual: z.number().nullable(),
  eps_estimate: z.number().nullable(),
  difference: z.number().nullable(),
  surprise_percent: z.number().nullable(),
  exchange: z.string(),
  country: z.string(),
});
export type EarningsRow = z.infer<typeof earningsRow>;
export const earningsCalendarResponse = z.array(earningsRow);

/** Spec §3 "News article"; datetime in Unix seconds. */
export const newsArticle = z.object({
  id: z.string(),
  headline: z.string(),
  summary: z.string(),
  source: z.string(),
  category: z.string(),
  url: z.string(),
  image: z.string(),
  datetime: z.number(),
  related: z.string(),
});
export type NewsArticleBody = z.infer<typeof newsArticle>;
export const newsListResponse = z.array(newsArticle);

/** GET api/company-news?symbol=&from=&to= (dates, at most 366 days apart). */
export const companyNewsQuery = z
  .object({ symbol: symbolParam, from: isoDate('from'), to: isoDate('to') })
  .refine((query) => query.from <= query.to, { message: 'from must not be after to' })
  .refine((query) => (Date.parse(query.to) - Date.parse(query.from)) / 86_400_000 <= 366, {
    message: 'The range may span at most 366 days',
  });
