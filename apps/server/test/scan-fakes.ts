/**
 * Fakes for the services of the favourites' batch calls (src/features/drop-scanner,
 * src/features/option-signals): a market made of quote and metrics functions, with sentiment, a
 * clock and a log to assert on.
 */
import type { MetricsResponse, QuoteResponse } from '@signalboard/core';
import { vi } from 'vitest';
import type { DropScannerDeps } from '../src/features/drop-scanner/drop-scanner.service';
import type { MarketService } from '../src/features/market/market.service';
import type { OptionSignalsDeps } from '../src/features/option-signals/option-signals.service';
import type { ScanLog } from '../src/lib/scan-failure';
import type { Cached } from '../src/providers/market/cache';
import type { NewsSentiment } from '../src/providers/market/types';

export const NOW_SECONDS = 1_795_208_400;

export const tick = () => new Promise((resume) => setImmediate(resume));

type FakeMarket = Pick<MarketService, 'quote' | 'metrics' | 'rangeMetrics'>;

export const quoteOf = (symbol: string, price: number): QuoteResponse => ({
  symbol,
  current_price: price,
  change: 0,
  percent_change: 0,
  previous_close: price,
  open: price,
  high: price,
  low: price,
  volume: 0,
  timestamp: NOW_SECONDS,
  stale: false,
  as_of: NOW_SECONDS,
});
export const metricsOf = (symbol: string, high: number, as_of = NOW_SECONDS, stale = false): MetricsResponse => ({
  symbol,
  '1MonthHigh': high,
  '1MonthLow': 50,
  '6MonthHigh': high,
  '6MonthLow': 50,
  '14DayRSI': 20,
  dailyrsi: 20,
  bullishPercent: 0.5,
  bearishPercent: 0.5,
  volumeProfileLevels: [],
  stale,
  as_of,
});
export const sentimentOf = (symbol: string): Cached<NewsSentiment> => ({
  value: { symbol, bullishPercent: 0.5, bearishPercent: 0.5, sectorAverageBullishPercent: 0.9, sectorAverageNewsScore: 0.5, companyNewsScore: 0.5, articlesInLastWeek: 0, weeklyAverage: 0 },
  stale: false,
  fetchedAtMs: NOW_SECONDS * 1000,
});

/** A fake market from quote and metrics; the range metrics are the metrics' highs and lows, as in MarketService. */
export function fakeDeps(symbols: string[], fake: Pick<FakeMarket, 'quote' | 'metrics'>) {
  const market: FakeMarket = {
    ...fake,
    rangeMetrics: async (symbol) => {
      const metrics = await fake.metrics(symbol);
      return {
        symbol: metrics.symbol,
        '1MonthHigh': metrics['1MonthHigh'],
        '1MonthLow': metrics['1MonthLow'],
        '6MonthHigh': metrics['6MonthHigh'],
        '6MonthLow': metrics['6MonthLow'],
        stale: metrics.stale,
        as_of: metrics.as_of,
      };
    },
  };
  return {
    favorites: { list: async () => symbols.map((symbol) => ({ symbol, description: symbol })) },
    market,
    sentiment: { getNewsSentiment: async (symbol) => sentimentOf(symbol) },
    clock: { nowMs: () => (NOW_SECONDS + 500) * 1000 },
    log: { warn: vi.fn<ScanLog['warn']>(), error: vi.fn<ScanLog['error']>() },
  } satisfies DropScannerDeps & OptionSignalsDeps;
}
