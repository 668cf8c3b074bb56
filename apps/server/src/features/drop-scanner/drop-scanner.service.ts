/**
 * The Drop and Recovery Scanner over the signed-in user's favourites (packages/core/src/contract/scans.ts
 * `api/scan/drops`): one round trip per screen. Each favourite's quote and range metrics are read
 * through MarketService (the metrics core defines, behind the shared cache), a bounded number of
 * symbols at a time; a symbol whose data fails is skipped and named in `failed`, never fatal. The rule
 * itself is core's (packages/core/src/scanners/drop-scanner.ts).
 */
import { checkDrop, sortFlags, type DropFlag, type DropScanResponse, type DropSelection, type ScanFailure } from '@signalboard/core';
import type { Clock } from '../../lib/clock';
import { settleInCompletionOrder } from '../../lib/completion-order';
import { Freshness, inFavoriteOrder, SCAN_CONCURRENCY } from '../../lib/favorites-scan';
import { scanFailure, type ScanLog } from '../../lib/scan-failure';
import type { FavoritesRepo } from '../watchlist/watchlist.repo';
import type { MarketService } from '../market/market.service';

export interface DropScannerDeps {
  favorites: Pick<FavoritesRepo, 'list'>;
  market: Pick<MarketService, 'quote' | 'rangeMetrics'>;
  /** The market's clock: `as_of` when no data was read. */
  clock: Clock;
  /** Where skipped symbols and unexpected errors are reported (the app's pino logger). */
  log: ScanLog;
  concurrency?: number;
}

export function createDropScannerService(deps: DropScannerDeps) {
  const { favorites, market, clock, log } = deps;
  const limit = deps.concurrency ?? SCAN_CONCURRENCY;

  /** A live quote and the range metrics of one symbol, with the rule applied. */
  const dropCheck = async (symbol: string, selection: DropSelection, threshold: number) => {
    const [quote, metrics] = await Promise.all([market.quote(symbol), market.rangeMetrics(symbol)]);
    // The price is an imported file's last close, or the highs and lows come from imported bars.
    const imported = quote.last_bar === true || metrics.imported === true;
    const flag = checkDrop(symbol, quote.current_price, metrics, selection, threshold);
    return { flag: flag && imported ? { ...flag, imported: true as const } : flag, imported, freshness: [quote, metrics] };
  };

  return {
    /** Spec §4 "Drop scanner": every favourite checked, flags sorted by percentage change, largest first. */
    async dropScan(userId: number, input: { threshold: number; selection: DropSelection }): Promise<DropScanResponse> {
      const symbols = (await favorites.list(userId)).map((favorite) => favorite.symbol);
      const flags: DropFlag[] = [];
      const failed: ScanFailure[] = [];
      const freshness = new Freshness();
      let scanned = 0;
      let imported = 0;
      for await (const outcome of settleInCompletionOrder(symbols, limit, (symbol) => dropCheck(symbol, input.selection, input.threshold))) {
        if (!outcome.ok) {
          failed.push(scanFailure(log, outcome.item, outcome.error));
          continue;
        }
        scanned += 1;
        if (outcome.value.imported) imported += 1;
        outcome.value.freshness.forEach((part) => freshness.add(part));
        if (outcome.value.flag) flags.push(outcome.value.flag);
      }
      // Ties keep the favourites' order, whatever order the reads completed in.
      return { results: sortFlags(inFavoriteOrder(flags, symbols)), scanned, failed: inFavoriteOrder(failed, symbols), ...freshness.result(clock), ...(imported > 0 ? { imported_symbols: imported } : {}) };
    },
  };
}

export type DropScannerService = ReturnType<typeof createDropScannerService>;
