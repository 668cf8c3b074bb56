/** Finnhub, free tier: search, quote, profile, company and market news, earnings calendar. */
import type { CacheStore } from '../../../lib/cache-store';
import { z } from 'zod';
import type { Clock } from '../../../lib/clock';
import { UnknownSymbolError, type EarningsEvent, type NewsArticle, type Quote, type SymbolInfo } from '../types';
import { createHttpClient, expectShape, type FetchImpl } from './http';

const PROVIDER = 'Finnhub';

const searchBody = z.object({
  count: z.number().optional(),
  result: z.array(z.object({ description: z.string().default(''), displaySymbol: z.string().optional(), symbol: z.string(), type: z.string().default('') })),
});
const quoteBody = z.object({
  c: z.number(),
  d: z.number().nullable().optional(),
  dp: z.number().nullable().optional(),
  h: z.number(),
  l: z.number(),
  o: z.number(),
  pc: z.number(),
  t: z.number().optional(),
});
const newsBody = z.array(
  z.object({
    category: z.string().default(''),
    datetime: z.number(),
    headline: z.string(),
    id: z.union([z.number(), z.string()]),
    image: z.string().default(''),
    related: z.string().default(''),
    source: z.string().default(''),
    summary: z.string().default(''),
    url: z.string().default(''),
  }),
);
const earningsBody = z.object({
  earningsCalendar: z.array(
    z.object({
      date: z.string(),
      epsActual: z.number().nullable().optional(),
      epsEstimate: z.number().nullable().optional(),
      hour: z.string().optional(),
      quarter: z.number().nullable().optional(),
      revenueActual: z.number().nullable().optional(),
      revenueEstimate: z.number().nullable().optional(),
      symbol: z.string(),
      year: z.number().nullable().optional(),
    }),
  ),
});
/** /stock/profile2: every field optional; a symbol Finnhub has no profile for answers `{}`. */
const profileBody = z.object({
  country: z.string().optional(),
  currency: z.string().optional(),
  exchange: z.string().optional(),
  name: z.string().optional(),
  ticker: z.string().optional(),
  finnhubIndustry: z.string().optional(),
});

/** Finnhub's venue ("NASDAQ NMS - GLOBAL MARKET", "NEW YORK STOCK EXCHANGE, INC.") as users know it. */
export function exchangeName(raw: string): string {
  const upper = raw.toUpperCase();
  if (upper.includes('NASDAQ')) return 'NASDAQ';
  if (upper.includes('ARCA')) return 'NYSE Arca';
  if (upper.includes('NYSE MKT') || upper.includes('NYSE AMERICAN')) return 'NYSE American';
  if (upper.includes('NEW YORK STOCK EXCHANGE') || upper.startsWith('NYSE')) return 'NYSE';
  if (upper.includes('CBOE') || upper.includes('BATS')) return 'Cboe';
  if (upper.includes('TORONTO')) return 'TSX';
  return raw.trim();
}

/** The URL when it is http(s), else undefined (no `javascript:`, `data:` or relative links reach the UI). */
function webUrl(value: string): string | undefined {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.toString() : undefined;
  } catch {
    return undefined;
  }
}

export interface FinnhubOptions {
  apiKey: string;
  baseUrl?: string;
  fetchImpl?: FetchImpl;
  timeoutMs?: number;
  clock: Clock;
  sleep?: (ms: number) => Promise<void>;
  /** Shared (Redis): the provider's token bucket is the installation's. */
  store?: CacheStore;
}

