import type { Clock } from '../../lib/clock';
import { MarketCache, type Cached } from './cache';
import type { Bars, EarningsEvent, EconomicSeries, MarketData, NewsArticle, NewsSentiment, OptionChain, Quote, SymbolInfo } from './types';

const SECOND_MS = 1000;
const MINUTE_MS = 60 * SECOND_MS;

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
  getEconomicSeries(id: string): Promise<Cached<EconomicSeries>>;
}

export function createCachedMarket(source: MarketData, clock: Clock, cache = new MarketCache(clock)): CachedMarket {
  const upper = (symbol: string) => symbol.trim().toUpperCase();
  /** Bars are cached for the longest window asked (750 days) and cut per request. */
  const recent = (symbol: string) =>
    cache.get(`bars:${upper(symbol)}`, MARKET_TTL_MS.dailyBars, () => {
      const nowSeconds = Math.floor(clock.nowMs() / 1000);
      return source.getDailyBars(upper(symbol), nowSeconds - 750 * 86_400, nowSeconds + 86_400);
    });
  return {
    source: source.source,
    cache,
    lookupSymbols: (query, market) => cache.get(`lookup:${market}:${query.toUpperCase()}`, MARKET_TTL_MS.symbols, () => source.lookupSymbols(query, market)),
    searchSymbols: (query) => cache.get(`search:${query.toUpperCase()}`, MARKET_TTL_MS.symbols, () => source.searchSymbols(query)),
    getProfile: (symbol) => cache.get(`profile:${upper(symbol)}`, MARKET_TTL_MS.symbols, () => source.getProfile(upper(symbol))),
    getQuote: (symbol) => cache.get(`quote:${upper(symbol)}`, MARKET_TTL_MS.quote, () => source.getQuote(upper(symbol))),
    async getRecentDailyBars(symbol, days) {
      const all = await recent(symbol);
      const from = Math.floor(clock.nowMs() / 1000) - days * 86_400;
      return { ...all, value: sliceBars(all.value, from, Number.POSITIVE_INFINITY) };
    },
    async getDailyBars(symbol, from, to) {
      const nowSeconds = Math.floor(clock.nowMs() / 1000);
      if (from >= nowSeconds - 750 * 86_400) {
        const all = await recent(symbol);
        return { ...all, value: sliceBars(all.value, from, to) };
      }
      return cache.get(`bars:${upper(symbol)}:${from}:${to}`, MARKET_TTL_MS.dailyBars, () => source.getDailyBars(upper(symbol), from, to));
    },
    getIntradayBars: (symbol) => cache.get(`intraday:${upper(symbol)}`, MARKET_TTL_MS.intradayBars, () => source.getIntradayBars(upper(symbol))),
    getCompanyNews: (symbol, from, to) =>
      cache.get(`company-news:${upper(symbol)}:${from}:${to}`, MARKET_TTL_MS.news, () => source.getCompanyNews(upper(symbol), from, to)),
    getMarketNews: () => cache.get('market-news', MARKET_TTL_MS.news, () => source.getMarketNews()),
    getNewsSentiment: (symbol) => cache.get(`sentiment:${upper(symbol)}`, MARKET_TTL_MS.sentiment, () => source.getNewsSentiment(upper(symbol))),
    getEarningsCalendar: (from, to) => cache.get(`earnings:${from}:${to}`, MARKET_TTL_MS.earnings, () => source.getEarningsCalendar(from, to)),
    getOptionChain: (symbol, expiration) =>
      cache.get(`options:${upper(symbol)}:${expiration ?? '*'}`, MARKET_TTL_MS.options, () => source.getOptionChain(upper(symbol), expiration)),
    getEconomicSeries: (id) => cache.get(`economic:${id}`, MARKET_TTL_MS.economic, () => source.getEconomicSeries(id)),
  };
}

/** The bars whose time lies in [from, to]. */
export function sliceBars(bars: Bars, from: number, to: number): Bars {
  let start = 0;
  while (start < bars.time.length && bars.time[start]! < from) start += 1;
  let end = bars.time.length;
  while (end > start && bars.time[end - 1]! > to) end -= 1;
  return {
    symbol: bars.symbol,
    time: bars.time.subarray(start, end),
    open: bars.open.subarray(start, end),
    high: bars.high.subarray(start, end),
    low: bars.low.subarray(start, end),
    close: bars.close.subarray(start, end),
    volume: bars.volume.subarray(start, end),
  };
}
