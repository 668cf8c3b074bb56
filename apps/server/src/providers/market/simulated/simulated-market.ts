/**
 * MARKET_DATA=simulated: a deterministic market over the shipped universe (see universe/), with
 * "now" from the injected clock (MARKET_NOW pins it). Everything is derived from prices.ts,
 * earnings.ts, news.ts, options.ts and economy.ts.
 */
import { DAY_MS, dayNumber, marketSession, newYorkInstantMs, SESSION_CLOSE_MINUTES, SESSION_OPEN_MINUTES } from '@signalboard/core';
import type { Clock } from '../../../lib/clock';
import {
  CapabilityUnavailableError,
  UnknownSymbolError,
  type Bars,
  type EarningsEvent,
  type MarketData,
  type NewsArticle,
  type NewsSentiment,
  type Quote,
  type SymbolInfo,
} from '../types';
import { UNIVERSE, universeBySymbol } from '../universe';
import type { UniverseEntry } from '../universe/types';
import { earningsBetween, type SimEarnings } from './earnings';
import { economicSeries } from './economy';
import { companyNewsOfDay, marketNewsOfDay, type SimArticle } from './news';
import { optionChain } from './options';
import { cumulativeVolumeShare, dailySeries, intradayPath, isCrypto, isSessionDay, type DailySeries } from './prices';

const US_STEPS = 390;
const CRYPTO_STEPS = 288;

export function toSymbolInfo(entry: UniverseEntry): SymbolInfo {
  const crypto = entry.exchange === 'Crypto';
  const canadian = entry.exchange === 'TSX';
  return {
    symbol: entry.symbol,
    description: entry.name,
    market: crypto ? 'CRYPTO' : canadian ? 'TO' : 'US',
    exchange: entry.exchange,
    country: crypto ? 'Global' : canadian ? 'Canada' : 'United States',
    currency: canadian ? 'CAD' : 'USD',
    assetClass: crypto ? 'crypto' : entry.sector ? 'stock' : 'etf',
    sector: entry.sector,
    industry: entry.industry,
  };
}

/** Where an asset's trading stands now: its last (possibly running) session and how far in. */
interface Now {
  lastDay: number;
  /** Fraction of the last session elapsed: 1 when it has closed. */
  progress: number;
  nowSeconds: number;
}

