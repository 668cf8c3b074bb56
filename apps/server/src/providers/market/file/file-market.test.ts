import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../../../../test/helpers';
import { UnknownSymbolError } from '../types';
import { createFileMarket, DatasetError } from './file-market';

const EXAMPLE = fileURLToPath(new URL('../../../../../../datasets/example', import.meta.url));
/** The example dataset's pinned now: Friday 2026-11-13, 13:00 in New York (datasets/example/README.md). */
const NOW = Date.parse('2026-11-13T18:00:00Z');
/** Earlier the same day, 10:00 in New York: only the first half hour of today has happened. */
const EARLY = Date.parse('2026-11-13T15:00:00Z');

describe('file market over datasets/example', () => {
  const market = createFileMarket({ dir: EXAMPLE, clock: new FakeClock(NOW) });

  it('reads symbols of every market, bars and quotes, quotes.json first, else the last two bars', async () => {
    expect((await market.lookupSymbols('shop', 'TO')).map((s) => s.symbol)).toEqual(['SHOP.TO']);
    expect((await market.lookupSymbols('bitcoin', 'US')).map((s) => s.symbol)).toEqual([]);
    expect(await market.searchSymbols('bitcoin')).toEqual([
      { symbol: 'BTC', description: 'Bitcoin', market: 'CRYPTO', exchange: 'Crypto', country: 'Global', currency: 'USD', assetClass: 'crypto' },
    ]);
    expect(await market.getQuote('AAPL')).toMatchObject({ price: 229.1, previousClose: 227.99, change: 1.11, timestamp: NOW / 1000 });
    const msft = await market.getDailyBars('MSFT', 0, NOW / 1000);
    expect(msft.close.length).toBe(141);
    expect(new Date(msft.time[140]! * 1000).toISOString()).toBe('2026-11-13T00:00:00.000Z');
    const quote = await market.getQuote('MSFT');
    expect(quote).toMatchObject({ price: 400.64, previousClose: 398.98, open: 398.98, high: 401.75, low: 396.12, volume: 11_283_400, timestamp: NOW / 1000 });
    const btc = await market.getDailyBars('btc', 0, NOW / 1000);
    expect(btc.close.length).toBe(197); // every day, weekends included, 2026-05-01 to 2026-11-13
    await expect(market.getQuote('NOPE')).rejects.toBeInstanceOf(UnknownSymbolError);
  });

  it("serves today's intraday bars up to now, and none where the dataset has none", async () => {
    const bars = await market.getIntradayBars('AAPL');
    expect(bars.close.length).toBe(42); // 09:30 to 12:55 New York
    expect(bars.time[0]).toBe(Date.parse('2026-11-13T14:30:00Z') / 1000);
    // The bars agree with the quote: open, high, low, last and volume of the session so far.
    expect(bars.open[0]).toBe(228.4);
    expect(Math.max(...bars.high)).toBe(230.05);
    expect(Math.min(...bars.low)).toBe(227.5);
    expect(bars.close[41]).toBe(229.1);
    expect(bars.volume.reduce((sum, v) => sum + v, 0)).toBe(41_250_000);
    const early = await createFileMarket({ dir: EXAMPLE, clock: new FakeClock(EARLY) }).getIntradayBars('AAPL');
    expect(early.close.length).toBe(7); // 09:30 … 10:00: nothing after now
    expect((await market.getIntradayBars('MSFT')).close.length).toBe(0);
  });

  it('reads option chains, by expiry too', async () => {
    const chain = await market.getOptionChain('AAPL');
    expect(chain).toMatchObject({ symbol: 'AAPL', underlyingPrice: 229.1, expirations: ['2026-11-20', '2026-12-18'] });
    expect(chain.contracts).toHaveLength(20);
    expect(chain.contracts[0]).toEqual({
      contractSymbol: 'AAPL261120C00220000',
      type: 'call',
      strike: 220,
      expiration: '2026-11-20',
      lastPrice: expect.any(Number),
      bid: expect.any(Number),
      ask: expect.any(Number),
      volume: expect.any(Number),
      openInterest: expect.any(Number),
      impliedVolatility: expect.any(Number),
    });
    for (const contract of chain.contracts) expect(contract.bid).toBeLessThanOrEqual(contract.ask);
    const weekly = await market.getOptionChain('AAPL', '2026-11-20');
    expect(weekly.contracts.map((c) => c.contractSymbol)).toEqual(chain.contracts.filter((c) => c.expiration === '2026-11-20').map((c) => c.contractSymbol));
    expect((await market.getOptionChain('SPY')).contracts).toHaveLength(6);
  });

  it('reads every economic series, newest first', async () => {
    const ids = ['CPIAUCSL', 'DGS10', 'FEDFUNDS', 'UNRATE'];
    for (const id of ids) {
      const series = await market.getEconomicSeries(id);
      expect(series.id).toBe(id);
      const dates = series.observations.map((o) => o.date);
      expect(dates, id).toEqual([...dates].sort().reverse());
    }
    expect((await market.getEconomicSeries('UNRATE')).observations[0]).toEqual({ date: '2026-10-01', value: 4.3 });
    expect((await market.getEconomicSeries('FEDFUNDS')).observations[0]).toEqual({ date: '2026-10-01', value: 3.62 });
    expect((await market.getEconomicSeries('DGS10')).frequency).toBe('Daily');
    await expect(market.getEconomicSeries('../etc')).rejects.toBeInstanceOf(UnknownSymbolError);
    await expect(market.getEconomicSeries('GDP')).rejects.toBeInstanceOf(UnknownSymbolError);
  });

  it('answers empty for the parts a dataset leaves out', async () => {
    expect(await market.getCompanyNews('MSFT', '2026-01-01', '2026-11-13')).toEqual([]);
    expect((await market.getOptionChain('MSFT')).contracts).toEqual([]);
    expect((await market.getNewsSentiment('MSFT')).bullishPercent).toBe(0.5);
  });

  it('filters news and earnings by the pinned now and the range', async () => {
    const news = await market.getCompanyNews('AAPL', '2026-10-01', '2026-11-13');
    expect(news.map((a) => a.id)).toEqual(['a2', 'a1']); // a3 is dated after now
    expect((await market.getMarketNews()).map((a) => a.id)).toEqual(['m1', 'm2']); // m3 too
    const rows = await market.getEarningsCalendar('2026-10-28', '2026-10-31');
    expect(rows.map((r) => r.symbol)).toEqual(['AAPL', 'MSFT']);
    expect(rows[0]).toMatchObject({ exchange: 'NASDAQ', country: 'United States', hour: 'amc' });
    const later = await market.getEarningsCalendar('2026-11-14', '2026-12-31');
    expect(later.map((r) => [r.symbol, r.hour, r.exchange, r.country])).toEqual([
      ['NVDA', 'amc', 'NASDAQ', 'United States'],
      ['TD.TO', '', '', ''],
      ['AVGO', 'dmh', 'NASDAQ', 'United States'],
    ]);
  });
});

