import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../../../test/helpers';
import { CapabilityUnavailableError } from '../types';
import { createLiveMarketData } from './composite';
import { startRecordedServer, type RecordedServer } from './recorded-server';

let finnhub: RecordedServer;
let twelve: RecordedServer;
let yahooServer: RecordedServer;
beforeAll(async () => {
  finnhub = await startRecordedServer();
  twelve = await startRecordedServer();
  yahooServer = await startRecordedServer();
});
afterAll(async () => {
  await finnhub.close();
  await twelve.close();
  await yahooServer.close();
});

const clock = new FakeClock(Date.parse('2025-01-04T12:00:00Z'));
const live = (keys: { finnhub?: boolean; twelve?: boolean; yahoo?: boolean }) =>
  createLiveMarketData({
    finnhubApiKey: keys.finnhub ? 'fh' : undefined,
    twelveDataApiKey: keys.twelve ? 'td' : undefined,
    baseUrls: { finnhub: finnhub.baseUrl, twelveData: twelve.baseUrl },
    clock,
    sleep: async () => undefined,
    timeoutMs: 300,
    yahoo: keys.yahoo ?? false,
    ...(keys.yahoo ? { baseUrls: { finnhub: finnhub.baseUrl, twelveData: twelve.baseUrl, yahoo: yahooServer.baseUrl } } : {}),
  });

describe('live market (composite)', () => {
  it('falls back to Twelve Data when Finnhub is down', async () => {
    finnhub.on('/quote', { status: 502 });
    twelve.on('/quote', { fixture: 'twelvedata-quote-aapl.json' });
    expect((await live({ finnhub: true, twelve: true }).getQuote('AAPL')).price).toBe(226.51);
  });

  it('quotes stocks from Yahoo when no key is set', async () => {
    yahooServer.on('/quote/AAPL', { body: '<html>ok</html>', headers: { 'content-type': 'text/html', 'set-cookie': 'A3=d=test; Path=/; Domain=.yahoo.com' } });
    yahooServer.on('/v1/test/getcrumb', { body: 'testCrumb', headers: { 'content-type': 'text/plain' } });
    yahooServer.on('/v7/finance/quote', { fixture: 'yahoo-quote-aapl.json' });
    expect((await live({ yahoo: true }).getQuote('AAPL')).price).toBe(226.51);
  });

  it('says which setting a missing capability needs', async () => {
    await expect(live({}).getQuote('AAPL')).rejects.toThrow('set FINNHUB_API_KEY or TWELVEDATA_API_KEY');
    await expect(live({}).getCompanyNews('AAPL', '2025-01-01', '2025-01-02')).rejects.toThrow('company news: set FINNHUB_API_KEY');
    await expect(live({ finnhub: true }).getDailyBars('AAPL', 0, 2e9)).rejects.toBeInstanceOf(CapabilityUnavailableError);
    await expect(live({}).getOptionChain('AAPL')).rejects.toBeInstanceOf(CapabilityUnavailableError);
    // Live providers quote today's chain only: no chain as of a past session, whatever is configured.
    expect(live({ yahoo: true, finnhub: true }).getOptionChainAsOf).toBeUndefined();
    await expect(live({}).getIntradayBars('AAPL')).rejects.toThrow('intraday bars: set TWELVEDATA_API_KEY');
  });

  it('reads daily bars from Yahoo without a key, and falls back to Twelve Data when Yahoo fails', async () => {
    yahooServer.on('/v8/finance/chart/AAPL', { fixture: 'yahoo-chart-daily.json' });
    const bars = await live({ yahoo: true }).getDailyBars('AAPL', 0, 2e9);
    expect(Array.from(bars.close)).toEqual([243.85, 243.36, 242.21]);
    yahooServer.on('/v8/finance/chart/AAPL', { status: 500, body: 'down' });
    twelve.on('/time_series', { fixture: 'twelvedata-series-aapl.json' });
    const fallback = await live({ yahoo: true, twelve: true }).getDailyBars('AAPL', 0, 2e9);
    expect(Array.from(fallback.close)).toEqual([185.59, 185.59, 183.63]);
  });

  it('reads crypto from Binance and falls back to CoinGecko when Binance is geo-blocked', async () => {
    const crypto = await startRecordedServer();
    try {
      const market = createLiveMarketData({ clock, sleep: async () => undefined, timeoutMs: 300, yahoo: false, baseUrls: { binance: crypto.baseUrl, coinGecko: crypto.baseUrl } });
      crypto.on('/api/v3/ticker/24hr', { fixture: 'binance-ticker-btc.json' });
      expect((await market.getQuote('BTC')).price).toBe(96900.12);
      crypto.on('/api/v3/ticker/24hr', { status: 451, body: '{"code":0,"msg":"Service unavailable from a restricted location"}' });
      crypto.on('/simple/price', { fixture: 'coingecko-price.json' });
      expect((await market.getQuote('BTC')).price).toBe(67187.33);
    } finally {
      await crypto.close();
    }
  });

  it('averages the sector over peers, each fetched once', async () => {
    finnhub.on('/company-news', (url) =>
      url.searchParams.get('symbol') === 'MSFT'
        ? { body: JSON.stringify([{ category: 'company', datetime: 1735900000, headline: 'Microsoft shares tumble on weak guidance', id: 1, related: 'MSFT', source: 'X', summary: '', url: 'https://x/1', image: '' }]) }
        : { fixture: 'finnhub-company-news-aapl.json' },
    );
    const market = createLiveMarketData({ finnhubApiKey: 'fh', baseUrls: { finnhub: finnhub.baseUrl }, clock, yahoo: false, sectorPeers: () => ['AAPL', 'MSFT'], sleep: async () => undefined });
    const before = finnhub.requests.length;
    const sentiment = await market.getNewsSentiment('AAPL');
    // AAPL 2/3 bullish, MSFT 0: the sector averages 1/3.
    expect(sentiment.sectorAverageBullishPercent).toBeCloseTo(1 / 3, 9);
    await market.getNewsSentiment('MSFT');
    expect(finnhub.requests.length - before).toBe(2);
  });

  it('computes news sentiment locally from the last week of company news', async () => {
    finnhub.on('/company-news', { fixture: 'finnhub-company-news-aapl.json' });
    const sentiment = await live({ finnhub: true }).getNewsSentiment('AAPL');
    // Two bullish headlines (beats, record profit), one bearish (slide, downgrade).
    expect(sentiment.bullishPercent).toBeCloseTo(2 / 3, 9);
    expect(sentiment.bearishPercent).toBeCloseTo(1 / 3, 9);
    expect(sentiment.articlesInLastWeek).toBe(3);
    expect(sentiment.sectorAverageBullishPercent).toBeCloseTo(2 / 3, 9);
    const request = finnhub.requests.find((r) => r.url.startsWith('/company-news'))!;
    expect(request.url).toContain('from=2024-12-28');
    expect(request.url).toContain('to=2025-01-04');
  });
});

