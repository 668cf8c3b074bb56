import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../../../../test/helpers';
import { CapabilityUnavailableError, ProviderError, UnknownSymbolError } from '../types';
import { createCoinGeckoAdapter } from './coingecko';
import { createFinnhubAdapter } from './finnhub';
import { createFredAdapter } from './fred';
import { createHttpClient, TokenBucket } from './http';
import { startRecordedServer, type RecordedServer } from './recorded-server';
import { createTwelveDataAdapter } from './twelvedata';

let server: RecordedServer;
const instant = async () => undefined;
beforeAll(async () => {
  server = await startRecordedServer();
});
afterAll(async () => server.close());
beforeEach(() => server.requests.splice(0));

const common = () => ({ clock: new FakeClock(), sleep: instant, timeoutMs: 300 });

describe('http client', () => {
  const client = () => createHttpClient({ provider: 'Test', ratePerMinute: 6000, burst: 100, retries: 2, ...common() });

  it('maps 401, 403, 429, 5xx, timeouts and bad JSON to clear errors, retrying only what can pass', async () => {
    server.on('/401', { status: 401, body: '{"error":"Invalid API key"}' });
    server.on('/403', { status: 403, body: '{"error":"You don\'t have access to this resource."}' });
    server.on('/429', { status: 429, headers: { 'retry-after': '2' }, body: '{"error":"API limit reached"}' });
    server.on('/500', { status: 500, body: 'oops' });
    server.on('/hang', { hang: true });
    server.on('/bad', { body: '{"c": 1,' });
    const http = client();
    await expect(http.getJson(`${server.baseUrl}/401?token=secret`)).rejects.toThrow('Test: the API key was refused (HTTP 401)');
    await expect(http.getJson(`${server.baseUrl}/403`)).rejects.toBeInstanceOf(CapabilityUnavailableError);
    await expect(http.getJson(`${server.baseUrl}/429`)).rejects.toMatchObject({ options: { status: 429, retryAfterSeconds: 2 } });
    await expect(http.getJson(`${server.baseUrl}/500`)).rejects.toThrow('server error (HTTP 500)');
    await expect(http.getJson(`${server.baseUrl}/hang`)).rejects.toThrow('no answer within 300 ms');
    await expect(http.getJson(`${server.baseUrl}/bad`)).rejects.toThrow('the answer was not valid JSON');
    const count = (path: string) => server.requests.filter((r) => r.url.startsWith(path)).length;
    expect([count('/401'), count('/403'), count('/429'), count('/500'), count('/hang'), count('/bad')]).toEqual([1, 1, 3, 3, 3, 1]);
  });

  it('recovers when a retry succeeds', async () => {
    let calls = 0;
    server.on('/flaky', () => (++calls === 1 ? { status: 503 } : { body: '{"ok":true}' }));
    expect(await client().getJson(`${server.baseUrl}/flaky`)).toEqual({ ok: true });
  });

  it('never puts an API key in an error message', async () => {
    server.on('/404', { status: 404 });
    const error = await client().getJson(`${server.baseUrl}/404?token=sekrit&symbol=X`).catch((e: Error) => e);
    expect(String((error as Error).message)).not.toContain('sekrit');
  });

  it('limits calls with a token bucket on an injected clock', () => {
    const clock = new FakeClock();
    const bucket = new TokenBucket(60, 2, clock);
    expect(bucket.take()).toBe(0);
    expect(bucket.take()).toBe(0);
    expect(bucket.take()).toBe(1000);
    clock.advance(1000);
    expect(bucket.take()).toBe(0);
  });
});