export function createSimulatedMarket(options: { clock: Clock; baseUrl: string; universe?: readonly UniverseEntry[] }): MarketData {
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

  /** Daily series through the last session, its last bar cut at "now" while the session runs. */
  function currentSeries(entry: UniverseEntry): DailySeries {
    const { lastDay, progress } = now(entry);
    const full = dailySeries(entry, lastDay);
    const last = full.days.length - 1;
    if (progress >= 1 || last < 0) return full;
    const steps = isCrypto(entry) ? CRYPTO_STEPS : US_STEPS;
    const path = intradayPath(entry, lastDay, { open: full.open[last]!, high: full.high[last]!, low: full.low[last]!, close: full.close[last]! }, steps);
    const upTo = Math.max(0, Math.min(steps, Math.floor(progress * steps)));
    let high = path[0]!;
    let low = path[0]!;
    for (let i = 1; i <= upTo; i += 1) {
      high = Math.max(high, path[i]!);
      low = Math.min(low, path[i]!);
    }
    const cut = (array: Float64Array, value: number) => {
      const copy = array.slice();
      copy[last] = value;
      return copy;
    };
    return {
      days: full.days,
      open: full.open,
      high: cut(full.high, high),
      low: cut(full.low, low),
      close: cut(full.close, path[upTo]!),
      volume: cut(full.volume, Math.round(full.volume[last]! * cumulativeVolumeShare(upTo / steps))),
    };
  }

  function dailyReturn(series: DailySeries, index: number): number | undefined {
    return index > 0 ? series.close[index]! / series.close[index - 1]! - 1 : undefined;
  }

  function companyNews(entry: UniverseEntry, fromDay: number, toDay: number): SimArticle[] {
    const { lastDay, nowSeconds } = now(entry);
    const series = dailySeries(entry, Math.max(lastDay, toDay));
    const indexByDay = new Map<number, number>();
    series.days.forEach((day, index) => indexByDay.set(day, index));
    const releases = new Map<number, SimEarnings>(earningsBetween(entry, fromDay, toDay).map((release) => [release.day, release]));
    const sigma = entry.volatility / Math.sqrt(isCrypto(entry) ? 365 : 252);
    const out: SimArticle[] = [];
    for (let day = fromDay; day <= Math.min(toDay, lastDay + 1); day += 1) {
      const index = indexByDay.get(day);
      const completed = index !== undefined && day < lastDay;
      const move = completed ? dailyReturn(series, index) : undefined;
      const before = index ?? lastIndexBefore(series, day);
      const recent = before >= 5 ? series.close[before - 1]! / series.close[before - 5]! - 1 : 0;
      out.push(...companyNewsOfDay(entry, day, move, recent, sigma, releases.get(day), options.baseUrl));
    }
    return out.filter((article) => article.datetime <= nowSeconds).sort((a, b) => b.datetime - a.datetime);
  }

  function sentimentOf(entry: UniverseEntry): { bullish: number; bearish: number; count: number } {
    const { lastDay } = now(entry);
    const articles = companyNews(entry, lastDay - 7, lastDay);
    const bullish = articles.filter((article) => article.tone > 0).length;
    const bearish = articles.filter((article) => article.tone < 0).length;
    const rated = bullish + bearish;
    return rated === 0 ? { bullish: 0.5, bearish: 0.5, count: articles.length } : { bullish: bullish / rated, bearish: bearish / rated, count: articles.length };
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
      options.baseUrl,
    );
    if (marketNewsCache.size > 30) marketNewsCache.delete(marketNewsCache.keys().next().value!);
    marketNewsCache.set(day, news);
    return news;
  }

  const toBars = (symbol: string, series: DailySeries, from: number, to: number): Bars => {
    const keep: number[] = [];
    series.days.forEach((day, index) => {
      const time = day * 86_400;
      if (time >= from && time <= to) keep.push(index);
    });
    const take = (array: Float64Array) => Float64Array.from(keep, (index) => array[index]!);
    return {
      symbol,
      time: Float64Array.from(keep, (index) => series.days[index]! * 86_400),
      open: take(series.open),
      high: take(series.high),
      low: take(series.low),
      close: take(series.close),
      volume: take(series.volume),
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
      const full = dailySeries(entry, lastDay);
      const last = full.days.length - 1;
      const empty: Bars = { symbol: entry.symbol, time: new Float64Array(), open: new Float64Array(), high: new Float64Array(), low: new Float64Array(), close: new Float64Array(), volume: new Float64Array() };
      if (last < 0 || full.days[last] !== lastDay) return empty;
      const crypto = isCrypto(entry);
      const steps = crypto ? CRYPTO_STEPS : US_STEPS;
      const perBar = crypto ? 1 : 5; // five-minute bars
      const path = intradayPath(entry, lastDay, { open: full.open[last]!, high: full.high[last]!, low: full.low[last]!, close: full.close[last]! }, steps);
      const upTo = Math.floor(Math.min(1, progress) * steps);
      const count = Math.floor(upTo / perBar);
      const openMs = crypto ? lastDay * DAY_MS : newYorkInstantMs(lastDay, SESSION_OPEN_MINUTES);
      const bars: Bars = { symbol: entry.symbol, time: new Float64Array(count), open: new Float64Array(count), high: new Float64Array(count), low: new Float64Array(count), close: new Float64Array(count), volume: new Float64Array(count) };
      const stepMinutes = crypto ? 5 : 1;
      for (let k = 0; k < count; k += 1) {
        const a = k * perBar;
        const b = a + perBar;
        let high = path[a]!;
        let low = path[a]!;
        for (let i = a; i <= b; i += 1) {
          high = Math.max(high, path[i]!);
          low = Math.min(low, path[i]!);
        }
        bars.time[k] = Math.floor((openMs + a * stepMinutes * 60_000) / 1000);
        bars.open[k] = path[a]!;
        bars.close[k] = path[b]!;
        bars.high[k] = high;
        bars.low[k] = low;
        bars.volume[k] = Math.round(full.volume[last]! * (cumulativeVolumeShare(b / steps) - cumulativeVolumeShare(a / steps)));
      }
      return bars;
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
      const peers = universe.filter((peer) => peer.sector === entry.sector && peer.exchange === entry.exchange).slice(0, 12);
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
      const series = currentSeries(entry);
      const n = series.close.length;
      let sumSquares = 0;
      const window = Math.min(20, n - 1);
      for (let i = n - window; i < n; i += 1) sumSquares += Math.log(series.close[i]! / series.close[i - 1]!) ** 2;
      const realised = Math.sqrt((sumSquares / Math.max(1, window)) * 252);
      return optionChain({
        symbol: entry.symbol,
        spot: series.close[n - 1]!,
        today: now(entry).lastDay,
        realisedVolatility: Number.isFinite(realised) && realised > 0 ? realised : entry.volatility,
        avgVolume: entry.avgVolume,
        expiration,
      });
    },

    async getEconomicSeries(id) {
      const series = economicSeries(id, Math.floor(options.clock.nowMs() / DAY_MS));
      if (!series) throw new UnknownSymbolError(id);
      return series;
    },
  };
}

/** Index of the last bar before `day` (or -1). */
function lastIndexBefore(series: DailySeries, day: number): number {
  let index = series.days.length - 1;
  while (index >= 0 && series.days[index]! >= day) index -= 1;
  return index;
}

/** Exact ticker first, then tickers starting with the query, then names containing it. */
function rank(entries: readonly UniverseEntry[], query: string): UniverseEntry[] {
  const scored: Array<[number, UniverseEntry]> = [];
  for (const entry of entries) {
    const symbol = entry.symbol.toUpperCase();
    const bare = symbol.replace(/\.TO$/, '');
    const name = entry.name.toUpperCase();
    let score = -1;
    if (symbol === query || bare === query) score = 0;
    else if (symbol.startsWith(query)) score = 1;
    else if (name.startsWith(query)) score = 2;
    else if (name.includes(query)) score = 3;
    if (score >= 0) scored.push([score, entry]);
  }
  return scored.sort((a, b) => a[0] - b[0] || a[1].symbol.localeCompare(b[1].symbol)).slice(0, 20).map(([, entry]) => entry);
}

const round = (value: number, decimals: number) => Math.round(value * 10 ** decimals) / 10 ** decimals;
