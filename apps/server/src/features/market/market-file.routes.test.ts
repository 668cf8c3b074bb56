/**
 * Every market-data call on MARKET_DATA=file over datasets/example, answering exact values. The
 * expected values are computed here from the dataset's files (a CSV read, a max, a textbook RSI, a
 * least-squares line) or are literals checked by an independent script, never by the code under test.
 */
import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, login, uniqueEmail, type TestApp } from '../../../test/helpers';
import { describeMarketInputErrors, postForm, postJson, postMultipart, sendMarket, SYMBOL_CALLS } from '../../../test/market-cases';
import type { NewsArticle } from '../../providers/market/types';

const EXAMPLE = fileURLToPath(new URL('../../../../../datasets/example', import.meta.url));
/** The example dataset's pinned now (datasets/example/README.md): Friday 13:00 in New York. */
const MARKET_NOW = '2026-11-13T18:00:00Z';
const NOW = Date.parse(MARKET_NOW) / 1000;
const TODAY = '2026-11-13';

// ---- The dataset, read directly -------------------------------------------------------------

interface Row {
  date: string;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}
const readText = (relative: string) => readFileSync(path.join(EXAMPLE, relative), 'utf8');
const readJson = <T>(relative: string): T => JSON.parse(readText(relative)) as T;
/** A daily bars file, oldest first, up to today (the dataset's date rows are 00:00 UTC). */
function dailyRows(symbol: string): Row[] {
  const [header, ...lines] = readText(`bars/${symbol}.csv`).trim().split('\n');
  expect(header).toBe('date,open,high,low,close,volume');
  return lines
    .map((line) => {
      const [date, open, high, low, close, volume] = line.split(',');
      return { date: date!, open: Number(open), high: Number(high), low: Number(low), close: Number(close), volume: Number(volume) };
    })
    .filter((row) => row.date <= TODAY)
    .sort((a, b) => (a.date < b.date ? -1 : 1));
}
const intradayCloses = (symbol: string) =>
  readText(`intraday/${symbol}.csv`)
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => line.split(',').map(Number))
    .filter(([time]) => time! <= NOW)
    .map((cells) => cells[4]!);

interface SymbolRow {
  symbol: string;
  description: string;
  market: string;
  exchange: string;
  country: string;
}
/** A news file's rows are the source's articles as they are (docs/market-data.md). */
type ArticleRow = NewsArticle;
interface EarningsFileRow {
  symbol: string;
  date: string;
  hour: string;
  epsActual: number | null;
  epsEstimate: number | null;
  exchange?: string;
  country?: string;
}
const SYMBOLS = readJson<SymbolRow[]>('symbols.json');

// ---- Independent references -----------------------------------------------------------------

const last = <T>(rows: T[], n: number) => rows.slice(Math.max(0, rows.length - n));
const maxOf = (values: number[]) => values.reduce((a, b) => Math.max(a, b));
const minOf = (values: number[]) => values.reduce((a, b) => Math.min(a, b));

/**
 * Wilder's RSI(14) as a textbook states it: the first average gain and loss are the plain means of
 * the first 14 changes, then avg = (avg × 13 + today's) / 14; RSI = 100 − 100 / (1 + gain / loss).
 */
function textbookRsi(closes: number[], period = 14): number | null {
  if (closes.length <= period) return null;
  let gain = 0;
  let loss = 0;
  for (let i = 1; i <= period; i += 1) {
    const change = closes[i]! - closes[i - 1]!;
    gain += Math.max(change, 0) / period;
    loss += Math.max(-change, 0) / period;
  }
  for (let i = period + 1; i < closes.length; i += 1) {
    const change = closes[i]! - closes[i - 1]!;
    gain = (gain * (period - 1) + Math.max(change, 0)) / period;
    loss = (loss * (period - 1) + Math.max(-change, 0)) / period;
  }
  if (loss === 0) return gain === 0 ? 0 : 100;
  return 100 - 100 / (1 + gain / loss);
}

