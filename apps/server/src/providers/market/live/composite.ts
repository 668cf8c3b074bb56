/**
 * MARKET_DATA=live: real providers combined by capability, with fallbacks. Every capability without
 * a configured provider rejects with CapabilityUnavailableError naming the setting to add.
 *   quotes          crypto: Binance, then CoinGecko; stocks: Finnhub, then Twelve Data, then Yahoo
 *   daily bars      crypto: Binance (real OHLC), then CoinGecko; stocks: Yahoo (no key), then Twelve Data
 *                   (Finnhub candles are premium)
 *   intraday bars   crypto: Binance 5-minute; stocks: Yahoo 5-minute, then Twelve Data
 *   symbols         Finnhub search (else Yahoo search) and Finnhub profile (GICS sector from the
 *                   shipped universe: Finnhub's free profile has only its own industry)
 *   provider RSI    Twelve Data /rsi (US stocks; api/rsi_td), else callers compute it from daily bars
 *   news, earnings  Finnhub
 *   news sentiment  computed here from the last 7 days of Finnhub company news (the sentiment endpoint
 *                   is premium); the sector average is the mean over up to 6 sector peers (from the
 *                   universe's GICS sectors), each peer's figure kept 15 minutes
 *   economic series FRED
 *   option chains   Yahoo
 */
import { bullishBearish } from '@signalboard/core';
import type { CacheStore } from '../../../lib/cache-store';
import type { Clock } from '../../../lib/clock';
import { CapabilityUnavailableError, ProviderError, type Bars, type MarketData, type NewsArticle, type SymbolInfo } from '../types';
import { universeBySymbol } from '../universe';
import { createBinanceAdapter } from './binance';
import { COINGECKO_IDS, createCoinGeckoAdapter } from './coingecko';
import { createFinnhubAdapter, type FinnhubAdapter } from './finnhub';
import { createFredAdapter, type FredAdapter } from './fred';
import type { FetchImpl } from './http';
import { createTwelveDataAdapter } from './twelvedata';
import { createYahooAdapter } from './yahoo';

/** The providers, as named in `baseUrls` and `timeoutsMs`. */
export type LiveProvider = 'finnhub' | 'twelveData' | 'fred' | 'coinGecko' | 'yahoo' | 'binance';

/** How long the coins' shared crypto news feed is held (one request serves every coin of a pass). */
const CRYPTO_NEWS_HOLD_MS = 5 * 60_000;

/**
 * Whether a crypto-news article is about the coin: Finnhub's `related` lists it, or the headline or
 * summary has its ticker as a word in capitals (so SOL is not "sold") or its name in any case.
 */
export function articleNamesCoin(article: Pick<NewsArticle, 'headline' | 'summary' | 'related'>, symbol: string): boolean {
  const ticker = symbol.toUpperCase();
  if (article.related.split(',').some((item) => item.trim().toUpperCase() === ticker)) return true;
  const text = `${article.headline} ${article.summary}`;
  const escape = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  if (new RegExp(`(?<![A-Za-z0-9])${escape(ticker)}(?![A-Za-z0-9])`).test(text)) return true;
  const name = universeBySymbol.get(ticker)?.name;
  return name !== undefined && name.toUpperCase() !== ticker && new RegExp(`(?<![A-Za-z0-9])${escape(name)}(?![A-Za-z0-9])`, 'i').test(text);
}

export interface LiveMarketConfig {
  finnhubApiKey?: string;
  twelveDataApiKey?: string;
  fredApiKey?: string;
  coinGeckoApiKey?: string;
  baseUrls?: Partial<Record<LiveProvider, string>>;
  /** Yahoo needs no key; tests and offline installs turn it off. */
  yahoo?: boolean;
  /** Symbols in the same sector as `symbol` (largest first), for the sector-average sentiment. */
  sectorPeers?: (symbol: string) => string[];
  fetchImpl?: FetchImpl;
  /** How long one request may take before it fails as a timeout (default 10 s), for every provider… */
  timeoutMs?: number;
  /** …unless overridden for one of them. */
  timeoutsMs?: Partial<Record<LiveProvider, number>>;
  /** "Now" for date windows, and the time the rate limiters run on: the process clock in production. */
  clock: Clock;
  sleep?: (ms: number) => Promise<void>;
  /** A shared store (Redis): one token bucket per provider for the whole installation. */
  store?: CacheStore;
}

