/**
 * Custom Scan alerts during the session (docs/custom-scans.md "Custom Scan alerts", "During the
 * session") on the test database: users, saved scans and rules through the API; the polls read a fake
 * market (each symbol's daily bars flat at 100, its live price set by the test) on a market clock the
 * test sets, and the daily pass runs on a fake scan run, so every case is exact. The last test runs
 * the app's own wiring on the simulated market.
 */
import { and, asc, eq } from 'drizzle-orm';
import { dayNumber, isoFromDayNumber, tradingDayOnOrAfter, type RunScanResponse, type ScanUniverse } from '@signalboard/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertDeliveries, alertEvents, customScanIntradayEntries, customScanMembers } from '../../../db/schema';
import { createJobRuns } from '../../../jobs/job-runs';
import type { Bars, Quote } from '../../../providers/market/types';
import type { ScanMember } from '../../custom-scans/scan-universe';
import { createTestApp, createUser, login, uniqueEmail, type TestApp } from '../../../../test/helpers';
import type { NewAlert } from './alert-store';
import { createIntradayScanAlerts, type IntradayScanDeps } from './scan-intraday.evaluator';
import { createScanAlertJobs, type RunScan } from './scan.evaluator';

type Headers = { authorization: string };

/** Monday 2026-11-23, 11:05 New York (EST): the session under way. Friday 20 is the session before. */
const MONDAY_1105 = Date.parse('2026-11-23T16:05:00Z');
const FRIDAY = dayNumber('2026-11-20');
const MONDAY = dayNumber('2026-11-23');
const POLL_MS = 15_000;

let t: TestApp;
beforeAll(async () => {
  // The app's own market (the last test) is pinned inside Monday's session.
  t = await createTestApp({ MARKET_NOW: '2026-11-23T16:05:00Z' });
});
afterAll(async () => t?.close());

/** The market clock of the polls. */
let marketNow = MONDAY_1105;

/** A fake source: every symbol's daily bars flat at 100 on each trading day, Monday's own bar at 1000 (never to be read), and a live price per symbol. */
const prices = new Map<string, number>();
const quoteReads: string[] = [];
/** When quotes are priced (default: the market clock's now). */
let quoteTimeMs: (() => number) | null = null;
const FIRST_BAR_DAY = dayNumber('2025-06-02');
function flatBars(symbol: string, from: number, to: number): Bars {
  const days: number[] = [];
  // A coin ("BTC…") trades every calendar day; a stock on trading days.
  const next = (day: number) => (symbol.startsWith('BTC') ? day : tradingDayOnOrAfter(day));
  for (let day = next(Math.max(FIRST_BAR_DAY, Math.ceil(from / 86_400))); day <= Math.min(MONDAY, Math.floor(to / 86_400)); day = next(day + 1)) days.push(day);
  const closes = days.map((day) => (day === MONDAY ? 1000 : 100));
  const array = (values: number[]) => Float64Array.from(values);
  const bars: Bars = { symbol, time: array(days.map((day) => day * 86_400)), open: array(closes), high: array(closes), low: array(closes), close: array(closes), volume: array(closes.map(() => 1_000_000)) };
  // A symbol "IMP…" has its bars from an imported price file.
  return symbol.startsWith('IMP') ? { ...bars, candles: { provider: 'imported', range: 'ohlc', volume: 'aggregate' } } : bars;
}
const notHere = async (): Promise<never> => {
  throw new Error('not read by these scans');
};
const fakeMarket: IntradayScanDeps['market'] = {
  source: 'simulated',
  async getQuote(symbol) {
    quoteReads.push(symbol);
    const price = prices.get(symbol) ?? 100;
    const at = quoteTimeMs ? quoteTimeMs() : marketNow;
    const quote: Quote = { symbol, price, change: price - 100, percentChange: price - 100, previousClose: 100, open: 100, high: Math.max(100, price), low: Math.min(100, price), volume: 0, timestamp: Math.floor(at / 1000) };
    return { value: quote, stale: false, fetchedAtMs: at };
  },
  getDailyBars: async (symbol, from, to) => ({ value: flatBars(symbol, from, to), stale: false, fetchedAtMs: marketNow }),
  getProfile: notHere,
  getEarningsCalendar: notHere,
  getCompanyNews: notHere,
};

