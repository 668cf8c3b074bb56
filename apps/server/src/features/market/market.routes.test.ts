import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, login, uniqueEmail, type TestApp } from '../../../test/helpers';
import { describeMarketInputErrors } from '../../../test/market-cases';

let t: TestApp;
let headers: { authorization: string };

beforeAll(async () => {
  // Friday 2026-11-20, 11:00 in New York: the session is open.
  t = await createTestApp({ MARKET_NOW: '2026-11-20T16:00:00Z' });
  const email = uniqueEmail('market');
  await createUser(t.db, email, 'pw');
  headers = await login(t.app, email, 'pw');
});
afterAll(async () => t.close());

const get = (url: string) => t.app.inject({ method: 'GET', url, headers });
const post = (url: string, payload: unknown) => t.app.inject({ method: 'POST', url, headers, payload: payload as object });

describe('market calls need the token', () => {
  it('answers 401 without it', async () => {
    for (const url of ['/api/quote?symbol=AAPL', '/api/market-news', '/api/fetch_metrics?symbol=AAPL', '/api/docs']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(401);
      expect(response.json()).toEqual({ msg: 'Auth token missing' });
    }
  });
});

describe('symbols', () => {
  it('looks up US and Canadian symbols', async () => {
    const us = await get('/api/symbol_lookup?q=apple');
    expect(us.statusCode).toBe(200);
    expect(us.json().result[0]).toEqual({ symbol: 'AAPL', description: 'Apple Inc.', exchange: 'NASDAQ' });
    const ca = await get('/api/symbol_lookup?q=RY&exchange=TO');
    expect(ca.json().result.map((r: { symbol: string }) => r.symbol)).toContain('RY.TO');
    expect((await get('/api/symbol_lookup?q=apple&exchange=XX')).json()).toEqual({ msg: 'exchange must be US or TO' });
    expect((await get('/api/symbol_lookup')).json()).toEqual({ msg: 'q is required' });
  });

  it('searches with instrument names and countries', async () => {
    const response = await get('/api/symbol_search?symbol=MSFT');
    expect(response.json().results[0]).toMatchObject({ symbol: 'MSFT', instrument_name: 'Microsoft Corporation', country: 'United States' });
  });
});