const isoDay = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);

export function createLiveMarketData(config: LiveMarketConfig): MarketData {
  /** What every adapter shares, with the provider's base URL and timeout. */
  const common = (provider: LiveProvider) => ({
    baseUrl: config.baseUrls?.[provider],
    fetchImpl: config.fetchImpl,
    timeoutMs: config.timeoutsMs?.[provider] ?? config.timeoutMs,
    clock: config.clock,
    sleep: config.sleep,
    store: config.store,
  });
  const finnhub = config.finnhubApiKey ? createFinnhubAdapter({ apiKey: config.finnhubApiKey, ...common('finnhub') }) : undefined;
  const twelve = config.twelveDataApiKey ? createTwelveDataAdapter({ apiKey: config.twelveDataApiKey, ...common('twelveData') }) : undefined;
  const fred = config.fredApiKey ? createFredAdapter({ apiKey: config.fredApiKey, ...common('fred') }) : undefined;
  const { baseUrl, fetchImpl, timeoutMs, clock, store } = common('yahoo'); // yahoo-finance2 does its own pacing
  const yahoo = config.yahoo === false ? undefined : createYahooAdapter({ baseUrl, fetchImpl, timeoutMs, clock, store });
  const binance = createBinanceAdapter(common('binance'));
  const coinGecko = createCoinGeckoAdapter({ apiKey: config.coinGeckoApiKey, ...common('coinGecko') });

  const need = <T>(adapter: T | undefined, capability: string, setting: string): T => {
    if (!adapter) throw new CapabilityUnavailableError('live market', `${capability}: set ${setting}`);
    return adapter;
  };
  const isCrypto = (symbol: string) => symbol.toUpperCase() in COINGECKO_IDS;

  /** Tries each source in order; moves on after an outage or a missing capability, never after "unknown symbol". */
  async function firstOf<T>(attempts: Array<() => Promise<T>>, capability: string): Promise<T> {
    let lastError: unknown = new CapabilityUnavailableError('live market', capability);
    for (const attempt of attempts) {
      try {
        return await attempt();
      } catch (error) {
        if (!(error instanceof ProviderError || error instanceof CapabilityUnavailableError)) throw error;
        lastError = error;
      }
    }
    throw lastError;
  }

  /**
   * A coin's headlines (docs/rules/crypto.md §3.2: "matched by ticker or name"): Finnhub's company news
   * knows no coins, so the coins share one `news?category=crypto` request (docs/providers.md §1.6; the
   * resource table's "1 news request" per pass), held 5 minutes, and each coin takes the articles
   * that name it — in `related`, by its ticker as a word in capitals, or by its name.
   */
  let cryptoFeed: { atMs: number; value: Promise<NewsArticle[]> } | undefined;
  function cryptoNews(symbol: string, from: string, to: string): Promise<NewsArticle[]> {
    const adapter = need(finnhub, 'crypto news', 'FINNHUB_API_KEY');
    const nowMs = config.clock.nowMs();
    if (!cryptoFeed || nowMs - cryptoFeed.atMs >= CRYPTO_NEWS_HOLD_MS) {
      const value = adapter.marketNews('crypto');
      const entry = { atMs: nowMs, value };
      value.catch(() => {
        if (cryptoFeed === entry) cryptoFeed = undefined;
      });
      cryptoFeed = entry;
    }
    const fromS = Date.parse(`${from}T00:00:00Z`) / 1000;
    const toS = Date.parse(`${to}T00:00:00Z`) / 1000 + 86_400;
    return cryptoFeed.value.then((articles) =>
      articles.filter((article) => article.datetime >= fromS && article.datetime < toS && articleNamesCoin(article, symbol)),
    );
  }

  /** A symbol's own bullish/bearish fractions from its last 7 days of news, kept 15 minutes. */
  const ownCache = new Map<string, { atMs: number; value: Promise<{ bullishPercent: number; bearishPercent: number; articles: number }> }>();
  function ownSentiment(symbol: string) {
    const key = symbol.toUpperCase();
    const nowMs = config.clock.nowMs();
    const hit = ownCache.get(key);
    if (hit && nowMs - hit.atMs < 15 * 60_000) return hit.value;
    const value = (async () => {
      const now = Math.floor(nowMs / 1000);
      const news = await need(finnhub, 'news sentiment', 'FINNHUB_API_KEY').companyNews(key, isoDay(now - 7 * 86_400), isoDay(now));
      const figures = bullishBearish(news.map((article) => `${article.headline}. ${article.summary}`));
      return { bullishPercent: figures.bullishPercent, bearishPercent: figures.bearishPercent, articles: news.length };
    })();
    value.catch(() => ownCache.delete(key));
    if (ownCache.size > 2000) ownCache.delete(ownCache.keys().next().value!);
    ownCache.set(key, { atMs: nowMs, value });
    return value;
  }

  const search = async (query: string, markets: Array<'US' | 'TO'>): Promise<SymbolInfo[]> => {
    const attempts: Array<() => Promise<SymbolInfo[]>> = [];
    if (finnhub) {
      const adapter: FinnhubAdapter = finnhub;
      attempts.push(async () => (await Promise.all(markets.map((market) => adapter.search(query, market)))).flat());
    }
    if (yahoo) attempts.push(async () => (await yahoo.search(query)).filter((info) => markets.includes(info.market as 'US' | 'TO')));
    if (attempts.length === 0) need(undefined, 'symbol search', 'FINNHUB_API_KEY');
    return firstOf(attempts, 'symbol search');
  };

  return {
    source: 'live',
    lookupSymbols: async (query, market) => search(query, [market]),
    searchSymbols: async (query) => search(query, ['US', 'TO']),

    async getProfile(symbol) {
      if (isCrypto(symbol)) {
        const upper = symbol.toUpperCase();
        return { symbol: upper, description: upper, market: 'CRYPTO', exchange: 'Crypto', country: 'Global', currency: 'USD', assetClass: 'crypto' };
      }
      const profile = await need(finnhub, 'company profiles', 'FINNHUB_API_KEY').profile(symbol);
      const sector = universeBySymbol.get(profile.symbol)?.sector;
      return sector ? { ...profile, sector } : profile;
    },

    async getQuote(symbol) {
      if (isCrypto(symbol)) return firstOf([() => binance.quote(symbol), () => coinGecko.quote(symbol)], 'crypto quotes');
      const sources: Array<() => Promise<Awaited<ReturnType<MarketData['getQuote']>>>> = [];
      if (finnhub) sources.push(() => finnhub.quote(symbol));
      // Twelve Data's free plan has no TSX listings (and spells them RY:TSX): a .TO symbol would stop
      // the chain at its "unknown symbol" before Yahoo, which has them.
      if (twelve && !symbol.toUpperCase().endsWith('.TO')) sources.push(() => twelve.quote(symbol));
      if (yahoo) sources.push(() => yahoo.quote(symbol));
      if (sources.length === 0) need(undefined, 'quotes', 'FINNHUB_API_KEY or TWELVEDATA_API_KEY');
      return firstOf(sources, 'quotes');
    },

    async getDailyBars(symbol, from, to) {
      const attempts: Array<() => Promise<Bars>> = [];
      if (isCrypto(symbol)) attempts.push(() => binance.dailyBars(symbol), () => coinGecko.dailyBars(symbol, 365));
      else {
        if (yahoo) attempts.push(() => yahoo.dailyBars(symbol, from, to));
        if (twelve) attempts.push(() => twelve.dailyBars(symbol, 520));
      }
      if (attempts.length === 0) need(undefined, 'daily bars', 'TWELVEDATA_API_KEY');
      const bars = await firstOf(attempts, 'daily bars');
      const keep = Array.from(bars.time.keys()).filter((i) => bars.time[i]! >= from && bars.time[i]! <= to);
      const take = (array: Float64Array) => Float64Array.from(keep, (i) => array[i]!);
      return { symbol: bars.symbol, time: take(bars.time), open: take(bars.open), high: take(bars.high), low: take(bars.low), close: take(bars.close), volume: take(bars.volume), ...(bars.candles ? { candles: bars.candles } : {}) };
    },

    async getIntradayBars(symbol) {
      if (isCrypto(symbol)) return binance.intradayBars(symbol);
      const attempts: Array<() => Promise<Bars>> = [];
      if (yahoo) attempts.push(() => yahoo.intradayBars(symbol));
      if (twelve) attempts.push(() => twelve.intradayBars(symbol));
      if (attempts.length === 0) need(undefined, 'intraday bars', 'TWELVEDATA_API_KEY');
      return firstOf(attempts, 'intraday bars');
    },

    getCompanyNews: async (symbol, from, to) =>
      isCrypto(symbol) ? cryptoNews(symbol, from, to) : need(finnhub, 'company news', 'FINNHUB_API_KEY').companyNews(symbol, from, to),
    getMarketNews: async () => need(finnhub, 'market news', 'FINNHUB_API_KEY').marketNews(),

    async getNewsSentiment(symbol) {
      const own = await ownSentiment(symbol);
      const { bullishPercent, bearishPercent } = own;
      const peers = (config.sectorPeers?.(symbol) ?? []).filter((peer) => peer !== symbol.toUpperCase()).slice(0, 6);
      const peerFigures = await Promise.all(peers.map((peer) => ownSentiment(peer).catch(() => undefined)));
      const sector = [own, ...peerFigures.filter((figure): figure is NonNullable<typeof figure> => figure !== undefined)];
      const sectorBullish = sector.reduce((sum, figure) => sum + figure.bullishPercent, 0) / sector.length;
      const news = own.articles;
      return {
        symbol: symbol.toUpperCase(),
        bullishPercent,
        bearishPercent,
        sectorAverageBullishPercent: sectorBullish,
        sectorAverageNewsScore: sectorBullish,
        companyNewsScore: 0.5 + (bullishPercent - bearishPercent) / 2,
        articlesInLastWeek: news,
        weeklyAverage: sector.reduce((sum, figure) => sum + figure.articles, 0) / sector.length,
      };
    },

    getEarningsCalendar: async (from, to) => need(finnhub, 'the earnings calendar', 'FINNHUB_API_KEY').earnings(from, to),

    async getOptionChain(symbol, expiration) {
      return need(yahoo, 'option chains', 'YAHOO_ENABLED=true').optionChain(symbol, expiration);
    },

    getEconomicSeries: async (id) => (need(fred, 'economic series', 'FRED_API_KEY') as FredAdapter).series(id),

    /** Twelve Data's RSI(14) of the latest daily bar; US stocks only (crypto and TSX need other symbols or plans). */
    async getProviderDailyRsi(symbol) {
      const adapter = need(twelve, 'provider RSI', 'TWELVEDATA_API_KEY');
      const upper = symbol.toUpperCase();
      if (isCrypto(upper) || upper.endsWith('.TO')) throw new CapabilityUnavailableError('Twelve Data', `RSI for ${upper} (US stocks only)`);
      const series = await adapter.rsi(upper);
      const latest = series.values[series.values.length - 1];
      if (!latest) throw new ProviderError('Twelve Data', `no RSI values for ${upper}`, { retryable: false });
      return { symbol: upper, provider: adapter.provider, time: latest.time, rsi: latest.rsi };
    },
  };
}