/** Each user's favourites (the scans' universe in these tests), so the tests' scans never share symbols. */
const favoritesOf = new Map<number, string[]>();
const member = (symbol: string): ScanMember => ({ symbol, name: `${symbol} Inc.`, sector: null, exchange: null, listed: true });
const universeOf = async (universe: ScanUniverse, userId: number) => (universe === 'favorites' ? (favoritesOf.get(userId) ?? []) : universe === 'crypto' ? ['BTC9'] : ['ZZZ']).map(member);

const committed: NewAlert[] = [];
let kicks = 0;
const pollsWith = () =>
  createIntradayScanAlerts({
    db: t.db,
    market: fakeMarket,
    universe: universeOf,
    marketClock: { nowMs: () => marketNow },
    clock: t.clock,
    source: 'Simulated market',
    maxQuoteAgeMs: 2 * POLL_MS,
    log: { info() {}, warn() {} },
    delivery: { kick: () => void (kicks += 1) },
    alertCommitted: (alert) => void committed.push(alert),
  });

/** The daily pass's fake run: each (user, formula)'s matches, set by the test (none by default). */
const outcomes = new Map<string, string[]>();
const fakeRun: RunScan = async (userId, input) => {
  const matches = outcomes.get(`${userId}|${input.formula}`) ?? [];
  return {
    universe: input.universe,
    as_of: input.as_of,
    source: 'simulated',
    formula: input.formula,
    conditions: null,
    columns: [{ key: 'close', field: 'close', params: [], label: 'Price', unit: 'price' }],
    universe_size: 4,
    evaluated: 4,
    missing: [],
    matches: matches.length,
    rows: matches.map((symbol) => ({ symbol, name: `${symbol} Inc.`, price: 120, change_pct: 20, values: [120] })),
  } as RunScanResponse;
};
const daily = () =>
  createScanAlertJobs({ db: t.db, runScan: fakeRun, marketClock: { nowMs: () => marketNow }, clock: t.clock, source: 'Simulated market', runs: createJobRuns(t.db), log: { info() {}, warn() {} } });

async function newUser(label: string, favorites: string[]): Promise<{ id: number; headers: Headers }> {
  const email = uniqueEmail(label);
  const id = await createUser(t.db, email, 'pw');
  favoritesOf.set(id, favorites);
  return { id, headers: await login(t.app, email, 'pw') };
}
async function saveScan(user: { headers: Headers }, name: string, formula: string, universe: ScanUniverse = 'favorites'): Promise<{ id: number; formula: string; version: number }> {
  const response = await t.app.inject({ method: 'POST', url: '/api/scans', headers: user.headers, payload: { name, universe, formula } });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ scan: { id: number; formula: string; version: number } }>().scan;
}
async function saveRule(user: { headers: Headers }, scanIds: number[]) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/save_alert_preferences',
    headers: user.headers,
    payload: { alert_type: 'CUSTOM_SCAN', stock_symbols: scanIds.map(String), enable_sms: false, enable_email: true, is_active: true },
  });
  expect(response.statusCode, response.body).toBe(200);
}
const eventsOf = (userId: number) => t.db.select().from(alertEvents).where(and(eq(alertEvents.userId, userId), eq(alertEvents.alertType, 'CUSTOM_SCAN'))).orderBy(asc(alertEvents.id));
/** Each alert of the user: [session, intraday or not, the symbols it lists]. */
const alertsOf = async (userId: number) =>
  (await eventsOf(userId)).map((event) => {
    const data = event.data as { session: string; intraday?: boolean; entered: Array<{ symbol: string }> };
    return [data.session, data.intraday === true ? 'intraday' : 'daily', data.entered.map((row) => row.symbol)];
  });
