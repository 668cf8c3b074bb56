/**
 * MARKET_DATA=simulated: a deterministic market over the shipped universe (see universe/), with
 * "now" from the injected clock (MARKET_NOW pins it). Everything is derived from prices.ts (with
 * profiles.ts and episodes.ts), intraday.ts, earnings.ts, news.ts, options.ts and economy.ts.
 */
import { DAY_MS, dayNumber, marketSession, newYorkInstantMs, SESSION_CLOSE_MINUTES } from '@signalboard/core';
import type { Clock } from '../../../lib/clock';
import {
  CapabilityUnavailableError,
  UnknownSymbolError,
  type Bars,
  type EarningsEvent,
  type MarketData,
  type NewsArticle,
  type NewsSentiment,
  type OptionChain,
  type Quote,
} from '../types';
import { UNIVERSE, universeBySymbol } from '../universe';
import type { UniverseEntry } from '../universe/types';
import { earningsBetween, type SimEarnings } from './earnings';
import { economicSeries } from './economy';
import { companyNewsOfDay, marketNewsOfDay, type SimArticle } from './news';
import { optionChain } from './options';
import { intradayBars, runningBar, US_STEPS } from './intraday';
import { dailySeries, isCrypto, isSessionDay, type DailySeries } from './prices';
import { priceModel } from './profiles';
import { rank, toSymbolInfo } from './symbols';

/** Symbols whose series cut at the current instant are kept (see currentSeries). */
const CURRENT_CACHE_SYMBOLS = 64;
/** Peers averaged into a sector's news sentiment (the first of the sector in universe order). */
const SECTOR_PEERS = 12;

/** Where an asset's trading stands now: its last (possibly running) session and how far in. */
interface Now {
  lastDay: number;
  /** Fraction of the last session elapsed: 1 when it has closed. */
  progress: number;
  nowSeconds: number;
}

/**
 * News links and images are same-origin paths (`/simulated-news/…`, served by the app), so they
 * load wherever the app is opened: localhost, 127.0.0.1 or a LAN address.
 */
