/**
 * The option chains the option engines read (options, and drop's O items, whose CALL the options
 * engine's code chooses and values): a session's chains (the extras) and the chains the marks of
 * chain-priced open ideas read now. Shared by option-trades.adapter.ts and drop-items.adapter.ts.
 */
import {
  chooseExpiry,
  dayNumber,
  isoFromDayNumber,
  OPTIONS_PARAMS,
  tradingDayOnOrAfter,
  type OptionChainSnapshot,
  type OptionsParams,
  type StoredIdeaEvent,
} from '@signalboard/core';
import type { CachedMarket } from '../../../providers/market/cached-market';
import type { OptionChain } from '../../../providers/market/types';
import type { AnyEngine } from '../trades.types';

/** A contract chosen from a chain. */
export interface ChainContract {
  side: 'CALL' | 'PUT';
  expiry: string;
  strike: number;
}

/**
 * The contract of an open idea chosen from a chain, marked on `date` (null for the rest). One
 * waiting for its entry, or entered on `date`, is on its entry bar: that bar is valued at the
 * entry's σ, so its marks read no chain (docs/strategies/option-sigma.md).
 */
export type ChainPricedContract = (engine: AnyEngine, events: readonly StoredIdeaEvent[], date: string) => ChainContract | null;

/** Past its entry bar on `date`: entered on a session before it. */
export const pastEntryBar = (state: { entryDay: number | null }, date: string): boolean => state.entryDay !== null && state.entryDay < dayNumber(date);

/** A source's chain as the engines read it. */
export function chainSnapshot(chain: OptionChain): OptionChainSnapshot {
  return {
    underlying: chain.symbol,
    contracts: chain.contracts.map((contract) => ({
      expiry: contract.expiration,
      strike: contract.strike,
      side: contract.type === 'call' ? ('CALL' as const) : ('PUT' as const),
      bid: contract.bid,
      ask: contract.ask,
      ...(contract.impliedVolatility > 0 ? { iv: contract.impliedVolatility } : {}),
      openInterest: contract.openInterest,
    })),
  };
}

/**
 * The chains of a session's needs (symbol → the one expiry needed, or null for every expiry), as
 * snapshots. A source that keeps past chains answers as of the session (`date`), on any pass; a
 * session it has no chain for is priced by the model. A source with today's chains only answers on
 * the live session; its chain may list the contracts of the nearest expiry only (Yahoo), so for a
 * new alert the expiry §4.2 takes from the listed expirations is read too (≤ 2 requests a symbol).
 * A failing or stale answer leaves the symbol out (the model prices it), with a warning.
 */
export async function sessionChains(
  market: CachedMarket,
  needs: ReadonlyMap<string, string | null>,
  date: string,
  live: boolean,
  params: Pick<OptionsParams, 'targetDte' | 'dteRange' | 'dteFallback'>,
  log: { warn(message: string): void },
  pace?: () => Promise<void>,
): Promise<Map<string, OptionChainSnapshot>> {
  const out = new Map<string, OptionChainSnapshot>();
  const asOf = market.getOptionChainAsOf !== undefined;
  if (needs.size === 0 || (!asOf && !live)) return out;
  for (const [symbol, expiry] of needs) {
    await pace?.();
    try {
      let chain: OptionChain | null;
      if (asOf) {
        const answer = await market.getOptionChainAsOf!(symbol, date, expiry ?? undefined);
        chain = answer.stale ? null : answer.value;
      } else {
        const answer = await market.getOptionChain(symbol, expiry ?? undefined);
        chain = answer.stale ? null : answer.value;
        if (chain && expiry === null) chain = await withChosenExpiry(market, chain, date, params);
      }
      if (chain && chain.contracts.length > 0) out.set(symbol, chainSnapshot(chain));
    } catch (error) {
      log.warn(`Trade ideas: no option chain for ${symbol} on ${date} (${error instanceof Error ? error.message : String(error)}); the model prices it`);
    }
  }
  return out;
}

/** A chain now whose contracts leave out the expiry §4.2 takes from its expirations: with that expiry's contracts added. */
async function withChosenExpiry(market: CachedMarket, chain: OptionChain, date: string, params: Pick<OptionsParams, 'targetDte' | 'dteRange' | 'dteFallback'>): Promise<OptionChain> {
  const quoted = new Set(chain.contracts.map((contract) => contract.expiration));
  const chosen = chooseExpiry(
    chain.expirations.map((expiration) => dayNumber(expiration)),
    tradingDayOnOrAfter(dayNumber(date) + 1),
    params,
  );
  if (chosen === null) return chain;
  const expiry = isoFromDayNumber(chosen);
  if (quoted.has(expiry)) return chain;
  const answer = await market.getOptionChain(chain.symbol, expiry);
  if (answer.stale) return chain;
  return { ...chain, contracts: [...chain.contracts, ...answer.value.contracts.filter((contract) => contract.expiration === expiry)] };
}

/**
 * The chains the marks of open ideas read now (docs/rules/option-trades.md §4.3: a trade priced from a
 * chain is marked at the chain's bid): per underlying of an open idea whose contract `contractOf`
 * says was chosen from a chain, past its entry bar, its expiry's chain as of today's session (a
 * source that keeps them) or now (a live source). Empty when no open idea was chain-priced.
 */
export function markChainsOf(contractOf: ChainPricedContract) {
  return async (engine: AnyEngine, market: CachedMarket, logs: Iterable<readonly StoredIdeaEvent[]>, date: string, log: { warn(message: string): void }): Promise<Map<string, OptionChainSnapshot>> => {
    const needs = new Map<string, string | null>();
    for (const events of logs) {
      const contract = contractOf(engine, events, date);
      if (!contract) continue;
      const symbol = events[0]!.symbol;
      needs.set(symbol, needs.has(symbol) && needs.get(symbol) !== contract.expiry ? null : contract.expiry);
    }
    return sessionChains(market, needs, date, true, OPTIONS_PARAMS, log);
  };
}