/** A least-squares line through ln(close) against the bar number: slope as % per bar, and r². */
function logTrend(closes: number[]): { slopePercent: number; rSquared: number; direction: string } {
  const n = closes.length;
  const xs = closes.map((_, i) => i);
  const ys = closes.map((close) => Math.log(close));
  const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
  const mx = mean(xs);
  const my = mean(ys);
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i += 1) {
    sxy += (xs[i]! - mx) * (ys[i]! - my);
    sxx += (xs[i]! - mx) ** 2;
    syy += (ys[i]! - my) ** 2;
  }
  const slopePercent = (Math.exp(sxy / sxx) - 1) * 100;
  const rSquared = (sxy * sxy) / (sxx * syy);
  // The documented rule: a trend needs |slope| ≥ 0.1 % a bar and r² ≥ 0.3.
  const direction = rSquared >= 0.3 && Math.abs(slopePercent) >= 0.1 ? (slopePercent > 0 ? 'up' : 'down') : 'sideways';
  return { slopePercent, rSquared, direction };
}

/** Weekly closes: the last close of each Monday-to-Sunday week. */
function weeklyCloses(rows: Row[]): number[] {
  const weeks = new Map<string, number>();
  for (const row of rows) {
    const day = new Date(`${row.date}T00:00:00Z`);
    const monday = new Date(day.getTime() - ((day.getUTCDay() + 6) % 7) * 86_400_000).toISOString().slice(0, 10);
    weeks.set(monday, row.close);
  }
  return [...weeks.values()];
}

/** `actual` is `exact` rounded to `decimals` (either way at an exact half, for float noise). */
function expectRounded(actual: unknown, exact: number | null, decimals = 2) {
  if (exact === null) return expect(actual).toBeNull();
  expect(typeof actual).toBe('number');
  expect(Math.abs((actual as number) - exact)).toBeLessThanOrEqual(0.5 * 10 ** -decimals + 1e-9);
}

// ---- The app ---------------------------------------------------------------------------------

let t: TestApp;
let headers: { authorization: string };

beforeAll(async () => {
  t = await createTestApp({ MARKET_DATA: 'file', DATASET_DIR: EXAMPLE, MARKET_NOW });
  const email = uniqueEmail('file-routes');
  await createUser(t.db, email, 'pw');
  headers = await login(t.app, email, 'pw');
});
afterAll(async () => t.close());

const get = async (url: string) => {
  const answer = await t.app.inject({ method: 'GET', url, headers });
  expect(answer.statusCode, `${url}: ${answer.body}`).toBe(200);
  return answer.json();
};
const post = async (url: string, payload: object) => {
  const answer = await t.app.inject({ method: 'POST', url, headers, payload });
  expect(answer.statusCode, `${url}: ${answer.body}`).toBe(200);
  return answer.json();
};

describe('symbols (file)', () => {
  it('looks symbols up on the US or the Toronto market, never crypto', async () => {
    expect(await get('/api/symbol_lookup?q=apple')).toEqual({ result: [{ symbol: 'AAPL', description: 'Apple Inc.', exchange: 'NASDAQ' }] });
    expect(await get('/api/symbol_lookup?q=apple&exchange=US')).toEqual(await get('/api/symbol_lookup?q=apple'));
    expect(await get('/api/symbol_lookup?q=shop&exchange=TO')).toEqual({ result: [{ symbol: 'SHOP.TO', description: 'Shopify Inc.', exchange: 'TSX' }] });
    expect(await get('/api/symbol_lookup?q=shop')).toEqual({ result: [] });
    expect(await get('/api/symbol_lookup?q=btc')).toEqual({ result: [] });
    // A ticker prefix or a name fragment: SPY by ticker, MSFT by "microSoft".
    expect((await get('/api/symbol_lookup?q=s')).result.map((r: { symbol: string }) => r.symbol)).toEqual(['MSFT', 'SPY']);
  });

  it('searches every market with the instrument name, country and exchange of symbols.json', async () => {
    const expected = (symbol: string) => {
      const row = SYMBOLS.find((s) => s.symbol === symbol)!;
      return { symbol, instrument_name: row.description, country: row.country, exchange: row.exchange };
    };
    expect(await get('/api/symbol_search?symbol=bitcoin')).toEqual({ results: [expected('BTC')] });
    expect(expected('BTC')).toEqual({ symbol: 'BTC', instrument_name: 'Bitcoin', country: 'Global', exchange: 'Crypto' });
    expect(await get('/api/symbol_search?symbol=SHOP')).toEqual({ results: [expected('SHOP.TO')] });
    expect(await get('/api/symbol_search?symbol=msft')).toEqual({ results: [expected('MSFT')] });
    expect(await get('/api/symbol_search?symbol=nothing-like-it')).toEqual({ results: [] });
  });
});

