/**
 * What each engine reads beyond bars (types.ts SessionExtras), from the market source and the store:
 * - options (strategies.md §4): the risk-free rate (DTB3) and the 30-day IV indexes (VIX, VXN) as of
 *   the session when the source has them (else absent: r = 0.04, σ from the bars); the option
 *   chains only on a live pass for the session being decided (a replay prices with the model).
 * - drop (strategies.md §5): the S&P 500 members, the OPTION_ALERT underlyings, the sectors
 *   (profiles), the open swing trade per symbol, and the company news of the day's new candidates
 *   (dropSignals), from each one's reference high through the session, ≤ 30 symbols a day (§7).
 * And each engine's universe: layered and swing the S&P 500 members the source knows; options the
 * OPTION_ALERT tickers the source knows; drop both.
 */
import {
  dayNumber,
  dropMarkAt,
  dropSignals,
  isoFromDayNumber,
  type DropHeadline,
  type DropParams,
  type DropState,
  type EngineId,
  type Mark,
  type OptionChainSnapshot,
  type SessionExtras,
  type SessionInput,
  type StoredIdeaEvent,
  type UniverseMember,
} from '@signalboard/core';
import type { CachedMarket } from '../../providers/market/cached-market';
import type { EarningsEvent, EconomicSeries } from '../../providers/market/types';
import { OPTION_ALERT_TICKERS, universeBySymbol } from '../../providers/market/universe';
import { stockUniverse } from './trades.market';
import type { TradesRepo } from './trades.repo';
import type { AnyEngine } from './trades.runner';

/** strategies.md §7: company-news requests of the drop engine per session at most. */
export const DROP_NEWS_PER_DAY = 30;
/** The economic series behind the rate and the IV indexes (FRED ids) and the index names the engine knows. */
export const RATE_SERIES = 'DTB3';
export const IV_INDEX_SERIES: Readonly<Record<string, string>> = { VIX: 'VIXCLS', VXN: 'VXNCLS' };

/** An engine's universe (see the header): `survivorshipBiased` as stockUniverse. */
export async function engineUniverse(market: CachedMarket, engine: EngineId, survivorshipBiased: boolean): Promise<UniverseMember[]> {
  if (engine === 'layered' || engine === 'swing' || engine === 'crypto') return stockUniverse(market, survivorshipBiased);
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
}

/** Per session, the extras of one engine's run (created once per replay or pass). */
export type ExtrasFor = (input: SessionInput<unknown, unknown>, options: { live: boolean }) => Promise<SessionExtras>;

/**
 * The extras of `engine` for a run over `universe`, per session; `live` is true only for the session
 * a live pass decides (it alone gets option chains).
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
    return async (input, { live }) => {
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
      if (live) {
        const chains = await optionChains(market, universe.map((member) => member.symbol).filter((symbol) => input.bars.has(symbol)), log);
        if (chains.size > 0) extras.optionChains = chains;
      }
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
    return async (input, { live }) => {
      const date = input.session.date;
      const swingTradeIds = new Map<string, string>();
      for (const row of swing) {
        if (row.signalDate > date || (row.closedBarDate !== null && row.closedBarDate < date)) continue;
        const known = swingTradeIds.get(row.symbol);
        if (known === undefined || known < row.id) swingTradeIds.set(row.symbol, row.id);
      }
      const extras: SessionExtras = { ...base, swingTradeIds };
      const signals = dropSignals({ ...(input as unknown as SessionInput<DropParams, DropState>), extras }, true);
      const news = await dropNews(market, [...signals.S, ...signals.L, ...signals.O], date, input.session.now);
      const chains = live ? await optionChains(market, [...new Set(signals.O.map((pick) => pick.symbol))], log) : new Map<string, OptionChainSnapshot>();
      return { ...extras, dropNews: news, ...(chains.size > 0 ? { optionChains: chains } : {}) };
    };
  }

  if (engine.id === 'swing') return swingEarnings(market);

  return async () => ({});
}

/** Calendar days of earnings dates the swing engine looks ahead: 21 sessions fit in about 31 of them. */
export const EARNINGS_LOOKAHEAD_DAYS = 45;

/**
 * The swing engine's extras: each symbol's next earnings date on or after the session, from the
 * source's earnings calendar (EarningsSoon tags a trade with earnings within 21 sessions;
 * strategies.md §2.1). Release dates are scheduled weeks ahead, so a session reads only what was
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
async function dropNews(market: CachedMarket, candidates: ReadonlyArray<{ symbol: string; series: { day: Int32Array }; trigger: { referenceIndex: number } }>, date: string, now: string): Promise<Map<string, DropHeadline[]>> {
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

/** The source's option chains of these underlyings now (the live pass's session), as snapshots. */
async function optionChains(market: CachedMarket, symbols: readonly string[], log: { warn(message: string): void }): Promise<Map<string, OptionChainSnapshot>> {
  const out = new Map<string, OptionChainSnapshot>();
  for (const symbol of symbols) {
    try {
      const answer = await market.getOptionChain(symbol);
      if (answer.stale) continue;
      out.set(symbol, {
        underlying: symbol,
        contracts: answer.value.contracts.map((contract) => ({
          expiry: contract.expiration,
          strike: contract.strike,
          side: contract.type === 'call' ? ('CALL' as const) : ('PUT' as const),
          bid: contract.bid,
          ask: contract.ask,
          ...(contract.impliedVolatility > 0 ? { iv: contract.impliedVolatility } : {}),
          openInterest: contract.openInterest,
        })),
      });
    } catch (error) {
      log.warn(`Trade ideas: no option chain for ${symbol} (${error instanceof Error ? error.message : String(error)}); the model prices it`);
    }
  }
  return out;
}

/** The mark an engine folds a row at: drop's O items carry the option's value at the price (options reprice in their fold). */
export function markFor(engine: AnyEngine, events: readonly StoredIdeaEvent[], mark: Mark | null): Mark | null {
  if (!mark || engine.id !== 'drop') return mark;
  return dropMarkAt(events, mark);
}

