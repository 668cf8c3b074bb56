/**
 * The crypto engine's platform side (crypto.adapter.ts; docs/rules/crypto.md §3, docs/rules/conventions.md §0.3, docs/rules/data-needs.md §7): its universe, its calendar (every
 * UTC day a session; the pass deciding day D at D + 1, 00:05 UTC; marks every minute, around the
 * clock), its candles' provenance and its extras (news headlines scored by the local lexicon, the
 * analyst's summary, the close-only coins, the volume unit).
 *
 * - **Universe** (cryptoUniverse, §3.1): the source's crypto listing minus stablecoins and wrapped or
 *   staked tokens, BTC, ETH, XRP, SOL, ADA and DOGE always in: the file source's CRYPTO symbols,
 *   the simulated market's coins, the live source's configured coins (the tickers its adapters map,
 *   COINGECKO_IDS: 24, within the 50 of §3.1).
 * - **Candles**: UTC days, weekends included; only completed ones (through D when the pass decides D).
 * - **Provenance** (Bars.candles): a coin whose candles carry only closes (CoinGecko's market_chart,
 *   the live fallback when Binance is unreachable) is in `cryptoCloseOnly`: its ATR, highs, swing
 *   level and trend show their defaults and say why (never computed from closes). Volume summed
 *   across venues (CoinGecko's total_volumes) is not used: its candles' volume is left out (NaN),
 *   so VolumeLevel says `no_volume`. The volume unit: the file source's candles carry USD volume
 *   (docs/market-data.md), the simulated market's and Binance's the coin's (USD = volume × close).
 * - **News** (§3.2): each coin's news of the 72 h before the pass (`getCompanyNews`; the live
 *   source answers a coin from Finnhub's crypto news, one request for every coin, matched by ticker
 *   or name). The live source is asked once per coin per pass, and only for passes within NEWS_PASSES_BACK_MS of now (a replay does not
 *   ask a provider for last year's news; those rows' News are overwritten by the next pass). The
 *   simulated and file sources answer for any day: once per coin per run, the run's whole span, each
 *   pass taking what was published by it, so a replay reads what a live pass read and replay = live
 *   holds for every field; each headline
 *   scored by the local lexicon (`sentimentScore` over headline and summary), SentimentSource
 *   'lexicon'; the summary is the local analyst's key points of the same headlines (≤ 300 chars).
 */
import {
  analyzeNewsItems,
  cryptoHeadlinesInWindow,
  cryptoUniverse,
  CRYPTO_PARAMS,
  CRYPTO_PASS_MINUTES,
  dayNumber,
  isoFromDayNumber,
  sentimentScore,
  type CryptoExtras,
  type CryptoHeadline,
  type DailySeries,
  type UniverseMember,
} from '@signalboard/core';
import type { CachedMarket } from '../../../providers/market/cached-market';
import { COINGECKO_IDS } from '../../../providers/market/live/coingecko';
import type { CandleInfo, NewsArticle } from '../../../providers/market/types';
import { CRYPTOS } from '../../../providers/market/universe';
import type { EngineCalendar } from '../engine-adapter';
import { HISTORY_DAYS } from '../trades.market';
import type { ExtrasFor } from '../trades.types';

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;

/** Marks of the crypto rows: every minute (simulated, file, Binance); CoinGecko's quotes are held 10 minutes by its adapter. */
export const CRYPTO_MARK_INTERVAL_MS = MINUTE_MS;
/** Live source: news is read for the passes within this long before now (the rows show the latest pass's). */
export const NEWS_PASSES_BACK_MS = 3 * DAY_MS;
/** The summary's length at most (as the drop items' news). */
export const CRYPTO_SUMMARY_CHARS = 300;
export const CRYPTO_SENTIMENT_SOURCE = 'lexicon';

/** The instant (ms) of the pass deciding the UTC day `day`: the next day, 00:05 UTC. */
export const cryptoPassTimeMs = (day: number): number => (day + 1) * DAY_MS + CRYPTO_PASS_MINUTES * MINUTE_MS;

/** The latest UTC day whose pass (00:05 UTC the next day) has come at `nowMs`. */
export function cryptoPassDay(nowMs: number): number {
  return Math.floor((nowMs - CRYPTO_PASS_MINUTES * MINUTE_MS) / DAY_MS) - 1;
}