describe('quotes (file)', () => {
  it('quotes from quotes.json exactly, on both quote calls', async () => {
    const given = readJson<Record<string, { price: number; previousClose: number; open: number; high: number; low: number; volume: number; timestamp: number }>>('quotes.json').AAPL!;
    const expected = {
      symbol: 'AAPL',
      current_price: given.price,
      previous_close: given.previousClose,
      change: Math.round((given.price - given.previousClose) * 10_000) / 10_000,
      percent_change: Math.round(((given.price - given.previousClose) / given.previousClose) * 1_000_000) / 10_000,
      open: given.open,
      high: given.high,
      low: given.low,
      volume: given.volume,
      timestamp: given.timestamp,
      stale: false,
      as_of: NOW,
    };
    expect(expected).toMatchObject({ current_price: 229.1, previous_close: 227.99, change: 1.11, percent_change: 0.4869 });
    expect(await get('/api/quote?symbol=AAPL')).toEqual(expected);
    expect(await get('/api/quote_td?symbol=aapl')).toEqual(expected);
  });

  it('quotes the others from their last two bars, today included', async () => {
    for (const symbol of ['MSFT', 'SPY', 'SHOP.TO', 'BTC']) {
      const rows = dailyRows(symbol);
      const today = rows.at(-1)!;
      const yesterday = rows.at(-2)!;
      expect(today.date, symbol).toBe(TODAY);
      const body = await get(`/api/quote?symbol=${symbol}`);
      expect(body, symbol).toEqual({
        symbol,
        current_price: today.close,
        previous_close: yesterday.close,
        change: Math.round((today.close - yesterday.close) * 10_000) / 10_000,
        percent_change: Math.round(((today.close - yesterday.close) / yesterday.close) * 1_000_000) / 10_000,
        open: today.open,
        high: today.high,
        low: today.low,
        volume: today.volume,
        timestamp: NOW,
        stale: false,
        as_of: NOW,
      });
      expect(await get(`/api/quote_td?symbol=${symbol}`)).toEqual(body);
    }
  });

  it('reports the file source in health', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).json().market_data).toBe('file');
  });
});

