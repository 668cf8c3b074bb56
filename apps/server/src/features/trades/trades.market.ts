/**
 * What the engines read of the market: the universes (S&P 500 members the source knows, the
 * OPTION_ALERT tickers it knows) and daily
 * bars as DailySeries (typed arrays, day numbers), read through the CachedMarket. On the live source
 * the adapters' own rate limits pace the requests: a request our limiter refuses waits its
 * Retry-After and goes again (docs/rules/data-needs.md §7: the free tiers' limits).
 */
import { isTradingDayNumber, marketSession, newYorkInstantMs, type DailySeries, type UniverseMember } from '@signalboard/core';
import type { CachedMarket } from '../../providers/market/cached-market';
import { ProviderError, UnknownSymbolError, type Bars, type SymbolInfo } from '../../providers/market/types';
import { OPTION_ALERT_TICKERS, universeBySymbol, US_STOCKS } from '../../providers/market/universe';
import type { EngineCalendar } from './engine-adapter';
import type { AnyEngine } from './trades.types';
import { dataChangedSince } from './trades.versions';

const DAY_SECONDS = 86_400;
/** The daily pass runs at 16:30 New York on trading sessions (docs/rules/conventions.md §0.3). */
export const DAILY_PASS_MINUTE = 16 * 60 + 30;
/** Calendar days of daily history the replay and the passes read: two years (260 warm-up bars, then the replay). */
export const HISTORY_DAYS = 731;
/**
 * Calendar days of an imported history a replay reads at most (five years, then the 260 warm-up bars
 * come out of it): the bound the custom-scan backtests measured (custom-scans/backtest-input.ts
 * BACKTEST_MAX_WINDOW_DAYS: ten years of a 500-symbol universe would take a third of the server's
 * 250 MB), so a universe of imported decades stays within the memory budget.
 */
export const IMPORTED_REPLAY_MAX_DAYS = 1_826;
/** Longest a refused live request waits before it is asked again. */
const MAX_RATE_LIMIT_WAIT_MS = 60_000;

/** The latest trading session whose daily pass time (16:30 New York) has come at `nowMs` (day number). */
export function passSessionDay(nowMs: number): number {
  let day = Math.floor(nowMs / 86_400_000) + 1;
  while (!isTradingDayNumber(day) || newYorkInstantMs(day, DAILY_PASS_MINUTE) > nowMs) day -= 1;
  return day;
}

/** The instant of a session's daily pass (a replay's `now`). */
export const passTimeMs = (day: number) => newYorkInstantMs(day, DAILY_PASS_MINUTE);

/**
 * The stock engines' universe: today's S&P 500 members the source knows (the file source: its US
 * stocks). `survivorshipBiased` says the list is today's, not the session's (true in a replay).
 */
export async function stockUniverse(market: CachedMarket, survivorshipBiased: boolean): Promise<UniverseMember[]> {
  const usStock = (info: SymbolInfo) => info.market === 'US' && info.assetClass === 'stock';
  const listed: ReadonlyArray<{ symbol: string; sector?: string | undefined }> = market.source === 'file' && market.listSymbols ? (await market.listSymbols()).filter(usStock) : US_STOCKS;
  // The US stocks of imported price files join it (docs/data-in-and-out.md "Serving imported prices").
  const imported = (await importedListings(market)).filter(usStock);
  const known = new Set(listed.map((info) => info.symbol));
  return [...listed, ...imported.filter((info) => !known.has(info.symbol))].map((info) => ({
    symbol: info.symbol,
    market: 'US' as const,
    ...(info.sector ? { sector: info.sector } : {}),
    survivorshipBiased,
  }));
}

/** The symbols of imported price files (none when the market has no imported layer). */
export async function importedListings(market: CachedMarket): Promise<SymbolInfo[]> {
  return market.importedSymbols ? market.importedSymbols() : [];
}

/** The OPTION_ALERT tickers the source knows (the file source: those it lists; else the built-in universe's): the options engine's universe. */
export async function optionAlertUniverse(market: CachedMarket, survivorshipBiased: boolean): Promise<UniverseMember[]> {
  let known: Map<string, string | undefined>;
  if (market.source === 'file' && market.listSymbols) {
    known = new Map((await market.listSymbols()).filter((info) => info.market === 'US').map((info) => [info.symbol, info.sector]));
  } else {
    known = new Map(OPTION_ALERT_TICKERS.filter((symbol) => universeBySymbol.has(symbol)).map((symbol) => [symbol, universeBySymbol.get(symbol)!.sector]));
  }
  return OPTION_ALERT_TICKERS.filter((symbol) => known.has(symbol)).map((symbol) => {
    const sector = known.get(symbol);
    return { symbol, market: 'US' as const, ...(sector ? { sector } : {}), survivorshipBiased };
  });
}

/**
 * Bars → DailySeries, keeping the bars dated on or before `lastDay`: views of the bars' arrays (the
 * market cache's value), not copies, so a run holds no second copy of every symbol's history (each
 * engine's replay copied ~12 MB for the S&P 500). Only the day numbers are new. Never written to.
 */