describe('quotes and metrics', () => {
  it('quotes a symbol with the spec field and freshness', async () => {
    for (const path of ['/api/quote', '/api/quote_td']) {
      const body = (await get(`${path}?symbol=aapl`)).json();
      expect(body).toMatchObject({ symbol: 'AAPL', stale: false });
      expect(body.current_price).toBeGreaterThan(0);
      expect(body.percent_change).toBeCloseTo(((body.current_price - body.previous_close) / body.previous_close) * 100, 2);
      expect(body.timestamp).toBe(Date.parse('2026-11-20T16:00:00Z') / 1000);
    }
  });

  it('answers 404 for an unknown symbol and 400 for a malformed one', async () => {
    expect((await get('/api/quote?symbol=ZZZZZ')).statusCode).toBe(404);
    expect((await get('/api/quote?symbol=ZZZZZ')).json()).toEqual({ msg: 'Unknown symbol: ZZZZZ' });
    const bad = await get('/api/quote?symbol=%3Cscript%3E');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().msg).toBe('Symbol may hold only letters, digits and . - ^ = :');
    expect((await get('/api/quote')).statusCode).toBe(400);
  });

  it('computes the metrics of spec §3', async () => {
    const body = (await get('/api/fetch_metrics?symbol=MSFT')).json();
    for (const key of ['1MonthHigh', '1MonthLow', '6MonthHigh', '6MonthLow', '14DayRSI', 'dailyrsi']) {
      expect(typeof body[key], key).toBe('number');
    }
    expect(body['6MonthHigh']).toBeGreaterThanOrEqual(body['1MonthHigh']);
    expect(body['6MonthLow']).toBeLessThanOrEqual(body['1MonthLow']);
    expect(body['14DayRSI']).toBeGreaterThanOrEqual(0);
    expect(body['14DayRSI']).toBeLessThanOrEqual(100);
    expect(body.bullishPercent + body.bearishPercent).toBeCloseTo(1, 3);
    expect(Array.isArray(body.volumeProfileLevels)).toBe(true);
    expect(body.volumeProfileLevels.length).toBeGreaterThan(0);
  });

  it('answers RSI for a range and rejects bad ranges', async () => {
    const body = (await get('/api/rsi?symbol=AAPL&from=2026-06-01&to=2026-11-20')).json();
    expect(body.latest_rsi).toBeGreaterThan(0);
    expect(body.latest_rsi).toBeLessThan(100);
    expect((await get('/api/rsi?symbol=AAPL&from=2026-11-20&to=2026-06-01')).json()).toEqual({ msg: 'from must be before to' });
    expect((await get('/api/rsi?symbol=AAPL&from=yesterday')).json()).toEqual({ msg: 'from must be Unix seconds or YYYY-MM-DD' });
    expect((await get('/api/rsi_td?symbol=AAPL')).json().latest_rsi).toBeGreaterThan(0);
  });

  it('gives sentiment as fractions, with the sector average', async () => {
    const body = (await get('/api/news-sentiment?symbol=AAPL')).json();
    expect(body.sectorAverageBullishPercent).toBeGreaterThanOrEqual(0);
    expect(body.sectorAverageBullishPercent).toBeLessThanOrEqual(1);
    expect(body.sentiment.bullishPercent + body.sentiment.bearishPercent).toBeCloseTo(1, 3);
  });

  it('computes support and resistance levels', async () => {
    const body = (await get('/api/support-resistance?symbol=AAPL')).json();
    expect(body.resolution).toBe('D');
    expect(body.levels.length).toBeGreaterThan(0);
    expect([...body.levels].sort((a: number, b: number) => a - b)).toEqual(body.levels);
    expect((await get('/api/support-resistance?symbol=AAPL&resolution=W')).statusCode).toBe(200);
    expect((await get('/api/support-resistance?symbol=AAPL&resolution=5')).json()).toEqual({ msg: 'resolution must be D, W or M' });
  });
});

describe('high/low and trend', () => {
  it('accepts the form post as multipart and url-encoded', async () => {
    const form = new FormData();
    form.append('symbol', 'AAPL');
    form.append('days', '30');
    const request = new Request('http://x', { method: 'POST', body: form });
    const multipart = await t.app.inject({
      method: 'POST',
      url: '/api/stock-high-low',
      headers: { ...headers, 'content-type': request.headers.get('content-type')! },
      payload: Buffer.from(await request.arrayBuffer()),
    });
    expect(multipart.statusCode).toBe(200);
    const encoded = await t.app.inject({
      method: 'POST',
      url: '/api/stock-high-low',
      headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'symbol=AAPL&days=30',
    });
    expect(encoded.json()).toEqual(multipart.json());
    const body = multipart.json();
    expect(body.high).toBeGreaterThanOrEqual(body.low);
    expect(body.high_date).toMatch(/^2026-1[01]-\d{2}$/);
    const td = await post('/api/stock-high-td', { symbol: 'AAPL', days: 30 });
    expect(td.json()).toEqual(body);
    expect((await post('/api/stock-high-td', { symbol: 'AAPL', days: 0 })).json()).toEqual({ msg: 'days must be between 1 and 730' });
    expect((await post('/api/stock-high-td', { symbol: 'AAPL', days: 'many' })).json()).toEqual({ msg: 'days must be a whole number' });
  });

  it('tells the trend direction', async () => {
    const body = (await post('/api/trend-direction', { symbol: 'SPY', days: 30, interval: '1day' })).json();
    expect(['up', 'down', 'sideways']).toContain(body.direction);
    expect(body.r_squared).toBeGreaterThanOrEqual(0);
    expect((await post('/api/trend-direction', { symbol: 'SPY', days: 30, interval: 'hourly' })).json()).toEqual({
      msg: 'interval must be 1day or 1week',
    });
  });
});

