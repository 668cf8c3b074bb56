import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rsi, runScanResponse, type RunScanRequest, type RunScanResponse } from '@signalboard/core';
import { createTestApp, userWithFavorites, type TestApp } from '../../../test/helpers';
import type { Bars } from '../../providers/market/types';
import { universeBySymbol, US_STOCKS } from '../../providers/market/universe';

// POST api/scans/run on the simulated market (docs/custom-scans.md, "Running a scan"). The test
// app's clock is 2026-11-02 15:00 UTC, a Monday in session: today's bar is the running session's.

let t: TestApp;
let headers: { authorization: string };
beforeAll(async () => {
  t = await createTestApp();
  headers = await userWithFavorites(t, 'scan-run', []);
});
afterAll(async () => t.close());

const DAY_SECONDS = 86_400;

async function run(body: RunScanRequest | Record<string, unknown>, as = headers) {
  return t.app.inject({ method: 'POST', url: '/api/scans/run', headers: as, payload: body });
}

async function ok(body: RunScanRequest, as = headers): Promise<RunScanResponse> {
  const response = await run(body, as);
  expect(response.statusCode, response.body).toBe(200);
  return runScanResponse.parse(response.json());
}

/** Two years of the symbol's bars through the app's market, cut after `isoDate` (inclusive) when given. */
async function barsOf(symbol: string, isoDate?: string): Promise<Bars> {
  const bars = (await t.market.getRecentDailyBars(symbol, 731)).value;
  const limit = isoDate === undefined ? Number.POSITIVE_INFINITY : Date.parse(`${isoDate}T00:00:00Z`) / 1000;
  let n = bars.time.length;
  while (n > 0 && bars.time[n - 1]! > limit) n -= 1;
  const cut = (values: Float64Array) => values.subarray(0, n);
  return { symbol, time: cut(bars.time), open: cut(bars.open), high: cut(bars.high), low: cut(bars.low), close: cut(bars.close), volume: cut(bars.volume) };
}

const last = (values: Float64Array) => values[values.length - 1]!;
const mean = (values: Float64Array) => values.reduce((sum, value) => sum + value, 0) / values.length;
const dateOf = (bars: Bars) => new Date(last(bars.time) * 1000).toISOString().slice(0, 10);
/** close > mean of the last 50 closes and the close at least 3 % below the highest high of 21 sessions, computed here. */
function independentMatch(bars: Bars): boolean {
  const close = last(bars.close);
  const sma50 = mean(bars.close.subarray(-50));
  const high21 = Math.max(...bars.high.subarray(-21));
  return close > sma50 && ((high21 - close) / high21) * 100 >= 3;
}
const FORMULA = 'close > sma(50) and pct_below_high(21) >= 3';