export function toDailySeries(bars: Bars, market: DailySeries['market'], lastDay: number): DailySeries {
  let end = bars.time.length;
  while (end > 0 && Math.round(bars.time[end - 1]! / DAY_SECONDS) > lastDay) end -= 1;
  const day = new Int32Array(end);
  for (let index = 0; index < end; index += 1) day[index] = Math.round(bars.time[index]! / DAY_SECONDS);
  return {
    symbol: bars.symbol,
    market,
    day,
    open: bars.open.subarray(0, end),
    high: bars.high.subarray(0, end),
    low: bars.low.subarray(0, end),
    close: bars.close.subarray(0, end),
    volume: bars.volume.subarray(0, end),
  };
}

/** The views of `series` that end at the bar of `day` (or the last before it): zero-copy subarrays. */
export function seriesThrough(series: DailySeries, day: number): DailySeries {
  let lo = 0;
  let hi = series.day.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (series.day[mid]! <= day) lo = mid + 1;
    else hi = mid;
  }
  return {
    symbol: series.symbol,
    market: series.market,
    day: series.day.subarray(0, lo),
    open: series.open.subarray(0, lo),
    high: series.high.subarray(0, lo),
    low: series.low.subarray(0, lo),
    close: series.close.subarray(0, lo),
    volume: series.volume.subarray(0, lo),
  };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The last `HISTORY_DAYS` of daily bars of every member, through `lastDay`. Symbols the source does
 * not know are left out; any other failure rejects (the pass fails and is retried; nothing is written).
 */
export async function loadSeries(
  market: CachedMarket,
  universe: readonly UniverseMember[],
  lastDay: number,
  /** `pace`: called before each symbol (a source that answers from memory answers the whole universe without a pause). */
  /**
   * `digests`: filled with the bars digest of each imported symbol's series (CandleInfo.digest: the
   * data the run reads). `wholeHistory`: symbols read from their first bar (IMPORTED_REPLAY_MAX_DAYS
   * at most), not the last HISTORY_DAYS (a replay reads an imported history: docs/data-in-and-out.md
   * "Replays of new data").
   */
  options: { concurrency?: number; shouldStop?: () => boolean; pace?: () => Promise<void>; digests?: Map<string, string>; wholeHistory?: ReadonlySet<string> } = {},
): Promise<Map<string, DailySeries>> {
  const out = new Map<string, DailySeries>();
  const queue = [...universe];
  // The live adapters pace themselves (token buckets); more than one request at a time only queues.
  const concurrency = options.concurrency ?? (market.source === 'live' ? 1 : 8);
  const worker = async () => {
    for (let member = queue.shift(); member; member = queue.shift()) {
      if (options.shouldStop?.()) return;
      await options.pace?.();
      for (;;) {
        try {
          const answer = options.wholeHistory?.has(member.symbol)
            ? await market.getDailyBars(member.symbol, (lastDay - IMPORTED_REPLAY_MAX_DAYS) * DAY_SECONDS, (lastDay + 1) * DAY_SECONDS)
            : await market.getRecentDailyBars(member.symbol, HISTORY_DAYS);
          if (answer.stale) throw new Error(`${member.symbol}: the provider is failing (only an older copy is cached)`);
          out.set(member.symbol, toDailySeries(answer.value, member.market, lastDay));
          const digest = answer.value.candles?.digest;
          if (digest !== undefined) options.digests?.set(member.symbol, digest);
          break;
        } catch (error) {
          if (error instanceof UnknownSymbolError) break;
          const wait = error instanceof ProviderError && error.options.status === 429 && !error.options.retryable ? (error.options.retryAfterSeconds ?? 10) * 1000 : undefined;
          if (wait === undefined || options.shouldStop?.()) throw error;
          await sleep(Math.min(wait, MAX_RATE_LIMIT_WAIT_MS));
        }
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return out;
}

/** The sessions (day numbers, ascending) on which some series has a bar, within [fromDay, toDay]. */
export function sessionDays(series: Iterable<DailySeries>, fromDay: number, toDay: number): number[] {
  const days = new Set<number>();
  for (const one of series) for (const day of one.day) if (day >= fromDay && day <= toDay && isTradingDayNumber(day)) days.add(day);
  return [...days].sort((a, b) => a - b);
}

/** The stock and option engines' calendar: NYSE trading days, the pass at 16:30 New York, marks while the market is open. */
export const STOCK_CALENDAR: EngineCalendar = {
  passDay: passSessionDay,
  passTimeMs,
  isSession: isTradingDayNumber,
  sessionDays,
  markSlot: (nowMs, interval) => (marketSession(nowMs).phase === 'open' ? new Date(Math.floor(nowMs / interval) * interval) : null),
};

/**
 * The series of an engine's run (loadSeries) and, when they are not the data its version names, why
 * (dataChangedSince). A replay reads an imported history whole, so it covers the imported range.
 */
export async function seriesOnData(
  engine: AnyEngine,
  market: CachedMarket,
  universe: readonly UniverseMember[],
  lastDay: number,
  options: { replay: boolean; shouldStop?: () => boolean; pace?: () => Promise<void> },
): Promise<{ series: Map<string, DailySeries>; changed: string | null }> {
  const digests = new Map<string, string>();
  const wholeHistory = options.replay ? new Set((await market.importedDigests?.())?.keys()) : undefined;
  const series = await loadSeries(market, universe, lastDay, { ...(options.shouldStop ? { shouldStop: options.shouldStop } : {}), ...(options.pace ? { pace: options.pace } : {}), digests, ...(wholeHistory ? { wholeHistory } : {}) });
  return { series, changed: dataChangedSince(engine, universe, digests) };
}