describe('one answer, whichever call asks (simulated)', () => {
  const NOW_SECONDS = Date.parse('2026-11-20T16:00:00Z') / 1000;
  const SYMBOLS = ['AAPL', 'MSFT', 'SPY', 'RY.TO', 'BTC'];

  it('gives the same 14-day RSI from fetch_metrics, api/rsi and api/rsi_td, and the same daily RSI', async () => {
    for (const symbol of SYMBOLS) {
      const metrics = (await get(`/api/fetch_metrics?symbol=${symbol}`)).json();
      const rsi = (await get(`/api/rsi?symbol=${symbol}`)).json();
      const rsiTd = (await get(`/api/rsi_td?symbol=${symbol}`)).json();
      expect(typeof metrics['14DayRSI'], symbol).toBe('number');
      expect(rsi.latest_rsi, symbol).toBe(metrics['14DayRSI']);
      expect(rsiTd.latest_rsi, symbol).toBe(metrics['14DayRSI']);
      expect(rsi.daily_rsi, symbol).toBe(metrics.dailyrsi);
      expect(rsiTd.daily_rsi, symbol).toBe(metrics.dailyrsi);
    }
  });

  it('gives the same RSI for an explicit range over the same bars as the default', async () => {
    // The default history is the last 200 calendar days; the same window as Unix seconds.
    const from = NOW_SECONDS - 200 * 86_400;
    for (const symbol of ['AAPL', 'BTC']) {
      const ranged = (await get(`/api/rsi?symbol=${symbol}&from=${from}&to=${NOW_SECONDS + 86_400}`)).json();
      const byDefault = (await get(`/api/rsi?symbol=${symbol}`)).json();
      expect(ranged.latest_rsi, symbol).toBe(byDefault.latest_rsi);
      // A shorter history weighs the warm-up differently (Wilder smoothing), so it may differ, but stays an RSI.
      const short = (await get(`/api/rsi?symbol=${symbol}&from=${NOW_SECONDS - 60 * 86_400}&to=${NOW_SECONDS}`)).json();
      expect(short.latest_rsi).toBeGreaterThan(0);
      expect(short.latest_rsi).toBeLessThan(100);
    }
  });

  it('agrees on the 1- and 6-month highs and lows between fetch_metrics and the high/low calls, and the quote lies within them', async () => {
    for (const symbol of SYMBOLS) {
      const metrics = (await get(`/api/fetch_metrics?symbol=${symbol}`)).json();
      const month = (await post('/api/stock-high-td', { symbol, days: 21 })).json();
      const sixMonths = (await post('/api/stock-high-td', { symbol, days: 126 })).json();
      expect([month.high, month.low], symbol).toEqual([metrics['1MonthHigh'], metrics['1MonthLow']]);
      expect([sixMonths.high, sixMonths.low], symbol).toEqual([metrics['6MonthHigh'], metrics['6MonthLow']]);
      // 21 bars reach back about a month, 126 about six (crypto trades every day: less).
      for (const date of [month.high_date, month.low_date]) expect(date >= '2026-10-01' && date <= '2026-11-20', `${symbol} ${date}`).toBe(true);
      for (const date of [sixMonths.high_date, sixMonths.low_date]) expect(date >= '2026-05-01' && date <= '2026-11-20', `${symbol} ${date}`).toBe(true);
      const quote = (await get(`/api/quote?symbol=${symbol}`)).json();
      expect(quote.current_price, symbol).toBeGreaterThanOrEqual(metrics['1MonthLow']);
      expect(quote.current_price, symbol).toBeLessThanOrEqual(metrics['1MonthHigh']);
      expect(quote.high, symbol).toBeLessThanOrEqual(metrics['1MonthHigh']);
      expect(quote.low, symbol).toBeGreaterThanOrEqual(metrics['1MonthLow']);
    }
  });

  it('reads every weekly spelling of the trend interval as 1week, and every daily one as 1day', async () => {
    const weekly = (await post('/api/trend-direction', { symbol: 'SPY', days: 60, interval: '1week' })).json();
    for (const interval of ['weekly', 'W']) {
      expect((await post('/api/trend-direction', { symbol: 'SPY', days: 60, interval })).json(), interval).toEqual(weekly);
    }
    expect(weekly.interval).toBe('1week');
    const daily = (await post('/api/trend-direction', { symbol: 'SPY', days: 60 })).json();
    expect(daily.interval).toBe('1day');
    for (const interval of ['1day', 'daily', 'D']) {
      expect((await post('/api/trend-direction', { symbol: 'SPY', days: 60, interval })).json(), interval).toEqual(daily);
    }
  });
});