describe('POST api/scans/run', () => {
  it('answers 401 without a token', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/scans/run', payload: { universe: 'sp500', formula: 'close > 0' } });
    expect(response.statusCode).toBe(401);
  });

  it('runs a formula over the S&P 500: the rows, values and prices of an independent computation from the same bars', async () => {
    const answer = await ok({ universe: 'sp500', formula: `${FORMULA} and rsi(14) < 100` });
    expect(answer).toMatchObject({ universe: 'sp500', source: 'simulated', as_of: '2026-11-02', universe_size: US_STOCKS.length, evaluated: US_STOCKS.length, missing: [] });
    expect(answer.columns).toEqual([
      { key: 'close', field: 'close', params: [], label: 'Price', unit: 'price' },
      { key: 'sma(50)', field: 'sma', params: [50], label: 'SMA(50)', unit: 'price' },
      { key: 'pct_below_high(21)', field: 'pct_below_high', params: [21], label: '% below high (21)', unit: 'percent' },
      { key: 'rsi(14)', field: 'rsi', params: [14], label: 'RSI(14)', unit: 'points' },
    ]);
    const expected: string[] = [];
    for (const { symbol } of US_STOCKS) if (independentMatch(await barsOf(symbol))) expected.push(symbol);
    // Some match and some do not, so the comparison says something.
    expect(expected.length).toBeGreaterThan(10);
    expect(expected.length).toBeLessThan(US_STOCKS.length - 10);
    expect(answer.rows.map((row) => row.symbol)).toEqual(expected);
    expect(answer.matches).toBe(expected.length);

    for (const row of answer.rows.slice(0, 3)) {
      const bars = await barsOf(row.symbol);
      const close = last(bars.close);
      const high21 = Math.max(...bars.high.subarray(-21));
      expect(row.name).toBe(universeBySymbol.get(row.symbol)!.name);
      expect(row.price).toBe(close);
      expect(row.change_pct).toBeCloseTo((close / bars.close[bars.close.length - 2]! - 1) * 100, 10);
      expect(row.values[0]).toBe(close);
      expect(row.values[1]).toBeCloseTo(mean(bars.close.subarray(-50)), 9);
      expect(row.values[2]).toBeCloseTo(((high21 - close) / high21) * 100, 9);
      // RSI over two years of bars here; the run reads a shorter window: Wilder's smoothing has long forgotten the difference.
      expect(row.values[3]).toBeCloseTo(last(rsi(bars.close, 14)), 6);
    }
  });

  it('answers the same rows for the builder conditions as for the formula, and both forms of the scan', async () => {
    const formula = 'close > sma(50) and (rsi(14) < 45 or rsi(14) > 60) and not gap_pct > 1';
    const conditions = {
      all: [{ kind: 'compare' as const, left: { field: 'close' }, op: '>' as const, right: { kind: 'field' as const, ref: { field: 'sma', params: [50] } } }],
      any: [
        { kind: 'compare' as const, left: { field: 'rsi' }, op: '<' as const, right: { kind: 'number' as const, value: 45 } },
        { kind: 'compare' as const, left: { field: 'rsi', params: [14] }, op: '>' as const, right: { kind: 'number' as const, value: 60 } },
      ],
      none: [{ kind: 'compare' as const, left: { field: 'gap_pct' }, op: '>' as const, right: { kind: 'number' as const, value: 1 } }],
    };
    const byFormula = await ok({ universe: 'sp500', formula });
    const byBuilder = await ok({ universe: 'sp500', conditions });
    expect(byFormula.rows.length).toBeGreaterThan(0);
    expect(byBuilder.rows).toEqual(byFormula.rows);
    expect(byBuilder.formula).toBe(byFormula.formula);
    expect(byBuilder.formula).toBe('close > sma(50) and (rsi(14) < 45 or rsi(14) > 60) and not gap_pct > 1');
    expect(byFormula.conditions).toEqual(byBuilder.conditions);
    expect(byFormula.conditions?.any).toHaveLength(2);
    expect(byFormula.conditions?.none).toHaveLength(1);
  });

  it('answers 400 with the position for a bad formula and names an unknown field', async () => {
    const bad = await run({ universe: 'sp500', formula: 'rsi(14) < 30 and close >' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ msg: string }>().msg).toMatch(/position 24/);
    const unknown = await run({ universe: 'sp500', formula: 'close > 1 and rsx(14) < 30' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json<{ msg: string }>().msg).toMatch(/Unknown field "rsx" at position 14/);
    const neither = await run({ universe: 'sp500' });
    expect(neither.statusCode).toBe(400);
    expect(neither.json<{ msg: string }>().msg).toMatch(/formula or as conditions/);
    const universe = await run({ universe: 'nasdaq', formula: 'close > 1' });
    expect(universe.statusCode).toBe(400);
    expect(universe.json<{ msg: string }>().msg).toMatch(/universe must be one of/);
  });

  it('runs as of a past date with only the bars up to it: the run over the bars cut after that date', async () => {
    // 2026-06-13 is a Saturday: the run is as of Friday's session.
    const answer = await ok({ universe: 'sp500', formula: FORMULA, as_of: '2026-06-13' });
    expect(answer.as_of).toBe('2026-06-12');
    const expected: Array<{ symbol: string; values: number[] }> = [];
    for (const { symbol } of US_STOCKS) {
      const bars = await barsOf(symbol, '2026-06-13');
      expect(dateOf(bars)).toBe('2026-06-12');
      const close = last(bars.close);
      const high21 = Math.max(...bars.high.subarray(-21));
      if (independentMatch(bars)) expected.push({ symbol, values: [close, mean(bars.close.subarray(-50)), ((high21 - close) / high21) * 100] });
    }
    expect(expected.length).toBeGreaterThan(10);
    expect(answer.rows.map((row) => row.symbol)).toEqual(expected.map((row) => row.symbol));
    answer.rows.forEach((row, index) => {
      expect(row.values[0]).toBe(expected[index]!.values[0]);
      expect(row.values[1]).toBeCloseTo(expected[index]!.values[1]!, 9);
      expect(row.values[2]).toBeCloseTo(expected[index]!.values[2]!, 9);
    });
    // Not today's answer: the later bars were not read.
    const today = await ok({ universe: 'sp500', formula: FORMULA });
    expect(today.rows.map((row) => row.symbol)).not.toEqual(answer.rows.map((row) => row.symbol));
  });

  it('refuses an as_of in the future, before the source history or not a date', async () => {
    const future = await run({ universe: 'sp500', formula: 'close > 0', as_of: '2026-11-03' });
    expect(future.statusCode).toBe(400);
    expect(future.json<{ msg: string }>().msg).toMatch(/as_of 2026-11-03 is after the last session/);
    const early = await run({ universe: 'sp500', formula: 'close > 0', as_of: '2021-06-01' });
    expect(early.statusCode).toBe(400);
    expect(early.json<{ msg: string }>().msg).toMatch(/as_of 2021-06-01 is before the source's history/);
    const impossible = await run({ universe: 'sp500', formula: 'close > 0', as_of: '2026-02-30' });
    expect(impossible.statusCode).toBe(400);
    expect(impossible.json<{ msg: string }>().msg).toMatch(/as_of must be a calendar date/);
    // Today itself is a session of the source.
    expect((await ok({ universe: 'crypto', formula: 'close > 0', as_of: '2026-11-02' })).as_of).toBe('2026-11-02');
  });

  it('runs over the user\'s favourites only, in their order, naming the symbols the source does not know', async () => {
    const mine = await userWithFavorites(t, 'scan-run-favourites', ['XOM', 'AAPL', 'NOPEX']);
    const answer = await ok({ universe: 'favorites', formula: 'close > 0' }, mine);
    expect(answer).toMatchObject({ universe: 'favorites', universe_size: 3, evaluated: 2, missing: ['NOPEX'], matches: 2 });
    expect(answer.rows.map((row) => [row.symbol, row.name])).toEqual([
      ['XOM', 'XOM Corp.'],
      ['AAPL', 'AAPL Corp.'],
    ]);
    // Another user's favourites are not this user's universe.
    const other = await userWithFavorites(t, 'scan-run-other', ['MSFT']);
    expect((await ok({ universe: 'favorites', formula: 'close > 0' }, other)).rows.map((row) => row.symbol)).toEqual(['MSFT']);
  });

  it('answers an empty favourites list with no rows, not an error', async () => {
    const answer = await ok({ universe: 'favorites', formula: 'rsi(14) < 30' });
    expect(answer).toEqual({
      universe: 'favorites',
      as_of: null,
      source: 'simulated',
      formula: 'rsi(14) < 30',
      conditions: { all: [{ kind: 'compare', left: { field: 'rsi', params: [14] }, op: '<', right: { kind: 'number', value: 30 } }], any: [], none: [] },
      columns: [{ key: 'rsi(14)', field: 'rsi', params: [14], label: 'RSI(14)', unit: 'points' }],
      universe_size: 0,
      evaluated: 0,
      missing: [],
      matches: 0,
      rows: [],
    });
  });

  it('compares a text field: sector = "Energy" answers exactly the Energy stocks, its value in the column', async () => {
    const answer = await ok({ universe: 'sp500', formula: 'sector = " energy "' });
    const energy = US_STOCKS.filter((entry) => entry.sector === 'Energy').map((entry) => entry.symbol);
    expect(energy.length).toBeGreaterThan(5);
    expect(answer.rows.map((row) => row.symbol)).toEqual(energy);
    expect(new Set(answer.rows.map((row) => row.values[0]))).toEqual(new Set(['Energy']));
    const others = await ok({ universe: 'sp500', formula: 'sector != "Energy" and exchange in ("NASDAQ")' });
    expect(others.rows.length).toBeGreaterThan(0);
    for (const row of others.rows) expect(universeBySymbol.get(row.symbol)).toMatchObject({ exchange: 'NASDAQ' });
    expect(others.rows.some((row) => energy.includes(row.symbol))).toBe(false);
  });

  it('reads the earnings calendar and the news for the facts the scan uses', async () => {
    const answer = await ok({ universe: 'sp500', formula: 'days_to_earnings <= 30 and news_sentiment > -1000' });
    expect(answer.columns.map((column) => column.label)).toEqual(['Days to earnings', 'News sentiment']);
    expect(answer.rows.length).toBeGreaterThan(0);
    const calendar = (await t.market.getEarningsCalendar('2026-11-02', '2026-12-02')).value;
    for (const row of answer.rows.slice(0, 5)) {
      const next = calendar.filter((event) => event.symbol === row.symbol).map((event) => event.date).sort()[0]!;
      expect(row.values[0]).toBe((Date.parse(next) - Date.parse('2026-11-02')) / (DAY_SECONDS * 1000));
      expect(Number.isInteger(row.values[1])).toBe(true);
    }
  });
});