describe('metrics (file)', () => {
  it('computes every field of spec §3 from the files: highs and lows over 21 and 126 bars, today included', async () => {
    for (const symbol of ['AAPL', 'MSFT', 'SPY', 'SHOP.TO', 'BTC']) {
      const rows = dailyRows(symbol);
      const month = last(rows, 21);
      const sixMonths = last(rows, 126);
      expect(month.at(-1)!.date).toBe(TODAY);
      const body = await get(`/api/fetch_metrics?symbol=${symbol}`);
      expect(body['1MonthHigh'], symbol).toBe(maxOf(month.map((r) => r.high)));
      expect(body['1MonthLow'], symbol).toBe(minOf(month.map((r) => r.low)));
      expect(body['6MonthHigh'], symbol).toBe(maxOf(sixMonths.map((r) => r.high)));
      expect(body['6MonthLow'], symbol).toBe(minOf(sixMonths.map((r) => r.low)));
      // Every bar of the dataset lies within the 200-day history, so 14DayRSI runs over all of them.
      expect(Date.parse(`${rows[0]!.date}T00:00:00Z`) / 1000).toBeGreaterThanOrEqual(NOW - 200 * 86_400);
      expectRounded(body['14DayRSI'], textbookRsi(rows.map((r) => r.close)));
      const levels: number[] = body.volumeProfileLevels;
      const lookback = last(rows, 120);
      for (const level of levels) {
        expect(level).toBeGreaterThanOrEqual(minOf(lookback.map((r) => r.low)));
        expect(level).toBeLessThanOrEqual(maxOf(lookback.map((r) => r.high)));
      }
      expect(body.symbol).toBe(symbol);
      expect(body.stale).toBe(false);
      expect(body.as_of).toBe(NOW);
    }
  });

  it('pins the windows where the dataset makes them differ, with literal values', async () => {
    // AAPL: the 21 bars run from 2026-10-16 (low 213.56) through today; without today they would start
    // on 2026-10-15 (low 211.94).
    const aapl = await get('/api/fetch_metrics?symbol=AAPL');
    expect(aapl).toMatchObject({ '1MonthHigh': 239.39, '1MonthLow': 213.56 });
    // SPY made today's low 619.84, below every low of the 20 bars before.
    const spy = await get('/api/fetch_metrics?symbol=SPY');
    expect(spy['1MonthLow']).toBe(619.84);
    // The volume-profile levels (120 bars, 50 bins, the 5 largest nodes, most volume first), computed by
    // an independent script from the documented algorithm (packages/core/src/indicators/volume-profile.ts).
    expect(aapl.volumeProfileLevels).toEqual([211.15, 208.29, 216.15, 222.59, 219.01]);
    expect(spy.volumeProfileLevels).toEqual([588.22, 640.76, 631.21, 594.59, 577.07]);
    expect((await get('/api/fetch_metrics?symbol=BTC')).volumeProfileLevels).toEqual([104996.92, 111355.68, 114888.32, 100051.22, 117007.9]);
  });

  it('takes dailyrsi from the intraday bars, null without them, and the sentiment from sentiment.json', async () => {
    const sentiment = readJson<Record<string, { bullishPercent: number; bearishPercent: number }>>('sentiment.json');
    const aapl = await get('/api/fetch_metrics?symbol=AAPL');
    const closes = intradayCloses('AAPL');
    expect(closes).toHaveLength(42);
    expectRounded(aapl.dailyrsi, textbookRsi(closes));
    expect([aapl.bullishPercent, aapl.bearishPercent]).toEqual([sentiment.AAPL!.bullishPercent, sentiment.AAPL!.bearishPercent]);
    const msft = await get('/api/fetch_metrics?symbol=MSFT');
    expect(msft.dailyrsi).toBeNull();
    expect([msft.bullishPercent, msft.bearishPercent]).toEqual([0.5, 0.5]);
  });
});

describe('RSI (file)', () => {
  it('gives the same 14-day RSI from fetch_metrics, api/rsi and api/rsi_td, and the same daily RSI', async () => {
    for (const { symbol } of SYMBOLS) {
      const metrics = await get(`/api/fetch_metrics?symbol=${symbol}`);
      const rsi = await get(`/api/rsi?symbol=${symbol}`);
      const rsiTd = await get(`/api/rsi_td?symbol=${symbol}`);
      expect(typeof metrics['14DayRSI'], symbol).toBe('number');
      expect([rsi.latest_rsi, rsiTd.latest_rsi], symbol).toEqual([metrics['14DayRSI'], metrics['14DayRSI']]);
      expect([rsi.daily_rsi, rsiTd.daily_rsi], symbol).toEqual([metrics.dailyrsi, metrics.dailyrsi]);
      expect(rsiTd).toEqual(rsi);
    }
  });

  it('computes latest_rsi over the closes of the range, dates and Unix seconds alike', async () => {
    const from = '2026-08-03';
    const to = '2026-10-30';
    for (const symbol of ['AAPL', 'SHOP.TO', 'BTC']) {
      const closes = dailyRows(symbol)
        .filter((row) => row.date >= from && row.date <= to)
        .map((row) => row.close);
      const body = await get(`/api/rsi?symbol=${symbol}&from=${from}&to=${to}`);
      expectRounded(body.latest_rsi, textbookRsi(closes));
      const seconds = (date: string) => Date.parse(`${date}T00:00:00Z`) / 1000;
      expect(await get(`/api/rsi?symbol=${symbol}&from=${seconds(from)}&to=${seconds(to)}`)).toEqual(body);
    }
    // The daily RSI is today's, whatever the range.
    expectRounded((await get(`/api/rsi?symbol=AAPL&from=${from}&to=${to}`)).daily_rsi, textbookRsi(intradayCloses('AAPL')));
  });

  it('answers null for a range without bars, and for one with too few', async () => {
    expect(await get('/api/rsi?symbol=AAPL&from=2020-01-01&to=2020-06-01')).toMatchObject({ symbol: 'AAPL', latest_rsi: null });
    // 2026-11-02 .. 2026-11-13 holds 10 bars: RSI(14) needs 15 closes.
    expect((await get('/api/rsi?symbol=AAPL&from=2026-11-02&to=2026-11-13')).latest_rsi).toBeNull();
  });
});