describeMarketInputErrors('simulated', () => ({ app: t.app, headers }), { knownSymbol: 'AAPL', unknownSymbol: 'ZZZZZ' });

describe('earnings and news', () => {
  it('lists earnings rows with the spec fields', async () => {
    for (const path of ['/api/earnings_calendar', '/api/earnings_calendar_td']) {
      const rows = (await post(path, { start_date: '2026-10-01', end_date: '2026-11-30' })).json();
      expect(rows.length).toBeGreaterThan(50);
      const row = rows[0];
      expect(Object.keys(row).sort()).toEqual(['country', 'date', 'difference', 'eps_actual', 'eps_estimate', 'exchange', 'surprise_percent', 'symbol', 'time'].sort());
      expect(['Pre Market', 'After Hours', 'Time Not Supplied']).toContain(row.time);
      const future = rows.filter((r: { date: string }) => r.date > '2026-11-20');
      expect(future.every((r: { eps_actual: unknown }) => r.eps_actual === null)).toBe(true);
    }
    expect((await post('/api/earnings_calendar', { start_date: '2026-11-30', end_date: '2026-10-01' })).json()).toEqual({
      msg: 'end_date must not be before start_date',
    });
    expect((await post('/api/earnings_calendar', { start_date: '2026-13-01', end_date: '2026-10-01' })).json()).toEqual({
      msg: 'start_date must be a date as YYYY-MM-DD',
    });
    expect((await post('/api/earnings_calendar', { start_date: '2025-01-01', end_date: '2026-10-01' })).json()).toEqual({
      msg: 'The range may span at most 92 days',
    });
  });

  it('serves market and company news with Unix-second datetimes', async () => {
    const market = (await get('/api/market-news')).json();
    expect(market.length).toBeGreaterThan(5);
    expect(market[0].datetime).toBeLessThanOrEqual(Date.parse('2026-11-20T16:00:00Z') / 1000);
    for (const key of ['headline', 'summary', 'source', 'category', 'url', 'image', 'datetime']) expect(market[0]).toHaveProperty(key);
    const company = (await get('/api/company-news?symbol=AAPL&from=2026-11-13&to=2026-11-20')).json();
    expect(company.every((a: { related: string }) => a.related === 'AAPL')).toBe(true);
    expect((await get('/api/company-news?symbol=AAPL&from=2026-11-20&to=2026-11-13')).json()).toEqual({ msg: 'from must not be after to' });
    expect((await get('/api/company-news?symbol=AAPL&from=2026-11-13')).json()).toEqual({ msg: 'to is required (YYYY-MM-DD)' });
  });
});

describe('API document', () => {
  it('describes every call from the zod contract', async () => {
    const doc = (await get('/api/docs')).json();
    expect(doc.openapi).toBe('3.1.0');
    for (const path of ['/api/login', '/api/quote', '/api/fetch_metrics', '/api/earnings_calendar', '/api/stock-high-low', '/api/company-news']) {
      expect(doc.paths[path], path).toBeDefined();
    }
    expect(doc.paths['/api/quote'].get.responses['200'].content['application/json'].schema.properties.current_price.type).toBe('number');
  });
});

describe('simulated article pages', () => {
  it('shows an article behind its Read More link, marked simulated, and 404s unknown ones', async () => {
    const news = (await get('/api/company-news?symbol=AAPL&from=2026-10-01&to=2026-11-20')).json();
    expect(news[0].url).toMatch(/^\/simulated-news\//); // same-origin: it opens wherever the app is opened
    const page = await t.app.inject({ method: 'GET', url: news[0].url });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('Simulated market');
    expect(page.body).toContain(news[0].headline.replace(/&/g, '&amp;').replace(/'/g, '&#39;'));
    const missing = await t.app.inject({ method: 'GET', url: '/simulated-news/AAPL-2026-11-20-99' });
    expect(missing.statusCode).toBe(404);
  });
});