describe('Finnhub', () => {
  const finnhub = () => createFinnhubAdapter({ apiKey: 'fh-key', baseUrl: server.baseUrl, ...common() });

  it('translates quotes and sends the key in a header, not the URL', async () => {
    server.on('/quote', (url) => ({ fixture: url.searchParams.get('symbol') === 'AAPL' ? 'finnhub-quote-aapl.json' : 'finnhub-quote-unknown.json' }));
    expect(await finnhub().quote('AAPL')).toEqual({
      symbol: 'AAPL', price: 227.48, change: 1.2, percentChange: 0.5303, previousClose: 226.28, open: 226, high: 228, low: 225, volume: 0, timestamp: 1741636800,
    });
    expect(server.requests[0]!.headers['x-finnhub-token']).toBe('fh-key');
    expect(server.requests[0]!.url).not.toContain('fh-key');
    await expect(finnhub().quote('NOPE')).rejects.toBeInstanceOf(UnknownSymbolError);
  });

  it('searches one market, dropping foreign listings', async () => {
    server.on('/search', { fixture: 'finnhub-search-apple.json' });
    const results = await finnhub().search('apple', 'US');
    expect(results.map((r) => r.symbol)).toEqual(['AAPL', 'APLE']);
    expect(server.requests[0]!.url).toContain('exchange=US');
  });

  it('reads company news newest first, and earnings with hour codes', async () => {
    server.on('/company-news', { fixture: 'finnhub-company-news-aapl.json' });
    server.on('/calendar/earnings', { fixture: 'finnhub-earnings.json' });
    const news = await finnhub().companyNews('AAPL', '2025-01-01', '2025-01-31');
    expect(news.map((n) => n.id)).toEqual(['130012400', '130012399', '130012345']);
    const earnings = await finnhub().earnings('2025-01-01', '2025-06-30');
    expect(earnings[0]).toMatchObject({ symbol: 'AAPL', hour: 'amc', epsActual: 2.4, epsEstimate: 2.35 });
    expect(earnings[1]).toMatchObject({ hour: '', epsActual: null });
  });

  it('rejects an unexpected shape and a premium endpoint clearly', async () => {
    server.on('/news', { body: '{"unexpected": true}' });
    await expect(finnhub().marketNews()).rejects.toThrow(/Finnhub: unexpected market news/);
    server.on('/stock/profile2', { status: 403, body: '{"error":"You don\'t have access to this resource."}' });
    await expect(finnhub().profile('AAPL')).rejects.toBeInstanceOf(CapabilityUnavailableError);
  });
});

describe('Twelve Data', () => {
  const twelve = () => createTwelveDataAdapter({ apiKey: 'td-key', baseUrl: server.baseUrl, ...common() });

  it('parses string numbers and reverses newest-first series', async () => {
    server.on('/quote', { fixture: 'twelvedata-quote-aapl.json' });
    server.on('/time_series', { fixture: 'twelvedata-series-aapl.json' });
    expect(await twelve().quote('AAPL')).toMatchObject({ price: 226.51, previousClose: 225.89, change: 0.62, percentChange: 0.27447, volume: 30299033 });
    const bars = await twelve().dailyBars('AAPL');
    expect(Array.from(bars.close)).toEqual([185.59, 185.59, 183.63]);
    expect(new Date(bars.time[0]! * 1000).toISOString().slice(0, 10)).toBe('2024-01-11');
    expect(server.requests[0]!.headers.authorization).toBe('apikey td-key');
  });

  it('serves the last session of 5-minute bars, after the one before while it has fewer than 15', async () => {
    // Newest first, times in UTC: Monday 2025-01-06 from 20:00 to the close, then Tuesday's first bars.
    const bar = (datetime: string, close: number) => ({ datetime, open: String(close), high: String(close + 1), low: String(close - 1), close: String(close), volume: '1000' });
    const monday = Array.from({ length: 12 }, (_, k) => bar(`2025-01-06 ${String(20 + Math.floor((k * 5) / 60)).padStart(2, '0')}:${String((k * 5) % 60).padStart(2, '0')}:00`, 240 + k));
    const tuesday = (count: number) => Array.from({ length: count }, (_, k) => bar(`2025-01-07 ${String(14 + Math.floor((30 + k * 5) / 60)).padStart(2, '0')}:${String((30 + k * 5) % 60).padStart(2, '0')}:00`, 250 + k));
    const serve = (values: unknown[]) => server.on('/time_series', { body: JSON.stringify({ meta: { symbol: 'AAPL', interval: '5min' }, values: [...values].reverse(), status: 'ok' }) });

    serve([...monday, ...tuesday(4)]);
    const early = await twelve().intradayBars('AAPL');
    expect(early.close.length).toBe(16);
    expect(new Date(early.time[0]! * 1000).toISOString()).toBe('2025-01-06T20:00:00.000Z');
    expect(server.requests.at(-1)!.url).toContain('outputsize=156');

    serve([...monday, ...tuesday(15)]);
    const later = await twelve().intradayBars('AAPL');
    expect(later.close.length).toBe(15);
    expect(new Date(later.time[0]! * 1000).toISOString()).toBe('2025-01-07T14:30:00.000Z');
  });

  it('reads errors carried in an HTTP 200 body', async () => {
    server.on('/quote', { fixture: 'twelvedata-credits-error.json' });
    await expect(twelve().quote('AAPL')).rejects.toThrow(/run out of API credits/);
    server.on('/time_series', { body: '{"code":404,"message":"**symbol** not found: ZZZ. Please specify it correctly","status":"error"}' });
    await expect(twelve().dailyBars('ZZZ')).rejects.toBeInstanceOf(UnknownSymbolError);
    server.on('/time_series', { body: '{"status":"ok","values":[{"datetime":"2024-01-02","open":"x","high":"1","low":"1","close":"1"}]}' });
    await expect(twelve().dailyBars('AAPL')).rejects.toThrow(/unexpected time series/);
  });
});

