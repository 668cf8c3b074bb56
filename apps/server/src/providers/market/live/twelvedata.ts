/** Twelve Data, Basic plan: quote and daily / 5-minute time series. Numbers arrive as strings. */
import { z } from 'zod';
import type { Clock } from '../../../lib/clock';
import { ProviderError, UnknownSymbolError, type Bars, type Quote } from '../types';
import { createHttpClient, expectShape, type FetchImpl } from './http';

const PROVIDER = 'Twelve Data';
const num = z.union([z.string(), z.number()]).transform((value, context) => {
  const parsed = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(parsed)) {
    context.addIssue({ code: 'custom', message: `"${value}" is not a number` });
    return z.NEVER;
  }
  return parsed;
});
const errorBody = z.object({ status: z.literal('error'), code: z.number(), message: z.string() });
const quoteBody = z.object({
  symbol: z.string(),
  timestamp: z.number(),
  open: num,
  high: num,
  low: num,
  close: num,
  volume: num.optional(),
  previous_close: num,
  change: num,
  percent_change: num,
});
const seriesBody = z.object({
  status: z.literal('ok'),
  values: z.array(z.object({ datetime: z.string(), open: num, high: num, low: num, close: num, volume: num.optional() })),
});

export interface TwelveDataOptions {
  apiKey: string;
  baseUrl?: string;
  fetchImpl?: FetchImpl;
  timeoutMs?: number;
  clock: Clock;
  sleep?: (ms: number) => Promise<void>;
}

export function createTwelveDataAdapter(options: TwelveDataOptions) {
  const base = (options.baseUrl ?? 'https://api.twelvedata.com').replace(/\/$/, '');
  // Basic plan: 8 credits a minute; one credit per symbol for these calls.
  const http = createHttpClient({ provider: PROVIDER, fetchImpl: options.fetchImpl, timeoutMs: options.timeoutMs, ratePerMinute: 8, burst: 2, clock: options.clock, sleep: options.sleep });

  async function get(path: string, params: Record<string, string>): Promise<unknown> {
    const body = await http.getJson(`${base}${path}?${new URLSearchParams(params).toString()}`, { headers: { Authorization: `apikey ${options.apiKey}` } });
    // Errors may arrive inside an HTTP 200 body.
    const error = errorBody.safeParse(body);
    if (error.success) {
      const { code, message } = error.data;
      if (code === 404 || /not found/i.test(message)) throw new UnknownSymbolError(params.symbol ?? '');
      throw new ProviderError(PROVIDER, `${message} (code ${code})`, { status: code, retryable: code === 429 || code >= 500 });
    }
    return body;
  }

  const toBars = (symbol: string, body: z.infer<typeof seriesBody>, intraday: boolean): Bars => {
    const values = [...body.values].reverse(); // newest-first by default
    const time = (value: string) => (intraday ? Date.parse(`${value.replace(' ', 'T')}Z`) / 1000 : Date.parse(`${value}T00:00:00Z`) / 1000);
    return {
      symbol,
      time: Float64Array.from(values, (value) => time(value.datetime)),
      open: Float64Array.from(values, (value) => value.open),
      high: Float64Array.from(values, (value) => value.high),
      low: Float64Array.from(values, (value) => value.low),
      close: Float64Array.from(values, (value) => value.close),
      volume: Float64Array.from(values, (value) => value.volume ?? 0),
    };
  };

  return {
    provider: PROVIDER,
    async quote(symbol: string): Promise<Quote> {
      const body = expectShape(PROVIDER, 'quote', quoteBody, await get('/quote', { symbol }));
      return {
        symbol,
        price: body.close,
        change: body.change,
        percentChange: body.percent_change,
        previousClose: body.previous_close,
        open: body.open,
        high: body.high,
        low: body.low,
        volume: body.volume ?? 0,
        timestamp: body.timestamp,
      };
    },
    async dailyBars(symbol: string, outputSize = 500): Promise<Bars> {
      const body = expectShape(PROVIDER, 'time series', seriesBody, await get('/time_series', { symbol, interval: '1day', outputsize: String(outputSize) }));
      return toBars(symbol, body, false);
    },
    /** 5-minute bars, times read as UTC (send timezone=UTC). */
    async intradayBars(symbol: string): Promise<Bars> {
      const body = expectShape(PROVIDER, 'time series', seriesBody, await get('/time_series', { symbol, interval: '5min', outputsize: '78', timezone: 'UTC' }));
      return toBars(symbol, body, true);
    },
  };
}

export type TwelveDataAdapter = ReturnType<typeof createTwelveDataAdapter>;
