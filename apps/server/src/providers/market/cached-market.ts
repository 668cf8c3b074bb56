import { isoFromDayNumber, marketSession } from '@signalboard/core';
import type { Clock } from '../../lib/clock';
import { MarketCache, type Cached } from './cache';
import { mergedListings, type ImportedMarketData } from './imported/imported-market';
import type { Bars, EarningsEvent, EconomicSeries, MarketData, NewsArticle, NewsSentiment, OptionChain, ProviderRsi, Quote, SymbolInfo } from './types';

const SECOND_MS = 1000;
const MINUTE_MS = 60 * SECOND_MS;
const DAY_SECONDS = 86_400;

/** How long each kind of data stays fresh. */
export const MARKET_TTL_MS = {
  quote: 15 * SECOND_MS,
  dailyBars: 5 * MINUTE_MS,
  intradayBars: MINUTE_MS,
  news: 5 * MINUTE_MS,
  sentiment: 15 * MINUTE_MS,
  earnings: 30 * MINUTE_MS,
  symbols: 24 * 60 * MINUTE_MS,
  options: 5 * MINUTE_MS,
  economic: 6 * 60 * MINUTE_MS,
} as const;

/** The market as features read it: every answer through the cache, with its freshness. */
export interface CachedMarket {
  readonly source: MarketData['source'];
  readonly cache: MarketCache;
  lookupSymbols(query: string, market: 'US' | 'TO'): Promise<Cached<SymbolInfo[]>>;
  searchSymbols(query: string): Promise<Cached<SymbolInfo[]>>;
  getProfile(symbol: string): Promise<Cached<SymbolInfo>>;
  getQuote(symbol: string): Promise<Cached<Quote>>;
  /** Daily bars of (about) the last `days` calendar days through now. */
  getRecentDailyBars(symbol: string, days: number): Promise<Cached<Bars>>;
  getDailyBars(symbol: string, from: number, to: number): Promise<Cached<Bars>>;
  getIntradayBars(symbol: string): Promise<Cached<Bars>>;
  getCompanyNews(symbol: string, from: string, to: string): Promise<Cached<NewsArticle[]>>;
  getMarketNews(): Promise<Cached<NewsArticle[]>>;
  getNewsSentiment(symbol: string): Promise<Cached<NewsSentiment>>;
  getEarningsCalendar(from: string, to: string): Promise<Cached<EarningsEvent[]>>;
  getOptionChain(symbol: string, expiration?: string): Promise<Cached<OptionChain>>;
  /** The chain as quoted on a session (null: none that day), when the source keeps them; see MarketData. */
  getOptionChainAsOf?(symbol: string, date: string, expiration?: string): Promise<Cached<OptionChain | null>>;
  getEconomicSeries(id: string): Promise<Cached<EconomicSeries>>;
  /** A provider's own daily RSI (api/rsi_td), when the source has one; see MarketData. */
  getProviderDailyRsi?(symbol: string): Promise<Cached<ProviderRsi>>;
  /** Every symbol the source knows, when it can list them (the file source). */
  listSymbols?(): Promise<SymbolInfo[]>;
  /** The symbols of imported price files (docs/data-in-and-out.md), when the installation has a database. */
  importedSymbols?(): Promise<SymbolInfo[]>;
  /** Each imported symbol's bars digest (at most imported-market.ts LISTING_TTL_MS old). */
  importedDigests?(): Promise<ReadonlyMap<string, string>>;
  /** After an import or a removal: forgets the imported list and what the cache holds of `symbols`. */
  importChanged?(symbols: readonly string[]): Promise<void>;
}

/**
 * Daily bars are cached per symbol, never per range, so user-chosen from/to (api/rsi) cannot multiply
 * cache entries or upstream calls. Two values per symbol at most, each fetched once per freshness window:
 * - `bars:SYM`, the recent history (RECENT_FETCH_DAYS calendar days through tomorrow), which serves
 *   every request starting within the last RECENT_DAYS days: all the scans and metrics;
 * - `bars-all:SYM`, the whole history the source has (from Unix time 0), fetched only when a request
 *   starts earlier. While it is cached (or loading) it serves recent requests too.
 * Each request gets a slice (typed-array views, no copy) of one of them.
 */