describe('news sentiment (file)', () => {
  it('answers sentiment.json for a symbol it names, and neutral for the others', async () => {
    expect(await get('/api/news-sentiment?symbol=AAPL')).toEqual({
      symbol: 'AAPL',
      sectorAverageBullishPercent: 0.62,
      sectorAverageNewsScore: 0.58,
      companyNewsScore: 0.66,
      sentiment: { bullishPercent: 0.7, bearishPercent: 0.3 },
      buzz: { articlesInLastWeek: 12, weeklyAverage: 9.5 },
      stale: false,
      as_of: NOW,
    });
    expect(await get('/api/news-sentiment?symbol=btc')).toEqual({
      symbol: 'BTC',
      sectorAverageBullishPercent: 0.5,
      sectorAverageNewsScore: 0.5,
      companyNewsScore: 0.5,
      sentiment: { bullishPercent: 0.5, bearishPercent: 0.5 },
      buzz: { articlesInLastWeek: 0, weeklyAverage: 0 },
      stale: false,
      as_of: NOW,
    });
  });
});

describe('support and resistance (file)', () => {
  // Swing pivots (5 bars each side), clustered within 1.5 %, the 8 most touched, ascending: computed by
  // an independent script from the documented algorithm (packages/core/src/indicators/support-resistance.ts).
  it('answers the levels of daily, weekly and monthly bars, D by default', async () => {
    const daily = await get('/api/support-resistance?symbol=AAPL');
    expect(daily).toEqual({ symbol: 'AAPL', resolution: 'D', levels: [204.14, 213.27, 217.16, 233.21, 239.39], stale: false, as_of: NOW });
    expect(await get('/api/support-resistance?symbol=AAPL&resolution=D')).toEqual(daily);
    expect((await get('/api/support-resistance?symbol=AAPL&resolution=W')).levels).toEqual([204.24, 233.21]);
    // Seven monthly bars cannot hold a pivot with five bars on each side.
    expect(await get('/api/support-resistance?symbol=AAPL&resolution=M')).toMatchObject({ resolution: 'M', levels: [] });
    expect((await get('/api/support-resistance?symbol=SHOP.TO&resolution=D')).levels).toEqual([129.43, 132.78, 141.68, 144.32, 150.74, 154.93, 161.9, 166.04]);
    expect((await get('/api/support-resistance?symbol=BTC&resolution=W')).levels).toEqual([83397.62, 92061.13, 123097]);
    // The daily 6-month extremes are pivots of their own here.
    const aapl = dailyRows('AAPL');
    expect(daily.levels).toContain(maxOf(aapl.map((r) => r.high)));
  });
});

describe('high/low (file)', () => {
  const expectedHighLow = (symbol: string, days: number) => {
    const window = last(dailyRows(symbol), days);
    const high = maxOf(window.map((r) => r.high));
    const low = minOf(window.map((r) => r.low));
    // The latest bar that made the extreme.
    const highDate = window.filter((r) => r.high === high).at(-1)!.date;
    const lowDate = window.filter((r) => r.low === low).at(-1)!.date;
    return { symbol, days, high, high_date: highDate, low, low_date: lowDate, stale: false, as_of: NOW };
  };

  it('answers the form post the same as multipart (browser FormData) and url-encoded, and as JSON on stock-high-td', async () => {
    for (const [symbol, days] of [['AAPL', 10], ['AAPL', 30], ['SPY', 21], ['BTC', 45], ['SHOP.TO', 300]] as const) {
      const expected = expectedHighLow(symbol, days);
      for (const request of [
        postMultipart('/api/stock-high-low', { symbol, days: String(days) }),
        postForm('/api/stock-high-low', { symbol, days: String(days) }),
        postJson('/api/stock-high-td', { symbol, days }),
      ]) {
        const answer = await sendMarket(t.app, headers, request);
        expect({ status: answer.statusCode, body: answer.json() }, `${symbol} ${days} ${request.url}`).toEqual({ status: 200, body: expected });
      }
    }
    // Literal anchors: SPY's 21-bar low is today's; AAPL's 30-bar high was made on 2026-11-04.
    expect(expectedHighLow('SPY', 21)).toMatchObject({ low: 619.84, low_date: TODAY });
    expect(expectedHighLow('AAPL', 30)).toMatchObject({ high: 239.39, high_date: '2026-11-04' });
  });
});

