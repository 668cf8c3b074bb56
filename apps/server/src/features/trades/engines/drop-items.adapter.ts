/**
 * The drop engine's adapter (the drop-items feature, engine id 'drop'; docs/rules/drop-items.md). Its
 * universe: the S&P 500 members the source knows and the OPTION_ALERT tickers it knows. Its extras
 * (§5): the S&P 500 members, the OPTION_ALERT underlyings, the sectors (profiles), the open swing
 * trade per symbol, and the company news of the day's new candidates (dropSignals), from each one's
 * reference high through the session, ≤ 30 symbols a day (docs/rules/data-needs.md §7), and the
 * chains of its O items (dropChainNeeds), as the options engine's. Its marks: an O item carries the
 * option's value at the price (σ from the chain's IV when a chain quotes the contract). Its rows'
 * types: StockType (S, L, O). Its replay runs after swing's (its items link the open swing trade).
 */
import {
  dropChainNeeds,
  dropMarkAt,
  dropSignals,
  isoFromDayNumber,
  OPTIONS_PARAMS,
  type DropExtras,
  type DropHeadline,
  type DropParams,
  type DropState,
  type SessionInput,
  type UniverseMember,
  tradesEndpoints,
} from '@signalboard/core';
import type { CachedMarket } from '../../../providers/market/cached-market';
import { OPTION_ALERT_TICKERS } from '../../../providers/market/universe';
import type { EngineAdapter } from '../engine-adapter';
import { optionAlertUniverse, STOCK_CALENDAR, stockUniverse } from '../trades.market';
import { markChainsOf, pastEntryBar, sessionChains, type ChainPricedContract } from './option-chains';

/** docs/rules/data-needs.md §7: company-news requests of the drop engine per session at most. */
export const DROP_NEWS_PER_DAY = 30;

/** The S&P 500 members the source knows, then the OPTION_ALERT tickers it knows that are not among them. */
async function dropUniverse(market: CachedMarket, survivorshipBiased: boolean): Promise<UniverseMember[]> {
  const options = await optionAlertUniverse(market, survivorshipBiased);
  const stocks = await stockUniverse(market, survivorshipBiased);
  const seen = new Set(stocks.map((member) => member.symbol));
  return [...stocks, ...options.filter((member) => !seen.has(member.symbol))];
}

/** The company headlines of the day's candidates (first DROP_NEWS_PER_DAY symbols, in rank order) from their reference high through `date`. */
async function dropNews(
  market: CachedMarket,
  candidates: ReadonlyArray<{ symbol: string; series: { day: Int32Array }; trigger: { referenceIndex: number } }>,
  date: string,
  now: string,
  pace?: () => Promise<void>,
): Promise<Map<string, DropHeadline[]>> {
  const from = new Map<string, string>();
  for (const pick of candidates) {
    const start = isoFromDayNumber(pick.series.day[pick.trigger.referenceIndex]!);
    const known = from.get(pick.symbol);
    if (known === undefined) {
      if (from.size >= DROP_NEWS_PER_DAY) continue;
      from.set(pick.symbol, start);
    } else if (start < known) from.set(pick.symbol, start);
  }
  const nowSeconds = Date.parse(now) / 1000;
  const out = new Map<string, DropHeadline[]>();
  for (const [symbol, start] of from) {
    await pace?.();
    try {
      const articles = (await market.getCompanyNews(symbol, start, date)).value;
      out.set(
        symbol,
        articles
          .filter((article) => article.datetime <= nowSeconds)
          .sort((a, b) => a.datetime - b.datetime || a.id.localeCompare(b.id))
          .map((article) => ({ datetime: new Date(article.datetime * 1000).toISOString(), headline: article.headline, summary: article.summary, ...(article.url ? { url: article.url } : {}) })),
      );
    } catch {
      // No news for the symbol: the item says so (Neutral, no identifiable news).
    }
  }
  return out;
}

/** An open O item's CALL, when chosen from a chain and past its entry bar. */
const chainPricedCall: ChainPricedContract = (engine, events, date) => {
  const state = engine.openState(events) as DropState | null;
  if (!state) return null;
  return state.stockType === 'O' && state.option?.pricing.priceSource === 'chain' && pastEntryBar(state, date) ? { side: 'CALL', expiry: state.option.expiry, strike: state.option.strike } : null;
};

export const dropItemsAdapter: EngineAdapter<'drop'> = {
  id: 'drop',
  universe: dropUniverse,
  calendar: STOCK_CALENDAR,

  async extras(_engine, universe, { market, repo, log, indexMembers, universeOf }) {
    // The index: the layered / swing universe (the S&P 500 members the source knows).
    const index = await (indexMembers ?? (universeOf ? () => universeOf(false, 'layered') : () => stockUniverse(market, false)))();
    const members = new Set(index.map((member) => member.symbol));
    const inUniverse = new Set(universe.map((member) => member.symbol));
    const underlyings = new Set(OPTION_ALERT_TICKERS.filter((symbol) => inUniverse.has(symbol)));
    const sectors = new Map<string, string>();
    for (const member of universe) if (member.sector) sectors.set(member.symbol, member.sector);
    for (const member of universe) {
      if (sectors.has(member.symbol) || !underlyings.has(member.symbol)) continue;
      try {
        const profile = (await market.getProfile(member.symbol)).value;
        if (profile.sector) sectors.set(member.symbol, profile.sector);
      } catch {
        // no profile: the row's sector stays empty
      }
    }
    // Swing trades (any version) with their open span: the one open on a session is linked.
    const swing = (await repo.ideasOf('swing')).rows.filter((row) => !row.isVoided);
    const base: DropExtras = { dropIndexMembers: members, dropOptionUnderlyings: underlyings, sectors };
    return async (input, { live, pace }): Promise<DropExtras> => {
      const date = input.session.date;
      const swingTradeIds = new Map<string, string>();
      for (const row of swing) {
        if (row.signalDate > date || (row.closedBarDate !== null && row.closedBarDate < date)) continue;
        const known = swingTradeIds.get(row.symbol);
        if (known === undefined || known < row.id) swingTradeIds.set(row.symbol, row.id);
      }
      const extras: DropExtras = { ...base, swingTradeIds };
      const dropInput = { ...(input as unknown as SessionInput<DropParams, DropState>), extras };
      await pace?.();
      const signals = dropSignals(dropInput, true);
      const news = await dropNews(market, [...signals.S, ...signals.L, ...signals.O], date, input.session.now, pace);
      // O's CALL is chosen and valued by the options engine's code with its parameters.
      const chains = await sessionChains(market, dropChainNeeds(dropInput, signals.O), date, live, OPTIONS_PARAMS, log, pace);
      return { ...extras, dropNews: news, ...(chains.size > 0 ? { optionChains: chains } : {}) };
    };
  },

  marks: {
    chains: markChainsOf(chainPricedCall),
    markAt: (_engine, events, mark, chains) => dropMarkAt(events, mark, undefined, chains && chains.size > 0 ? { optionChains: chains } : {}),
  },

  typesOf: (row) => (row.StockType === 'S' || row.StockType === 'L' || row.StockType === 'O' ? [row.StockType] : []),
  replayAfter: 'swing',
  list: { endpoint: tradesEndpoints.getStockScannerData, statuses: ['active', 'deactivated'], types: { S: 'S', L: 'L', O: 'O' }, order: 'created' },
};
