/**
 * MARKET_DATA=file: a dataset directory (DATASET_DIR) pins exact data for tests and demos. The
 * format is documented in docs/market-data.md; every part but symbols.json is optional (missing
 * parts answer empty). Every file is read and checked once, at the start: a malformed one stops the
 * start with the file, the line (CSV) or the field (JSON) and the problem. Quotes, when not given,
 * come from the last two daily bars; indicators are always computed from the bars by the features,
 * never read from the dataset. Nothing dated after "now" (MARKET_NOW) is served: bars, news.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { intradayWindowStart, isIsoDate, isoFromDayNumber, marketSession, newYorkTime } from '@signalboard/core';
import { z } from 'zod';
import type { Clock } from '../../../lib/clock';
import { symbolInfo, article, sentiment, earnings, quote, optionChain, economicSeries } from './dataset-schema';
import {
  UnknownSymbolError,
  type Bars,
  type EarningsEvent,
  type EconomicSeries,
  type MarketData,
  type NewsArticle,
  type NewsSentiment,
  type OptionChain,
  type SymbolInfo,
} from '../types';

export class DatasetError extends Error {}

const emptyBars = (symbol: string): Bars => ({
  symbol,
  time: new Float64Array(),
  open: new Float64Array(),
  high: new Float64Array(),
  low: new Float64Array(),
  close: new Float64Array(),
  volume: new Float64Array(),
});

/** The bars at `indices` (oldest first). */
function pickBars(bars: Bars, indices: number[]): Bars {
  const take = (array: Float64Array) => Float64Array.from(indices, (index) => array[index]!);
  return { symbol: bars.symbol, time: take(bars.time), open: take(bars.open), high: take(bars.high), low: take(bars.low), close: take(bars.close), volume: take(bars.volume) };
}

