/** Binance Spot public market data (no key): klines and 24-hour tickers for USDT pairs. */
import type { CacheStore } from '../../../lib/cache-store';
import { z } from 'zod';
import type { Clock } from '../../../lib/clock';
import { ProviderError, UnknownSymbolError, type Bars, type Quote } from '../types';
import { createHttpClient, expectShape, type FetchImpl } from './http';

const PROVIDER = 'Binance';
const num = z.string().transform((value, context) => {
  const parsed = Number(value);
  if (!Number.isFinite(parsed)) {
    context.addIssue({ code: 'custom', message: `"${value}" is not a number` });
    return z.NEVER;
  }
  return parsed;
});
const kline = z.tuple([z.number(), num, num, num, num, num]).rest(z.unknown());
const klinesBody = z.array(kline);
const tickerBody = z.object({
  symbol: z.string(),
  priceChange: num,
  priceChangePercent: num,
  prevClosePrice: num,
  lastPrice: num,
  openPrice: num,
  highPrice: num,
  lowPrice: num,
  volume: num,
  closeTime: z.number(),
});

/** Binance's error body, e.g. {"code":-1121,"msg":"Invalid symbol."}. */
const errorBody = z.object({ code: z.number(), msg: z.string() });

export function createBinanceAdapter(options: { baseUrl?: string; fetchImpl?: FetchImpl; timeoutMs?: number; clock: Clock; sleep?: (ms: number) => Promise<void>; store?: CacheStore }) {
  // The public-data host needs no key and serves klines and tickers.
  const base = (options.baseUrl ?? 'https://data-api.binance.vision').replace(/\/$/, '');
  // 6,000 request-weight a minute per address; klines and a one-symbol ticker weigh 2.
  const http = createHttpClient({ provider: PROVIDER, fetchImpl: options.fetchImpl, timeoutMs: options.timeoutMs, ratePerMinute: 600, burst: 20, clock: options.clock, sleep: options.sleep, store: options.store });
  const pair = (symbol: string) => `${symbol.toUpperCase()}USDT`;

  async function get(path: string, params: Record<string, string>, symbol: string): Promise<unknown> {
    try {
      return await http.getJson(`${base}${path}?${new URLSearchParams(params).toString()}`);
    } catch (error) {
      // An unknown pair answers HTTP 400 {"code":-1121,"msg":"Invalid symbol."}.
      if (error instanceof ProviderError && error.options.status === 400) throw new UnknownSymbolError(symbol);
      throw error;
    }
  }

  const toBars = (symbol: string, rows: z.infer<typeof klinesBody>, day: boolean): Bars => ({
    symbol: symbol.toUpperCase(),
    time: Float64Array.from(rows, (row) => (day ? Math.floor(row[0] / 86_400_000) * 86_400 : Math.floor(row[0] / 1000))),
    open: Float64Array.from(rows, (row) => row[1]),
    high: Float64Array.from(rows, (row) => row[2]),
    low: Float64Array.from(rows, (row) => row[3]),
    close: Float64Array.from(rows, (row) => row[4]),
    volume: Float64Array.from(rows, (row) => row[5]),
  });

  return {
    provider: PROVIDER,
    async quote(symbol: string): Promise<Quote> {
      const raw = await get('/api/v3/ticker/24hr', { symbol: pair(symbol) }, symbol);
      if (errorBody.safeParse(raw).success) throw new UnknownSymbolError(symbol);
      const ticker = expectShape(PROVIDER, '24-hour ticker', tickerBody, raw);
      return {
        symbol: symbol.toUpperCase(),
        price: ticker.lastPrice,
        change: ticker.priceChange,
        percentChange: ticker.priceChangePercent,
        previousClose: ticker.prevClosePrice,
        open: ticker.openPrice,
        high: ticker.highPrice,
        low: ticker.lowPrice,
        volume: ticker.volume,
        timestamp: Math.floor(ticker.closeTime / 1000),
      };
    },
    /** Daily klines (UTC days), oldest first; the last one is today's, still open. */
    async dailyBars(symbol: string, limit = 750): Promise<Bars> {
      const rows = expectShape(PROVIDER, 'klines', klinesBody, await get('/api/v3/klines', { symbol: pair(symbol), interval: '1d', limit: String(Math.min(1000, limit)) }, symbol));
      // Real OHLC of one venue; the kline's volume (index 5) is the coin's (base asset).
      return { ...toBars(symbol, rows, true), candles: { provider: PROVIDER, range: 'ohlc', volume: 'base' } };
    },
    /** Today's (UTC) 5-minute klines. */
    async intradayBars(symbol: string): Promise<Bars> {
      const dayStartMs = Math.floor(options.clock.nowMs() / 86_400_000) * 86_400_000;
      const rows = expectShape(PROVIDER, 'klines', klinesBody, await get('/api/v3/klines', { symbol: pair(symbol), interval: '5m', startTime: String(dayStartMs), limit: '288' }, symbol));
      return toBars(symbol, rows, false);
    },
  };
}

export type BinanceAdapter = ReturnType<typeof createBinanceAdapter>;
