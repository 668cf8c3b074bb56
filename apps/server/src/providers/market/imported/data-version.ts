/**
 * The data version of a run over imported prices (issue 29; docs/data-in-and-out.md "Replays of new
 * data"): which imported bars a trade engine's replay or a custom-scan backtest read. Runs on
 * different data are kept apart by it; a run whose universe holds no imported symbol has none ('').
 */
import { createHash } from 'node:crypto';
import type { CachedMarket } from '../cached-market';

/** Hex digits of SHA-256 a data version keeps. */
export const DATA_VERSION_LENGTH = 8;

/**
 * '' when none of `symbols` is imported; else the first DATA_VERSION_LENGTH hex digits of SHA-256 over
 * the sorted `symbol:digest` lines of the imported ones (`digests`: symbol → its bars digest, as
 * CachedMarket.importedDigests answers or as the bars read carry them, CandleInfo.digest).
 */
export function dataVersionOf(symbols: Iterable<string>, digests: ReadonlyMap<string, string>): string {
  const lines: string[] = [];
  for (const symbol of new Set(symbols)) {
    const digest = digests.get(symbol);
    if (digest !== undefined) lines.push(`${symbol}:${digest}`);
  }
  if (lines.length === 0) return '';
  return createHash('sha256').update(lines.sort().join('\n')).digest('hex').slice(0, DATA_VERSION_LENGTH);
}

/** The data version of `symbols` as the imported list is now (at most its LISTING_TTL_MS old). */
export async function currentDataVersion(market: Pick<CachedMarket, 'importedDigests'>, symbols: Iterable<string>): Promise<string> {
  return market.importedDigests ? dataVersionOf(symbols, await market.importedDigests()) : '';
}