describe('trend direction (file)', () => {
  it('fits the last `days` daily closes', async () => {
    for (const [symbol, days] of [['AAPL', 20], ['SPY', 20], ['MSFT', 60], ['BTC', 30]] as const) {
      const expected = logTrend(last(dailyRows(symbol), days).map((r) => r.close));
      const body = await post('/api/trend-direction', { symbol, days, interval: '1day' });
      expect(body, symbol).toMatchObject({ symbol, days, interval: '1day', direction: expected.direction, stale: false, as_of: NOW });
      expectRounded(body.slope_percent_per_bar, expected.slopePercent, 4);
      expectRounded(body.r_squared, expected.rSquared, 4);
    }
  });

  it('fits weekly closes (days / 5 weeks, at least 3) for the weekly interval', async () => {
    for (const [symbol, days] of [['AAPL', 30], ['SPY', 60]] as const) {
      const weeks = Math.max(3, Math.round(days / 5));
      const expected = logTrend(last(weeklyCloses(dailyRows(symbol)), weeks));
      const body = await post('/api/trend-direction', { symbol, days, interval: 'weekly' });
      expect(body, symbol).toMatchObject({ symbol, days, interval: '1week', direction: expected.direction });
      expectRounded(body.slope_percent_per_bar, expected.slopePercent, 4);
      expectRounded(body.r_squared, expected.rSquared, 4);
    }
  });

  it('pins one direction with literal data: AAPL rose over its last 20 sessions', async () => {
    expect((await post('/api/trend-direction', { symbol: 'AAPL', days: 20 })).direction).toBe('up');
  });
});

