/**
 * MARKET_DATA=file: a dataset directory (DATASET_DIR) pins exact data for tests and demos. The
 * format is documented in docs/market-data.md; every part but symbols.json is optional (missing
 * parts answer empty). Quotes, when not given, come from the last two daily bars; indicators are
 * always computed from the bars by the features, never read from the dataset.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { Clock } from '../../../lib/clock';
import { UnknownSymbolError, type Bars, type EarningsEvent, type MarketData, type NewsArticle, type SymbolInfo } from '../types';

const symbolInfo = z.object({
  symbol: z.string(),
  description: z.string(),
  market: z.enum(['US', 'TO', 'CRYPTO']),
  exchange: z.string(),
  country: z.string(),
  currency: z.enum(['USD', 'CAD']).default('USD'),
  assetClass: z.enum(['stock', 'etf', 'crypto']).default('stock'),
  sector: z.string().optional(),
  industry: z.string().optional(),
});
const article = z.object({
  id: z.string(),
  headline: z.string(),
  summary: z.string().default(''),
  source: z.string().default(''),
  category: z.string().default('general'),
  datetime: z.number(),
  url: z.string().default(''),
  image: z.string().default(''),
  related: z.string().default(''),
});
const sentiment = z.object({
  bullishPercent: z.number(),
  bearishPercent: z.number(),
  sectorAverageBullishPercent: z.number(),
  sectorAverageNewsScore: z.number().default(0.5),
  companyNewsScore: z.number().default(0.5),
  articlesInLastWeek: z.number().default(0),
  weeklyAverage: z.number().default(0),
});
const earnings = z.object({
  symbol: z.string(),
  date: z.string(),
  hour: z.enum(['bmo', 'amc', 'dmh', '']).default(''),
  epsActual: z.number().nullable().default(null),
  epsEstimate: z.number().nullable().default(null),
  revenueActual: z.number().nullable().default(null),
  revenueEstimate: z.number().nullable().default(null),
  quarter: z.number().default(0),
  year: z.number().default(0),
  exchange: z.string().optional(),
  country: z.string().optional(),
});
const quote = z.object({
  price: z.number(),
  previousClose: z.number(),
  open: z.number().optional(),
  high: z.number().optional(),
  low: z.number().optional(),
  volume: z.number().optional(),
  timestamp: z.number().optional(),
});
const optionChain = z.object({
  symbol: z.string(),
  underlyingPrice: z.number(),
  expirations: z.array(z.string()),
  contracts: z.array(
    z.object({
      contractSymbol: z.string(),
      type: z.enum(['call', 'put']),
      strike: z.number(),
      expiration: z.string(),
      lastPrice: z.number(),
      bid: z.number(),
      ask: z.number(),
      volume: z.number(),
      openInterest: z.number(),
      impliedVolatility: z.number(),
    }),
  ),
});
const economicSeries = z.object({
  id: z.string(),
  name: z.string(),
  unit: z.string(),
  frequency: z.enum(['Daily', 'Weekly', 'Monthly', 'Quarterly']),
  observations: z.array(z.object({ date: z.string(), value: z.number() })),
});

export class DatasetError extends Error {}

/** Reads and validates the dataset once; a bad file stops the start with the file and the problem. */
export function createFileMarket(options: { dir: string; clock: Clock }): MarketData {
  const dir = path.resolve(options.dir);
  const file = (...parts: string[]) => path.join(dir, ...parts);
  function readJson<T>(relative: string, schema: z.ZodType<T>, fallback: T): T {
    const full = file(relative);
    if (!existsSync(full)) return fallback;
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
  if (!existsSync(file('symbols.json'))) throw new DatasetError(`${file('symbols.json')} is missing: DATASET_DIR must hold at least symbols.json`);
  const symbols = readJson('symbols.json', z.array(symbolInfo), []);
  const bySymbol = new Map<string, SymbolInfo>(symbols.map((info) => [info.symbol.toUpperCase(), info]));
  const quotes = readJson('quotes.json', z.record(z.string(), quote), {});
  const sentiments = readJson('sentiment.json', z.record(z.string(), sentiment), {});
  const earningsRows = readJson('earnings.json', z.array(earnings), []);
  const marketNews = readJson('news/market.json', z.array(article), []);
  const barCache = new Map<string, Bars>();

  const known = (symbol: string): SymbolInfo => {
    const info = bySymbol.get(symbol.trim().toUpperCase());
    if (!info) throw new UnknownSymbolError(symbol);
    return info;
  };

  function readBars(relative: string, symbol: string, timeColumn: 'date' | 'time'): Bars {
    const full = file(relative);
    const empty: Bars = { symbol, time: new Float64Array(), open: new Float64Array(), high: new Float64Array(), low: new Float64Array(), close: new Float64Array(), volume: new Float64Array() };
    if (!existsSync(full)) return empty;
    const lines = readFileSync(full, 'utf8').split(/\r?\n/).filter((line) => line.trim() !== '');
    const header = lines.shift()?.split(',').map((cell) => cell.trim().toLowerCase()) ?? [];
    const column = (name: string) => {
      const index = header.indexOf(name);
      if (index < 0) throw new DatasetError(`${full}: header must name ${timeColumn},open,high,low,close,volume`);
      return index;
    };
    const columns = [column(timeColumn), column('open'), column('high'), column('low'), column('close'), column('volume')];
    const rows = lines.map((line, lineIndex) => {
      const cells = line.split(',');
      const values = columns.map((index, k) => {
        const cell = (cells[index] ?? '').trim();
        const value = k === 0 ? (timeColumn === 'date' ? Date.parse(`${cell}T00:00:00Z`) / 1000 : Number(cell)) : Number(cell);
        if (!Number.isFinite(value)) throw new DatasetError(`${full}: line ${lineIndex + 2}: "${cell}" is not a valid ${header[index]}`);
        return value;
      });
      return values;
    });
    rows.sort((a, b) => a[0]! - b[0]!);
    const pick = (k: number) => Float64Array.from(rows, (row) => row[k]!);
    return { symbol, time: pick(0), open: pick(1), high: pick(2), low: pick(3), close: pick(4), volume: pick(5) };
  }

  const dailyBars = (symbol: string): Bars => {
    const cached = barCache.get(symbol);
    if (cached) return cached;
    const bars = readBars(`bars/${symbol}.csv`, symbol, 'date');
    barCache.set(symbol, bars);
    return bars;
  };

  const nowSeconds = () => Math.floor(options.clock.nowMs() / 1000);
  const upTo = (bars: Bars, from: number, to: number): Bars => {
    const keep: number[] = [];
    bars.time.forEach((time, index) => {
      if (time >= from && time <= Math.min(to, nowSeconds())) keep.push(index);
    });
    const take = (array: Float64Array) => Float64Array.from(keep, (index) => array[index]!);
    return { symbol: bars.symbol, time: take(bars.time), open: take(bars.open), high: take(bars.high), low: take(bars.low), close: take(bars.close), volume: take(bars.volume) };
  };
  const match = (query: string, infos: SymbolInfo[]) => {
    const q = query.trim().toUpperCase();
    if (!q) return [];
    return infos.filter((info) => info.symbol.toUpperCase().startsWith(q) || info.description.toUpperCase().includes(q)).slice(0, 20);
  };
  const newsOf = (symbol: string) => readJson(`news/${symbol}.json`, z.array(article), []);
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
    async getProfile(symbol) {
      return known(symbol);
    },
    async getQuote(symbol) {
      const info = known(symbol);
      const given = quotes[info.symbol];
      const bars = upTo(dailyBars(info.symbol), 0, Number.POSITIVE_INFINITY);
      const n = bars.close.length;
      if (!given && n < 2) throw new UnknownSymbolError(symbol);
      const price = given?.price ?? bars.close[n - 1]!;
      const previousClose = given?.previousClose ?? bars.close[n - 2]!;
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
      const info = known(symbol);
      return upTo(dailyBars(info.symbol), from, to);
    },
    async getIntradayBars(symbol) {
      const info = known(symbol);
      return upTo(readBars(`intraday/${info.symbol}.csv`, info.symbol, 'time'), 0, Number.POSITIVE_INFINITY);
    },
    async getCompanyNews(symbol, from, to) {
      const info = known(symbol);
      return inDays(newsOf(info.symbol), from, to);
    },
    async getMarketNews() {
      return marketNews.filter((a) => a.datetime <= nowSeconds()).sort((a, b) => b.datetime - a.datetime);
    },
    async getNewsSentiment(symbol) {
      const info = known(symbol);
      const given = sentiments[info.symbol];
      return given ? { symbol: info.symbol, ...given } : { symbol: info.symbol, bullishPercent: 0.5, bearishPercent: 0.5, sectorAverageBullishPercent: 0.5, sectorAverageNewsScore: 0.5, companyNewsScore: 0.5, articlesInLastWeek: 0, weeklyAverage: 0 };
    },
    async getEarningsCalendar(from, to): Promise<EarningsEvent[]> {
      return earningsRows
        .filter((row) => row.date >= from && row.date <= to)
        .map((row) => {
          const info = bySymbol.get(row.symbol.toUpperCase());
          return { ...row, exchange: row.exchange ?? info?.exchange ?? '', country: row.country ?? info?.country ?? '' };
        });
    },
    async getOptionChain(symbol, expiration) {
      const info = known(symbol);
      const chain = readJson(`options/${info.symbol}.json`, optionChain, { symbol: info.symbol, underlyingPrice: 0, expirations: [], contracts: [] });
      return expiration ? { ...chain, contracts: chain.contracts.filter((c) => c.expiration === expiration) } : chain;
    },
    async getEconomicSeries(id) {
      if (!/^[A-Za-z0-9_]+$/.test(id) || !existsSync(file('economic', `${id}.json`))) throw new UnknownSymbolError(id);
      return readJson(`economic/${id}.json`, economicSeries, { id, name: id, unit: '', frequency: 'Monthly', observations: [] });
    },
  };
}
