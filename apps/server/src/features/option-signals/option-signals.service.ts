/**
 * Batch scans over the signed-in user's favourites (packages/core/src/contract/scans.ts): one round
 * trip per screen. Each favourite's market data is read through MarketService (so the metrics are the
 * ones core defines, behind the shared cache), a bounded number of symbols at a time; a symbol whose
 * data fails is skipped and named in `failed`, never fatal. The rules themselves are core's.
 */
import {
  checkDrop,
  scanOptionSignals,
  sortFlags,
  type DropFlag,
  type DropSelection,
  type DropScanResponse,
  type FavoriteQuotesResponse,
  type OptionFlag,
  type OptionScanEvent,
  type ScanFailure,
} from '@signalboard/core';
import type { Clock } from '../../lib/clock';
import type { CachedMarket } from '../../providers/market/cached-market';
import type { FavoritesRepo } from '../watchlist/watchlist.repo';
import type { MarketService } from '../market/market.service';
import { settleInCompletionOrder } from './completion-order';
import { failureReason } from './scan-failure';

/** Favourites read at once: enough to hide provider latency, few enough to respect its rate limits. */
export const SCAN_CONCURRENCY = 6;

export interface ScanLog {
  warn(context: object, msg: string): void;
  error(context: object, msg: string): void;
}

export interface ScansDeps {
  favorites: Pick<FavoritesRepo, 'list'>;
  market: Pick<MarketService, 'quote' | 'metrics' | 'rangeMetrics'>;
  /** News sentiment (sectorAverageBullishPercent), through the same cache as the metrics' read. */
  sentiment: Pick<CachedMarket, 'getNewsSentiment'>;
  /** The market's clock: `as_of` when no data was read. */
  clock: Clock;
  /** Where skipped symbols and unexpected errors are reported (the app's pino logger). */
  log: ScanLog;
  concurrency?: number;
}

/** Freshness of the data a scan used: stale if any part was, as of its oldest part (Unix seconds). */
class Freshness {
  private stale = false;
  private oldest = Number.POSITIVE_INFINITY;

  add(part: { stale: boolean; as_of: number }): void {
    this.stale ||= part.stale;
    this.oldest = Math.min(this.oldest, part.as_of);
  }

  result(clock: Clock): { stale: boolean; as_of: number } {
    return { stale: this.stale, as_of: Number.isFinite(this.oldest) ? this.oldest : Math.floor(clock.nowMs() / 1000) };
  }
}

