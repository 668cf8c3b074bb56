/**
 * Yahoo Finance through `yahoo-finance2` (v3: v4 needs Node 22): no key. Daily and 5-minute bars
 * (chart), search, and option chains (options, which needs Yahoo's cookie and crumb; the library
 * fetches them). Results are read raw (`validateResult: false`) and checked with our own schemas, so
 * a Yahoo format change fails as a clear provider error. `fetch` is injected: tests point it at a
 * loopback server replaying recorded responses.
 */
import YahooFinance from 'yahoo-finance2';
import { z } from 'zod';
import type { CacheStore } from '../../../lib/cache-store';
import type { Clock } from '../../../lib/clock';
import { metrics } from '../../../lib/metrics';
import { CapabilityUnavailableError, ProviderError, UnknownSymbolError, type Bars, type OptionChain, type OptionContract, type Quote, type SymbolInfo } from '../types';
import { expectShape, providerErrorKind, ProviderTimeoutError, sharedTokenBucket, TokenBucket, type FetchImpl, type RateGate } from './http';
import { lastSessionWindow } from './intraday-window';

const PROVIDER = 'Yahoo';

const nullableNumbers = z.array(z.number().nullable());
/** Unix seconds, whether the library left a number or coerced it into a Date. */
const seconds = z.union([z.number(), z.date()]).transform((value) => (typeof value === 'number' ? value : Math.floor(value.getTime() / 1000)));
const chartBody = z.object({
  meta: z.object({ symbol: z.string(), exchangeTimezoneName: z.string().optional() }).passthrough(),
  timestamp: z.array(z.number()).default([]),
  indicators: z.object({
    quote: z.array(z.object({ open: nullableNumbers.default([]), high: nullableNumbers.default([]), low: nullableNumbers.default([]), close: nullableNumbers.default([]), volume: nullableNumbers.default([]) })),
  }),
});
const searchBody = z.object({
  quotes: z.array(
    z.object({
      symbol: z.string().optional(),
      shortname: z.string().optional(),
      longname: z.string().optional(),
      exchange: z.string().optional(),
      exchDisp: z.string().optional(),
      quoteType: z.string().optional(),
      isYahooFinance: z.boolean().optional(),
    }).passthrough(),
  ),
});
const contract = z.object({
  contractSymbol: z.string(),
  strike: z.number(),
  lastPrice: z.number().default(0),
  bid: z.number().optional(),
  ask: z.number().optional(),
  volume: z.number().optional(),
  openInterest: z.number().optional(),
  impliedVolatility: z.number().default(0),
  expiration: seconds,
});
const quoteBody = z.array(
  z
    .object({
      symbol: z.string(),
      regularMarketPrice: z.number(),
      regularMarketChange: z.number().optional(),
      regularMarketChangePercent: z.number().optional(),
      regularMarketPreviousClose: z.number(),
      regularMarketOpen: z.number().optional(),
      regularMarketDayHigh: z.number().optional(),
      regularMarketDayLow: z.number().optional(),
      regularMarketVolume: z.number().optional(),
      regularMarketTime: seconds.optional(),
    })
    .passthrough(),
);
const optionsBody = z.object({
  underlyingSymbol: z.string(),
  expirationDates: z.array(seconds),
  quote: z.object({ regularMarketPrice: z.number().optional() }).passthrough(),
  options: z.array(z.object({ expirationDate: seconds, calls: z.array(contract), puts: z.array(contract) })),
});

/** Yahoo's codes of US venues (Nasdaq, NYSE, NYSE American, NYSE Arca, Cboe BZX, OTC). */
const US_VENUES = new Set(['NMS', 'NGM', 'NCM', 'NAS', 'NYQ', 'NYS', 'ASE', 'PCX', 'BTS', 'PNK', 'OQB', 'OQX']);

const isoDay = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);

export interface YahooOptions {
  /** Replaces Yahoo's hosts (tests: a loopback server). */
  baseUrl?: string;
  fetchImpl?: FetchImpl;
  timeoutMs?: number;
  clock: Clock;
  log?: { debug(msg: string): void };
  /** A shared store (Redis): one Yahoo bucket for the whole installation. */
  store?: CacheStore;
}

