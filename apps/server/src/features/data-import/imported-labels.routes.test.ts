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

const SYMBOL = 'ZZLB';
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
  const imported = await t.app.inject({ method: 'POST', url: `/api/admin/prices/import?name=${SYMBOL}.csv`, headers: { ...admin, 'content-type': 'text/csv' }, payload: priceFile() });
  expect(imported.json()).toMatchObject({ stored: true, error_count: 0 });
  await t.app.inject({ method: 'POST', url: '/api/batch_update_favorite_stocks', headers: admin, payload: { stocks: [{ symbol: SYMBOL, description: SYMBOL }, { symbol: 'AAPL', description: 'Apple' }] } });
});
afterAll(async () => t.close());

describe('imported figures are labelled', () => {
  it('api/health counts the imported symbols (the shell badge)', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).json()).toMatchObject({ market_data: 'simulated', imported_symbols: 1 });
  });

  it('a custom scan marks the rows of imported symbols and counts them; the chart says so', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/scans/run', headers: admin, payload: { universe: 'favorites', formula: 'close > 0' } });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ source: 'simulated', imported_symbols: 1, as_of: '2026-11-20', matches: 2 });
    expect(body.rows.map((row: { symbol: string; imported?: boolean }) => [row.symbol, row.imported ?? false])).toEqual([
      [SYMBOL, true],
      ['AAPL', false],
    ]);
    const chart = (await t.app.inject({ method: 'GET', url: `/api/scans/chart?symbol=${SYMBOL}`, headers: admin })).json();
    expect(chart).toMatchObject({ symbol: SYMBOL, source: 'simulated', imported: true, as_of: '2026-11-20' });
    const known = (await t.app.inject({ method: 'GET', url: '/api/scans/chart?symbol=AAPL', headers: admin })).json();
    expect(known.imported).toBeUndefined();
  });
});