/** Every UTC day on which some coin has a candle, within [fromDay, toDay], ascending. */
export function cryptoSessionDays(series: Iterable<DailySeries>, fromDay: number, toDay: number): number[] {
  const days = new Set<number>();
  for (const one of series) for (const day of one.day) if (day >= fromDay && day <= toDay) days.add(day);
  return [...days].sort((a, b) => a - b);
}

/** The crypto engine's calendar (docs/rules/conventions.md §0.3): every UTC day, its pass at 00:05 UTC the next day, marks every minute. */
export const CRYPTO_CALENDAR: EngineCalendar = {
  passDay: cryptoPassDay,
  passTimeMs: cryptoPassTimeMs,
  isSession: () => true,
  sessionDays: cryptoSessionDays,
  markSlot: (nowMs) => new Date(Math.floor(nowMs / CRYPTO_MARK_INTERVAL_MS) * CRYPTO_MARK_INTERVAL_MS),
};

/** The crypto engine's universe from the source's listing (see the header). */
export async function cryptoUniverseOf(market: CachedMarket, survivorshipBiased: boolean): Promise<UniverseMember[]> {
  if (market.source === 'file' && market.listSymbols) {
    const listing = (await market.listSymbols()).filter((info) => info.market === 'CRYPTO');
    // A dataset lists only the coins it has: the always-included ones it lacks are left out (no bars, no row).
    const listed = new Set(listing.map((info) => info.symbol.toUpperCase()));
    return cryptoUniverse(listing.map((info) => ({ symbol: info.symbol, name: info.description })), survivorshipBiased).filter((member) => listed.has(member.symbol));
  }
  if (market.source === 'simulated') return cryptoUniverse(CRYPTOS.map((entry) => ({ symbol: entry.symbol, name: entry.name })), survivorshipBiased);
  return cryptoUniverse(Object.keys(COINGECKO_IDS).map((symbol) => ({ symbol })), survivorshipBiased);
}

/** What the source's candles are (Bars.candles), by source when the bars do not say. */
export function candleInfoOf(market: Pick<CachedMarket, 'source'>, given: CandleInfo | undefined): CandleInfo {
  if (given) return given;
  return market.source === 'file' ? { provider: 'dataset', range: 'ohlc', volume: 'quote' } : { provider: market.source, range: 'ohlc', volume: 'base' };
}

/**
 * Each coin's candle provenance (from the cached daily history the series were read from), and the
 * series with volume summed across venues left out (NaN). Answers the close-only coins and the unit.
 */
export async function cryptoCandles(market: CachedMarket, series: Map<string, DailySeries>): Promise<{ closeOnly: Set<string>; volumeUnit: 'usd' | 'base' }> {
  const closeOnly = new Set<string>();
  let base = market.source !== 'file';
  for (const [symbol, one] of series) {
    let given: CandleInfo | undefined;
    try {
      given = (await market.getRecentDailyBars(symbol, HISTORY_DAYS)).value.candles;
    } catch {
      given = undefined;
    }
    const info = candleInfoOf(market, given);
    if (info.range === 'close_only') closeOnly.add(symbol);
    if (info.volume === 'aggregate') series.set(symbol, { ...one, volume: new Float64Array(one.volume.length).fill(Number.NaN) });
    if (info.volume === 'quote') base = false;
  }
  return { closeOnly, volumeUnit: base ? 'base' : 'usd' };
}

/** The headline as the engine reads it: scored by the local lexicon over its headline and summary. */
export function cryptoHeadlineOf(article: NewsArticle): CryptoHeadline {
  return {
    url: article.url,
    title: article.headline,
    publishedAt: new Date(article.datetime * 1000).toISOString(),
    score: sentimentScore(`${article.headline}. ${article.summary}`),
    source: article.source,
  };
}

