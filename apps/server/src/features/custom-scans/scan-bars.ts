/**
 * The daily bars a custom scan reads (docs/custom-scans.md, "Running a scan"): every member's bars
 * in a window of days through the market cache, a few symbols at once. A run (scan-run.service.ts)
 * and a backtest (backtest-input.ts) read them the same way.
 */
import { settleInCompletionOrder } from '../../lib/completion-order';
import type { CachedMarket } from '../../providers/market/cached-market';
import { NoPriceHistoryError, UnknownSymbolError, type Bars } from '../../providers/market/types';

const DAY_SECONDS = 86_400;

/** Symbols read at once: 8, one on the live source (whose adapters pace themselves). */
export const scanConcurrency = (market: Pick<CachedMarket, 'source'>): number => (market.source === 'live' ? 1 : 8);

/** What reading the universe's bars gave: each symbol's bars in the window (possibly none), and the failures. */
export interface LoadedBars {
  bars: Map<string, Bars>;
  /** How many symbols' bars failed for another reason than an unknown symbol or one without history (a provider problem, a bug). */
  failed: number;
  /** The first of those errors. */
  firstError: unknown;
}

export interface LoadBarsOptions {
  concurrency: number;
  /** Once aborted, no further symbol is asked for. */
  signal?: AbortSignal;
  /**
   * Awaited after each symbol (read or not): a background reader writes its progress and gives way
   * to requests here (a simulated history is generated synchronously: without a pause, a cold read
   * of hundreds of symbols held the event loop for seconds).
   */
  onSymbol?: () => Promise<void> | void;
}

/** Every member's daily bars in [fromDay, toDay] (day numbers) through the cache; an unknown symbol or one without history has none. */
export async function loadScanBars(market: Pick<CachedMarket, 'getDailyBars'>, members: readonly { symbol: string }[], fromDay: number, toDay: number, options: LoadBarsOptions): Promise<LoadedBars> {
  const out: LoadedBars = { bars: new Map(), failed: 0, firstError: undefined };
  const read = async ({ symbol }: { symbol: string }) => (await market.getDailyBars(symbol, fromDay * DAY_SECONDS, toDay * DAY_SECONDS)).value;
  for await (const outcome of settleInCompletionOrder(members, options.concurrency, read, options.signal)) {
    if (outcome.ok) out.bars.set(outcome.item.symbol, outcome.value);
    else if (!(outcome.error instanceof UnknownSymbolError || outcome.error instanceof NoPriceHistoryError)) {
      out.failed += 1;
      out.firstError ??= outcome.error;
    }
    await options.onSymbol?.();
  }
  return out;
}
