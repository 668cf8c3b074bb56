/**
 * The WatchList's prices (packages/core/src/contract/scans.ts `api/favorites/quotes`): the last price
 * and day change of each of the signed-in user's favourites in one round trip, read through
 * MarketService (behind the shared cache) a bounded number of symbols at a time; a symbol whose quote
 * fails is skipped and named in `failed`, never fatal.
 */
import type { FavoriteQuotesResponse, ScanFailure } from '@signalboard/core';
import { settleInCompletionOrder } from '../../lib/completion-order';
import { inFavoriteOrder, SCAN_CONCURRENCY } from '../../lib/favorites-scan';
import { scanFailure, type ScanLog } from '../../lib/scan-failure';
import type { MarketService } from '../market/market.service';
import type { FavoritesRepo } from './watchlist.repo';

export interface FavoriteQuotesDeps {
  favorites: Pick<FavoritesRepo, 'list'>;
  market: Pick<MarketService, 'quote'>;
  /** Where skipped symbols and unexpected errors are reported (the app's pino logger). */
  log: ScanLog;
  concurrency?: number;
}

export function createFavoriteQuotesService(deps: FavoriteQuotesDeps) {
  const { favorites, market, log } = deps;
  const limit = deps.concurrency ?? SCAN_CONCURRENCY;

  return {
    /** The WatchList rows: last price and day change of each favourite, in the favourites' order. */
    async favoriteQuotes(userId: number): Promise<FavoriteQuotesResponse> {
      const symbols = (await favorites.list(userId)).map((favorite) => favorite.symbol);
      const quotes: FavoriteQuotesResponse['quotes'] = [];
      const failed: ScanFailure[] = [];
      for await (const outcome of settleInCompletionOrder(symbols, limit, (symbol) => market.quote(symbol))) {
        if (!outcome.ok) {
          failed.push(scanFailure(log, outcome.item, outcome.error));
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
          ...(quote.last_bar ? { last_bar: true } : {}),
        });
      }
      return { quotes: inFavoriteOrder(quotes, symbols), failed: inFavoriteOrder(failed, symbols) };
    },
  };
}

export type FavoriteQuotesService = ReturnType<typeof createFavoriteQuotesService>;
