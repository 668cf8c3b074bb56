/**
 * Event-driven evaluation (docs/rules/alerts.md: "only the rules that watch that symbol … are
 * evaluated (an index symbol → rules)"): an index of price watches by symbol, and the evaluation of
 * one tick of quotes over it. The index is built once per rule change; a tick allocates only for the
 * watches whose state changes or that fire.
 */
import { evaluateFresh, quoteIsStale, quoteIsUsable, stepPriceWatch } from './evaluate';
import type { AlertQuote, EvaluationContext, EvaluationResult, PriceAlertType, PriceWatch, WatchState } from './types';

/** The key of a watch's stored state: one per (user, alert type, symbol). */
export function watchKey(userId: number, alertType: PriceAlertType, symbol: string): string {
  return `${userId}|${alertType}|${symbol}`;
}

/** The watches of one symbol, with their state keys computed once. */
interface SymbolWatches {
  readonly watches: PriceWatch[];
  readonly keys: string[];
}

export interface WatchIndex {
  /** The watches of `symbol` (empty when none). */
  watchesOf(symbol: string): readonly PriceWatch[];
  /** The symbols any watch watches: what the quote poller polls. */
  symbols(): readonly string[];
  /** How many watches the index holds. */
  readonly size: number;
  /** @internal the per-symbol lists `evaluateTick` walks. */
  readonly bySymbol: ReadonlyMap<string, SymbolWatches>;
}

const NONE: readonly PriceWatch[] = Object.freeze([]);

/** Indexes `watches` by symbol (the order of `watches` is kept within a symbol). */
export function createWatchIndex(watches: readonly PriceWatch[]): WatchIndex {
  const bySymbol = new Map<string, SymbolWatches>();
  for (const watch of watches) {
    let entry = bySymbol.get(watch.symbol);
    if (entry === undefined) {
      entry = { watches: [], keys: [] };
      bySymbol.set(watch.symbol, entry);
    }
    entry.watches.push(watch);
    entry.keys.push(watchKey(watch.userId, watch.alertType, watch.symbol));
  }
  const symbolList = [...bySymbol.keys()];
  return {
    watchesOf: (symbol) => bySymbol.get(symbol)?.watches ?? NONE,
    symbols: () => symbolList,
    size: watches.length,
    bySymbol,
  };
}

export interface TickResult {
  watch: PriceWatch;
  /** The state's key (`watchKey`). */
  key: string;
  result: EvaluationResult;
}

/**
 * Evaluates every watch of every quote's symbol (`states` by `watchKey`; a missing state is a new
 * watch) and answers only the results that changed a state or fired, in quote order. `states` is
 * not modified: the caller stores the new states (with the alerts, in one transaction) and then
 * updates its map. A quote with `market` set reaches only the watches of that market (BITCOIN:
 * crypto; the others: stock). `contextOf` is called once per quote that has watches.
 */
export function evaluateTick(
  index: WatchIndex,
  states: ReadonlyMap<string, WatchState>,
  quotes: readonly AlertQuote[],
  contextOf: (quote: AlertQuote) => EvaluationContext,
): TickResult[] {
  const out: TickResult[] = [];
  for (let q = 0; q < quotes.length; q += 1) {
    const quote = quotes[q]!;
    const entry = index.bySymbol.get(quote.symbol);
    if (entry === undefined) continue;
    const context = contextOf(quote);
    const { watches, keys } = entry;
    const market = quote.market;
    // A closed market, an unusable or a stale quote evaluates nothing but the start of new watches:
    // checked once per quote, and answered without a result object per watch.
    const skipsAll = !context.marketOpen || !quoteIsUsable(quote) || quoteIsStale(quote, context);
    for (let i = 0; i < watches.length; i += 1) {
      const watch = watches[i]!;
      if (market !== undefined && (market === 'crypto') !== (watch.alertType === 'BITCOIN')) continue;
      const state = states.get(keys[i]!);
      const current = state !== undefined && state.ruleStamp === watch.ruleStamp;
      if (current && skipsAll) continue;
      const result = current ? evaluateFresh(watch, state, quote, context) : stepPriceWatch(watch, state ?? null, quote, context);
      if (result !== null && (result.changed || result.fired !== null)) out.push({ watch, key: keys[i]!, result });
    }
  }
  return out;
}
