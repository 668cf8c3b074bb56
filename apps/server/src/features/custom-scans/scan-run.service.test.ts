import { describe, expect, it, vi } from 'vitest';
import { compileScan, parseFormula, runScanRequest, scanField, type RunScanResponse } from '@signalboard/core';
import { HttpError } from '../../lib/errors';
import type { Cached } from '../../providers/market/cache';
import type { CachedMarket } from '../../providers/market/cached-market';
import { CapabilityUnavailableError, ProviderError, UnknownSymbolError, type Bars, type EarningsEvent, type NewsArticle, type SymbolInfo } from '../../providers/market/types';
import { EARNINGS_HORIZON_DAYS, NEWS_DAYS } from './scan-facts';
import { columnLabel, createScanRunService, lookbackDays, MIN_LOOKBACK_DAYS } from './scan-run.service';

// The run's decisions (docs/custom-scans.md, "Running a scan") on a hand-made file source: the
// universes from its list, the bars window, as_of per symbol, the facts and the failures.

const DAY_SECONDS = 86_400;
const day = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / 1000 / DAY_SECONDS;
const iso = (dayNumber: number) => new Date(dayNumber * DAY_SECONDS * 1000).toISOString().slice(0, 10);
const NOW_MS = Date.UTC(2026, 10, 4, 22, 0, 0); // Wednesday 2026-11-04, after the close
const fresh = <T>(value: T): Cached<T> => ({ value, stale: false, fetchedAtMs: NOW_MS });

const info = (symbol: string, market: SymbolInfo['market'], assetClass: SymbolInfo['assetClass'], sector?: string): SymbolInfo => ({
  symbol,
  description: `${symbol} Inc.`,
  market,
  exchange: market === 'TO' ? 'TSX' : market === 'CRYPTO' ? 'Crypto' : 'NYSE',
  country: 'United States',
  currency: 'USD',
  assetClass,
  ...(sector ? { sector } : {}),
});
const LISTED = [
  info('UP', 'US', 'stock', 'Energy'),
  info('DOWN', 'US', 'stock', 'Utilities'),
  info('OLD', 'US', 'stock', 'Energy'),
  info('SPY', 'US', 'etf'),
  info('RY.TO', 'TO', 'stock', 'Financials'),
  info('BTC', 'CRYPTO', 'crypto'),
];

/** Weekday bars from 2025-01-01 through `lastDate`: UP rises 1 a session, DOWN falls 1, the others stay flat at 50. */
function history(symbol: string, lastDate = '2026-11-04'): Bars {
  const days: number[] = [];
  for (let d = day('2025-01-01'); d <= day(lastDate); d += 1) if (new Date(d * DAY_SECONDS * 1000).getUTCDay() % 6 !== 0) days.push(d);
  const close = Float64Array.from(days, (_, i) => (symbol === 'UP' ? 100 + i : symbol === 'DOWN' ? 1000 - i : 50));
  return { symbol, time: Float64Array.from(days, (d) => d * DAY_SECONDS), open: close, high: close, low: close, close, volume: close.map(() => 1000) };
}

function slice(bars: Bars, from: number, to: number): Bars {
  const keep = (values: Float64Array) => values.filter((_, i) => bars.time[i]! >= from && bars.time[i]! <= to);
  return { symbol: bars.symbol, time: keep(bars.time), open: keep(bars.open), high: keep(bars.high), low: keep(bars.low), close: keep(bars.close), volume: keep(bars.volume) };
}

const article = (headline: string): NewsArticle => ({ id: headline, headline, summary: '', source: 'test', category: 'company', datetime: 0, url: 'https://example.com', image: '', related: '' });
const release = (symbol: string, date: string): EarningsEvent => ({ symbol, date, hour: 'amc', epsActual: null, epsEstimate: null, revenueActual: null, revenueEstimate: null, quarter: 4, year: 2026, exchange: 'NYSE', country: 'US' });

interface FakeOptions {
  bars?: (symbol: string, from: number, to: number) => Promise<Bars>;
  earnings?: (from: string, to: string) => Promise<EarningsEvent[]>;
  news?: (symbol: string, from: string, to: string) => Promise<NewsArticle[]>;
  profile?: (symbol: string) => Promise<SymbolInfo>;
}

