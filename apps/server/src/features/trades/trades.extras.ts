/**
 * What each engine reads beyond bars (types.ts SessionExtras), from the market source and the store:
 * - options (docs/rules/option-trades.md §4): the risk-free rate (DTB3) and the 30-day IV indexes (VIX, VXN) as of
 *   the session when the source has them (else absent: r = 0.04, σ from the bars); the option
 *   chains the session reads (optionChainNeeds: new alerts, open chain-priced trades): as of the
 *   session on every pass, replay included, where the source keeps past chains (the simulated
 *   market; a file market whose chains carry asOf); else only on a live pass for the session being
 *   decided, the chains now (a live source's chain says nothing about last year). Without a chain
 *   for the day priced, the engine prices with the model.
 * - drop (docs/rules/drop-items.md §5): the S&P 500 members, the OPTION_ALERT underlyings, the sectors
 *   (profiles), the open swing trade per symbol, and the company news of the day's new candidates
 *   (dropSignals), from each one's reference high through the session, ≤ 30 symbols a day (§7), and
 *   the chains of its O items (dropChainNeeds), as the options engine's.
 * And each engine's universe: layered and swing the S&P 500 members the source knows; options the
 * OPTION_ALERT tickers the source knows; drop both.
 */
import {
  chooseExpiry,
  dayNumber,
  dropChainNeeds,
  dropMarkAt,
  dropSignals,
  isoFromDayNumber,
  optionChainNeeds,
  OPTIONS_PARAMS,
  tradingDayOnOrAfter,
  type DailySeries,
  type DropHeadline,
  type DropParams,
  type DropState,
  type EngineId,
  type Mark,
  type OptionChainSnapshot,
  type OptionMark,
  type OptionsParams,
  type OptionState,
  type SessionExtras,
  type SessionInput,
  type StoredIdeaEvent,
  type UniverseMember,
} from '@signalboard/core';
import type { CachedMarket } from '../../providers/market/cached-market';
import type { EarningsEvent, EconomicSeries, OptionChain } from '../../providers/market/types';
import { OPTION_ALERT_TICKERS, universeBySymbol } from '../../providers/market/universe';
import { createCryptoExtras, cryptoCandles, cryptoUniverseOf } from './trades.crypto';
import { stockUniverse } from './trades.market';
import type { TradesRepo } from './trades.repo';
import type { AnyEngine, ExtrasFor } from './trades.types';

/** docs/rules/data-needs.md §7: company-news requests of the drop engine per session at most. */
export const DROP_NEWS_PER_DAY = 30;
/** The economic series behind the rate and the IV indexes (FRED ids) and the index names the engine knows. */
export const RATE_SERIES = 'DTB3';
export const IV_INDEX_SERIES: Readonly<Record<string, string>> = { VIX: 'VIXCLS', VXN: 'VXNCLS' };

/** An engine's universe (see the header): `survivorshipBiased` as stockUniverse. */
export async function engineUniverse(market: CachedMarket, engine: EngineId, survivorshipBiased: boolean): Promise<UniverseMember[]> {
  if (engine === 'crypto') return cryptoUniverseOf(market, survivorshipBiased);
  if (engine === 'layered' || engine === 'swing') return stockUniverse(market, survivorshipBiased);
  const options = await optionAlertUniverse(market, survivorshipBiased);
  if (engine === 'options') return options;
  const stocks = await stockUniverse(market, survivorshipBiased);
  const seen = new Set(stocks.map((member) => member.symbol));
  return [...stocks, ...options.filter((member) => !seen.has(member.symbol))];
}