export function createFinnhubAdapter(options: FinnhubOptions) {
  const base = (options.baseUrl ?? 'https://finnhub.io/api/v1').replace(/\/$/, '');
  // 60 calls a minute on the free plan (plus a 30/s cap no single process reaches here).
  const http = createHttpClient({ provider: PROVIDER, fetchImpl: options.fetchImpl, timeoutMs: options.timeoutMs, ratePerMinute: 60, burst: 10, clock: options.clock, sleep: options.sleep, store: options.store });
  const get = (path: string, params: Record<string, string>) =>
    http.getJson(`${base}${path}?${new URLSearchParams(params).toString()}`, { headers: { 'X-Finnhub-Token': options.apiKey } });
  /** An article, or undefined when it has no http(s) link to open. Images that are not http(s) become ''. */
  const toArticle = (item: z.infer<typeof newsBody>[number]): NewsArticle | undefined => {
    const url = webUrl(item.url);
    if (!url) return undefined;
    return {
      id: String(item.id),
      headline: item.headline,
      summary: item.summary,
      source: item.source,
      category: item.category,
      datetime: item.datetime,
      url,
      image: webUrl(item.image) ?? '',
      related: item.related,
    };
  };
  const toArticles = (body: z.infer<typeof newsBody>) =>
    body.flatMap((item) => toArticle(item) ?? []).sort((a, b) => b.datetime - a.datetime);

  return {
    provider: PROVIDER,
    async search(query: string, market: 'US' | 'TO'): Promise<SymbolInfo[]> {
      const body = expectShape(PROVIDER, 'search answer', searchBody, await get('/search', { q: query, exchange: market }));
      return body.result
        .filter((item) => (market === 'TO' ? item.symbol.endsWith('.TO') : !item.symbol.includes('.') || /^[A-Z]+\.[A-Z]$/.test(item.symbol)))
        .map((item) => ({
          symbol: item.symbol,
          description: item.description,
          market,
          exchange: market === 'TO' ? 'TSX' : 'US',
          country: market === 'TO' ? 'Canada' : 'United States',
          currency: market === 'TO' ? 'CAD' : 'USD',
          assetClass: item.type === 'ETP' ? 'etf' : 'stock',
        }));
    },

    async quote(symbol: string): Promise<Quote> {
      const body = expectShape(PROVIDER, 'quote', quoteBody, await get('/quote', { symbol }));
      // An unknown symbol answers 200 with every field zero.
      if (!body.t || (body.c === 0 && (body.d === null || body.d === undefined))) throw new UnknownSymbolError(symbol);
      return {
        symbol,
        price: body.c,
        change: body.d ?? body.c - body.pc,
        percentChange: body.dp ?? (body.pc ? ((body.c - body.pc) / body.pc) * 100 : 0),
        previousClose: body.pc,
        open: body.o,
        high: body.h,
        low: body.l,
        volume: 0, // Finnhub's free quote carries no volume
        timestamp: body.t,
      };
    },

    async profile(symbol: string): Promise<SymbolInfo> {
      const body = expectShape(PROVIDER, 'profile', profileBody, await get('/stock/profile2', { symbol }));
      if (!body.name) throw new UnknownSymbolError(symbol);
      // Market, country and currency are the listing's (the ticker's), not the head office's
      // (`country`) or the filings' (`currency`): SHOP on the NYSE is a US listing in USD.
      const canadian = /\.TO$/i.test(symbol);
      const industry = body.finnhubIndustry?.trim();
      return {
        symbol: symbol.toUpperCase(),
        description: body.name,
        market: canadian ? 'TO' : 'US',
        exchange: body.exchange ? exchangeName(body.exchange) : canadian ? 'TSX' : '',
        country: canadian ? 'Canada' : 'United States',
        currency: canadian ? 'CAD' : 'USD',
        assetClass: 'stock',
        // Finnhub's own classification (e.g. "Technology", "Banking"), not a GICS sector.
        industry: industry && industry !== 'N/A' ? industry : undefined,
      };
    },

    async companyNews(symbol: string, from: string, to: string): Promise<NewsArticle[]> {
      return toArticles(expectShape(PROVIDER, 'company news', newsBody, await get('/company-news', { symbol, from, to })));
    },

    /** Market news of a category (`general` for the news screens, `crypto` for the coins' headlines). */
    async marketNews(category: 'general' | 'crypto' = 'general'): Promise<NewsArticle[]> {
      return toArticles(expectShape(PROVIDER, 'market news', newsBody, await get('/news', { category })));
    },

    async earnings(from: string, to: string): Promise<EarningsEvent[]> {
      const body = expectShape(PROVIDER, 'earnings calendar', earningsBody, await get('/calendar/earnings', { from, to }));
      return body.earningsCalendar.map((row) => ({
        symbol: row.symbol,
        date: row.date,
        hour: row.hour === 'bmo' || row.hour === 'amc' || row.hour === 'dmh' ? row.hour : '',
        epsActual: row.epsActual ?? null,
        epsEstimate: row.epsEstimate ?? null,
        revenueActual: row.revenueActual ?? null,
        revenueEstimate: row.revenueEstimate ?? null,
        quarter: row.quarter ?? 0,
        year: row.year ?? 0,
        exchange: '',
        country: 'United States',
      }));
    },
  };
}

export type FinnhubAdapter = ReturnType<typeof createFinnhubAdapter>;