/** The local analyst's summary of the headlines the engine counts (its key points, in order), ≤ 300 characters; null without any. */
export function cryptoNewsSummary(articles: readonly NewsArticle[], headlines: readonly CryptoHeadline[], symbol: string): string | null {
  if (headlines.length === 0) return null;
  const byUrl = new Map(articles.map((article) => [article.url || article.headline, article]));
  const items = headlines.map((headline) => byUrl.get(headline.url || headline.title)).filter((article): article is NewsArticle => article !== undefined);
  const analysis = analyzeNewsItems(
    items.map((item) => ({ headline: item.headline, summary: item.summary })),
    { stock: symbol },
  );
  const points = analysis.keyPoints.map((point) => point.text.trim()).filter((text) => text.length > 0);
  const text = (points.length > 0 ? points : items.map((item) => item.headline)).join(' ').replace(/\s+/g, ' ').trim();
  return text.length <= CRYPTO_SUMMARY_CHARS ? text : `${text.slice(0, CRYPTO_SUMMARY_CHARS - 1).trimEnd()}…`;
}

/**
 * The crypto engine's extras per session (see the header). `closeOnly` and `volumeUnit` come from
 * cryptoCandles over the run's series.
 */
export function createCryptoExtras(
  market: CachedMarket,
  universe: readonly UniverseMember[],
  candles: { closeOnly: ReadonlySet<string>; volumeUnit: 'usd' | 'base' },
  options: { nowMs: () => number },
): ExtrasFor<'crypto'> {
  const base: CryptoExtras = { cryptoCloseOnly: candles.closeOnly, cryptoVolumeUnit: candles.volumeUnit, cryptoSentimentSource: CRYPTO_SENTIMENT_SOURCE };
  const windowMs = CRYPTO_PARAMS.newsHours * HOUR_MS;
  /** `atMs`: the headline's publication time, parsed once (each session filters a coin's whole history by it). */
  type Scored = { article: NewsArticle; headline: CryptoHeadline; atMs: number };
  const score = (articles: readonly NewsArticle[]): Scored[] =>
    articles.map((article) => {
      const headline = cryptoHeadlineOf(article);
      return { article, headline, atMs: Date.parse(headline.publishedAt) };
    });
  /**
   * The simulated and file sources answer any day: each coin's news from the run's first pass
   * window through tomorrow is read once per run (one cache entry per coin, not one per session)
   * and scored once; each session takes the part published by its pass. A live source is asked per
   * pass, for the recent passes only (see the header). A coin whose news fails has none.
   */
  const history = new Map<string, Promise<Scored[]>>();
  const scoredFor = async (symbol: string, passMs: number, date: string): Promise<Scored[]> => {
    if (market.source === 'live') {
      const from = isoFromDayNumber(Math.floor((passMs - windowMs) / DAY_MS));
      return market.getCompanyNews(symbol, from, isoFromDayNumber(dayNumber(date) + 1)).then(
        (answer) => score(answer.value),
        () => [],
      );
    }
    let known = history.get(symbol);
    if (!known) {
      const from = isoFromDayNumber(Math.floor((passMs - windowMs) / DAY_MS));
      const to = isoFromDayNumber(Math.floor(options.nowMs() / DAY_MS) + 1);
      known = market.getCompanyNews(symbol, from, to).then(
        (answer) => score(answer.value),
        () => [],
      );
      history.set(symbol, known);
    }
    const fromMs = passMs - windowMs;
    return (await known).filter(({ atMs }) => atMs > fromMs && atMs <= passMs);
  };
  return async (input, { pace }): Promise<CryptoExtras> => {
    const passMs = Date.parse(input.session.now);
    if (market.source === 'live' && options.nowMs() - passMs > NEWS_PASSES_BACK_MS) return base;
    const news = new Map<string, CryptoHeadline[]>();
    const summaries = new Map<string, string>();
    for (const member of universe) {
      await pace?.();
      const scored = await scoredFor(member.symbol, passMs, input.session.date);
      if (scored.length === 0) continue;
      const headlines = scored.map((item) => item.headline);
      const counted = cryptoHeadlinesInWindow(headlines, passMs, CRYPTO_PARAMS.newsHours);
      if (counted.length === 0) continue;
      news.set(member.symbol, headlines);
      const summary = cryptoNewsSummary(
        scored.map((item) => item.article),
        counted,
        member.symbol,
      );
      if (summary) summaries.set(member.symbol, summary);
    }
    return { ...base, cryptoNews: news, cryptoNewsSummaries: summaries };
  };
}