export function createScansService(deps: ScansDeps) {
  const { favorites, market, sentiment, clock, log } = deps;
  const limit = deps.concurrency ?? SCAN_CONCURRENCY;

  const favoriteSymbols = async (userId: number): Promise<string[]> => (await favorites.list(userId)).map((favorite) => favorite.symbol);

  /** The `failed` entry of a symbol whose work threw; provider problems and bugs are logged too. */
  const failure = (symbol: string, error: unknown): ScanFailure => {
    const reason = failureReason(error);
    if (reason.log === 'warn') log.warn({ symbol, err: error }, 'scan skipped a symbol: market data unavailable');
    if (reason.log === 'error') log.error({ symbol, err: error }, 'scan failed unexpectedly on a symbol');
    return { symbol, msg: reason.msg };
  };

  /** A live quote and the range metrics of one symbol, with the rule applied. */
  const dropCheck = async (symbol: string, selection: DropSelection, threshold: number) => {
    const [quote, metrics] = await Promise.all([market.quote(symbol), market.rangeMetrics(symbol)]);
    return { flag: checkDrop(symbol, quote.current_price, metrics, selection, threshold), freshness: [quote, metrics] };
  };

  /** Quote, metrics and sector sentiment of one symbol, with the Option Scanner rule applied. */
  const optionCheck = async (symbol: string) => {
    const [quote, metrics, news] = await Promise.all([market.quote(symbol), market.metrics(symbol), sentiment.getNewsSentiment(symbol)]);
    const flags: OptionFlag[] = scanOptionSignals({
      symbol,
      currentPrice: quote.current_price,
      '1MonthHigh': metrics['1MonthHigh'],
      '1MonthLow': metrics['1MonthLow'],
      '6MonthHigh': metrics['6MonthHigh'],
      '6MonthLow': metrics['6MonthLow'],
      rsi14: metrics['14DayRSI'],
      rsiDaily: metrics.dailyrsi,
      levels: metrics.volumeProfileLevels,
      sectorAverageBullishPercent: news.value.sectorAverageBullishPercent,
    });
    return { flags, freshness: [quote, metrics, { stale: news.stale, as_of: Math.floor(news.fetchedAtMs / 1000) }] };
  };

  return {
    favoriteSymbols,

    /** Spec §4 "Drop scanner": every favourite checked, flags sorted by percentage change, largest first. */
    async dropScan(userId: number, input: { threshold: number; selection: DropSelection }): Promise<DropScanResponse> {
      const symbols = await favoriteSymbols(userId);
      const flags: DropFlag[] = [];
      const failed: ScanFailure[] = [];
      const freshness = new Freshness();
      let scanned = 0;
      for await (const outcome of settleInCompletionOrder(symbols, limit, (symbol) => dropCheck(symbol, input.selection, input.threshold))) {
        if (!outcome.ok) {
          failed.push(failure(outcome.item, outcome.error));
          continue;
        }
        scanned += 1;
        outcome.value.freshness.forEach((part) => freshness.add(part));
        if (outcome.value.flag) flags.push(outcome.value.flag);
      }
      // Ties keep the favourites' order, whatever order the reads completed in.
      return { results: sortFlags(inFavoriteOrder(flags, symbols)), scanned, failed: inFavoriteOrder(failed, symbols), ...freshness.result(clock) };
    },

    /**
     * The Options Scanner as events (see optionScanEvent): `start`; per symbol as it completes, its
     * flags or a `skip`, then `progress`; `end`. Once `signal` aborts (the client went away) no
     * further symbol is read. An unexpected error ends the stream with `end` rather than breaking it.
     */
    async *optionScan(symbols: readonly string[], signal?: AbortSignal): AsyncGenerator<OptionScanEvent, void, undefined> {
      const total = symbols.length;
      yield { type: 'start', total };
      const failed: ScanFailure[] = [];
      const freshness = new Freshness();
      let done = 0;
      let scanned = 0;
      try {
        for await (const outcome of settleInCompletionOrder(symbols, limit, optionCheck, signal)) {
          const symbol = outcome.item;
          if (outcome.ok) {
            scanned += 1;
            outcome.value.freshness.forEach((part) => freshness.add(part));
            for (const flag of outcome.value.flags) yield { type: 'flag', flag };
          } else {
            const skipped = failure(symbol, outcome.error);
            failed.push(skipped);
            yield { type: 'skip', ...skipped };
          }
          done += 1;
          yield { type: 'progress', done, total, symbol };
          if (signal?.aborted) return;
        }
      } catch (error) {
        log.error({ err: error }, 'option scan stopped unexpectedly');
      }
      yield { type: 'end', scanned, failed: inFavoriteOrder(failed, symbols), as_of: freshness.result(clock).as_of };
    },

    /** The WatchList rows: last price and day change of each favourite, in the favourites' order. */
    async favoriteQuotes(userId: number): Promise<FavoriteQuotesResponse> {
      const symbols = await favoriteSymbols(userId);
      const quotes: FavoriteQuotesResponse['quotes'] = [];
      const failed: ScanFailure[] = [];
      for await (const outcome of settleInCompletionOrder(symbols, limit, (symbol) => market.quote(symbol))) {
        if (!outcome.ok) {
          failed.push(failure(outcome.item, outcome.error));
          continue;
        }
        const quote = outcome.value;
        quotes.push({
          symbol: outcome.item,
          current_price: quote.current_price,
          change: quote.change,
          percent_change: quote.percent_change,
          timestamp: quote.timestamp,
          stale: quote.stale,
        });
      }
      return { quotes: inFavoriteOrder(quotes, symbols), failed: inFavoriteOrder(failed, symbols) };
    },
  };
}

export type ScansService = ReturnType<typeof createScansService>;

/** Rows in the order of the favourites they belong to (results arrive in completion order). */
function inFavoriteOrder<T extends { symbol: string }>(rows: T[], symbols: readonly string[]): T[] {
  const position = new Map(symbols.map((symbol, index) => [symbol, index]));
  return [...rows].sort((a, b) => (position.get(a.symbol) ?? 0) - (position.get(b.symbol) ?? 0));
}