describe('a dataset with problems', () => {
  let dir: string;
  const listed = (...symbols: string[]) =>
    JSON.stringify(symbols.map((symbol) => ({ symbol, description: symbol, market: symbol === 'COIN1' ? 'CRYPTO' : 'US', exchange: 'NYSE', country: 'United States' })));
  const write = async (relative: string, content: string) => {
    await fs.mkdir(path.dirname(path.join(dir, relative)), { recursive: true });
    await fs.writeFile(path.join(dir, relative), content);
  };
  const start = (now = NOW) => createFileMarket({ dir, clock: new FakeClock(now) });
  const HEADER = 'date,open,high,low,close,volume\n';

  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'sb-dataset-'));
  });
  afterEach(async () => fs.rm(dir, { recursive: true, force: true }));

  it('stops the start, naming the file, the line and the problem, for every part', async () => {
    expect(() => start()).toThrow(/symbols\.json is missing/);
    await write('symbols.json', '[{"symbol":"X"}]');
    expect(() => start()).toThrow(DatasetError);
    await write('symbols.json', listed('X', 'Y'));
    const cases: Array<[string, string, RegExp]> = [
      ['bars/X.csv', `${HEADER}2026-01-02,1,2,0.5,abc,100\n`, /bars\/X\.csv: line 2: "abc" is not a valid close/],
      ['bars/X.csv', `${HEADER}2026-02-30,1,2,0.5,1,100\n`, /line 2: "2026-02-30" is not a valid date \(YYYY-MM-DD\)/],
      ['bars/X.csv', `${HEADER}2026-01-02,1,2,0.5,1,100\n2026-01-05,1,0.9,0.5,1,100\n`, /line 3: the high and the low must bound the open and the close/],
      ['bars/X.csv', `${HEADER}2026-01-02,1,2,0.5,1,100\n2026-01-02,1,2,0.5,1,100\n`, /line 3: 2026-01-02 repeats line 2/],
      ['bars/X.csv', `${HEADER}2026-01-02,1,2,0.5,1,-1\n`, /line 2: volume must not be negative/],
      ['bars/X.csv', 'day,open,high,low,close,volume\n', /line 1: the header must name date,open,high,low,close,volume/],
      ['bars/NOTLISTED.csv', `${HEADER}2026-01-02,1,2,0.5,1,100\n`, /bars\/NOTLISTED\.csv: NOTLISTED is not listed in symbols\.json/],
      ['intraday/X.csv', 'time,open,high,low,close,volume\n1794580200000,1,2,0.5,1,100\n', /intraday\/X\.csv: line 2: "1794580200000" is not a valid time \(Unix seconds\)/],
      ['news/X.json', '[{"id":"1","headline":"h"}]', /news\/X\.json: 0\.datetime/],
      ['quotes.json', '{"Z":{"price":1,"previousClose":1}}', /quotes\.json: Z is not listed in symbols\.json/],
      ['sentiment.json', '{"X":{"bullishPercent":70,"bearishPercent":30,"sectorAverageBullishPercent":0.5}}', /sentiment\.json: X\.bullishPercent: must be a fraction 0–1/],
      ['earnings.json', '[{"symbol":"X","date":"2026-13-01"}]', /earnings\.json: 0\.date: must be a date as YYYY-MM-DD/],
      ['options/X.json', '{"symbol":"Y","underlyingPrice":1,"expirations":[],"contracts":[]}', /options\/X\.json: symbol "Y" does not match the file name/],
      [
        'options/X.json',
        '{"symbol":"X","underlyingPrice":1,"expirations":["2026-11-20"],"contracts":[{"contractSymbol":"C1","type":"call","strike":1,"expiration":"2026-11-27","lastPrice":1,"bid":1,"ask":1,"volume":1,"openInterest":1,"impliedVolatility":0.2}]}',
        /options\/X\.json: C1: expiration 2026-11-27 is not in expirations/,
      ],
      ['options/X.json', '[{"symbol":"X","asOf":"2026-11-12","underlyingPrice":1,"expirations":[],"contracts":[]},{"symbol":"X","asOf":"2026-11-12","underlyingPrice":1,"expirations":[],"contracts":[]}]', /options\/X\.json: 1: a second chain as of 2026-11-12/],
      ['options/X.json', '[{"symbol":"X","underlyingPrice":1,"expirations":[],"contracts":[]},{"symbol":"X","underlyingPrice":2,"expirations":[],"contracts":[]}]', /options\/X\.json: 1: a second chain without asOf/],
      ['options/X.json', '[{"symbol":"X","asOf":"2026-11-31","underlyingPrice":1,"expirations":[],"contracts":[]}]', /options\/X\.json: 0\.asOf: must be a date as YYYY-MM-DD/],
      ['economic/UNRATE.json', '{"id":"FEDFUNDS","name":"n","unit":"u","frequency":"Monthly","observations":[]}', /economic\/UNRATE\.json: id "FEDFUNDS" does not match the file name/],
      ['news/market.json', '{', /news\/market\.json: not valid JSON/],
    ];
    for (const [relative, content, message] of cases) {
      await write(relative, content);
      expect(() => start(), relative).toThrow(message);
      await fs.rm(path.join(dir, relative));
    }
    expect(() => start()).not.toThrow();
  });

  it('serves a chain as of a past session when its file dates it (never one after now), and the chain now', async () => {
    await write('symbols.json', listed('X', 'Y'));
    const contract = (expiration: string, strike: number, bid: number) => ({ contractSymbol: `X${expiration.slice(2).replace(/-/g, '')}C${String(strike * 1000).padStart(8, '0')}`, type: 'call', strike, expiration, lastPrice: bid, bid, ask: bid + 0.1, volume: 10, openInterest: 900, impliedVolatility: 0.25 });
    const chain = (asOf: string, spot: number, bid: number) => ({ symbol: 'X', asOf, underlyingPrice: spot, expirations: ['2026-12-18', '2027-01-15'], contracts: [contract('2026-12-18', 100, bid), contract('2027-01-15', 100, bid + 1)] });
    await write('options/X.json', JSON.stringify([chain('2026-11-12', 99, 3.1), chain('2026-11-13', 101, 4.2), chain('2026-11-16', 104, 6)]));
    // Friday 2026-11-13, 13:00 New York: Thursday's chain is history, Friday's the one so far, Monday's not yet.
    const market = start();
    expect(market.getOptionChainAsOf).toBeTypeOf('function');
    expect(await market.getOptionChainAsOf!('X', '2026-11-12')).toMatchObject({ symbol: 'X', underlyingPrice: 99, expirations: ['2026-12-18', '2027-01-15'] });
    expect((await market.getOptionChainAsOf!('x', '2026-11-13', '2027-01-15'))!.contracts.map((c) => [c.expiration, c.bid])).toEqual([['2027-01-15', 5.2]]);
    expect(await market.getOptionChainAsOf!('X', '2026-11-16')).toBeNull();
    expect(await market.getOptionChainAsOf!('X', '2026-11-11')).toBeNull();
    expect(await market.getOptionChainAsOf!('Y', '2026-11-12')).toBeNull();
    await expect(market.getOptionChainAsOf!('NOPE', '2026-11-12')).rejects.toBeInstanceOf(UnknownSymbolError);
    // The chain now: the one of the last session through now (before Monday's open: Friday's).
    expect((await market.getOptionChain('X')).underlyingPrice).toBe(101);
    expect((await start(Date.parse('2026-11-16T13:00:00Z')).getOptionChain('X')).underlyingPrice).toBe(101);
    expect((await start(Date.parse('2026-11-16T15:00:00Z')).getOptionChain('X')).underlyingPrice).toBe(104);
    expect(await start(Date.parse('2026-11-16T15:00:00Z')).getOptionChainAsOf!('X', '2026-11-16')).toMatchObject({ underlyingPrice: 104 });
    expect((await market.getOptionChain('Y')).contracts).toEqual([]);
    // An undated chain is the chain now; a dataset without dated chains cannot answer for the past.
    await write('options/X.json', JSON.stringify({ ...chain('2026-11-12', 99, 3.1), asOf: undefined }));
    expect(start().getOptionChainAsOf).toBeUndefined();
    expect((await start().getOptionChain('X')).underlyingPrice).toBe(99);
  });

  it('quotes a single bar against its open, serves the last intraday session (after the one before while short), and lists a symbol without bars', async () => {
    await write('symbols.json', listed('X', 'EMPTY', 'COIN1'));
    await write('bars/X.csv', `${HEADER}2026-11-13,10,11,9.5,10.5,1000\n`);
    const bar = (time: number) => `${time},10,10.2,9.8,10.1,100\n`;
    const session = (open: string, count: number) => Array.from({ length: count }, (_, k) => Date.parse(open) / 1000 + 300 * k);
    const twoDaysAgo = session('2026-11-11T14:30:00Z', 78);
    const yesterday = session('2026-11-12T14:30:00Z', 78);
    const today = session('2026-11-13T14:30:00Z', 42);
    await write('intraday/X.csv', `time,open,high,low,close,volume\n${[...twoDaysAgo, ...yesterday, ...today].map(bar).join('')}`);
    // Crypto sessions are UTC days: 23:55 UTC yesterday is yesterday's, 00:00 UTC today is today's.
    const midnight = Date.parse('2026-11-13T00:00:00Z') / 1000;
    const coinBars = [...Array.from({ length: 20 }, (_, k) => midnight - 300 * (20 - k)), ...Array.from({ length: 15 }, (_, k) => midnight + 300 * k)];
    await write('intraday/COIN1.csv', `time,open,high,low,close,volume\n${coinBars.map(bar).join('')}`);
    const market = start();
    expect(await market.getQuote('X')).toMatchObject({ price: 10.5, previousClose: 10, change: 0.5, percentChange: 5 });
    const times = async (symbol: string, now = NOW) => Array.from((await start(now).getIntradayBars(symbol)).time);
    // 13:00 New York: today's 42 bars only.
    expect(await times('X')).toEqual(today);
    // 09:45: three bars today, too few for RSI(14): yesterday's session first, not the one before.
    expect(await times('X', Date.parse('2026-11-13T14:40:00Z'))).toEqual([...yesterday, ...today.slice(0, 3)]);
    // Before today's first bar: the last session the file holds (yesterday's, complete).
    expect(await times('X', Date.parse('2026-11-13T14:00:00Z'))).toEqual(yesterday);
    expect(await times('COIN1', (midnight + 5 * 3600) * 1000)).toEqual(coinBars.slice(20));
    expect(await times('COIN1', (midnight + 600) * 1000)).toEqual(coinBars.slice(0, 23));
    expect(await market.getProfile('EMPTY')).toMatchObject({ symbol: 'EMPTY' });
    expect((await market.getDailyBars('EMPTY', 0, NOW / 1000)).close.length).toBe(0);
    // No price at all: the features tell this apart from an unlisted symbol through getProfile.
    await expect(market.getQuote('EMPTY')).rejects.toBeInstanceOf(UnknownSymbolError);
  });
});
