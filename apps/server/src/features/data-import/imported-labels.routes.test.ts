/**
 * Where imported figures are labelled (docs/data-in-and-out.md): a symbol whose daily bars come from
 * an imported price file says so on every screen that shows its figures with a source, and an
 * installation with imported symbols says so in api/health (the shell's badge).
 */
import { eq } from 'drizzle-orm';
import { dayNumber, isoFromDayNumber, isTradingDayNumber } from '@signalboard/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema';
import { createTestApp, createUser, login, uniqueEmail, type TestApp } from '../../../test/helpers';

/** A symbol the simulated market does not know (its price is the file's last close), and one it quotes. */
const SYMBOL = 'ZZLB';
const KNOWN = 'MSFT';
/** Friday 2026-11-20 after the close: the file ends on that session. */
const MARKET_NOW = '2026-11-20T22:00:00Z';

let t: TestApp;
let admin: { authorization: string };

/** 300 sessions through 2026-11-20, a gentle walk around 40. */
function priceFile(): string {
  const days: number[] = [];
  for (let day = dayNumber('2026-11-20'); days.length < 300; day -= 1) if (isTradingDayNumber(day)) days.unshift(day);
  const lines = ['Date,Open,High,Low,Close,Volume'];
  days.forEach((day, index) => {
    const close = 40 + 4 * Math.sin(index / 7);
    lines.push([isoFromDayNumber(day), close * 0.99, close * 1.01, close * 0.98, close, 500_000].map((cell) => (typeof cell === 'number' ? cell.toFixed(4) : cell)).join(','));
  });
  return `${lines.join('\n')}\n`;
}

beforeAll(async () => {
  t = await createTestApp({ MARKET_NOW });
  const email = uniqueEmail('labels-admin');
  const id = await createUser(t.db, email, 'the password');
  await t.db.update(users).set({ role: 'admin' }).where(eq(users.id, id));
  admin = await login(t.app, email, 'the password');
  const health = (await t.app.inject({ method: 'GET', url: '/api/health' })).json();
  expect(health.imported_symbols).toBe(0);
  for (const symbol of [SYMBOL, KNOWN]) {
    const imported = await t.app.inject({ method: 'POST', url: `/api/admin/prices/import?name=${symbol}.csv`, headers: { ...admin, 'content-type': 'text/csv' }, payload: priceFile() });
    expect(imported.json()).toMatchObject({ stored: true, error_count: 0 });
  }
  const stocks = [SYMBOL, 'AAPL', KNOWN].map((symbol) => ({ symbol, description: symbol }));
  await t.app.inject({ method: 'POST', url: '/api/batch_update_favorite_stocks', headers: admin, payload: { stocks } });
});
afterAll(async () => t.close());

describe('imported figures are labelled', () => {
  it('api/health counts the imported symbols (the shell badge)', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).json()).toMatchObject({ market_data: 'simulated', imported_symbols: 2 });
  });

  it('a custom scan marks the rows of imported symbols and counts them; the chart says so', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/scans/run', headers: admin, payload: { universe: 'favorites', formula: 'close > 0' } });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ source: 'simulated', imported_symbols: 2, as_of: '2026-11-20', matches: 3 });
    expect(body.rows.map((row: { symbol: string; imported?: boolean }) => [row.symbol, row.imported ?? false])).toEqual([
      [SYMBOL, true],
      ['AAPL', false],
      [KNOWN, true],
    ]);
    const chart = (await t.app.inject({ method: 'GET', url: `/api/scans/chart?symbol=${SYMBOL}`, headers: admin })).json();
    expect(chart).toMatchObject({ symbol: SYMBOL, source: 'simulated', imported: true, as_of: '2026-11-20' });
    const known = (await t.app.inject({ method: 'GET', url: '/api/scans/chart?symbol=AAPL', headers: admin })).json();
    expect(known.imported).toBeUndefined();
  });

  it('the metrics endpoints say which figures come from imported bars', async () => {
    for (const [method, url, payload] of [
      ['GET', '/api/rsi?symbol=', undefined],
      ['GET', '/api/support-resistance?symbol=', undefined],
      ['POST', '/api/stock-high-td', { days: 20 }],
      ['POST', '/api/trend-direction', { days: 20 }],
    ] as const) {
      const of = async (symbol: string) => {
        const response = await t.app.inject({ method, url: payload ? url : `${url}${symbol}`, headers: admin, ...(payload ? { payload: { ...payload, symbol } } : {}) });
        expect(response.statusCode, `${url} ${symbol}: ${response.body}`).toBe(200);
        return response.json().imported;
      };
      expect(await of(SYMBOL), url).toBe(true);
      expect(await of(KNOWN), url).toBe(true);
      expect(await of('AAPL'), url).toBeUndefined();
    }
    expect((await t.app.inject({ method: 'GET', url: `/api/fetch_metrics?symbol=${KNOWN}`, headers: admin })).json().imported).toBe(true);
    // A symbol the source does not know has prices only: its metrics answer with no news (no article, 0 % either way).
    const unknown = await t.app.inject({ method: 'GET', url: `/api/fetch_metrics?symbol=${SYMBOL}`, headers: admin });
    expect(unknown.statusCode, unknown.body).toBe(200);
    expect(unknown.json()).toMatchObject({ symbol: SYMBOL, imported: true, bullishPercent: 0, bearishPercent: 0, dailyrsi: null });
    expect(unknown.json()['14DayRSI']).toEqual(expect.any(Number));
  });

  it('the drop scanner and the option signals mark the flags of imported symbols and count them', async () => {
    const drops = (await t.app.inject({ method: 'POST', url: '/api/scan/drops', headers: admin, payload: { threshold: 0, selection: '30DayHigh' } })).json();
    expect(drops.imported_symbols).toBe(2);
    const flagged = drops.results.find((flag: { symbol: string }) => flag.symbol === SYMBOL);
    expect(flagged).toMatchObject({ symbol: SYMBOL, imported: true });
    for (const flag of drops.results) expect(flag.imported ?? false, flag.symbol).toBe(flag.symbol !== 'AAPL');

    const stream = await t.app.inject({ method: 'POST', url: '/api/scan/options', headers: admin });
    const events = stream.body.trim().split('\n').map((line) => JSON.parse(line) as { type: string; flag?: { symbol: string; imported?: boolean }; imported_symbols?: number; failed?: unknown[] });
    const end = events.at(-1)!;
    expect(end.type).toBe('end');
    // Both imported symbols are read (the one the source does not know: no news, no intraday RSI, so no flag).
    expect(end.imported_symbols).toBe(2);
    for (const event of events.filter((one) => one.type === 'flag')) expect(event.flag!.imported ?? false, event.flag!.symbol).toBe(event.flag!.symbol !== 'AAPL');
  });
});