/** The OPTION_ALERT tickers the source knows (the file source: those it lists; else the built-in universe's). */
async function optionAlertUniverse(market: CachedMarket, survivorshipBiased: boolean): Promise<UniverseMember[]> {
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

/** The value of a series on or before `date` (observations newest first), or undefined. */
export function valueAsOf(series: EconomicSeries | null, date: string): number | undefined {
  if (!series) return undefined;
  for (const observation of series.observations) if (observation.date <= date && Number.isFinite(observation.value)) return observation.value;
  return undefined;
}

export interface ExtrasDeps {
  market: CachedMarket;
  repo: TradesRepo;
  log: { warn(message: string): void };
  /** The S&P 500 members (drop's index); default stockUniverse of the source. */
  indexMembers?: () => Promise<UniverseMember[]>;
  /** The run's series (crypto: its candles' provenance; volume summed across venues is left out here). */
  series?: Map<string, DailySeries>;
  /** The market's now (crypto: news is read for the recent passes only); default the wall clock. */
  nowMs?: () => number;
}


/**
 * The extras of `engine` for a run over `universe`, per session; `live` is true only for the session
 * a live pass decides (the one that gets today's chains from a source without past ones).
 */
export async function createExtrasFor(engine: AnyEngine, universe: readonly UniverseMember[], deps: ExtrasDeps): Promise<ExtrasFor> {
  const { market, repo, log } = deps;
  const fetchSeries = async (id: string): Promise<EconomicSeries | null> => {
    try {
      return (await market.getEconomicSeries(id)).value;
    } catch {
      // The source has no such series: the engine's default applies.
      return null;
    }
  };

  if (engine.id === 'options') {
    const rate = await fetchSeries(RATE_SERIES);
    const indexes = new Map<string, EconomicSeries>();
    for (const [name, id] of Object.entries(IV_INDEX_SERIES)) {
      const series = await fetchSeries(id);
      if (series) indexes.set(name, series);
    }
    return async (input, { live, pace }) => {
      const date = input.session.date;
      const extras: { -readonly [K in keyof SessionExtras]: SessionExtras[K] } = {};
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
  }

  if (engine.id === 'drop') {
    const index = await (deps.indexMembers ?? (() => stockUniverse(market, false)))();
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
    const base: SessionExtras = { dropIndexMembers: members, dropOptionUnderlyings: underlyings, sectors };
    return async (input, { live, pace }) => {
      const date = input.session.date;
      const swingTradeIds = new Map<string, string>();
      for (const row of swing) {
        if (row.signalDate > date || (row.closedBarDate !== null && row.closedBarDate < date)) continue;
        const known = swingTradeIds.get(row.symbol);
        if (known === undefined || known < row.id) swingTradeIds.set(row.symbol, row.id);
      }
      const extras: SessionExtras = { ...base, swingTradeIds };
      const dropInput = { ...(input as unknown as SessionInput<DropParams, DropState>), extras };
      await pace?.();
      const signals = dropSignals(dropInput, true);
      const news = await dropNews(market, [...signals.S, ...signals.L, ...signals.O], date, input.session.now, pace);
      // O's CALL is chosen and valued by the options engine's code with its parameters.
      const chains = await sessionChains(market, dropChainNeeds(dropInput, signals.O), date, live, OPTIONS_PARAMS, log, pace);
      return { ...extras, dropNews: news, ...(chains.size > 0 ? { optionChains: chains } : {}) };
    };
  }

  if (engine.id === 'swing') return swingEarnings(market);

  if (engine.id === 'crypto') {
    const candles = deps.series ? await cryptoCandles(market, deps.series) : { closeOnly: new Set<string>(), volumeUnit: market.source === 'file' ? ('usd' as const) : ('base' as const) };
    return createCryptoExtras(market, universe, candles, { nowMs: deps.nowMs ?? (() => Date.now()) });
  }

  return async () => ({});
}

/** Calendar days of earnings dates the swing engine looks ahead: 21 sessions fit in about 31 of them. */
export const EARNINGS_LOOKAHEAD_DAYS = 45;

/**
 * The swing engine's extras: each symbol's next earnings date on or after the session, from the
 * source's earnings calendar (EarningsSoon tags a trade with earnings within 21 sessions;
 * docs/rules/swing.md §2.1). Release dates are scheduled weeks ahead, so a session reads only what was
 * announced by then. Read a calendar month at a time, once per run; a month the source cannot
 * answer counts as no earnings (the tag stays off), never as a failed pass.
 */
function swingEarnings(market: CachedMarket): ExtrasFor {
  const months = new Map<string, Promise<EarningsEvent[]>>();
  const monthOf = (day: number) => isoFromDayNumber(day).slice(0, 7);
  const eventsOf = (month: string) => {
    let events = months.get(month);
    if (!events) {
      const [year, mm] = month.split('-').map(Number) as [number, number];
      const last = new Date(Date.UTC(year, mm, 0)).getUTCDate();
      events = market.getEarningsCalendar(`${month}-01`, `${month}-${String(last).padStart(2, '0')}`).then(
        (answer) => answer.value,
        () => [],
      );
      months.set(month, events);
    }
    return events;
  };
  return async (input) => {
    const date = input.session.date;
    const today = dayNumber(date);
    const wanted = [...new Set([today, today + 31, today + EARNINGS_LOOKAHEAD_DAYS].map(monthOf))];
    const events = (await Promise.all(wanted.map(eventsOf))).flat();
    const next = new Map<string, string>();
    for (const event of events) {
      if (event.date < date || dayNumber(event.date) > today + EARNINGS_LOOKAHEAD_DAYS) continue;
      const known = next.get(event.symbol);
      if (known === undefined || event.date < known) next.set(event.symbol, event.date);
    }
    return next.size > 0 ? { earnings: next } : {};
  };
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
async function sessionChains(
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
 * The chains the marks of open ideas read now (docs/rules/option-trades.md §4.3: a trade priced from a chain is
 * marked at the chain's bid): per underlying of an open option trade or O item whose contract was
 * chosen from a chain, past its entry bar, its expiry's chain as of today's session (a source that keeps them) or now
 * (a live source). Empty for the other engines and when no open idea was chain-priced.
 */
export async function markChains(engine: AnyEngine, market: CachedMarket, logs: Iterable<readonly StoredIdeaEvent[]>, date: string, log: { warn(message: string): void }): Promise<Map<string, OptionChainSnapshot>> {
  if (engine.id !== 'options' && engine.id !== 'drop') return new Map();
  const needs = new Map<string, string | null>();
  for (const events of logs) {
    const contract = chainPricedContract(engine, events, date);
    if (!contract) continue;
    const symbol = events[0]!.symbol;
    needs.set(symbol, needs.has(symbol) && needs.get(symbol) !== contract.expiry ? null : contract.expiry);
  }
  return sessionChains(market, needs, date, true, OPTIONS_PARAMS, log);
}

/**
 * The contract of an open option trade or O item chosen from a chain, marked on `date` (null for the
 * rest). One waiting for its entry, or entered on `date`, is on its entry bar: that bar is valued at
 * the entry's σ, so its marks read no chain (docs/strategies/option-sigma.md).
 */
function chainPricedContract(engine: AnyEngine, events: readonly StoredIdeaEvent[], date: string): { side: 'CALL' | 'PUT'; expiry: string; strike: number } | null {
  const state = engine.openState(events) as (OptionState & DropState) | null;
  if (!state) return null;
  const pastEntryBar = state.entryDay !== null && state.entryDay < dayNumber(date);
  if (engine.id === 'options') return state.priceSource === 'chain' && pastEntryBar ? { side: state.side, expiry: state.expiry, strike: state.strike } : null;
  if (engine.id === 'drop' && state.stockType === 'O' && state.option?.pricing.priceSource === 'chain' && pastEntryBar) return { side: 'CALL', expiry: state.option.expiry, strike: state.option.strike };
  return null;
}

/**
 * The mark an engine folds a row at: drop's O items carry the option's value at the price (σ from
 * the chain's IV when `chains` quote the contract), an option trade chosen from a chain the chain's
 * bid when `chains` quote it and it is past its entry bar (else the fold values it with the model at
 * its σ). The store keeps the value
 * (ideas.mark_option_value), so a stored row is the fold of its events at its stored mark.
 */
export function markFor(engine: AnyEngine, events: readonly StoredIdeaEvent[], mark: Mark | null, chains?: ReadonlyMap<string, OptionChainSnapshot>): Mark | null {
  // A mark that carries the option's value already (a stored one, refolded) is folded as it is.
  if (!mark || typeof (mark as OptionMark).optionValue === 'number') return mark;
  if (engine.id === 'drop') return dropMarkAt(events, mark, undefined, chains && chains.size > 0 ? { optionChains: chains } : {});
  if (engine.id !== 'options' || !chains || chains.size === 0) return mark;
  const contract = chainPricedContract(engine, events, mark.at.slice(0, 10));
  const quote = contract && chains.get(events[0]!.symbol)?.contracts.find((c) => c.side === contract.side && c.expiry === contract.expiry && Math.abs(c.strike - contract.strike) < 1e-9);
  if (!quote || !(quote.bid > 0)) return mark;
  const quoted: OptionMark = { ...mark, optionValue: quote.bid };
  return quoted;
}