describe('FRED', () => {
  const fred = () => createFredAdapter({ apiKey: 'abcdefghijklmnopqrstuvwxyz012345', baseUrl: server.baseUrl, ...common() });

  it('asks for JSON and skips missing values', async () => {
    server.on('/series/observations', { fixture: 'fred-unrate.json' });
    const series = await fred().series('UNRATE');
    expect(series.observations).toEqual([
      { date: '2026-08-01', value: 4.3 },
      { date: '2026-06-01', value: 4.1 },
      { date: '2026-05-01', value: 4.2 },
    ]);
    expect(server.requests[0]!.url).toContain('file_type=json');
  });

  it('explains a refused key', async () => {
    server.on('/series/observations', { status: 400, body: '{"error_code":400,"error_message":"Bad Request.  Variable api_key is not set."}' });
    await expect(fred().series('UNRATE')).rejects.toThrow('check FRED_API_KEY');
    await expect(fred().series('NOPE')).rejects.toBeInstanceOf(UnknownSymbolError);
  });
});

describe('CoinGecko', () => {
  const gecko = () => createCoinGeckoAdapter({ baseUrl: server.baseUrl, ...common() });

  it('quotes by ticker and builds daily bars from prices', async () => {
    server.on('/simple/price', { fixture: 'coingecko-price.json' });
    server.on('/coins/bitcoin/market_chart', { fixture: 'coingecko-chart.json' });
    const quote = await gecko().quote('btc');
    expect(quote).toMatchObject({ symbol: 'BTC', price: 67187.33, percentChange: 1.6371, timestamp: 1747407859 });
    expect(quote.previousClose).toBeCloseTo(67187.33 / 1.016371, 6);
    const bars = await gecko().dailyBars('BTC');
    expect(Array.from(bars.close)).toEqual([69702.31, 71246.95, 65400.1]);
    expect(bars.high[2]).toBe(71246.95);
    expect(bars.low[2]).toBe(65400.1);
    await expect(gecko().quote('NOPE')).rejects.toBeInstanceOf(UnknownSymbolError);
  });

  it('notices a rate-limit error sent with HTTP 200', async () => {
    server.on('/simple/price', { fixture: 'coingecko-rate-limit.json' });
    await expect(gecko().quote('ETH')).rejects.toBeInstanceOf(ProviderError);
    await expect(gecko().quote('ETH')).rejects.toThrow(/exceeded the Rate Limit/);
  });
});
