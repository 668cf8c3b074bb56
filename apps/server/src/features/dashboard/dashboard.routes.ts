import type { FastifyInstance } from 'fastify';
import {
  dashboardEndpoints,
  marketSession,
  newYorkInstantMs,
  SESSION_CLOSE_MINUTES,
  SESSION_OPEN_MINUTES,
  sentimentTone,
  tradingDayOnOrAfter,
  type EconomicIndicator,
  type MarketOverview,
  type OverallSentiment,
  type SectorSentiment,
} from '@signalboard/core';
import type { Clock } from '../../lib/clock';
import { route } from '../../lib/endpoint';
import { allowedNewsImage } from '../../lib/news-images';
import type { CachedMarket } from '../../providers/market/cached-market';
import { quoteIsImported } from '../../providers/market/imported/imported-figures';
import { UnknownSymbolError, type Quote } from '../../providers/market/types';
import { CRYPTOS, ETFS, type GicsSector } from '../../providers/market/universe';
import { DASHBOARD_INDICATORS } from './dashboard.jobs';
import type { DashboardRepo } from './dashboard.repo';

/** `imported: true` for a price that is an imported file's last close (docs/data-in-and-out.md). */
const importedOf = (quote: Quote): { imported?: true } => (quoteIsImported(quote) ? { imported: true } : {});

/** A sector's stored news with each image kept only where the page may load it. */
const withAllowedImages = (news: unknown, origins: readonly string[]): unknown =>
  Array.isArray(news)
    ? news.map((item: unknown) => (item && typeof item === 'object' ? { ...item, image: allowedNewsImage((item as { image?: unknown }).image, origins) } : item))
    : news;

/** Overall summaries api/all_overall_sentiment answers (newest first): a day of 30-minute slots. */
export const OVERALL_HISTORY_LIMIT = 48;

/** The index strip: the index ETFs and Bitcoin. */
export const INDEX_STRIP = ['SPY', 'QQQ', 'DIA', 'IWM', 'BTC'] as const;
/** The sector heatmap: each GICS sector's Select Sector SPDR ETF. */
export const SECTOR_ETFS: Record<GicsSector, string> = {
  'Communication Services': 'XLC',
  'Consumer Discretionary': 'XLY',
  'Consumer Staples': 'XLP',
  Energy: 'XLE',
  Financials: 'XLF',
  'Health Care': 'XLV',
  Industrials: 'XLI',
  'Information Technology': 'XLK',
  Materials: 'XLB',
  'Real Estate': 'XLRE',
  Utilities: 'XLU',
};

const NAMES = new Map([...ETFS, ...CRYPTOS].map((entry) => [entry.symbol, entry.name]));
const indicatorOrder = (code: string) => {
  const index = (DASHBOARD_INDICATORS as readonly string[]).indexOf(code);
  return index === -1 ? DASHBOARD_INDICATORS.length : index;
};
const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The next instant the market opens or (while open) closes. */
export function nextMarketChange(nowMs: number): string {
  const session = marketSession(nowMs);
  if (session.phase === 'open') return new Date(newYorkInstantMs(session.day, SESSION_CLOSE_MINUTES)).toISOString();
  const day = session.phase === 'pre-market' ? tradingDayOnOrAfter(session.day) : tradingDayOnOrAfter(session.day + 1);
  return new Date(newYorkInstantMs(day, SESSION_OPEN_MINUTES)).toISOString();
}

/**
 * GET api/all_overall_sentiment, api/sector_sentiment_scanner, api/top_economic_indicators (spec §7,
 * field names of spec §3) and api/market_overview (beyond the spec). A part with no rows yet waits
 * for the first fill, so a new installation's first dashboard is not empty.
 */
