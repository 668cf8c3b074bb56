/**
 * Option Signals over the signed-in user's favourites (packages/core/src/contract/scans.ts
 * `api/scan/options`), streamed as events. Each favourite's market data is read through MarketService
 * (so the metrics are the ones core defines, behind the shared cache), a bounded number of symbols at
 * a time; a symbol whose data fails is skipped and named in `failed`, never fatal. The rule itself is
 * core's (packages/core/src/scanners/option-signals.ts).
 */
import { scanOptionSignals, type OptionFlag, type OptionFlagBody, type OptionScanEvent, type ScanFailure } from '@signalboard/core';
import type { Clock } from '../../lib/clock';
import { settleInCompletionOrder } from '../../lib/completion-order';
import { Freshness, inFavoriteOrder, SCAN_CONCURRENCY } from '../../lib/favorites-scan';
import { scanFailure, type ScanLog } from '../../lib/scan-failure';
import type { CachedMarket } from '../../providers/market/cached-market';
import type { FavoritesRepo } from '../watchlist/watchlist.repo';
import { newsSentimentOrNone, type MarketService } from '../market/market.service';

export interface OptionSignalsDeps {
  favorites: Pick<FavoritesRepo, 'list'>;
  market: Pick<MarketService, 'quote' | 'metrics'>;
  /** News sentiment (sectorAverageBullishPercent), through the same cache as the metrics' read. */
  sentiment: Pick<CachedMarket, 'getNewsSentiment'>;
  /** The market's clock: `as_of` when no data was read. */
  clock: Clock;
  /** Where skipped symbols and unexpected errors are reported (the app's pino logger). */
  log: ScanLog;
  concurrency?: number;
}

export function createOptionSignalsService(deps: OptionSignalsDeps) {
  const { favorites, market, sentiment, clock, log } = deps;
  const limit = deps.concurrency ?? SCAN_CONCURRENCY;

  /** Quote, metrics and sector sentiment of one symbol, with the Option Scanner rule applied. */
  const optionCheck = async (symbol: string) => {
    const [quote, metrics, news] = await Promise.all([market.quote(symbol), market.metrics(symbol), newsSentimentOrNone(sentiment, symbol, clock.nowMs())]);
    // The price is an imported file's last close, or the metrics come from imported bars.
    const imported = quote.last_bar === true || metrics.imported === true;
    const found: OptionFlag[] = scanOptionSignals({
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
    const flags: OptionFlagBody[] = imported ? found.map((flag) => ({ ...flag, imported: true as const })) : found;
    return { flags, imported, freshness: [quote, metrics, { stale: news.stale, as_of: Math.floor(news.fetchedAtMs / 1000) }] };
  };

  return {
    /** The signed-in user's favourites, read before the stream starts (a failure is still a JSON error). */
    favoriteSymbols: async (userId: number): Promise<string[]> => (await favorites.list(userId)).map((favorite) => favorite.symbol),

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
      let imported = 0;
      try {
        for await (const outcome of settleInCompletionOrder(symbols, limit, optionCheck, signal)) {
          const symbol = outcome.item;
          if (outcome.ok) {
            scanned += 1;
            if (outcome.value.imported) imported += 1;
            outcome.value.freshness.forEach((part) => freshness.add(part));
            for (const flag of outcome.value.flags) yield { type: 'flag', flag };
          } else {
            const skipped = scanFailure(log, symbol, outcome.error);
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
      yield { type: 'end', scanned, failed: inFavoriteOrder(failed, symbols), as_of: freshness.result(clock).as_of, ...(imported > 0 ? { imported_symbols: imported } : {}) };
    },
  };
}

export type OptionSignalsService = ReturnType<typeof createOptionSignalsService>;