export function createYahooAdapter(options: YahooOptions) {
  const fetchImpl = options.fetchImpl ?? ((input: string, init?: RequestInit) => fetch(input, init));
  const timeoutMs = options.timeoutMs ?? 10_000;
  // Yahoo publishes no limit and throttles by address: stay near one call a second.
  const bucket: RateGate = options.store?.shared ? sharedTokenBucket(options.store, PROVIDER, 60, 5, options.clock) : new TokenBucket(60, 5, options.clock);
  /** The last Retry-After Yahoo sent, read when its 429 becomes our error. */
  let lastRetryAfterSeconds: number | undefined;
  const yahooFetch = async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(typeof input === 'string' || input instanceof URL ? input.toString() : input.url);
    const target = options.baseUrl ? `${options.baseUrl.replace(/\/$/, '')}${url.pathname}${url.search}` : url.toString();
    if ((await bucket.take()) > 0) throw new ProviderError(PROVIDER, 'rate limit reached', { status: 429, retryable: false });
    const response = await fetchImpl(target, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    const retryAfter = Number(response.headers.get('retry-after'));
    lastRetryAfterSeconds = Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined;
    return response;
  };
  const quiet = (msg: unknown) => options.log?.debug(`[yahoo-finance2] ${String(msg)}`);
  const yf = new YahooFinance({
    fetch: yahooFetch as typeof fetch,
    versionCheck: false,
    suppressNotices: ['yahooSurvey'],
    validation: { logErrors: false, logOptionsErrors: false },
    logger: { info: quiet, warn: quiet, error: quiet, debug: quiet, dir: quiet },
  } as ConstructorParameters<typeof YahooFinance>[0]);

  /**
   * Library errors to ours, as the fetch adapters map HTTP (http.ts): the library's HTTPError
   * carries the status in `code`; 404 or "No data found" is an unknown symbol.
   */
  async function call<T>(symbol: string, work: () => Promise<T>): Promise<T> {
    try {
      return await mapped(symbol, work);
    } catch (error) {
      if (!(error instanceof UnknownSymbolError)) metrics.providerErrors.inc({ provider: PROVIDER, kind: providerErrorKind(error) });
      throw error;
    }
  }

  async function mapped<T>(symbol: string, work: () => Promise<T>): Promise<T> {
    lastRetryAfterSeconds = undefined;
    try {
      return await work();
    } catch (error) {
      if (error instanceof ProviderError || error instanceof UnknownSymbolError) throw error;
      const message = (error as Error).message ?? String(error);
      const code = (error as { code?: unknown }).code;
      const status = typeof code === 'number' ? code : undefined;
      if (status === 404 || /not found|no data found/i.test(message)) throw new UnknownSymbolError(symbol);
      if (status === 403 || status === 451) throw new CapabilityUnavailableError(PROVIDER, `this data (HTTP ${status})`);
      if (status === 401 || /unauthori[sz]ed|invalid crumb/i.test(message)) throw new ProviderError(PROVIDER, 'the request was refused (HTTP 401)', { status: 401, retryable: false });
      if (status === 429) throw new ProviderError(PROVIDER, 'rate limit reached (HTTP 429)', { status, retryable: true, retryAfterSeconds: lastRetryAfterSeconds });
      if (status !== undefined && status >= 500) throw new ProviderError(PROVIDER, `server error (HTTP ${status})`, { status, retryable: true });
      if (error instanceof SyntaxError || /json/i.test(message)) throw new ProviderError(PROVIDER, 'the answer was not valid JSON', { retryable: false });
      const timedOut = /timeout|aborted/i.test(message) || (error as Error).name === 'TimeoutError';
      if (timedOut) throw new ProviderTimeoutError(PROVIDER, timeoutMs);
      throw new ProviderError(PROVIDER, message.replace(/https?:\/\/\S+/g, '').slice(0, 80), { status, retryable: status === undefined });
    }
  }

  function toBars(symbol: string, raw: unknown): Bars {
    const chart = expectShape(PROVIDER, 'chart', chartBody, raw);
    const quote = chart.indicators.quote[0] ?? { open: [], high: [], low: [], close: [], volume: [] };
    const keep = chart.timestamp.map((_, i) => i).filter((i) => [quote.open[i], quote.high[i], quote.low[i], quote.close[i]].every((value) => typeof value === 'number'));
    const take = (array: Array<number | null>) => Float64Array.from(keep, (i) => array[i] ?? 0);
    return { symbol, time: Float64Array.from(keep, (i) => chart.timestamp[i]!), open: take(quote.open), high: take(quote.high), low: take(quote.low), close: take(quote.close), volume: take(quote.volume) };
  }

  return {
    provider: PROVIDER,

    /** Daily bars with their day at 00:00 UTC. */
    async dailyBars(symbol: string, from: number, to: number): Promise<Bars> {
      const raw = await call(symbol, () => yf.chart(symbol, { period1: from, period2: to, interval: '1d', return: 'object' }, { validateResult: false }));
      const bars = toBars(symbol, raw);
      bars.time = Float64Array.from(bars.time, (t) => Date.parse(`${isoDay(t - 4 * 3600)}T00:00:00Z`) / 1000);
      return bars;
    },

    /** The last session's 5-minute bars. */
    async intradayBars(symbol: string): Promise<Bars> {
      const now = Math.floor(options.clock.nowMs() / 1000);
      const raw = await call(symbol, () => yf.chart(symbol, { period1: now - 5 * 86_400, period2: now, interval: '5m', return: 'object' }, { validateResult: false }));
      return lastSessionWindow(toBars(symbol, raw));
    },

    async search(query: string): Promise<SymbolInfo[]> {
      const raw = await call(query, () => yf.search(query, { quotesCount: 10, newsCount: 0 }, { validateResult: false }));
      const body = expectShape(PROVIDER, 'search answer', searchBody, raw);
      return body.quotes
        // US venues and Toronto only: the product covers those two markets.
        .filter((item) => item.symbol && item.isYahooFinance !== false && ['EQUITY', 'ETF'].includes(item.quoteType ?? ''))
        .filter((item) => item.symbol!.endsWith('.TO') || US_VENUES.has(item.exchange ?? ''))
        .map((item) => {
          const canadian = item.symbol!.endsWith('.TO');
          return {
            symbol: item.symbol!,
            description: item.longname ?? item.shortname ?? item.symbol!,
            market: canadian ? 'TO' : 'US',
            exchange: item.exchDisp ?? item.exchange ?? '',
            country: canadian ? 'Canada' : US_VENUES.has(item.exchange ?? '') ? 'United States' : 'Other',
            currency: canadian ? 'CAD' : 'USD',
            assetClass: item.quoteType === 'ETF' ? 'etf' : 'stock',
          } satisfies SymbolInfo;
        });
    },

    /** The regular-session quote (needs Yahoo's cookie and crumb, which the library fetches). */
    async quote(symbol: string): Promise<Quote> {
      const raw = await call(symbol, () => yf.quote([symbol], { return: 'array' }, { validateResult: false }));
      const [row] = expectShape(PROVIDER, 'quote', quoteBody, raw);
      if (!row) throw new UnknownSymbolError(symbol);
      const price = row.regularMarketPrice;
      const previousClose = row.regularMarketPreviousClose;
      return {
        symbol: row.symbol,
        price,
        change: row.regularMarketChange ?? price - previousClose,
        percentChange: row.regularMarketChangePercent ?? (previousClose ? ((price - previousClose) / previousClose) * 100 : 0),
        previousClose,
        open: row.regularMarketOpen ?? price,
        high: row.regularMarketDayHigh ?? price,
        low: row.regularMarketDayLow ?? price,
        volume: row.regularMarketVolume ?? 0,
        timestamp: row.regularMarketTime ?? Math.floor(options.clock.nowMs() / 1000),
      };
    },

    async optionChain(symbol: string, expiration?: string): Promise<OptionChain> {
      const date = expiration ? new Date(`${expiration}T00:00:00Z`) : undefined;
      const raw = await call(symbol, () => yf.options(symbol, date ? { date } : {}, { validateResult: false }));
      const body = expectShape(PROVIDER, 'option chain', optionsBody, raw);
      const contracts: OptionContract[] = body.options.flatMap((group) =>
        (['call', 'put'] as const).flatMap((type) =>
          (type === 'call' ? group.calls : group.puts).map((item) => ({
            contractSymbol: item.contractSymbol,
            type,
            strike: item.strike,
            expiration: isoDay(item.expiration),
            lastPrice: item.lastPrice,
            bid: item.bid ?? 0,
            ask: item.ask ?? 0,
            volume: item.volume ?? 0,
            openInterest: item.openInterest ?? 0,
            impliedVolatility: item.impliedVolatility,
          })),
        ),
      );
      return { symbol: body.underlyingSymbol, underlyingPrice: body.quote.regularMarketPrice ?? 0, expirations: body.expirationDates.map(isoDay), contracts };
    },
  };
}

export type YahooAdapter = ReturnType<typeof createYahooAdapter>;