describe('MARKET_DATA=live through the API', () => {
  it('answers 503 naming the missing key, 502 when the provider fails with nothing cached, and stale data after', async () => {
    const { createTestApp, createUser, login, uniqueEmail } = await import('../../../../test/helpers');
    // Yahoo off: Twelve Data is then the only source of daily bars.
    const t = await createTestApp({ MARKET_DATA: 'live', FINNHUB_API_KEY: 'fh', FINNHUB_BASE_URL: finnhub.baseUrl, YAHOO_ENABLED: 'false' });
    try {
      const email = uniqueEmail('live');
      await createUser(t.db, email, 'pw');
      const headers = await login(t.app, email, 'pw');
      const bars = await t.app.inject({ method: 'GET', url: '/api/fetch_metrics?symbol=AAPL', headers });
      expect(bars.statusCode).toBe(503);
      expect(bars.json().msg).toBe('live market does not provide daily bars: set TWELVEDATA_API_KEY');

      finnhub.on('/quote', { status: 500 });
      const down = await t.app.inject({ method: 'GET', url: '/api/quote?symbol=AAPL', headers });
      expect(down.statusCode).toBe(502);
      expect(down.json().msg).toMatch(/^Market data is unavailable right now \(Finnhub: server error \(HTTP 500\)\)/);

      // The sentiment fan-out and the retries above used Finnhub's burst; a minute refills it.
      t.clock.advance(61_000);
      finnhub.on('/quote', { fixture: 'finnhub-quote-aapl.json' });
      expect((await t.app.inject({ method: 'GET', url: '/api/quote?symbol=AAPL', headers })).json()).toMatchObject({ current_price: 227.48, stale: false });
      finnhub.on('/quote', { status: 500 });
      t.clock.advance(60_000); // past the quote TTL
      expect((await t.app.inject({ method: 'GET', url: '/api/quote?symbol=AAPL', headers })).json()).toMatchObject({ current_price: 227.48, stale: true });
    } finally {
      await t.close();
    }
  });

  it('answers api/rsi_td from Twelve Data\'s own RSI', async () => {
    const { createTestApp, createUser, login, uniqueEmail } = await import('../../../../test/helpers');
    const t = await createTestApp({ MARKET_DATA: 'live', TWELVEDATA_API_KEY: 'td', TWELVEDATA_BASE_URL: twelve.baseUrl, YAHOO_ENABLED: 'false' });
    try {
      const email = uniqueEmail('rsi-td');
      await createUser(t.db, email, 'pw');
      const headers = await login(t.app, email, 'pw');
      twelve.on('/rsi', { fixture: 'twelvedata-rsi-aapl.json' });
      twelve.on('/time_series', { fixture: 'twelvedata-series-aapl.json' });
      const provided = await t.app.inject({ method: 'GET', url: '/api/rsi_td?symbol=AAPL', headers });
      expect(provided.statusCode, provided.body).toBe(200);
      // The newest value of the recorded /rsi answer, rounded to 2 decimals.
      expect(provided.json()).toMatchObject({ symbol: 'AAPL', latest_rsi: 58.21, stale: false });

    } finally {
      await t.close();
    }
  });
});
