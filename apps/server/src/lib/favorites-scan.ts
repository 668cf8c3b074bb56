/**
 * What the batch calls over the signed-in user's favourites share (packages/core/src/contract/scans.ts:
 * the Drop Scanner's `api/scan/drops`, Option Signals' `api/scan/options`, the WatchList's
 * `api/favorites/quotes`): how many symbols are read at once, the freshness of what was read, and the
 * favourites' order of the rows. Each symbol is read through settleInCompletionOrder
 * (completion-order.ts); a symbol whose read fails becomes a `failed` entry (scan-failure.ts).
 */
import type { Clock } from './clock';

/** Favourites read at once: enough to hide provider latency, few enough to respect its rate limits. */
export const SCAN_CONCURRENCY = 6;

/** Freshness of the data a scan used: stale if any part was, as of its oldest part (Unix seconds). */
export class Freshness {
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

/** Rows in the order of the favourites they belong to (results arrive in completion order). */
export function inFavoriteOrder<T extends { symbol: string }>(rows: T[], symbols: readonly string[]): T[] {
  const position = new Map(symbols.map((symbol, index) => [symbol, index]));
  return [...rows].sort((a, b) => (position.get(a.symbol) ?? 0) - (position.get(b.symbol) ?? 0));
}