function fakeMarket(options: FakeOptions = {}) {
  const calls = { bars: [] as Array<[string, number, number]>, earnings: [] as Array<[string, string]>, news: [] as Array<[string, string, string]>, profile: [] as string[] };
  const known = new Set(LISTED.map((one) => one.symbol));
  const stub: Partial<CachedMarket> = {
    source: 'file',
    listSymbols: async () => LISTED,
    getDailyBars: async (symbol, from, to) => {
      calls.bars.push([symbol, from, to]);
      if (options.bars) return fresh(await options.bars(symbol, from, to));
      if (!known.has(symbol)) throw new UnknownSymbolError(symbol);
      return fresh(slice(history(symbol, symbol === 'OLD' ? '2026-10-30' : '2026-11-04'), from, to));
    },
    getEarningsCalendar: async (from, to) => {
      calls.earnings.push([from, to]);
      return fresh(options.earnings ? await options.earnings(from, to) : []);
    },
    getCompanyNews: async (symbol, from, to) => {
      calls.news.push([symbol, from, to]);
      return fresh(options.news ? await options.news(symbol, from, to) : []);
    },
    getProfile: async (symbol) => {
      calls.profile.push(symbol);
      if (!options.profile) throw new UnknownSymbolError(symbol);
      return fresh(await options.profile(symbol));
    },
  };
  return { market: stub as CachedMarket, calls };
}

const log = () => ({ warn: vi.fn(), error: vi.fn() });

async function runWith(market: CachedMarket, body: Record<string, unknown>, favorites: Array<{ symbol: string; description: string }> = [], logger = log()): Promise<RunScanResponse> {
  const service = createScanRunService({ market, marketClock: { nowMs: () => NOW_MS }, favorites: { list: async () => favorites } });
  return service.run(7, runScanRequest.parse(body), logger);
}

const symbols = (answer: RunScanResponse) => answer.rows.map((row) => row.symbol);

describe('the bars window', () => {
  it('reads at least MIN_LOOKBACK_DAYS, more for a field or a cross that needs more sessions', () => {
    const days = (formula: string) => lookbackDays(compileScan(parseFormula(formula)));
    expect(days('close > 1')).toBe(MIN_LOOKBACK_DAYS);
    expect(days('rsi(14) < 30 and pct_below_high(252) > 5')).toBe(MIN_LOOKBACK_DAYS);
    // adx(100): 1,201 sessions; a cross within 50 looks 50 sessions further back.
    expect(days('adx(100) > 20')).toBe(Math.ceil((1201 * 365) / 250) + 7);
    expect(days('adx(100) crosses above 20 within 50')).toBe(Math.ceil((1251 * 365) / 250) + 7);
  });

  it('asks each symbol for the bars from the window start through the run date only', async () => {
    const { market, calls } = fakeMarket();
    await runWith(market, { universe: 'us', formula: 'close > 0', as_of: '2026-06-10' });
    expect(calls.bars.map(([symbol]) => symbol)).toEqual(['UP', 'DOWN', 'OLD']);
    for (const [, from, to] of calls.bars) {
      expect(to).toBe(day('2026-06-10') * DAY_SECONDS);
      expect(from).toBe((day('2026-06-10') - MIN_LOOKBACK_DAYS) * DAY_SECONDS);
    }
  });
});

describe('giving way', () => {
  it('lets other work in while it reads bars that take CPU (a cold simulated history is generated synchronously)', async () => {
    // Each read spins 6 ms before it answers (3 symbols: past the 10 ms slice): without a yield the run holds the event loop throughout.
    const { market } = fakeMarket({
      bars: async (symbol, from, to) => {
        const until = performance.now() + 6;
        while (performance.now() < until);
        return slice(history(symbol), from, to);
      },
    });
    let runDone = false;
    let otherRanFirst = false;
    const other = new Promise<void>((resolve) =>
      setImmediate(() => {
        otherRanFirst = !runDone;
        resolve();
      }),
    );
    const answer = runWith(market, { universe: 'us', formula: 'close > 0' }).then((value) => {
      runDone = true;
      return value;
    });
    await Promise.all([answer, other]);
    expect(otherRanFirst).toBe(true);
  });
});

describe('column labels', () => {
  it('puts the parameters right after an acronym and after a space otherwise', () => {
    const label = (name: string, ...params: number[]) => columnLabel(scanField(name)!, params);
    expect(label('rsi', 14)).toBe('RSI(14)');
    expect(label('pct_from_sma', 50)).toBe('% from SMA(50)');
    expect(label('pct_below_high', 252)).toBe('% below high (252)');
    expect(label('change_pct', 5)).toBe('Change % (5)');
    expect(label('close')).toBe('Price');
  });
});

