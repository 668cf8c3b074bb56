import { newsAnalysisText } from './news-text';

/**
 * News By Stock rules (spec §4 "Stock news", §5, §7 notes). Pure: the caller passes `now`.
 */

/** Spec §2: the 'Interval' dropdown offers Daily and Weekly. */
export const STOCK_NEWS_INTERVALS = ['daily', 'weekly'] as const;
export type StockNewsInterval = (typeof STOCK_NEWS_INTERVALS)[number];
export const STOCK_NEWS_INTERVAL_LABELS: Readonly<Record<StockNewsInterval, string>> = { daily: 'Daily', weekly: 'Weekly' };
/** Spec §4: the interval defaults to daily. */
export const DEFAULT_STOCK_NEWS_INTERVAL: StockNewsInterval = 'daily';

export const INVALID_INTERVAL_MESSAGE = 'Invalid interval selected';

export const isStockNewsInterval = (value: unknown): value is StockNewsInterval =>
  typeof value === 'string' && (STOCK_NEWS_INTERVALS as readonly string[]).includes(value);

/** YYYY-MM-DD of `date` in the local calendar (the user's day, not UTC's). */
export function localIsoDate(date: Date): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/**
 * Spec §7 notes: "Daily is from yesterday to today; Weekly from 7 days ago to today; dates are ISO
 * date-only strings." Spec §5: "Any interval other than daily or weekly raises 'Invalid interval
 * selected'". Days are counted in the local calendar of `now`.
 */
export function stockNewsRange(interval: string, now: Date): { from: string; to: string } {
  let daysBack: number;
  if (interval === 'daily') daysBack = 1;
  else if (interval === 'weekly') daysBack = 7;
  else throw new Error(INVALID_INTERVAL_MESSAGE);
  const from = new Date(now.getFullYear(), now.getMonth(), now.getDate() - daysBack, 12);
  return { from: localIsoDate(from), to: localIsoDate(now) };
}

export interface HeadlineSummary {
  headline?: string | null;
  summary?: string | null;
}

/**
 * Spec §7 notes: "for a stock, 'Stock: {symbol}, News Data: ' followed by the same joined items"
 * ('headline: summary' items joined with ', '); spec §5: only articles with both headline and
 * summary go in, and without a selected symbol or news nothing happens (null).
 */
export function stockNewsEventString(symbol: string | null | undefined, news: readonly HeadlineSummary[] | null | undefined): string | null {
  if (!symbol || !news || news.length === 0) return null;
  const complete = news.flatMap((article) => (article.headline && article.summary ? [{ headline: article.headline, summary: article.summary }] : []));
  return `Stock: ${symbol}, News Data: ${newsAnalysisText(complete)}`;
}
