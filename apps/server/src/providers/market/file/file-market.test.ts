import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, FakeClock, login, uniqueEmail, type TestApp } from '../../../../test/helpers';
import { UnknownSymbolError } from '../types';
import { createFileMarket, DatasetError } from './file-market';

const EXAMPLE = fileURLToPath(new URL('../../../../../../datasets/example', import.meta.url));
const NOW = Date.parse('2026-11-13T15:00:00Z');

describe('file market over datasets/example', () => {
  const market = createFileMarket({ dir: EXAMPLE, clock: new FakeClock(NOW) });

  it('reads symbols, bars and quotes, quotes.json first, else the last two bars', async () => {
    expect((await market.lookupSymbols('shop', 'TO')).map((s) => s.symbol)).toEqual(['SHOP.TO']);
    expect(await market.getQuote('AAPL')).toMatchObject({ price: 229.1, previousClose: 227.99, change: 1.11 });
    const msft = await market.getDailyBars('MSFT', 0, NOW / 1000);
    expect(msft.close.length).toBe(140);
    const quote = await market.getQuote('MSFT');
    expect(quote.price).toBe(msft.close[139]);
    expect(quote.previousClose).toBe(msft.close[138]);
    await expect(market.getQuote('NOPE')).rejects.toBeInstanceOf(UnknownSymbolError);
  });

  it('answers empty for the parts a dataset leaves out', async () => {
    expect((await market.getIntradayBars('AAPL')).close.length).toBe(0);
    expect(await market.getCompanyNews('MSFT', '2026-01-01', '2026-12-31')).toEqual([]);
    expect((await market.getOptionChain('AAPL')).contracts).toEqual([]);
    expect((await market.getNewsSentiment('MSFT')).bullishPercent).toBe(0.5);
  });

  it('filters news and earnings by the pinned now and the range', async () => {
    const news = await market.getCompanyNews('AAPL', '2026-10-01', '2026-11-13');
    expect(news.map((a) => a.id)).toEqual(['a2', 'a1']);
    expect((await market.getMarketNews()).map((a) => a.id)).toEqual(['m1', 'm2']);
    const rows = await market.getEarningsCalendar('2026-10-28', '2026-10-31');
    expect(rows.map((r) => r.symbol)).toEqual(['AAPL', 'MSFT']);
    expect(rows[0]).toMatchObject({ exchange: 'NASDAQ', country: 'United States', hour: 'amc' });
    expect((await market.getEconomicSeries('UNRATE')).observations[0]).toEqual({ date: '2026-10-01', value: 4.3 });
    await expect(market.getEconomicSeries('../etc')).rejects.toBeInstanceOf(UnknownSymbolError);
  });
});

describe('a broken dataset', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'sb-dataset-'));
  });
  afterAll(async () => fs.rm(dir, { recursive: true, force: true }));

  it('names the file and the problem', async () => {
    expect(() => createFileMarket({ dir, clock: new FakeClock() })).toThrow(/symbols\.json is missing/);
    await fs.writeFile(path.join(dir, 'symbols.json'), '[{"symbol":"X"}]');
    expect(() => createFileMarket({ dir, clock: new FakeClock() })).toThrow(DatasetError);
    await fs.writeFile(path.join(dir, 'symbols.json'), '[{"symbol":"X","description":"X","market":"US","exchange":"NYSE","country":"United States"}]');
    await fs.mkdir(path.join(dir, 'bars'));
    await fs.writeFile(path.join(dir, 'bars', 'X.csv'), 'date,open,high,low,close,volume\n2026-01-02,1,2,0.5,abc,100\n');
    const market = createFileMarket({ dir, clock: new FakeClock() });
    await expect(market.getDailyBars('X', 0, 2e9)).rejects.toThrow('line 2: "abc" is not a valid close');
  });
});

describe('MARKET_DATA=file through the API', () => {
  let t: TestApp;
  let headers: { authorization: string };
  beforeAll(async () => {
    t = await createTestApp({ MARKET_DATA: 'file', DATASET_DIR: EXAMPLE, MARKET_NOW: '2026-11-13T15:00:00Z' });
    const email = uniqueEmail('file');
    await createUser(t.db, email, 'pw');
    headers = await login(t.app, email, 'pw');
  });
  afterAll(async () => t.close());

  it('serves exact pinned data and never renders unsafe links', async () => {
    const quote = await t.app.inject({ method: 'GET', url: '/api/quote?symbol=AAPL', headers });
    expect(quote.json()).toMatchObject({ symbol: 'AAPL', current_price: 229.1, previous_close: 227.99, stale: false });
    const health = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(health.json().market_data).toBe('file');
    const news = (await t.app.inject({ method: 'GET', url: '/api/company-news?symbol=AAPL&from=2026-10-01&to=2026-11-13', headers })).json();
    expect(news.find((a: { id: string }) => a.id === 'a2').url).toBe('');
    const metrics = (await t.app.inject({ method: 'GET', url: '/api/fetch_metrics?symbol=MSFT', headers })).json();
    expect(metrics.dailyrsi).toBeNull(); // no intraday bars in the dataset
    expect(typeof metrics['14DayRSI']).toBe('number');
  });
});
