/**
 * The options engine's adapter (engine id 'options'; docs/rules/option-trades.md). Its universe: the
 * OPTION_ALERT tickers the source knows. Its extras (§4): the risk-free rate (DTB3) and the 30-day IV
 * indexes (VIX, VXN) as of the session when the source has them (else absent: r = 0.04, σ from the
 * bars); the option chains the session reads (optionChainNeeds: new alerts, open chain-priced
 * trades): as of the session on every pass, replay included, where the source keeps past chains
 * (the simulated market; a file market whose chains carry asOf); else only on a live pass for the
 * session being decided, the chains now (a live source's chain says nothing about last year).
 * Without a chain for the day priced, the engine prices with the model. Its marks: a trade chosen
 * from a chain, past its entry bar, is marked at the chain's bid when the chain quotes it (§4.3;
 * else the fold values it with the model at its σ).
 */
import { optionChainNeeds, type OptionMark, type OptionsExtras, type OptionsParams, type OptionState, type SessionInput, tradesEndpoints } from '@signalboard/core';
import type { EconomicSeries } from '../../../providers/market/types';
import type { EngineAdapter } from '../engine-adapter';
import { optionAlertUniverse, STOCK_CALENDAR } from '../trades.market';
import { markChainsOf, pastEntryBar, sessionChains, type ChainPricedContract } from './option-chains';

/** The economic series behind the rate and the IV indexes (FRED ids) and the index names the engine knows. */
export const RATE_SERIES = 'DTB3';
export const IV_INDEX_SERIES: Readonly<Record<string, string>> = { VIX: 'VIXCLS', VXN: 'VXNCLS' };

/** The value of a series on or before `date` (observations newest first), or undefined. */
export function valueAsOf(series: EconomicSeries | null, date: string): number | undefined {
  if (!series) return undefined;
  for (const observation of series.observations) if (observation.date <= date && Number.isFinite(observation.value)) return observation.value;
  return undefined;
}

/** An open option trade's contract, when chosen from a chain and past its entry bar. */
const chainPricedTrade: ChainPricedContract = (engine, events, date) => {
  const state = engine.openState(events) as OptionState | null;
  if (!state) return null;
  return state.priceSource === 'chain' && pastEntryBar(state, date) ? { side: state.side, expiry: state.expiry, strike: state.strike } : null;
};

export const optionTradesAdapter: EngineAdapter<'options'> = {
  id: 'options',
  universe: optionAlertUniverse,
  calendar: STOCK_CALENDAR,

  async extras(engine, _universe, { market, log }) {
    const fetchSeries = async (id: string): Promise<EconomicSeries | null> => {
      try {
        return (await market.getEconomicSeries(id)).value;
      } catch {
        // The source has no such series: the engine's default applies.
        return null;
      }
    };
    const rate = await fetchSeries(RATE_SERIES);
    const indexes = new Map<string, EconomicSeries>();
    for (const [name, id] of Object.entries(IV_INDEX_SERIES)) {
      const series = await fetchSeries(id);
      if (series) indexes.set(name, series);
    }
    return async (input, { live, pace }): Promise<OptionsExtras> => {
      const date = input.session.date;
      const extras: { -readonly [K in keyof OptionsExtras]: OptionsExtras[K] } = {};
      const dtb3 = valueAsOf(rate, date);
      if (dtb3 !== undefined) extras.riskFreeRate = dtb3 / 100;
      const iv = new Map<string, number>();
      for (const [name, series] of indexes) {
        const value = valueAsOf(series, date);
        if (value !== undefined) iv.set(name, value);
      }
      if (iv.size > 0) extras.ivIndexes = iv;
      const needs = optionChainNeeds({ ...(input as unknown as SessionInput<OptionsParams, OptionState>), extras });
      const chains = await sessionChains(market, needs, date, live, engine.params as OptionsParams, log, pace);
      if (chains.size > 0) extras.optionChains = chains;
      return extras;
    };
  },

  marks: {
    chains: markChainsOf(chainPricedTrade),
    markAt(engine, events, mark, chains) {
      if (!chains || chains.size === 0) return mark;
      const contract = chainPricedTrade(engine, events, mark.at.slice(0, 10));
      const quote = contract && chains.get(events[0]!.symbol)?.contracts.find((c) => c.side === contract.side && c.expiry === contract.expiry && Math.abs(c.strike - contract.strike) < 1e-9);
      if (!quote || !(quote.bid > 0)) return mark;
      const quoted: OptionMark = { ...mark, optionValue: quote.bid };
      return quoted;
    },
  },

  typesOf: () => [],
  list: { endpoint: tradesEndpoints.getCombinedOptionsData, statuses: ['active', 'successful', 'failed'], order: 'profit' },
};
