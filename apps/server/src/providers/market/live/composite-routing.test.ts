/**
 * Routing rules of the live market beyond composite.test.ts: what stops a fallback chain, the crypto
 * bar fallback, the Yahoo search fallback, and the setting each missing capability names.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../../../../test/helpers';
import { CapabilityUnavailableError, UnknownSymbolError } from '../types';
import { createLiveMarketData, type LiveMarketConfig } from './composite';
import { ProviderTimeoutError } from './http';
import { startRecordedServer, type RecordedServer } from './recorded-server';

let finnhub: RecordedServer;
let twelve: RecordedServer;
let yahoo: RecordedServer;
let crypto: RecordedServer;
beforeAll(async () => {
  [finnhub, twelve, yahoo, crypto] = await Promise.all([startRecordedServer(), startRecordedServer(), startRecordedServer(), startRecordedServer()]);
});
afterAll(async () => {
  await Promise.all([finnhub, twelve, yahoo, crypto].map((server) => server.close()));
});
beforeEach(() => [finnhub, twelve, yahoo, crypto].forEach((server) => server.requests.splice(0)));

const market = (overrides: Partial<LiveMarketConfig> = {}) =>
  createLiveMarketData({
    baseUrls: { finnhub: finnhub.baseUrl, twelveData: twelve.baseUrl, yahoo: yahoo.baseUrl, binance: crypto.baseUrl, coinGecko: crypto.baseUrl },
    clock: new FakeClock(Date.parse('2024-04-02T12:00:00Z')),
    sleep: async () => undefined,
    timeoutMs: 300,
    yahoo: false,
    ...overrides,
  });

describe('live market routing', () => {
  it('stops at an unknown symbol instead of asking the next provider', async () => {
    finnhub.on('/quote', { fixture: 'finnhub-quote-unknown.json' });
    twelve.on('/quote', { fixture: 'twelvedata-quote-aapl.json' });
    await expect(market({ finnhubApiKey: 'fh', twelveDataApiKey: 'td' }).getQuote('ZZZZ')).rejects.toBeInstanceOf(UnknownSymbolError);
    expect(twelve.requests).toHaveLength(0);
  });

  it('moves on when the first provider lacks the capability (Finnhub 403 for a non-US symbol)', async () => {
    finnhub.on('/quote', { status: 403, body: '{"error":"You don\'t have access to this resource."}' });
    twelve.on('/quote', { fixture: 'twelvedata-quote-aapl.json' });
    expect((await market({ finnhubApiKey: 'fh', twelveDataApiKey: 'td' }).getQuote('AAPL')).price).toBe(226.51);
    expect(finnhub.requests).toHaveLength(1);
  });

  it('quotes a TSX symbol from Yahoo, never asking Twelve Data (its free plan has no TSX)', async () => {
    finnhub.on('/quote', { status: 403, body: '{"error":"You don\'t have access to this resource."}' });
    twelve.on('/quote', { body: '{"code":404,"message":"**symbol** not found: SHOP.TO. Please specify it correctly according to API Documentation.","status":"error"}' });
    yahoo.on('/quote/AAPL', { body: '<html>ok</html>', headers: { 'content-type': 'text/html', 'set-cookie': 'A3=d=test; Path=/; Domain=.yahoo.com' } });
    yahoo.on('/v1/test/getcrumb', { body: 'testCrumb', headers: { 'content-type': 'text/plain' } });
    yahoo.on('/v7/finance/quote', { body: JSON.stringify({ quoteResponse: { result: [{ symbol: 'SHOP.TO', regularMarketPrice: 152.3, regularMarketChange: 1.3, regularMarketChangePercent: 0.86, regularMarketPreviousClose: 151, regularMarketOpen: 151.2, regularMarketDayHigh: 153, regularMarketDayLow: 150.5, regularMarketVolume: 812_000, regularMarketTime: 1712059200, currency: 'CAD', exchange: 'TOR', quoteType: 'EQUITY' }], error: null } }) });
    const quote = await market({ finnhubApiKey: 'fh', twelveDataApiKey: 'td', yahoo: true }).getQuote('SHOP.TO');
    expect(quote.price).toBe(152.3);
    expect(finnhub.requests).toHaveLength(1);
    expect(twelve.requests).toHaveLength(0);
  });

  it('builds crypto daily bars from CoinGecko prices when Binance is geo-blocked, within [from, to]', async () => {
    crypto.on('/api/v3/klines', { status: 451, body: '{"code":0,"msg":"Service unavailable from a restricted location"}' });
    crypto.on('/coins/bitcoin/market_chart', { fixture: 'coingecko-chart.json' });
    const from = Date.parse('2024-04-01T00:00:00Z') / 1000;
    const bars = await market().getDailyBars('BTC', from, from + 86_400);
    expect(Array.from(bars.time)).toEqual([from, from + 86_400]);
    expect(Array.from(bars.close)).toEqual([71246.95, 65400.1]);
    // No OHLC on market_chart: open is the previous close, high/low span the two.
    expect(Array.from(bars.open)).toEqual([69702.31, 71246.95]);
    expect(Array.from(bars.high)).toEqual([71246.95, 71246.95]);
    expect(Array.from(bars.low)).toEqual([69702.31, 65400.1]);
  });

  it('searches through Yahoo when Finnhub is down', async () => {
    finnhub.on('/search', { status: 503 });
    yahoo.on('/v1/finance/search', { fixture: 'yahoo-search-apple.json' });
    const results = await market({ finnhubApiKey: 'fh', yahoo: true }).lookupSymbols('apple', 'US');
    expect(results.map((result) => result.symbol)).toContain('AAPL');
  });

  it('keeps foreign listings out of a US lookup answered by Yahoo', async () => {
    yahoo.on('/v1/finance/search', { fixture: 'yahoo-search-apple.json' });
    const results = await market({ yahoo: true }).lookupSymbols('apple', 'US');
    expect(results.map((result) => result.symbol)).toEqual(['AAPL']);
  });

  it('names the setting each missing capability needs', async () => {
    const bare = market();
    const cases: Array<[Promise<unknown>, RegExp]> = [
      [bare.getQuote('AAPL'), /FINNHUB_API_KEY or TWELVEDATA_API_KEY/],
      [bare.getMarketNews(), /market news: set FINNHUB_API_KEY/],
      [bare.getNewsSentiment('AAPL'), /news sentiment: set FINNHUB_API_KEY/],
      [bare.getEarningsCalendar('2024-04-01', '2024-04-30'), /earnings calendar: set FINNHUB_API_KEY/],
      [bare.getEconomicSeries('UNRATE'), /economic series: set FRED_API_KEY/],
      [bare.searchSymbols('apple'), /symbol search: set FINNHUB_API_KEY/],
      [bare.getProfile('AAPL'), /company profiles: set FINNHUB_API_KEY/],
    ];
    for (const [promise, message] of cases) {
      const error = await promise.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CapabilityUnavailableError);
      expect(String((error as Error).message)).toMatch(message);
    }
    // Nothing was asked of any provider.
    expect([finnhub, twelve, yahoo].every((server) => server.requests.length === 0)).toBe(true);
  });

  it('still answers crypto profiles and quotes with no key at all', async () => {
    crypto.on('/api/v3/ticker/24hr', { fixture: 'binance-ticker-btc.json' });
    const bare = market();
    expect(await bare.getProfile('eth')).toMatchObject({ symbol: 'ETH', market: 'CRYPTO', assetClass: 'crypto', currency: 'USD' });
    expect((await bare.getQuote('BTC')).price).toBe(96900.12);
  });

  it('times each provider out on its own deadline, then moves on', async () => {
    finnhub.on('/quote', { hang: true });
    twelve.on('/quote', { fixture: 'twelvedata-quote-aapl.json' });
    const started = performance.now();
    // 10 s for everyone but Finnhub: ignoring the override would blow the test's 5 s limit.
    const live = market({ finnhubApiKey: 'fh', twelveDataApiKey: 'td', timeoutMs: 10_000, timeoutsMs: { finnhub: 100 } });
    expect((await live.getQuote('AAPL')).price).toBe(226.51);
    expect(finnhub.requests).toHaveLength(3);
    expect(performance.now() - started).toBeLessThan(1000);
  }, 5000);

  it("gives coins their headlines from one shared crypto-news request, matched by ticker or name (docs/rules/crypto.md §3.2)", async () => {
    const at = (iso: string) => Date.parse(iso) / 1000;
    const article = (id: number, datetime: number, headline: string, summary = '', related = '') => ({
      category: 'crypto', datetime, headline, id, image: '', related, source: 'CoinDesk', summary, url: `https://example.com/${id}`,
    });
    finnhub.on('/news', {
      body: JSON.stringify([
        article(1, at('2024-04-01T10:00:00Z'), 'Bitcoin climbs past its March high'),
        article(2, at('2024-04-01T11:00:00Z'), 'Traders sold the rally', 'Profit taking across the market.'),
        article(3, at('2024-04-01T12:00:00Z'), 'Solana network upgrade ships'),
        article(4, at('2024-04-01T13:00:00Z'), 'Exchange lists new pairs', '', 'SOL,ETH'),
        article(5, at('2024-03-20T13:00:00Z'), 'BTC ETF flows slow'),
        article(6, at('2024-04-02T09:00:00Z'), 'Why BTC miners are selling'),
      ]),
    });
    const live = market({ finnhubApiKey: 'fh' });
    const ids = async (symbol: string) => (await live.getCompanyNews(symbol, '2024-03-30', '2024-04-02')).map((item) => item.headline);
    // Newest first, as the adapter gives every news list.
    expect(await ids('BTC')).toEqual(['Why BTC miners are selling', 'Bitcoin climbs past its March high']);
    expect(await ids('SOL')).toEqual(['Exchange lists new pairs', 'Solana network upgrade ships']);
    expect(await ids('ETH')).toEqual(['Exchange lists new pairs']);
    expect(await ids('DOGE')).toEqual([]);
    expect(finnhub.requests.map((request) => new URL(request.url, 'http://x').searchParams.get('category'))).toEqual(['crypto']);
    expect(finnhub.requests.some((request) => request.url.startsWith('/company-news'))).toBe(false);
  });

  it('answers a hung upstream with a clear provider timeout, not a hang', async () => {
    finnhub.on('/company-news', { hang: true });
    const started = performance.now();
    const error = await market({ finnhubApiKey: 'fh', timeoutsMs: { finnhub: 80 } })
      .getCompanyNews('AAPL', '2024-03-26', '2024-04-02')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderTimeoutError);
    expect((error as Error).message).toBe('Finnhub: timed out: no answer within 80 ms');
    expect(performance.now() - started).toBeLessThan(1000);
  }, 5000);
});
