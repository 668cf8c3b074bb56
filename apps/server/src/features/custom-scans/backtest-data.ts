/**
 * The imported prices a backtest reads (issue 29; docs/custom-scans.md "Backtest jobs", "The data it
 * ran on"): the data version of the bars it read, the one its universe has now, and how far back the
 * universe's imported history goes.
 * - Read: each bar series carries its stored digest (CandleInfo.digest), so the version of what was
 *   read is exact even when an import lands while the backtest reads.
 * - Now: the universe's members and its benchmark against the imported list (at most its 10 s old).
 */
import type { ScanUniverse } from '@signalboard/core';
import type { CachedMarket } from '../../providers/market/cached-market';
import { currentDataVersion, dataVersionOf } from '../../providers/market/imported/data-version';
import type { Bars } from '../../providers/market/types';
import { loadScanBars, type LoadBarsOptions } from './scan-bars';
import { scanUniverseMembers, type UniverseDeps } from './scan-universe';

/** The benchmark of each universe: SPY for stocks, BTC for crypto. */
export const BACKTEST_BENCHMARKS: Readonly<Record<ScanUniverse, string>> = { sp500: 'SPY', us: 'SPY', tsx: 'SPY', crypto: 'BTC', favorites: 'SPY' };

const DAY_SECONDS = 86_400;

/** The data version of the bars read: their imported symbols' digests ('' when none is imported). */
export function dataVersionRead(bars: Iterable<Bars>): string {
  const digests = new Map<string, string>();
  for (const each of bars) if (each.candles?.digest !== undefined) digests.set(each.symbol, each.candles.digest);
  return dataVersionOf(digests.keys(), digests);
}

/**
 * The data version the scan's universe (its members and its benchmark) reads now. Without imported
 * prices it is '' and the universe is not listed.
 */
export async function universeDataVersion(deps: UniverseDeps, universe: ScanUniverse, userId: number): Promise<string> {
  const { market } = deps;
  const digests = market.importedDigests ? await market.importedDigests() : undefined;
  if (!digests || digests.size === 0) return '';
  const members = await scanUniverseMembers(universe, deps, userId);
  return currentDataVersion(market, [...members.map((member) => member.symbol), BACKTEST_BENCHMARKS[universe]]);
}

/**
 * The first day (day number) of the imported history of `symbols` on or after `fromDay`; null when
 * none of them is imported or has a bar then. Their bars are read through the cache, as the backtest
 * then reads them again.
 */
export async function importedHistoryStart(market: CachedMarket, symbols: readonly string[], fromDay: number, toDay: number, options: LoadBarsOptions): Promise<number | null> {
  const digests = market.importedDigests ? await market.importedDigests() : undefined;
  const imported = digests ? [...new Set(symbols)].filter((symbol) => digests.has(symbol)) : [];
  if (imported.length === 0) return null;
  const loaded = await loadScanBars(market, imported.map((symbol) => ({ symbol })), fromDay, toDay, options);
  let first: number | null = null;
  for (const bars of loaded.bars.values()) {
    const day = bars.time.length > 0 ? Math.round(bars.time[0]! / DAY_SECONDS) : null;
    if (day !== null && (first === null || day < first)) first = day;
  }
  return first;
}