const readsOf = (symbols: readonly string[]) => quoteReads.filter((symbol) => symbols.includes(symbol));

describe('Custom Scan alerts during the session', () => {
  it('fires once for a symbol that enters, not again on later polls nor at the daily pass of the session, and never for a previous member', async () => {
    const symbols = ['A1', 'B1', 'C1', 'D1'];
    const user = await newUser('intraday-once', symbols);
    const scan = await saveScan(user, 'Breakout', 'close > 110');
    await saveRule(user, [scan.id]);
    // Friday's pass records A1 as a member.
    outcomes.set(`${user.id}|${scan.formula}`, ['A1']);
    expect(await daily().runSession(FRIDAY)).toEqual([]);

    marketNow = MONDAY_1105;
    for (const [symbol, price] of [['A1', 120], ['B1', 120], ['C1', 100], ['D1', 100]] as const) prices.set(symbol, price);
    const polls = pollsWith();
    const kicksBefore = kicks;
    const report = await polls.passOnce();
    expect(report).toMatchObject({ fired: 1, failed: [] });
    const [event] = await eventsOf(user.id);
    expect(event).toMatchObject({
      symbol: 'B1',
      triggerKey: `scan:${scan.id}:2026-11-23:intraday:B1`,
      smsText: 'Intraday new in "Breakout": B1 120.00 | close > 110 · Simulated market 11:05 ET',
      emailSubject: 'Signalboard alert: 1 new intraday in "Breakout" (Custom Scan)',
    });
    expect(event!.emailText).toContain('- B1 120.00 (+20.0%): Price 120');
    expect(event!.emailText).toContain('Conditions: close > 110');
    expect(event!.data).toMatchObject({ scan_id: scan.id, session: '2026-11-23', previous_session: '2026-11-20', intraday: true, entered: [{ symbol: 'B1', name: 'B1 Inc.', price: 120, change_pct: expect.closeTo(20, 10), values: [120] }] });
    // Through the delivery pipeline: one queued e-mail, fresh until the session's close.
    const deliveries = await t.db.select().from(alertDeliveries).where(eq(alertDeliveries.eventId, event!.id));
    expect(deliveries.map((delivery) => [delivery.channel, delivery.status, delivery.expiresAt.toISOString()])).toEqual([['email', 'queued', '2026-11-23T21:00:00.000Z']]);
    expect(committed.filter((alert) => alert.userId === user.id).map((alert) => alert.triggerKey)).toEqual([`scan:${scan.id}:2026-11-23:intraday:B1`]);
    expect(kicks).toBe(kicksBefore + 1);

    // Later polls: C1 enters; B1 stays, then leaves and comes back, and fires no more.
    marketNow += POLL_MS;
    prices.set('C1', 121);
    await polls.passOnce();
    marketNow += POLL_MS;
    prices.set('B1', 100);
    await polls.passOnce();
    marketNow += POLL_MS;
    prices.set('B1', 125);
    await pollsWith().passOnce();
    expect(await alertsOf(user.id)).toEqual([
      ['2026-11-23', 'intraday', ['B1']],
      ['2026-11-23', 'intraday', ['C1']],
    ]);

    // Monday's daily pass: all four match at the close; only D1 is news.
    outcomes.set(`${user.id}|${scan.formula}`, ['A1', 'B1', 'C1', 'D1']);
    expect(await daily().runSession(MONDAY)).toEqual([]);
    expect(await alertsOf(user.id)).toEqual([
      ['2026-11-23', 'intraday', ['B1']],
      ['2026-11-23', 'intraday', ['C1']],
      ['2026-11-23', 'daily', ['D1']],
    ]);
    const members = await t.db.select().from(customScanMembers).where(eq(customScanMembers.scanId, scan.id)).orderBy(asc(customScanMembers.session));
    expect(members.map((row) => [row.session, row.symbols, row.entered])).toEqual([
      ['2026-11-20', ['A1'], []],
      ['2026-11-23', ['A1', 'B1', 'C1', 'D1'], ['D1']],
    ]);
    // A poll after the session's pass (a late one) writes nothing, even for a symbol that was not in it.
    favoritesOf.set(user.id, [...symbols, 'E1']);
    prices.set('E1', 120);
    await pollsWith().passOnce();
    expect(await eventsOf(user.id)).toHaveLength(3);
  });

  it('evaluates nothing outside the regular session (before the open, at the close, a weekend, a holiday) nor on a quote of an earlier day', async () => {
    const user = await newUser('intraday-hours', ['A2']);
    const scan = await saveScan(user, 'Hours', 'close > 110');
    await saveRule(user, [scan.id]);
    await daily().runSession(FRIDAY);
    prices.set('A2', 120);
    const polls = pollsWith();
    for (const closed of ['2026-11-23T14:29:00Z', '2026-11-23T21:00:00Z', '2026-11-21T17:00:00Z', '2026-11-26T16:00:00Z']) {
      marketNow = Date.parse(closed);
      expect(await polls.passOnce(), closed).toEqual({ scans: 0, symbols: 0, fired: 0, failed: [], skipped: 'closed' });
    }
    expect(readsOf(['A2'])).toEqual([]);
    // At the open: a quote still dated Friday (the source's last trade) is not used; today's is.
    marketNow = Date.parse('2026-11-23T14:30:00Z');
    quoteTimeMs = () => Date.parse('2026-11-20T21:00:00Z');
    await polls.passOnce();
    expect(await eventsOf(user.id)).toEqual([]);
    quoteTimeMs = null;
    await polls.passOnce();
    expect(await alertsOf(user.id)).toEqual([['2026-11-23', 'intraday', ['A2']]]);
  });

  it('leaves out scans that are not on price only or without a previous record; reads no quote for them', async () => {
    const user = await newUser('intraday-scope', ['A3', 'B3']);
    const volume = await saveScan(user, 'Volume', 'close > 110 and not (rvol > 5)');
    const wide = await saveScan(user, 'Wide', 'close > 111', 'us');
    await saveRule(user, [volume.id, wide.id]);
    await daily().runSession(FRIDAY);
    // Chosen after Friday's pass: no record to compare with yet.
    const fresh = await saveScan(user, 'Fresh', 'close > 112');
    await saveRule(user, [volume.id, wide.id, fresh.id]);
    prices.set('A3', 120);
    prices.set('B3', 120);
    marketNow = MONDAY_1105;
    await pollsWith().passOnce();
    expect(await eventsOf(user.id)).toEqual([]);
    expect(readsOf(['A3', 'B3'])).toEqual([]);
    // A price-only scan over the favourites with a record fires for both (the setup would fire).
    const price = await saveScan(user, 'Price', 'close > 113');
    await saveRule(user, [volume.id, wide.id, fresh.id, price.id]);
    await t.db.insert(customScanMembers).values({ scanId: price.id, session: '2026-11-20', scanVersion: price.version, symbols: [], entered: [], recordedAt: new Date() });
    await pollsWith().passOnce();
    expect(await alertsOf(user.id)).toEqual([['2026-11-23', 'intraday', ['A3', 'B3']]]);
  });

  it("evaluates a crypto scan too, on its coins' bars through the calendar day before (Sunday's, on a Monday)", async () => {
    const user = await newUser('intraday-crypto', []);
    const scan = await saveScan(user, 'Coins', 'close > 110 and change_pct(1) > 5', 'crypto');
    await saveRule(user, [scan.id]);
    await daily().runSession(FRIDAY);
    marketNow = MONDAY_1105;
    prices.set('BTC9', 120);
    // (The report counts every user's scans: the earlier tests' may fire on this poll too.)
    expect((await pollsWith().passOnce()).failed).toEqual([]);
    expect(await alertsOf(user.id)).toEqual([['2026-11-23', 'intraday', ['BTC9']]]);
    // The change is against Sunday's close (100), the bar before today's on a coin's calendar.
    const [event] = await eventsOf(user.id);
    expect(event!.data).toMatchObject({ entered: [{ symbol: 'BTC9', price: 120, values: [120, expect.closeTo(20, 10)] }] });
  });

  it('two processes polling at once write one alert and one entry per symbol', async () => {
    const user = await newUser('intraday-twice', ['A4', 'B4']);
    const scan = await saveScan(user, 'Twice', 'close > 110');
    await saveRule(user, [scan.id]);
    await daily().runSession(FRIDAY);
    prices.set('A4', 120);
    prices.set('B4', 130);
    marketNow = MONDAY_1105;
    await Promise.all([pollsWith().passOnce(), pollsWith().passOnce(), pollsWith().passOnce()]);
    expect(await alertsOf(user.id)).toEqual([['2026-11-23', 'intraday', ['A4', 'B4']]]);
    const entries = await t.db.select().from(customScanIntradayEntries).where(eq(customScanIntradayEntries.scanId, scan.id)).orderBy(asc(customScanIntradayEntries.symbol));
    expect(entries.map((row) => [row.session, row.symbol, row.price])).toEqual([
      ['2026-11-23', 'A4', 120],
      ['2026-11-23', 'B4', 130],
    ]);
  });

  it('runs on the app\'s poller cadence over the simulated market (the app\'s wiring)', async () => {
    const user = await newUser('intraday-app', []);
    const scan = await saveScan(user, 'Everything', 'close > 0', 'sp500');
    await saveRule(user, [scan.id]);
    // Friday's record: nothing matched then, so every S&P 500 symbol the source prices now enters.
    await t.db.insert(customScanMembers).values({ scanId: scan.id, session: isoFromDayNumber(FRIDAY), scanVersion: scan.version, symbols: [], entered: [], recordedAt: new Date() });
    const report = await t.app.alertEvaluation.scanIntraday();
    expect(report.fired).toBeGreaterThanOrEqual(1);
    const [event, ...more] = await eventsOf(user.id);
    expect(more).toEqual([]);
    const entered = (event!.data as { entered: Array<{ symbol: string }> }).entered.map((row) => row.symbol);
    expect(entered.length).toBeGreaterThan(100);
    expect(event!.smsText).toMatch(/^Intraday new in "Everything": .* \| close > 0 · Simulated market 11:05 ET$/);
    await t.app.alertEvaluation.scanIntraday();
    expect(await eventsOf(user.id)).toHaveLength(1);
  });
});

describe('Custom Scan alerts during the session, imported prices', () => {
  it('names its source with "imported prices" when an entry\'s bars come from an imported price file', async () => {
    const user = await newUser('intraday-imported', ['A8', 'IMP8']);
    const scan = await saveScan(user, 'Imported', 'close > 110');
    await saveRule(user, [scan.id]);
    marketNow = MONDAY_1105 - POLL_MS;
    quoteTimeMs = null;
    await daily().runSession(FRIDAY);
    marketNow = MONDAY_1105;
    prices.set('A8', 100);
    prices.set('IMP8', 120);
    expect(await pollsWith().passOnce()).toMatchObject({ failed: [] });
    const [event] = await eventsOf(user.id);
    expect(event!.smsText).toBe('Intraday new in "Imported": IMP8 120.00 | close > 110 · Simulated market, imported prices 11:05 ET');
    expect(event!.emailText).toContain('Source: Simulated market, imported prices');
    expect(event!.data).toMatchObject({ source: 'Simulated market, imported prices', entered: [{ symbol: 'IMP8', imported: true }] });
  });
});