export const RECENT_DAYS = 750;
/** Ten days beyond RECENT_DAYS, so a recent value fetched a while ago (or served stale) still covers the window. */
export const RECENT_FETCH_DAYS = RECENT_DAYS + 10;

const isImported = (source: MarketData): source is ImportedMarketData => 'importedSymbols' in source && 'refresh' in source;

export function createCachedMarket(source: MarketData, clock: Clock, cache = new MarketCache(clock)): CachedMarket {
  const upper = (symbol: string) => symbol.trim().toUpperCase();
  const nowSeconds = () => Math.floor(clock.nowMs() / 1000);

  /** A cached lookup or search with the imported listings it matches added (never cached: an import shows at once). */
  const withImported = async (cached: Cached<SymbolInfo[]>, match: (source: ImportedMarketData) => Promise<SymbolInfo[]>): Promise<Cached<SymbolInfo[]>> =>
    isImported(source) ? { ...cached, value: mergedListings(cached.value, await match(source)) } : cached;

  /**
   * The cache key of a symbol's daily bars: an imported symbol's carries its bars digest, so a process
   * serves another process's import once its imported list is read again (LISTING_TTL_MS), not when
   * the bars it holds expire.
   */
  const barsKey = async (ticker: string): Promise<string> => {
    if (!isImported(source)) return ticker;
    const digest = (await source.importedDigests()).get(ticker);
    return digest === undefined ? ticker : `${ticker}@${digest}`;
  };

  /** A cached daily history of `symbol` that holds every bar from `from` on. */
  const dailyHistory = async (symbol: string, from: number): Promise<Cached<Bars>> => {
    const ticker = upper(symbol);
    const key = await barsKey(ticker);
    const wholeKey = `bars-all:${key}`;
    const whole = cache.peek<Bars>(wholeKey);
    if (whole) return whole;
    const now = nowSeconds();
    if (from >= now - RECENT_DAYS * DAY_SECONDS) {
      return cache.get(`bars:${key}`, MARKET_TTL_MS.dailyBars, () => source.getDailyBars(ticker, now - RECENT_FETCH_DAYS * DAY_SECONDS, now + DAY_SECONDS));
    }
    return cache.get(wholeKey, MARKET_TTL_MS.dailyBars, () => source.getDailyBars(ticker, 0, now + DAY_SECONDS));
  };

  return {
    source: source.source,
    cache,
    lookupSymbols: async (query, market) =>
      withImported(await cache.get(`lookup:${market}:${query.toUpperCase()}`, MARKET_TTL_MS.symbols, () => source.lookupSymbols(query, market)), (s) => s.matchImported(query, market)),
    searchSymbols: async (query) =>
      withImported(await cache.get(`search:${query.toUpperCase()}`, MARKET_TTL_MS.symbols, () => source.searchSymbols(query)), (s) => s.matchImported(query)),
    getProfile: (symbol) => cache.get(`profile:${upper(symbol)}`, MARKET_TTL_MS.symbols, () => source.getProfile(upper(symbol))),
    getQuote: (symbol) => cache.get(`quote:${upper(symbol)}`, MARKET_TTL_MS.quote, () => source.getQuote(upper(symbol))),
    async getRecentDailyBars(symbol, days) {
      const from = nowSeconds() - days * DAY_SECONDS;
      const history = await dailyHistory(symbol, from);
      return { ...history, value: sliceBars(history.value, from, Number.POSITIVE_INFINITY) };
    },
    async getDailyBars(symbol, from, to) {
      const history = await dailyHistory(symbol, from);
      return { ...history, value: sliceBars(history.value, from, to) };
    },
    getIntradayBars: (symbol) => cache.get(`intraday:${upper(symbol)}`, MARKET_TTL_MS.intradayBars, () => source.getIntradayBars(upper(symbol))),
    getCompanyNews: (symbol, from, to) =>
      cache.get(`company-news:${upper(symbol)}:${from}:${to}`, MARKET_TTL_MS.news, () => source.getCompanyNews(upper(symbol), from, to)),
    getMarketNews: () => cache.get('market-news', MARKET_TTL_MS.news, () => source.getMarketNews()),
    getNewsSentiment: (symbol) => cache.get(`sentiment:${upper(symbol)}`, MARKET_TTL_MS.sentiment, () => source.getNewsSentiment(upper(symbol))),
    getEarningsCalendar: (from, to) => cache.get(`earnings:${from}:${to}`, MARKET_TTL_MS.earnings, () => source.getEarningsCalendar(from, to)),
    getOptionChain: (symbol, expiration) =>
      cache.get(`options:${upper(symbol)}:${expiration ?? '*'}`, MARKET_TTL_MS.options, () => source.getOptionChain(upper(symbol), expiration)),
    ...(source.getOptionChainAsOf && {
      // A past session's chain is history, read once by a replay (each session's chains are held by
      // its runner): answered, not kept. The current session's (the marks', the daily pass's) is kept.
      getOptionChainAsOf: (symbol: string, date: string, expiration?: string) =>
        cache.get(`options-asof:${upper(symbol)}:${date}:${expiration ?? '*'}`, MARKET_TTL_MS.options, () => source.getOptionChainAsOf!(upper(symbol), date, expiration), {
          keep: date >= isoFromDayNumber(marketSession(clock.nowMs()).lastSessionDay),
        }),
    }),
    getEconomicSeries: (id) => cache.get(`economic:${id}`, MARKET_TTL_MS.economic, () => source.getEconomicSeries(id)),
    ...(source.listSymbols && { listSymbols: () => source.listSymbols!() }),
    ...(isImported(source) && {
      importedSymbols: () => source.importedSymbols(),
      importedDigests: () => source.importedDigests(),
      importChanged: async (symbols: readonly string[]) => {
        // The bars held under the digests before the change (barsKey) go too, not only when they expire.
        const before = await source.importedDigests().catch(() => new Map<string, string>());
        source.refresh();
        const keys = (ticker: string) => [ticker, ...(before.has(ticker) ? [`${ticker}@${before.get(ticker)}`] : [])];
        await cache.forget(symbols.map(upper).flatMap((ticker) => [...keys(ticker).flatMap((key) => [`bars:${key}`, `bars-all:${key}`]), `quote:${ticker}`, `profile:${ticker}`]));
      },
    }),
    ...(source.getProviderDailyRsi && {
      getProviderDailyRsi: (symbol: string) =>
        cache.get(`provider-rsi:${upper(symbol)}`, MARKET_TTL_MS.dailyBars, () => source.getProviderDailyRsi!(upper(symbol))),
    }),
  };
}

/** The bars whose time lies in [from, to] (views of the same arrays, no copy). Bars are oldest first. */
export function sliceBars(bars: Bars, from: number, to: number): Bars {
  const start = firstIndexAfter(bars.time, from, false);
  const end = Math.max(start, firstIndexAfter(bars.time, to, true));
  return {
    symbol: bars.symbol,
    time: bars.time.subarray(start, end),
    open: bars.open.subarray(start, end),
    high: bars.high.subarray(start, end),
    low: bars.low.subarray(start, end),
    close: bars.close.subarray(start, end),
    volume: bars.volume.subarray(start, end),
    ...(bars.candles ? { candles: bars.candles } : {}),
  };
}

/** The first index whose time is ≥ `bound` (or > `bound` when `strictly`), by binary search. */
function firstIndexAfter(time: Float64Array, bound: number, strictly: boolean): number {
  let lo = 0;
  let hi = time.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (strictly ? time[mid]! <= bound : time[mid]! < bound) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
