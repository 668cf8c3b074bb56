/** CoinGecko (keyless or Demo key): crypto quotes and daily bars built from price points. */
import type { CacheStore } from '../../../lib/cache-store';
import { z } from 'zod';
import type { Clock } from '../../../lib/clock';
import { barsToFill, ProviderError, UnknownSymbolError, type Bars, type Quote } from '../types';
import { createHttpClient, expectShape, type FetchImpl } from './http';

const PROVIDER = 'CoinGecko';
/**
 * A coin's price is asked of CoinGecko at most once per this interval (its free limit: 10,000 calls a
 * month over ~24 coins marked around the clock); within it the last answer is served again.
 */
export const COINGECKO_QUOTE_INTERVAL_MS = 10 * 60_000;

/** Our tickers to CoinGecko ids. */
export const COINGECKO_IDS: Record<string, string> = {
  BTC: 'bitcoin', ETH: 'ethereum', XRP: 'ripple', SOL: 'solana', ADA: 'cardano', DOGE: 'dogecoin', BNB: 'binancecoin',
  TRX: 'tron', LINK: 'chainlink', AVAX: 'avalanche-2', DOT: 'polkadot', LTC: 'litecoin', BCH: 'bitcoin-cash',
  XLM: 'stellar', SHIB: 'shiba-inu', TON: 'the-open-network', SUI: 'sui', UNI: 'uniswap', NEAR: 'near', APT: 'aptos',
  ATOM: 'cosmos', ETC: 'ethereum-classic', FIL: 'filecoin', HBAR: 'hedera-hashgraph',
};

const rateLimited = z.object({ status: z.object({ error_code: z.number(), error_message: z.string() }) });
const priceBody = z.record(z.string(), z.object({ usd: z.number(), usd_24h_vol: z.number().optional(), usd_24h_change: z.number().optional(), last_updated_at: z.number().optional() }));
const chartBody = z.object({ prices: z.array(z.tuple([z.number(), z.number()])), total_volumes: z.array(z.tuple([z.number(), z.number()])).default([]) });

export function createCoinGeckoAdapter(options: { apiKey?: string; baseUrl?: string; fetchImpl?: FetchImpl; timeoutMs?: number; clock: Clock; sleep?: (ms: number) => Promise<void>; store?: CacheStore }) {
  const base = (options.baseUrl ?? 'https://api.coingecko.com/api/v3').replace(/\/$/, '');
  const http = createHttpClient({ provider: PROVIDER, fetchImpl: options.fetchImpl, timeoutMs: options.timeoutMs, ratePerMinute: options.apiKey ? 30 : 10, burst: 3, clock: options.clock, sleep: options.sleep, store: options.store });
  const headers: Record<string, string> = options.apiKey ? { 'x-cg-demo-api-key': options.apiKey } : {};

  async function get(path: string, params: Record<string, string>): Promise<unknown> {
    const body = await http.getJson(`${base}${path}?${new URLSearchParams(params).toString()}`, { headers });
    // The rate-limit error can arrive with HTTP 200.
    const limited = rateLimited.safeParse(body);
    if (limited.success) throw new ProviderError(PROVIDER, `${limited.data.status.error_message.split('.')[0]} (code ${limited.data.status.error_code})`, { status: limited.data.status.error_code, retryable: limited.data.status.error_code === 429 });
    return body;
  }
  const idOf = (symbol: string) => {
    const id = COINGECKO_IDS[symbol.toUpperCase()];
    if (!id) throw new UnknownSymbolError(symbol);
    return id;
  };

  /** Each coin's last price answer, held COINGECKO_QUOTE_INTERVAL_MS. */
  const quotes = new Map<string, { atMs: number; quote: Promise<Quote> }>();

  return {
    provider: PROVIDER,
    supports: (symbol: string) => symbol.toUpperCase() in COINGECKO_IDS,
    async quote(symbol: string): Promise<Quote> {
      const id = idOf(symbol);
      const nowMs = options.clock.nowMs();
      const held = quotes.get(id);
      if (held && nowMs - held.atMs < COINGECKO_QUOTE_INTERVAL_MS) return held.quote;
      const quote = fetchQuote(symbol, id);
      quotes.set(id, { atMs: nowMs, quote });
      // A failed answer is not held: the next call asks again.
      quote.catch(() => {
        if (quotes.get(id)?.quote === quote) quotes.delete(id);
      });
      return quote;
    },
    /**
     * Daily bars from market_chart (over 90 days gives one price a day at 00:00 UTC): CoinGecko has
     * no OHLC there, so open = the previous close and high/low span the two.
     */
    dailyBars,
  };

  async function fetchQuote(symbol: string, id: string): Promise<Quote> {
    const body = expectShape(PROVIDER, 'price', priceBody, await get('/simple/price', { ids: id, vs_currencies: 'usd', include_24hr_vol: 'true', include_24hr_change: 'true', include_last_updated_at: 'true' }));
    const row = body[id];
    if (!row) throw new UnknownSymbolError(symbol);
    const percent = row.usd_24h_change ?? 0;
    const previous = row.usd / (1 + percent / 100);
    return {
      symbol: symbol.toUpperCase(),
      price: row.usd,
      change: row.usd - previous,
      percentChange: percent,
      previousClose: previous,
      open: previous,
      high: Math.max(row.usd, previous),
      low: Math.min(row.usd, previous),
      volume: row.usd ? (row.usd_24h_vol ?? 0) / row.usd : 0,
      timestamp: row.last_updated_at ?? Math.floor(options.clock.nowMs() / 1000),
    };
  }

  async function dailyBars(symbol: string, days = 365): Promise<Bars> {
    const body = expectShape(PROVIDER, 'market chart', chartBody, await get(`/coins/${idOf(symbol)}/market_chart`, { vs_currency: 'usd', days: String(days), interval: 'daily' }));
    const prices = body.prices;
    const volumes = new Map(body.total_volumes.map(([ms, value]) => [ms, value]));
    const n = prices.length;
    // One price a day and the volume summed over every venue CoinGecko tracks.
    const bars = barsToFill(symbol.toUpperCase(), n, { provider: PROVIDER, range: 'close_only', volume: 'aggregate' });
    prices.forEach(([ms, price], i) => {
      const open = i > 0 ? prices[i - 1]![1] : price;
      bars.time[i] = Math.floor(ms / 86_400_000) * 86_400;
      bars.open[i] = open;
      bars.close[i] = price;
      bars.high[i] = Math.max(open, price);
      bars.low[i] = Math.min(open, price);
      bars.volume[i] = price ? (volumes.get(ms) ?? 0) / price : 0;
    });
    return bars;
  }
}

export type CoinGeckoAdapter = ReturnType<typeof createCoinGeckoAdapter>;