describe('earnings (file)', () => {
  const TIME: Record<string, string> = { bmo: 'Pre Market', amc: 'After Hours', dmh: 'Time Not Supplied', '': 'Time Not Supplied' };
  const round2 = (value: number) => Math.round(value * 100) / 100;
  const expectedRows = (from: string, to: string) =>
    readJson<EarningsFileRow[]>('earnings.json')
      .filter((row) => row.date >= from && row.date <= to)
      .map((row) => {
        const listed = SYMBOLS.find((s) => s.symbol === row.symbol);
        const both = row.epsActual !== null && row.epsEstimate !== null;
        return {
          symbol: row.symbol,
          date: row.date,
          time: TIME[row.hour],
          eps_actual: row.epsActual,
          eps_estimate: row.epsEstimate,
          difference: both ? round2(row.epsActual! - row.epsEstimate!) : null,
          surprise_percent: both ? round2(((row.epsActual! - row.epsEstimate!) / Math.abs(row.epsEstimate!)) * 100) : null,
          exchange: row.exchange ?? listed?.exchange ?? '',
          country: row.country ?? listed?.country ?? '',
        };
      });

  it('lists the rows of the range with the spec fields, on both calls', async () => {
    const expected = expectedRows('2026-10-01', '2026-12-31');
    expect(expected).toHaveLength(6);
    for (const path of ['/api/earnings_calendar', '/api/earnings_calendar_td']) {
      expect(await post(path, { start_date: '2026-10-01', end_date: '2026-12-31' }), path).toEqual(expected);
    }
    expect(await post('/api/earnings_calendar', { start_date: '2026-10-28', end_date: '2026-10-28' })).toEqual(expectedRows('2026-10-28', '2026-10-28'));
    expect(await post('/api/earnings_calendar', { start_date: '2026-06-01', end_date: '2026-06-30' })).toEqual([]);
  });

  it('maps every hour code and computes the surprise, with literal values', async () => {
    const rows = await post('/api/earnings_calendar_td', { start_date: '2026-10-01', end_date: '2026-12-31' });
    expect(rows).toEqual([
      { symbol: 'AAPL', date: '2026-10-29', time: 'After Hours', eps_actual: 1.85, eps_estimate: 1.77, difference: 0.08, surprise_percent: 4.52, exchange: 'NASDAQ', country: 'United States' },
      { symbol: 'MSFT', date: '2026-10-28', time: 'After Hours', eps_actual: 3.6, eps_estimate: 3.66, difference: -0.06, surprise_percent: -1.64, exchange: 'NASDAQ', country: 'United States' },
      { symbol: 'SHOP.TO', date: '2026-11-04', time: 'Pre Market', eps_actual: null, eps_estimate: 0.31, difference: null, surprise_percent: null, exchange: 'TSX', country: 'Canada' },
      { symbol: 'NVDA', date: '2026-11-18', time: 'After Hours', eps_actual: null, eps_estimate: 1.26, difference: null, surprise_percent: null, exchange: 'NASDAQ', country: 'United States' },
      { symbol: 'TD.TO', date: '2026-12-03', time: 'Time Not Supplied', eps_actual: null, eps_estimate: 2.05, difference: null, surprise_percent: null, exchange: '', country: '' },
      { symbol: 'AVGO', date: '2026-12-10', time: 'Time Not Supplied', eps_actual: null, eps_estimate: 1.95, difference: null, surprise_percent: null, exchange: 'NASDAQ', country: 'United States' },
    ]);
  });
});