describe('universes on a source that lists its symbols', () => {
  it('takes the US stocks (no ETF), the TSX stocks and the crypto from the list, with its names', async () => {
    const { market } = fakeMarket();
    expect(symbols(await runWith(market, { universe: 'us', formula: 'close > 0' }))).toEqual(['UP', 'DOWN', 'OLD']);
    expect(symbols(await runWith(market, { universe: 'sp500', formula: 'close > 0' }))).toEqual(['UP', 'DOWN', 'OLD']);
    expect(symbols(await runWith(market, { universe: 'tsx', formula: 'close > 0' }))).toEqual(['RY.TO']);
    const crypto = await runWith(market, { universe: 'crypto', formula: 'close > 0' });
    expect(crypto.rows).toEqual([{ symbol: 'BTC', name: 'BTC Inc.', price: 50, change_pct: 0, values: [50] }]);
  });
});

describe('as of a date', () => {
  it('runs each symbol at its last bar on or before the date and answers the latest date used', async () => {
    const { market } = fakeMarket();
    const answer = await runWith(market, { universe: 'us', formula: 'close > 0', as_of: '2026-11-01' });
    // Sunday: Friday's bars; OLD's last bar is Friday 2026-10-30 too.
    expect(answer.as_of).toBe('2026-10-30');
    const now = await runWith(market, { universe: 'us', formula: 'close > 0' });
    expect(now.as_of).toBe('2026-11-04');
    // OLD stopped on 2026-10-30: its row is of that bar, the run's date is the latest.
    expect(now.rows.find((row) => row.symbol === 'OLD')).toMatchObject({ price: 50 });
    const up = now.rows.find((row) => row.symbol === 'UP')!;
    const upAsOf = answer.rows.find((row) => row.symbol === 'UP')!;
    expect(up.price! - upAsOf.price!).toBe(3); // three sessions later: Monday, Tuesday, Wednesday
    expect(up.change_pct).toBeCloseTo((up.price! / (up.price! - 1) - 1) * 100, 12);
  });

  it('refuses a date after the market clock\'s day and one before every symbol\'s history', async () => {
    const { market } = fakeMarket();
    const failure = (body: Record<string, unknown>) => runWith(market, body).then(() => null, (error: unknown) => error);
    const future = await failure({ universe: 'us', formula: 'close > 0', as_of: '2026-11-05' });
    expect(future).toBeInstanceOf(HttpError);
    expect(future).toMatchObject({ statusCode: 400, message: expect.stringMatching(/^as_of 2026-11-05 is after the last session: the market's date is 2026-11-04/) });
    const early = await failure({ universe: 'us', formula: 'close > 0', as_of: '2024-12-31' });
    expect(early).toMatchObject({ statusCode: 400, message: expect.stringMatching(/before the source's history/) });
    expect((await runWith(market, { universe: 'us', formula: 'close > 0', as_of: '2025-01-01' })).as_of).toBe('2025-01-01');
  });
});

describe('failures of the market', () => {
  it('lists symbols it cannot read as missing and goes on', async () => {
    const logger = log();
    const { market } = fakeMarket({
      bars: async (symbol, from, to) => {
        if (symbol === 'DOWN') throw new ProviderError('Yahoo', 'HTTP 500');
        return slice(history(symbol), from, to);
      },
    });
    const answer = await runWith(market, { universe: 'favorites', formula: 'close > 0' }, [{ symbol: 'UP', description: 'Up' }, { symbol: 'DOWN', description: '' }, { symbol: 'OLD', description: '' }], logger);
    expect(answer).toMatchObject({ universe_size: 3, evaluated: 2, missing: ['DOWN'], matches: 2 });
    expect(answer.rows.map((row) => row.name)).toEqual(['Up', 'OLD Inc.']);
    expect(logger.warn).toHaveBeenCalledTimes(1);
  });

  it('throws the provider\'s error when no symbol could be read (the app answers 502 or 503)', async () => {
    const down = fakeMarket({ bars: async () => Promise.reject(new ProviderError('Yahoo', 'HTTP 503')) });
    await expect(runWith(down.market, { universe: 'us', formula: 'close > 0' })).rejects.toBeInstanceOf(ProviderError);
    const none = fakeMarket({ bars: async () => Promise.reject(new CapabilityUnavailableError('live', 'daily bars')) });
    await expect(runWith(none.market, { universe: 'us', formula: 'close > 0' })).rejects.toBeInstanceOf(CapabilityUnavailableError);
    // Unknown symbols only: nothing to read, no error.
    const unknown = fakeMarket();
    expect(await runWith(unknown.market, { universe: 'favorites', formula: 'close > 0' }, [{ symbol: 'NOPE', description: '' }])).toMatchObject({ evaluated: 0, missing: ['NOPE'], as_of: null });
  });
});

describe('facts', () => {
  it('reads no fact the scan does not use', async () => {
    const { market, calls } = fakeMarket();
    await runWith(market, { universe: 'us', formula: 'close > 0 and rsi(14) > 0' });
    expect(calls.earnings).toEqual([]);
    expect(calls.news).toEqual([]);
    expect(calls.profile).toEqual([]);
  });

  it('days_to_earnings: one calendar call from the run date, the first date on or after it, in calendar days', async () => {
    const { market, calls } = fakeMarket({
      earnings: async () => [release('UP', '2026-12-01'), release('up', '2026-11-20'), release('DOWN', '2026-11-03'), release('DOWN', '2027-01-29')],
    });
    const answer = await runWith(market, { universe: 'us', formula: 'days_to_earnings >= 0', as_of: '2026-11-01' });
    expect(calls.earnings).toEqual([['2026-10-30', iso(day('2026-10-30') + EARNINGS_HORIZON_DAYS)]]);
    expect(answer.rows.map((row) => [row.symbol, row.values[0]])).toEqual([
      ['UP', 21],
      ['DOWN', 4],
    ]);
  });

  it('days_to_earnings is missing (no match, no error) when the calendar cannot be read', async () => {
    const logger = log();
    const { market } = fakeMarket({ earnings: async () => Promise.reject(new ProviderError('Finnhub', 'HTTP 429')) });
    const answer = await runWith(market, { universe: 'us', formula: 'days_to_earnings >= 0 or not days_to_earnings >= 0' }, [], logger);
    // `not` over a missing value is true: every symbol matches through it, with no value.
    expect(answer.rows.map((row) => row.values)).toEqual([[null], [null], [null]]);
    expect(logger.warn).toHaveBeenCalledTimes(1);
  });

  it('news_sentiment: bullish minus bearish articles of the 7 days to the run date; a symbol whose news fails has none', async () => {
    const { market, calls } = fakeMarket({
      news: async (symbol) => {
        if (symbol === 'DOWN') throw new ProviderError('Finnhub', 'HTTP 500');
        return symbol === 'UP'
          ? [article('Shares surge after record profit'), article('Analysts upgrade the stock'), article('Company warns of weak demand'), article('Board meets on Tuesday')]
          : [];
      },
    });
    const answer = await runWith(market, { universe: 'us', formula: 'news_sentiment > -100', as_of: '2026-11-04' });
    expect(calls.news).toContainEqual(['UP', iso(day('2026-11-04') - NEWS_DAYS), '2026-11-04']);
    expect(answer.rows.map((row) => [row.symbol, row.values[0]])).toEqual([
      ['UP', 1],
      ['OLD', 0],
    ]);
  });

  it('sector and exchange: the listing, else the profile of a symbol on no list; a profile that fails leaves them missing', async () => {
    const { market, calls } = fakeMarket({
      bars: async (symbol, from, to) => slice(history(symbol), from, to),
      profile: async (symbol) => {
        if (symbol === 'ZZZ') throw new ProviderError('Finnhub', 'HTTP 500');
        return info(symbol, 'US', 'stock', 'Energy');
      },
    });
    const favourites = ['UP', 'DOWN', 'NEWCO', 'ZZZ'].map((symbol) => ({ symbol, description: '' }));
    const answer = await runWith(market, { universe: 'favorites', formula: 'sector = "energy" and exchange = "NYSE"' }, favourites);
    expect(answer.rows.map((row) => [row.symbol, row.name, ...row.values])).toEqual([
      ['UP', 'UP Inc.', 'Energy', 'NYSE'],
      ['NEWCO', 'NEWCO', 'Energy', 'NYSE'],
    ]);
    // One profile call per unlisted symbol, whichever listing facts read it.
    expect(calls.profile.sort()).toEqual(['NEWCO', 'ZZZ']);
  });
});
