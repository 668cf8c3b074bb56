/** Twelve Data, Basic plan: quote, daily / 5-minute time series and RSI. Numbers arrive as strings. */
import type { CacheStore } from '../../../lib/cache-store';
import { z } from 'zod';
import type { Clock } from '../../../lib/clock';
import { ProviderError, UnknownSymbolError, type Bars, type Quote } from '../types';
import { createHttpClient, expectShape, type FetchImpl } from './http';
import { lastSessionWindow } from './intraday-window';

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

const rsiBody = z.object({
  status: z.literal('ok'),
  meta: z
    .object({
      symbol: z.string().optional(),
      interval: z.string().optional(),
      indicator: z.object({ name: z.string().optional(), series_type: z.string().optional(), time_period: z.number().optional() }).optional(),
    })
    .optional(),
  values: z.array(z.object({ datetime: z.string(), rsi: num })),
});

/** Twelve Data's RSI series, oldest first. */
export interface TwelveDataRsi {
  symbol: string;
  interval: '1day';
  timePeriod: number;
  /** Bar day (00:00 UTC, Unix seconds) and RSI 0–100, oldest first. */
  values: Array<{ time: number; rsi: number }>;
}

export interface TwelveDataOptions {
  apiKey: string;
  baseUrl?: string;
  fetchImpl?: FetchImpl;
  timeoutMs?: number;
  clock: Clock;
  sleep?: (ms: number) => Promise<void>;
  /** Shared (Redis): the provider's token bucket is the installation's. */
  store?: CacheStore;
}

export function createTwelveDataAdapter(options: TwelveDataOptions) {
  const base = (options.baseUrl ?? 'https://api.twelvedata.com').replace(/\/$/, '');
  // Basic plan: 8 credits a minute; one credit per symbol for these calls.
  const http = createHttpClient({ provider: PROVIDER, fetchImpl: options.fetchImpl, timeoutMs: options.timeoutMs, ratePerMinute: 8, burst: 2, clock: options.clock, sleep: options.sleep, store: options.store });

  async function get(path: string, params: Record<string, string>): Promise<unknown> {
    const symbol = params.symbol ?? '';
    let body: unknown;
    try {
      body = await http.getJson(`${base}${path}?${new URLSearchParams(params).toString()}`, { headers: { Authorization: `apikey ${options.apiKey}` } });
    } catch (error) {
      // The HTTP status sometimes matches the body's code; 404 is only ever an unknown symbol.
      if (error instanceof ProviderError && error.options.status === 404) throw new UnknownSymbolError(symbol);
      throw error;
    }
    // Errors may arrive inside an HTTP 200 body.
    const error = errorBody.safeParse(body);
    if (error.success) {
      const { code, message } = error.data;
      if (code === 401) throw new ProviderError(PROVIDER, 'the API key was refused (code 401: check TWELVEDATA_API_KEY)', { status: 401, retryable: false });
      if (code === 404 || /not found/i.test(message)) throw new UnknownSymbolError(symbol);
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
    /**
     * 5-minute bars, times read as UTC (send timezone=UTC): two sessions' worth (2 × 78), cut to the
     * last session, after the one before while the last has fewer than 15 bars.
     */
    async intradayBars(symbol: string): Promise<Bars> {
      const body = expectShape(PROVIDER, 'time series', seriesBody, await get('/time_series', { symbol, interval: '5min', outputsize: '156', timezone: 'UTC' }));
      return lastSessionWindow(toBars(symbol, body, true));
    },
    /**
     * RSI on daily closes (GET /rsi: 1 credit). Always sends series_type=close (the spec's default
     * reads `open`) and answers oldest first (Twelve Data sends newest first).
     */
    async rsi(symbol: string, options: { timePeriod?: number; outputSize?: number } = {}): Promise<TwelveDataRsi> {
      const timePeriod = options.timePeriod ?? 14;
      const params = { symbol, interval: '1day', time_period: String(timePeriod), series_type: 'close', outputsize: String(options.outputSize ?? 30) };
      const body = expectShape(PROVIDER, 'RSI', rsiBody, await get('/rsi', params));
      const period = body.meta?.indicator?.time_period;
      if (period !== undefined && period !== timePeriod) throw new ProviderError(PROVIDER, `RSI over ${period} periods, asked for ${timePeriod}`, { retryable: false });
      const values = body.values
        .map((value) => ({ time: Date.parse(`${value.datetime.slice(0, 10)}T00:00:00Z`) / 1000, rsi: value.rsi }))
        .sort((a, b) => a.time - b.time);
      if (values.some((value) => !Number.isFinite(value.time) || value.rsi < 0 || value.rsi > 100)) {
        throw new ProviderError(PROVIDER, 'unexpected RSI (a date or a value out of range)', { retryable: false });
      }
      return { symbol, interval: '1day', timePeriod, values };
    },
  };
}

export type TwelveDataAdapter = ReturnType<typeof createTwelveDataAdapter>;