describe('news (file)', () => {
  const served = (articles: ArticleRow[]) =>
    articles
      .filter((a) => a.datetime <= NOW)
      .sort((a, b) => b.datetime - a.datetime)
      // Images load only from our own origin and NEWS_IMAGE_ORIGINS (unset here): an outside image becomes ''.
      .map((a) => ({ ...a, url: /^https?:\/\//.test(a.url) ? a.url : '', image: a.image.startsWith('/') && !a.image.startsWith('//') ? a.image : '' }));

  it('serves market news up to now, newest first', async () => {
    const expected = served(readJson<ArticleRow[]>('news/market.json'));
    expect(expected.map((a) => a.id)).toEqual(['m1', 'm2']);
    expect(await get('/api/market-news')).toEqual(expected);
  });

  it('serves company news of the days asked, nothing after now, never an unsafe link', async () => {
    const all = readJson<ArticleRow[]>('news/AAPL.json');
    expect(all.some((a) => a.datetime > NOW && new Date(a.datetime * 1000).toISOString().startsWith(TODAY))).toBe(true);
    const inDays = (from: string, to: string) =>
      served(all.filter((a) => a.datetime >= Date.parse(`${from}T00:00:00Z`) / 1000 && a.datetime < Date.parse(`${to}T00:00:00Z`) / 1000 + 86_400));
    const body = await get('/api/company-news?symbol=AAPL&from=2026-10-01&to=2026-11-13');
    expect(body).toEqual(inDays('2026-10-01', '2026-11-13'));
    expect(body.map((a: ArticleRow) => [a.id, a.url])).toEqual([
      ['a2', ''],
      ['a1', 'https://example.com/news/a1'],
    ]);
    expect(await get('/api/company-news?symbol=AAPL&from=2026-10-30&to=2026-10-30')).toEqual(inDays('2026-10-30', '2026-10-30'));
    expect((await get('/api/company-news?symbol=AAPL&from=2026-10-30&to=2026-10-30')).map((a: ArticleRow) => a.id)).toEqual(['a1']);
    expect(await get(`/api/company-news?symbol=AAPL&from=${TODAY}&to=${TODAY}`)).toEqual([]);
    expect(await get('/api/company-news?symbol=MSFT&from=2026-10-01&to=2026-11-13')).toEqual([]);
  });
});

describeMarketInputErrors('file', () => ({ app: t.app, headers }), { knownSymbol: 'AAPL', unknownSymbol: 'ZZZZZ' });

describe('a listed symbol without price history (file)', () => {
  let bare: TestApp;
  let bareHeaders: { authorization: string };
  let dir: string;
  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'sb-no-history-'));
    await fs.writeFile(
      path.join(dir, 'symbols.json'),
      JSON.stringify([
        { symbol: 'AAPL', description: 'Apple Inc.', market: 'US', exchange: 'NASDAQ', country: 'United States' },
        { symbol: 'NEWCO', description: 'Newly Listed Co.', market: 'US', exchange: 'NYSE', country: 'United States' },
      ]),
    );
    await fs.mkdir(path.join(dir, 'bars'));
    await fs.copyFile(path.join(EXAMPLE, 'bars', 'AAPL.csv'), path.join(dir, 'bars', 'AAPL.csv'));
    // No MARKET_NOW: the market runs on the test's fake clock, set to the same instant (and moved below).
    bare = await createTestApp({ MARKET_DATA: 'file', DATASET_DIR: dir });
    bare.clock.advance(Date.parse(MARKET_NOW) - bare.clock.nowMs());
    const email = uniqueEmail('no-history');
    await createUser(bare.db, email, 'pw');
    bareHeaders = await login(bare.app, email, 'pw');
  });
  afterAll(async () => {
    await bare?.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  const NEEDS_PRICES = new Set(['quote', 'quote_td', 'fetch_metrics', 'rsi', 'rsi with a range', 'rsi_td', 'support-resistance', 'stock-high-low (multipart)', 'stock-high-low (url-encoded)', 'stock-high-td', 'trend-direction']);

  it('answers 404 "No price history" on every call that needs prices, and the rest as usual', async () => {
    expect(SYMBOL_CALLS.filter((call) => NEEDS_PRICES.has(call.name))).toHaveLength(NEEDS_PRICES.size);
    for (const call of SYMBOL_CALLS) {
      const answer = await sendMarket(bare.app, bareHeaders, call.request('NEWCO'));
      if (NEEDS_PRICES.has(call.name)) {
        expect({ call: call.name, status: answer.statusCode, body: answer.json() }).toEqual({ call: call.name, status: 404, body: { msg: 'No price history for NEWCO' } });
      } else {
        expect({ call: call.name, status: answer.statusCode }).toEqual({ call: call.name, status: 200 });
      }
    }
    // The symbol is found, just without prices; a symbol that is not listed stays unknown.
    expect((await sendMarket(bare.app, bareHeaders, { method: 'GET', url: '/api/symbol_search?symbol=newco' })).json().results).toHaveLength(1);
    expect((await sendMarket(bare.app, bareHeaders, { method: 'GET', url: '/api/quote?symbol=NOPE' })).json()).toEqual({ msg: 'Unknown symbol: NOPE' });
    // A symbol with bars is unaffected.
    expect((await sendMarket(bare.app, bareHeaders, { method: 'GET', url: '/api/quote?symbol=AAPL' })).statusCode).toBe(200);
  });

  it('answers 404 for a window with no bars, when the data stops before it', async () => {
    // Half a year after the dataset ends: nothing in the last few days (a new token for the new time).
    bare.clock.advance(Date.parse('2027-06-01T18:00:00Z') - bare.clock.nowMs());
    const email = uniqueEmail('later');
    await createUser(bare.db, email, 'pw');
    const laterHeaders = await login(bare.app, email, 'pw');
    const answer = await sendMarket(bare.app, laterHeaders, postJson('/api/stock-high-td', { symbol: 'AAPL', days: 5 }));
    expect({ status: answer.statusCode, body: answer.json() }).toEqual({ status: 404, body: { msg: 'No price history for AAPL' } });
    // A range that holds bars still answers.
    const ranged = await sendMarket(bare.app, laterHeaders, { method: 'GET', url: '/api/rsi?symbol=AAPL&from=2026-06-01&to=2026-11-13' });
    expect(ranged.statusCode).toBe(200);
    expect(typeof ranged.json().latest_rsi).toBe('number');
  });
});
