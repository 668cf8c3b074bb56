/**
 * What each engine reads beyond bars (its own extras type: packages/core engines/<name>/extras.ts),
 * its universe and its marks, as its adapter (engines.ts ENGINE_ADAPTERS; engine-adapter.ts) says:
 * the shared code asks here.
 * - Universe: layered and swing the S&P 500 members the source knows; options the OPTION_ALERT
 *   tickers the source knows; drop both; crypto the source's coins (engines/crypto.ts).
 * - Extras, per session: options its rate, IV indexes and chains (engines/option-trades.adapter.ts),
 *   drop its index, sectors, swing links, news and chains (engines/drop-items.adapter.ts), swing the
 *   earnings calendar (engines/swing.adapter.ts), crypto its candles' provenance and news
 *   (engines/crypto.ts); layered none.
 * - Marks: the chain-priced contracts of options and drop's O items (engines/option-chains.ts).
 */
import type { EngineId, Mark, OptionChainSnapshot, OptionMark, StoredIdeaEvent, UniverseMember } from '@signalboard/core';
import type { CachedMarket } from '../../providers/market/cached-market';
import type { ExtrasDeps } from './engine-adapter';
import { adapterOf } from './engines';
import type { AnyEngine, AnyExtrasFor } from './trades.types';

export type { ExtrasDeps } from './engine-adapter';

/** An engine's universe: `survivorshipBiased` as stockUniverse. */
export function engineUniverse(market: CachedMarket, engine: EngineId, survivorshipBiased: boolean): Promise<UniverseMember[]> {
  return adapterOf(engine).universe(market, survivorshipBiased);
}

/**
 * The extras of `engine` for a run over `universe`, per session; `live` is true only for the session
 * a live pass decides (the one that gets today's chains from a source without past ones). The
 * adapter builds the engine's own extras type; they are held here as SessionExtras (any engine's).
 */
export function createExtrasFor(engine: AnyEngine, universe: readonly UniverseMember[], deps: ExtrasDeps): Promise<AnyExtrasFor> {
  return adapterOf(engine).extras(engine, universe, deps);
}

/**
 * The chains the marks of open ideas read now (docs/rules/option-trades.md §4.3: a trade priced from a chain is
 * marked at the chain's bid; EngineMarks.chains). Empty for the engines without such marks and when
 * no open idea was chain-priced.
 */
export async function markChains(engine: AnyEngine, market: CachedMarket, logs: Iterable<readonly StoredIdeaEvent[]>, date: string, log: { warn(message: string): void }): Promise<Map<string, OptionChainSnapshot>> {
  const marks = adapterOf(engine).marks;
  return marks ? marks.chains(engine, market, logs, date, log) : new Map();
}

/**
 * The mark an engine folds a row at (EngineMarks.markAt): drop's O items carry the option's value at
 * the price (σ from the chain's IV when `chains` quote the contract), an option trade chosen from a
 * chain the chain's bid when `chains` quote it and it is past its entry bar (else the fold values
 * it with the model at its σ). The store keeps the value
 * (ideas.mark_option_value), so a stored row is the fold of its events at its stored mark.
 */
export function markFor(engine: AnyEngine, events: readonly StoredIdeaEvent[], mark: Mark | null, chains?: ReadonlyMap<string, OptionChainSnapshot>): Mark | null {
  // A mark that carries the option's value already (a stored one, refolded) is folded as it is.
  if (!mark || typeof (mark as OptionMark).optionValue === 'number') return mark;
  const marks = adapterOf(engine).marks;
  return marks ? marks.markAt(engine, events, mark, chains) : mark;
}