export async function dashboardRoutes(
  app: FastifyInstance,
  options: { repo: DashboardRepo; jobs: { fillIfEmpty(requestId?: string): Promise<void> }; market: CachedMarket; marketClock: Clock; imageOrigins?: readonly string[] },
) {
  const { repo, jobs } = options;
  const imageOrigins = options.imageOrigins ?? [];
  const filled = async <T>(read: () => Promise<T[]>, requestId: string): Promise<T[]> => {
    const rows = await read();
    if (rows.length > 0) return rows;
    await jobs.fillIfEmpty(requestId);
    return read();
  };

  route(app, dashboardEndpoints.getOverallSentiment, async (request): Promise<OverallSentiment[]> => {
    const rows = await filled(() => repo.overallHistory(OVERALL_HISTORY_LIMIT), request.id);
    return rows.map((row) => ({
      GptSummary: row.gptSummary,
      DateCreated: row.dateCreated.toISOString(),
      NewsCount: row.newsCount,
      SentimentTone: sentimentTone.parse(row.tone),
      SentimentScore: row.score,
    }));
  });

  route(app, dashboardEndpoints.getSectorSentiment, async (request): Promise<SectorSentiment[]> => {
    const rows = await filled(() => repo.latestSectors(), request.id);
    return rows
      .sort((a, b) => a.sector.localeCompare(b.sector))
      .map((row) => ({
        IndicatorName: row.sector,
        GptSummary: row.gptSummary,
        LastUpdatedUtc: row.lastUpdatedUtc.toISOString(),
        // Only images the CSP lets the page load (our own paths, NEWS_IMAGE_ORIGINS).
        ValueRawJson: JSON.stringify(withAllowedImages(row.news, imageOrigins)),
        SentimentTone: sentimentTone.parse(row.tone),
        SentimentScore: row.score,
      }));
  });

  route(app, dashboardEndpoints.getEconomicIndicators, async (request): Promise<EconomicIndicator[]> => {
    const rows = await filled(() => repo.latestIndicators(), request.id);
    return rows
      .sort((a, b) => indicatorOrder(a.indicatorCode) - indicatorOrder(b.indicatorCode) || a.indicatorCode.localeCompare(b.indicatorCode))
      .map((row) => ({
        IndicatorName: row.indicatorName,
        IndicatorCode: row.indicatorCode,
        Interval: row.interval,
        Unit: row.unit,
        GptSummary: row.gptSummary,
        LastUpdatedUtc: row.lastUpdatedUtc.toISOString(),
        ValueRawJson: JSON.stringify(row.observations),
      }));
  });

  route(app, dashboardEndpoints.getMarketOverview, async (): Promise<MarketOverview> => {
    const nowMs = options.marketClock.nowMs();
    const session = marketSession(nowMs);
    const failed: MarketOverview['failed'] = [];
    const quote = async (symbol: string) => {
      try {
        return (await options.market.getQuote(symbol)).value;
      } catch (error) {
        // A source that does not list the instrument (a small dataset) simply has no tile for it.
        if (!(error instanceof UnknownSymbolError)) failed.push({ symbol, msg: errorText(error) });
        return undefined;
      }
    };
    const sectorEntries = Object.entries(SECTOR_ETFS);
    const [indexQuotes, sectorQuotes] = await Promise.all([Promise.all(INDEX_STRIP.map(quote)), Promise.all(sectorEntries.map(([, etf]) => quote(etf)))]);
    return {
      asOf: new Date(nowMs).toISOString(),
      market: { phase: session.phase, nextChange: nextMarketChange(nowMs) },
      indices: indexQuotes.flatMap((q) =>
        q ? [{ symbol: q.symbol, name: NAMES.get(q.symbol) ?? q.symbol, price: q.price, change: q.change, percentChange: q.percentChange, currency: 'USD' as const, timestamp: q.timestamp, ...importedOf(q) }] : [],
      ),
      sectors: sectorQuotes.flatMap((q, index) => (q ? [{ sector: sectorEntries[index]![0], etf: q.symbol, price: q.price, percentChange: q.percentChange, ...importedOf(q) }] : [])),
      failed,
    };
  });
}