/** Reads and validates the whole dataset once; a bad file stops the start with the file and the problem. */
export function createFileMarket(options: { dir: string; clock: Clock }): MarketData {
  const dir = path.resolve(options.dir);
  const file = (...parts: string[]) => path.join(dir, ...parts);

  function parseJson<T>(full: string, schema: z.ZodType<T>): T {
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(full, 'utf8'));
    } catch (error) {
      throw new DatasetError(`${full}: not valid JSON (${(error as Error).message})`);
    }
    const parsed = schema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new DatasetError(`${full}: ${issue.path.join('.') || '(root)'}: ${issue.message}`);
    }
    return parsed.data;
  }
  function readJson<T>(relative: string, schema: z.ZodType<T>, fallback: T): T {
    const full = file(relative);
    return existsSync(full) ? parseJson(full, schema) : fallback;
  }

  if (!existsSync(file('symbols.json'))) throw new DatasetError(`${file('symbols.json')} is missing: DATASET_DIR must hold at least symbols.json`);
  const symbols: SymbolInfo[] = readJson('symbols.json', z.array(symbolInfo), []);
  const bySymbol = new Map<string, SymbolInfo>();
  symbols.forEach((info, index) => {
    const key = info.symbol.toUpperCase();
    if (bySymbol.has(key)) throw new DatasetError(`${file('symbols.json')}: ${index}: ${info.symbol} is listed twice`);
    bySymbol.set(key, info);
  });

  /** Keyed by symbol: every key must be listed in symbols.json (a typo would otherwise vanish silently). */
  function readBySymbol<T>(relative: string, schema: z.ZodType<T>): Map<string, T> {
    const record = readJson(relative, z.record(z.string(), schema), {});
    const out = new Map<string, T>();
    for (const [key, value] of Object.entries(record)) {
      const info = bySymbol.get(key.toUpperCase());
      if (!info) throw new DatasetError(`${file(relative)}: ${key} is not listed in symbols.json`);
      out.set(info.symbol, value);
    }
    return out;
  }

  /** Every `<SYMBOL><extension>` file of a folder, read by `read`; each must name a listed symbol. */
  function readSymbolFolder<T>(folder: string, extension: string, read: (full: string, info: SymbolInfo) => T, skip: string[] = []): Map<string, T> {
    const out = new Map<string, T>();
    const full = file(folder);
    if (!existsSync(full) || !statSync(full).isDirectory()) return out;
    for (const name of readdirSync(full).sort()) {
      if (name.startsWith('.') || !name.endsWith(extension) || skip.includes(name)) continue;
      const stem = name.slice(0, -extension.length);
      const info = bySymbol.get(stem.toUpperCase());
      if (!info) throw new DatasetError(`${path.join(full, name)}: ${stem} is not listed in symbols.json`);
      if (out.has(info.symbol)) throw new DatasetError(`${path.join(full, name)}: a second file for ${info.symbol}`);
      out.set(info.symbol, read(path.join(full, name), info));
    }
    return out;
  }

  /** A CSV of OHLCV rows keyed by `date` (YYYY-MM-DD, 00:00 UTC) or `time` (Unix seconds), oldest first. */
  function readBars(full: string, symbol: string, timeColumn: 'date' | 'time'): Bars {
    const lines = readFileSync(full, 'utf8').split(/\r?\n/);
    const header = lines[0]?.split(',').map((cell) => cell.trim().toLowerCase()) ?? [];
    const names = [timeColumn, 'open', 'high', 'low', 'close', 'volume'];
    const columns = names.map((name) => header.indexOf(name));
    if (columns.some((index) => index < 0)) throw new DatasetError(`${full}: line 1: the header must name ${names.join(',')}`);
    const rows: number[][] = [];
    const seen = new Map<number, number>();
    lines.forEach((line, lineIndex) => {
      if (lineIndex === 0 || line.trim() === '') return;
      const at = `${full}: line ${lineIndex + 1}`;
      const cells = line.split(',').map((cell) => cell.trim());
      const values = columns.map((index, k) => {
        const cell = cells[index] ?? '';
        let value: number;
        if (k > 0) value = cell === '' ? Number.NaN : Number(cell);
        else if (timeColumn === 'date') value = isIsoDate(cell) ? Date.parse(`${cell}T00:00:00Z`) / 1000 : Number.NaN;
        else value = /^\d{1,11}$/.test(cell) ? Number(cell) : Number.NaN;
        if (!Number.isFinite(value)) {
          const what = k > 0 ? names[k] : timeColumn === 'date' ? 'date (YYYY-MM-DD)' : 'time (Unix seconds)';
          throw new DatasetError(`${at}: "${cell}" is not a valid ${what}`);
        }
        return value;
      });
      const [time, open, high, low, close, volume] = values as [number, number, number, number, number, number];
      if (!(open > 0 && high > 0 && low > 0 && close > 0)) throw new DatasetError(`${at}: prices must be above 0`);
      if (volume < 0) throw new DatasetError(`${at}: volume must not be negative`);
      if (low > Math.min(open, close) || high < Math.max(open, close)) throw new DatasetError(`${at}: the high and the low must bound the open and the close`);
      const earlier = seen.get(time);
      if (earlier !== undefined) throw new DatasetError(`${at}: ${cells[columns[0]!]} repeats line ${earlier}`);
      seen.set(time, lineIndex + 1);
      rows.push(values);
    });
    rows.sort((a, b) => a[0]! - b[0]!);
    const pick = (k: number) => Float64Array.from(rows, (row) => row[k]!);
    return { symbol, time: pick(0), open: pick(1), high: pick(2), low: pick(3), close: pick(4), volume: pick(5) };
  }

  const quotes = readBySymbol('quotes.json', quote);
  const sentiments = readBySymbol('sentiment.json', sentiment);
  const earningsRows = readJson('earnings.json', z.array(earnings), []);
  const marketNews = readJson('news/market.json', z.array(article), []);
  const dailyBars = readSymbolFolder('bars', '.csv', (full, info) => readBars(full, info.symbol, 'date'));
  const intradayBars = readSymbolFolder('intraday', '.csv', (full, info) => readBars(full, info.symbol, 'time'));
  const companyNews = readSymbolFolder('news', '.json', (full) => parseJson(full, z.array(article)), ['market.json']);
  /** Per symbol: the chain now (a file's undated chain) and the chains of past sessions by their `asOf` date. */
  const optionChains = readSymbolFolder('options', '.json', (full, info): { now: OptionChain | null; asOf: Map<string, OptionChain> } => {
    // One chain, or a list of them (the chains of several sessions, each with its asOf).
    const list = Array.isArray(parseJson(full, z.unknown()));
    const parsed = list ? parseJson(full, z.array(optionChain).min(1)) : parseJson(full, optionChain);
    const out = { now: null as OptionChain | null, asOf: new Map<string, OptionChain>() };
    for (const [index, { asOf, ...chain }] of (Array.isArray(parsed) ? parsed : [parsed]).entries()) {
      const at = list ? `${full}: ${index}` : full;
      if (chain.symbol.toUpperCase() !== info.symbol.toUpperCase()) throw new DatasetError(`${at}: symbol "${chain.symbol}" does not match the file name`);
      const expirations = [...new Set(chain.expirations)].sort();
      const unlisted = chain.contracts.find((contract) => !expirations.includes(contract.expiration));
      if (unlisted) throw new DatasetError(`${at}: ${unlisted.contractSymbol}: expiration ${unlisted.expiration} is not in expirations`);
      const checked = { ...chain, symbol: info.symbol, expirations };
      if (asOf === undefined) {
        if (out.now) throw new DatasetError(`${at}: a second chain without asOf (only one chain is the chain now)`);
        out.now = checked;
      } else {
        if (out.asOf.has(asOf)) throw new DatasetError(`${at}: a second chain as of ${asOf}`);
        out.asOf.set(asOf, checked);
      }
    }
    return out;
  });
  const datedChains = [...optionChains.values()].some((chains) => chains.asOf.size > 0);
  const economic = new Map<string, EconomicSeries>();
  if (existsSync(file('economic'))) {
    for (const name of readdirSync(file('economic')).sort()) {
      if (name.startsWith('.') || !name.endsWith('.json')) continue;
      const full = file('economic', name);
      const series = parseJson(full, economicSeries);
      if (series.id !== name.slice(0, -'.json'.length)) throw new DatasetError(`${full}: id "${series.id}" does not match the file name`);
      // Newest first, whatever the file's order.
      economic.set(series.id, { ...series, observations: [...series.observations].sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0)) });
    }
  }

  const known = (symbol: string): SymbolInfo => {
    const info = bySymbol.get(symbol.trim().toUpperCase());
    if (!info) throw new UnknownSymbolError(symbol);
    return info;
  };

  const nowSeconds = () => Math.floor(options.clock.nowMs() / 1000);
  /** The bars in [from, to], never after now. */
  const within = (bars: Bars, from: number, to: number): Bars => {
    const end = Math.min(to, nowSeconds());
    const keep: number[] = [];
    bars.time.forEach((time, index) => {
      if (time >= from && time <= end) keep.push(index);
    });
    return pickBars(bars, keep);
  };
  const dailyOf = (info: SymbolInfo) => dailyBars.get(info.symbol) ?? emptyBars(info.symbol);
  /** The session day of an intraday bar: the New York date for stocks, the UTC date for crypto. */
  const sessionDay = (info: SymbolInfo, time: number) => (info.market === 'CRYPTO' ? Math.floor(time / 86_400) : newYorkTime(time * 1000).day);

  /** The last New York session through now (today's while it runs or after its close): YYYY-MM-DD. */
  const lastSessionDate = () => isoFromDayNumber(marketSession(options.clock.nowMs()).lastSessionDay);
  const ofExpiration = (chain: OptionChain, expiration: string | undefined): OptionChain =>
    expiration ? { ...chain, contracts: chain.contracts.filter((c) => c.expiration === expiration) } : chain;

  const match = (query: string, infos: SymbolInfo[]) => {
    const q = query.trim().toUpperCase();
    if (!q) return [];
    return infos.filter((info) => info.symbol.toUpperCase().startsWith(q) || info.description.toUpperCase().includes(q)).slice(0, 20);
  };
  const inDays = (articles: NewsArticle[], from: string, to: string) => {
    const start = Date.parse(`${from}T00:00:00Z`) / 1000;
    const end = Date.parse(`${to}T00:00:00Z`) / 1000 + 86_400;
    return articles.filter((a) => a.datetime >= start && a.datetime < end && a.datetime <= nowSeconds()).sort((a, b) => b.datetime - a.datetime);
  };

  return {
    source: 'file',
    async lookupSymbols(query, market) {
      return match(query, symbols.filter((info) => info.market === market));
    },
    async searchSymbols(query) {
      return match(query, symbols);
    },
    async listSymbols() {
      return [...symbols];
    },
    async getProfile(symbol) {
      return known(symbol);
    },
    /**
     * quotes.json first; else the last bar's close against the one before (with a single bar, its
     * open stands for the previous close). A listed symbol with neither has no price: UnknownSymbolError
     * (the features tell it apart from an unlisted one through getProfile).
     */
    async getQuote(symbol) {
      const info = known(symbol);
      const given = quotes.get(info.symbol);
      const bars = within(dailyOf(info), 0, Number.POSITIVE_INFINITY);
      const n = bars.close.length;
      if (!given && n === 0) throw new UnknownSymbolError(symbol);
      const price = given?.price ?? bars.close[n - 1]!;
      const previousClose = given?.previousClose ?? (n >= 2 ? bars.close[n - 2]! : bars.open[n - 1]!);
      return {
        symbol: info.symbol,
        price,
        previousClose,
        change: Math.round((price - previousClose) * 10_000) / 10_000,
        percentChange: Math.round(((price - previousClose) / previousClose) * 1_000_000) / 10_000,
        open: given?.open ?? bars.open[n - 1] ?? price,
        high: given?.high ?? bars.high[n - 1] ?? price,
        low: given?.low ?? bars.low[n - 1] ?? price,
        volume: given?.volume ?? bars.volume[n - 1] ?? 0,
        timestamp: given?.timestamp ?? nowSeconds(),
      };
    },
    async getDailyBars(symbol, from, to) {
      return within(dailyOf(known(symbol)), from, to);
    },
    /**
     * The last session's bars up to now (today's so far, else the last session the file holds),
     * after the session before it while the last one has fewer than 15 bars (intradayWindowStart).
     */
    async getIntradayBars(symbol) {
      const info = known(symbol);
      const served = within(intradayBars.get(info.symbol) ?? emptyBars(info.symbol), 0, Number.POSITIVE_INFINITY);
      const days = Array.from(served.time, (time) => sessionDay(info, time));
      const n = days.length;
      if (n === 0) return served;
      const start = intradayWindowStart(days);
      return start === 0 ? served : pickBars(served, Array.from({ length: n - start }, (_, k) => start + k));
    },
    async getCompanyNews(symbol, from, to) {
      const info = known(symbol);
      return inDays(companyNews.get(info.symbol) ?? [], from, to);
    },
    async getMarketNews() {
      return marketNews.filter((a) => a.datetime <= nowSeconds()).sort((a, b) => b.datetime - a.datetime);
    },
    async getNewsSentiment(symbol): Promise<NewsSentiment> {
      const info = known(symbol);
      const given = sentiments.get(info.symbol);
      return given
        ? { symbol: info.symbol, ...given }
        : { symbol: info.symbol, bullishPercent: 0.5, bearishPercent: 0.5, sectorAverageBullishPercent: 0.5, sectorAverageNewsScore: 0.5, companyNewsScore: 0.5, articlesInLastWeek: 0, weeklyAverage: 0 };
    },
    async getEarningsCalendar(from, to): Promise<EarningsEvent[]> {
      return earningsRows
        .filter((row) => row.date >= from && row.date <= to)
        .map((row) => {
          const info = bySymbol.get(row.symbol.toUpperCase());
          return { ...row, exchange: row.exchange ?? info?.exchange ?? '', country: row.country ?? info?.country ?? '' };
        });
    },
    /** The file's undated chain, else its chain as of the last session through now; none: an empty chain. */
    async getOptionChain(symbol, expiration) {
      const info = known(symbol);
      const chains = optionChains.get(info.symbol);
      const chain = chains?.now ?? chains?.asOf.get(lastSessionDate()) ?? { symbol: info.symbol, underlyingPrice: 0, expirations: [], contracts: [] };
      return ofExpiration(chain, expiration);
    },
    // Only a dataset whose chains carry an asOf date can answer for a past session.
    ...(datedChains && {
      async getOptionChainAsOf(symbol: string, date: string, expiration?: string) {
        const info = known(symbol);
        // Nothing after now: a chain dated after the last session through now is not served.
        if (!isIsoDate(date) || date > lastSessionDate()) return null;
        const chain = optionChains.get(info.symbol)?.asOf.get(date);
        return chain ? ofExpiration(chain, expiration) : null;
      },
    }),
    async getEconomicSeries(id) {
      const series = economic.get(id) ?? economic.get(id.toUpperCase());
      if (!series) throw new UnknownSymbolError(id);
      return series;
    },
  };
}