export function createSimulatedMarket(options: { clock: Clock; universe?: readonly UniverseEntry[] }): MarketData {
  const universe = options.universe ?? UNIVERSE;
  const bySymbol = options.universe ? new Map(universe.map((entry) => [entry.symbol, entry])) : universeBySymbol;

  const entryOf = (symbol: string): UniverseEntry => {
    const entry = bySymbol.get(symbol.trim().toUpperCase());
    if (!entry) throw new UnknownSymbolError(symbol);
    return entry;
  };

  function now(entry: UniverseEntry): Now {
    const ms = options.clock.nowMs();
    const nowSeconds = Math.floor(ms / 1000);
    if (isCrypto(entry)) {
      const day = Math.floor(ms / DAY_MS);
      return { lastDay: day, progress: (ms - day * DAY_MS) / DAY_MS, nowSeconds };
    }
    const session = marketSession(ms);
    const progress = session.phase === 'open' ? session.minutesSinceOpen / US_STEPS : 1;
    return { lastDay: session.lastSessionDay, progress, nowSeconds };
  }

  /**
   * Daily series through the last session, its last bar cut at "now" while the session runs. The
   * cut copies four whole histories (32 KB a symbol), so only the last few symbols are kept: the
   * cache is there for a quote and the metrics asking about one instant, not to hold the universe
   * (it held every symbol's cut, 17 MB, for good).
   */
  const currentCache = new Map<string, { nowSeconds: number; series: DailySeries }>();
  function currentSeries(entry: UniverseEntry): DailySeries {
    // A quote and the metrics ask for the same instant: cut the running bar once.
    const { nowSeconds } = now(entry);
    const cached = currentCache.get(entry.symbol);
    if (cached && cached.nowSeconds === nowSeconds) return cached.series;
    const series = cutAtNow(entry);
    currentCache.delete(entry.symbol);
    if (currentCache.size >= CURRENT_CACHE_SYMBOLS) currentCache.delete(currentCache.keys().next().value!);
    currentCache.set(entry.symbol, { nowSeconds, series });
    return series;
  }

  function cutAtNow(entry: UniverseEntry): DailySeries {
    const { lastDay, progress } = now(entry);
    const full = dailySeries(entry, lastDay);
    const last = full.days.length - 1;
    if (progress >= 1 || last < 0) return full;
    const running = runningBar(entry, full, progress);
    const cut = (array: Float64Array, value: number) => {
      const copy = array.slice();
      copy[last] = value;
      return copy;
    };
    return {
      days: full.days,
      open: full.open,
      high: cut(full.high, running.high),
      low: cut(full.low, running.low),
      close: cut(full.close, running.close),
      volume: cut(full.volume, running.volume),
    };
  }

  function dailyReturn(series: DailySeries, index: number): number | undefined {
    return index > 0 ? series.close[index]! / series.close[index - 1]! - 1 : undefined;
  }

  function companyNews(entry: UniverseEntry, fromDay: number, toDay: number): SimArticle[] {
    const { lastDay, nowSeconds, progress } = now(entry);
    // Days after tomorrow have no news yet: no need to generate their prices.
    const series = dailySeries(entry, Math.max(lastDay, Math.min(toDay, lastDay + 1)));
    const releases = new Map<number, SimEarnings>(earningsBetween(entry, fromDay, toDay).map((release) => [release.day, release]));
    const sigma = priceModel(entry).sigmaDaily;
    const out: SimArticle[] = [];
    for (let day = fromDay; day <= Math.min(toDay, lastDay + 1); day += 1) {
      const at = firstIndexOnOrAfter(series, day);
      const index = series.days[at] === day ? at : undefined;
      // A day's move is news once its session has closed.
      const completed = index !== undefined && (day < lastDay || (day === lastDay && progress >= 1));
      const move = completed ? dailyReturn(series, index) : undefined;
      const before = index ?? at - 1;
      const recent = before >= 5 ? series.close[before - 1]! / series.close[before - 5]! - 1 : 0;
      out.push(...companyNewsOfDay(entry, day, move, recent, sigma, releases.get(day)));
    }
    return out.filter((article) => article.datetime <= nowSeconds).sort((a, b) => b.datetime - a.datetime);
  }

  /** Own sentiment per symbol and instant: a sector's peers are asked for each of its members. */
  const sentimentCache = new Map<string, { bullish: number; bearish: number; count: number }>();
  function sentimentOf(entry: UniverseEntry): { bullish: number; bearish: number; count: number } {
    const { lastDay, nowSeconds } = now(entry);
    const key = `${entry.symbol}|${nowSeconds}`;
    const cached = sentimentCache.get(key);
    if (cached) return cached;
    const articles = companyNews(entry, lastDay - 7, lastDay);
    const bullish = articles.filter((article) => article.tone > 0).length;
    const bearish = articles.filter((article) => article.tone < 0).length;
    const rated = bullish + bearish;
    const sentiment = rated === 0 ? { bullish: 0.5, bearish: 0.5, count: articles.length } : { bullish: bullish / rated, bearish: bearish / rated, count: articles.length };
    if (sentimentCache.size >= 2000) sentimentCache.clear();
    sentimentCache.set(key, sentiment);
    return sentiment;
  }

  const marketNewsCache = new Map<number, SimArticle[]>();
  function marketNewsForDay(day: number): SimArticle[] {
    const cached = marketNewsCache.get(day);
    if (cached) return cached;
    const changeOn = (entry: UniverseEntry) => {
      const series = dailySeries(entry, day);
      const last = series.days.length - 1;
      return series.days[last] === day && last > 0 ? series.close[last]! / series.close[last - 1]! - 1 : 0;
    };
    const stocks = universe.filter((entry) => entry.sector && entry.exchange !== 'TSX');
    const changes = stocks.map((entry) => ({ entry, change: changeOn(entry) }));
    const bySector = new Map<string, number[]>();
    for (const { entry, change } of changes) bySector.set(entry.sector!, [...(bySector.get(entry.sector!) ?? []), change]);
    const movers = [...changes].sort((a, b) => Math.abs(b.change) - Math.abs(a.change));
    const etf = (symbol: string) => (bySymbol.get(symbol) ? changeOn(bySymbol.get(symbol)!) : 0);
    const tenYear = economicSeries('DGS10', day)?.observations[0]?.value ?? 4.3;
    const cpi = economicSeries('CPIAUCSL', day)?.observations ?? [];
    const inflation = cpi.length > 12 ? (cpi[0]!.value / cpi[12]!.value - 1) * 100 : 3;
    const news = marketNewsOfDay(
      {
        day,
        indexReturns: { spy: etf('SPY'), qqq: etf('QQQ'), iwm: etf('IWM') },
        sectorReturns: [...bySector].map(([sector, values]) => ({ sector, change: values.reduce((a, b) => a + b, 0) / values.length })),
        movers,
        tenYearYield: tenYear,
        inflation,
      },
    );
    if (marketNewsCache.size > 30) marketNewsCache.delete(marketNewsCache.keys().next().value!);
    marketNewsCache.set(day, news);
    return news;
  }

  /** The chain on the last bar of `series` (session `today`): its close, realised volatility of the 20 closes through it. */
  function chainOf(entry: UniverseEntry, series: DailySeries, today: number, expiration: string | undefined): OptionChain {
    const n = series.close.length;
    let sumSquares = 0;
    const window = Math.min(20, n - 1);
    for (let i = n - window; i < n; i += 1) sumSquares += Math.log(series.close[i]! / series.close[i - 1]!) ** 2;
    const realised = Math.sqrt((sumSquares / Math.max(1, window)) * 252);
    return optionChain({
      symbol: entry.symbol,
      spot: series.close[n - 1]!,
      today,
      realisedVolatility: Number.isFinite(realised) && realised > 0 ? realised : entry.volatility,
      avgVolume: entry.avgVolume,
      expiration,
    });
  }

  /** The bars of `series` within [from, to]: views of its arrays (the generated history), not copies. */
  const toBars = (symbol: string, series: DailySeries, from: number, to: number): Bars => {
    const start = firstIndexOnOrAfter(series, Math.ceil(from / 86_400));
    const end = Math.max(start, firstIndexOnOrAfter(series, Math.floor(to / 86_400) + 1));
    return {
      symbol,
      time: timesOf(series.days, start, end),
      open: series.open.subarray(start, end),
      high: series.high.subarray(start, end),
      low: series.low.subarray(start, end),
      close: series.close.subarray(start, end),
      volume: series.volume.subarray(start, end),
    };
  };

  const strip = ({ tone: _tone, ...article }: SimArticle): NewsArticle => article;

  return {
    source: 'simulated',

    async lookupSymbols(query, market) {
      const q = query.trim().toUpperCase();
      if (!q) return [];
      const candidates = universe.filter((entry) => (market === 'TO' ? entry.exchange === 'TSX' : entry.exchange !== 'TSX' && entry.exchange !== 'Crypto'));
      return rank(candidates, q).map(toSymbolInfo);
    },

    async searchSymbols(query) {
      const q = query.trim().toUpperCase();
      return q ? rank(universe, q).map(toSymbolInfo) : [];
    },

    async getProfile(symbol) {
      return toSymbolInfo(entryOf(symbol));
    },

    async getQuote(symbol): Promise<Quote> {
      const entry = entryOf(symbol);
      const series = currentSeries(entry);
      const last = series.days.length - 1;
      if (last < 1) throw new UnknownSymbolError(symbol);
      const price = series.close[last]!;
      const previousClose = series.close[last - 1]!;
      const { progress, lastDay, nowSeconds } = now(entry);
      const sessionEnd = isCrypto(entry) ? (lastDay + 1) * 86_400 : Math.floor(newYorkInstantMs(lastDay, SESSION_CLOSE_MINUTES) / 1000);
      return {
        symbol: entry.symbol,
        price,
        change: round(price - previousClose, 4),
        percentChange: round(((price - previousClose) / previousClose) * 100, 4),
        previousClose,
        open: series.open[last]!,
        high: series.high[last]!,
        low: series.low[last]!,
        volume: series.volume[last]!,
        timestamp: progress < 1 ? nowSeconds : Math.min(nowSeconds, sessionEnd),
      };
    },

    async getDailyBars(symbol, from, to) {
      const entry = entryOf(symbol);
      return toBars(entry.symbol, currentSeries(entry), from, to);
    },

    async getIntradayBars(symbol) {
      const entry = entryOf(symbol);
      const { lastDay, progress } = now(entry);
      return intradayBars(entry, dailySeries(entry, lastDay), lastDay, progress);
    },

    async getCompanyNews(symbol, from, to) {
      const entry = entryOf(symbol);
      return companyNews(entry, dayNumber(from), dayNumber(to)).map(strip);
    },

    async getMarketNews() {
      const spy = bySymbol.get('SPY') ?? universe[0]!;
      const { lastDay, nowSeconds } = now(spy);
      const days: number[] = [];
      for (let day = lastDay + 1; days.length < 3 && day > lastDay - 10; day -= 1) if (isSessionDay(spy, day)) days.push(day);
      return days
        .flatMap((day) => marketNewsForDay(day))
        .filter((article) => article.datetime <= nowSeconds)
        .sort((a, b) => b.datetime - a.datetime)
        .map(strip);
    },

    async getNewsSentiment(symbol): Promise<NewsSentiment> {
      const entry = entryOf(symbol);
      const own = sentimentOf(entry);
      // Stocks: sector peers on the same market (NYSE and NASDAQ companies of a sector share one
      // average). ETFs and crypto: the others of their exchange.
      const canadian = entry.exchange === 'TSX';
      const isPeer = (peer: UniverseEntry) => (entry.sector ? peer.sector === entry.sector && (peer.exchange === 'TSX') === canadian : !peer.sector && peer.exchange === entry.exchange);
      const peers = universe.filter(isPeer).slice(0, SECTOR_PEERS);
      const peerSentiments = (peers.length ? peers : [entry]).map(sentimentOf);
      const sectorBullish = peerSentiments.reduce((sum, peer) => sum + peer.bullish, 0) / peerSentiments.length;
      const weeklyAverage = peerSentiments.reduce((sum, peer) => sum + peer.count, 0) / peerSentiments.length;
      return {
        symbol: entry.symbol,
        bullishPercent: round(own.bullish, 4),
        bearishPercent: round(own.bearish, 4),
        sectorAverageBullishPercent: round(sectorBullish, 4),
        sectorAverageNewsScore: round(0.5 + (sectorBullish - 0.5) * 0.6, 4),
        companyNewsScore: round(0.5 + (own.bullish - own.bearish) * 0.3, 4),
        articlesInLastWeek: own.count,
        weeklyAverage: round(weeklyAverage, 2),
      };
    },

    async getEarningsCalendar(from, to): Promise<EarningsEvent[]> {
      const fromDay = dayNumber(from);
      const toDay = dayNumber(to);
      const nowMs = options.clock.nowMs();
      const out: EarningsEvent[] = [];
      for (const entry of universe) {
        for (const release of earningsBetween(entry, fromDay, toDay)) {
          const reportedMs = release.day * DAY_MS + (release.hour === 'bmo' ? 12 : release.hour === 'amc' ? 21.5 : 17) * 3_600_000;
          const reported = reportedMs <= nowMs;
          const info = toSymbolInfo(entry);
          out.push({
            symbol: entry.symbol,
            date: release.date,
            hour: release.hour,
            epsEstimate: release.epsEstimate,
            epsActual: reported ? release.epsActual : null,
            revenueEstimate: release.revenueEstimate,
            revenueActual: reported ? release.revenueActual : null,
            quarter: release.quarter,
            year: release.year,
            exchange: info.exchange,
            country: info.country,
          });
        }
      }
      return out.sort((a, b) => a.date.localeCompare(b.date) || a.symbol.localeCompare(b.symbol));
    },

    async getOptionChain(symbol, expiration) {
      const entry = entryOf(symbol);
      if (isCrypto(entry)) throw new CapabilityUnavailableError('simulated market', `option chains for ${entry.symbol}`);
      return chainOf(entry, currentSeries(entry), now(entry).lastDay, expiration);
    },

    /**
     * The chain of session `date` (docs/rules/option-trades.md §4.3: the simulated market prices a chain for any
     * date): Black-Scholes at that session's close, from the 20 closes through it, with the expiries
     * listed after it; while the session runs, as of now (its bar cut at now). Null for a day that
     * is not a session, or one after now.
     */
    async getOptionChainAsOf(symbol, date, expiration) {
      const entry = entryOf(symbol);
      if (isCrypto(entry)) throw new CapabilityUnavailableError('simulated market', `option chains for ${entry.symbol}`);
      const day = dayNumber(date);
      const { lastDay } = now(entry);
      if (!Number.isFinite(day) || day > lastDay || !isSessionDay(entry, day)) return null;
      const series = day === lastDay ? currentSeries(entry) : dailySeries(entry, day);
      if (series.days[series.days.length - 1] !== day) return null;
      return chainOf(entry, series, day, expiration);
    },

    async getEconomicSeries(id) {
      const series = economicSeries(id, Math.floor(options.clock.nowMs() / DAY_MS));
      if (!series) throw new UnknownSymbolError(id);
      return series;
    },
  };
}

/** Bar start times (Unix seconds, 00:00 UTC) of days [start, end). */
function timesOf(days: Int32Array, start: number, end: number): Float64Array {
  const out = new Float64Array(end - start);
  for (let i = start; i < end; i += 1) out[i - start] = days[i]! * 86_400;
  return out;
}

/** Index of the first bar on or after `day` (the length when none): a binary search. */
function firstIndexOnOrAfter(series: DailySeries, day: number): number {
  let lo = 0;
  let hi = series.days.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (series.days[mid]! < day) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}


const round = (value: number, decimals: number) => Math.round(value * 10 ** decimals) / 10 ** decimals;
