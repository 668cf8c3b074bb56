/**
 * The alert evaluation on the embedded database (issue 15): quotes moved by a test control in front
 * of the simulated market (MARKET_NOW pinned inside a session), rules saved through the API, idea
 * events inserted as the engines' store writes them.
 */
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { alertDeliveries, alertEvents, ideaEvents, userOptionAlerts, users, userStockScannerAlerts } from '../../../db/schema';
import type { TestControl, TestControlValues } from '../../../lib/test-control';
import { createMarket, withTestQuotes } from '../../../providers/market';
import type { Cached } from '../../../providers/market/cache';
import type { Bars, NewsArticle } from '../../../providers/market/types';
import { atr, volumeProfileLevels } from '@signalboard/core';
import { createTestApp, type TestApp, userWithFavorites } from '../../../../test/helpers';
import { createAlertEvaluation } from './evaluation';
import { metrics } from '../../../lib/metrics';
import type { NewAlert } from './alert-store';

/** The symbol whose daily bars come from an imported price file. */
const IMPORTED = 'INTC';
/** Friday 2026-11-20, 10:30 in New York: the market is open. */
const OPEN_NOW = '2026-11-20T15:30:00Z';

class Control implements TestControl {
  readonly file = '(test)';
  current: TestControlValues = { quotes: {}, clockOffsetMs: 0 };
  values() {
    return this.current;
  }
  quote(symbol: string, price: number, previousClose = 100) {
    this.current = { ...this.current, quotes: { ...this.current.quotes, [symbol]: { price, previousClose } } };
  }
}

type Headers = { authorization: string };

let t: TestApp;
const control = new Control();
/** The market news the app reads, when a test sets it (else the simulated market's). */
let news: NewsArticle[] | null = null;

beforeAll(async () => {
  t = await createTestApp(
    { MARKET_NOW: OPEN_NOW },
    {
      market: (config, clock) => {
        const market = withTestQuotes(createMarket(config, clock), control, clock);
        // INTC's daily bars are served as if imported from a price file (docs/data-in-and-out.md).
        const asImported = async (symbol: string, bars: Promise<Cached<Bars>>): Promise<Cached<Bars>> => {
          const cached = await bars;
          return symbol.toUpperCase() === IMPORTED ? { ...cached, value: { ...cached.value, candles: { provider: 'imported', range: 'ohlc', volume: 'aggregate' } } } : cached;
        };
        return {
          ...market,
          // INTC is listed as imported too: an idea of it on a version run on imported prices alerts so.
          importedSymbols: async () => [{ symbol: IMPORTED, description: 'Intel Corporation', market: 'US', exchange: 'NASDAQ', country: 'United States', currency: 'USD', assetClass: 'stock' }],
          getRecentDailyBars: (symbol, days) => asImported(symbol, market.getRecentDailyBars(symbol, days)),
          getMarketNews: async () => (news ? { value: news, stale: false, fetchedAtMs: clock.nowMs() } : market.getMarketNews()),
        };
      },
    },
  );
});
afterAll(async () => t?.close());
beforeEach(() => {
  control.current = { quotes: {}, clockOffsetMs: 0 };
});

const save = async (headers: Headers, body: Record<string, unknown>) => {
  const response = await t.app.inject({ method: 'POST', url: '/api/save_alert_preferences', headers, payload: { enable_sms: false, enable_email: true, is_active: true, ...body } });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ notices: string[] }>();
};

const userIdOf = async (headers: Headers) => {
  const response = await t.app.inject({ method: 'GET', url: '/api/getemail', headers });
  const email = response.json<{ email: string }>().email;
  const [row] = await t.db.select({ id: users.id }).from(users).where(eq(users.email, email));
  return row!.id;
};

/**
 * Reads idea events until `expected` were read. A pass reads only transactions older than every one
 * still running in the whole PostgreSQL cluster (pg_snapshot_xmin), so another test file's open
 * transaction on the shared server can hold a pass back for a moment; the events then wait, never lost.
 */
const consumeIdeaEventsUntil = async (expected: number): Promise<number> => {
  let read = 0;
  await expect.poll(async () => (read += await t.app.alertEvaluation.consumeIdeaEvents()), { timeout: 20_000, interval: 50 }).toBe(expected);
  return read;
};
const eventsOf = (userId: number) => t.db.select().from(alertEvents).where(eq(alertEvents.userId, userId)).orderBy(asc(alertEvents.id));

describe('price rules', () => {
  it('PERCENT_DROP fires once when the price crosses the threshold, not while it oscillates around it', async () => {
    const headers = await userWithFavorites(t, 'drop', ['AAPL']);
    const userId = await userIdOf(headers);
    control.quote('AAPL', 99);
    expect((await save(headers, { alert_type: 'PERCENT_DROP', stock_symbols: ['AAPL'], threshold_value: 5 })).notices).toEqual([]);
    await t.app.alertEvaluation.pollQuotes();
    expect(await eventsOf(userId)).toHaveLength(0);

    control.quote('AAPL', 94.5);
    await t.app.alertEvaluation.pollQuotes();
    for (const price of [95.2, 94.8, 95.1, 94.1, 94.9]) {
      control.quote('AAPL', price);
      await t.app.alertEvaluation.pollQuotes();
    }
    const events = await eventsOf(userId);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ alertType: 'PERCENT_DROP', symbol: 'AAPL' });
    expect(events[0]!.smsText).toContain('AAPL');
    expect(events[0]!.smsText).toContain('94.50');
    expect(events[0]!.data).toMatchObject({ price: 94.5, previousClose: 100, source: 'Simulated market' });
    expect(events[0]!.rule).toMatchObject({ threshold_value: 5, stock_symbols: ['AAPL'] });
    const deliveries = await t.db.select().from(alertDeliveries).where(eq(alertDeliveries.eventId, events[0]!.id));
    expect(deliveries.map((delivery) => [delivery.channel, delivery.status])).toEqual([['email', 'queued']]);
  });

  it('a rule saved while its condition is already true says so and waits for a new crossing', async () => {
    const headers = await userWithFavorites(t, 'already', ['MSFT']);
    const userId = await userIdOf(headers);
    control.quote('MSFT', 93.8);
    const answer = await save(headers, { alert_type: 'PERCENT_DROP', stock_symbols: ['MSFT'], threshold_value: 5 });
    expect(answer.notices).toEqual(['MSFT is already 6.2% below the previous close: the alert fires on the next drop']);
    await t.app.alertEvaluation.pollQuotes();
    control.quote('MSFT', 93.5);
    await t.app.alertEvaluation.pollQuotes();
    expect(await eventsOf(userId)).toHaveLength(0);
  });

  it('names its source with "imported prices" when the ATR it reports comes from an imported price file', async () => {
    const headers = await userWithFavorites(t, 'drop-imported', [IMPORTED]);
    const userId = await userIdOf(headers);
    control.quote(IMPORTED, 99);
    await save(headers, { alert_type: 'PERCENT_DROP', stock_symbols: [IMPORTED], threshold_value: 5 });
    await t.app.alertEvaluation.pollQuotes();
    control.quote(IMPORTED, 94.5);
    await t.app.alertEvaluation.pollQuotes();
    const [event] = await eventsOf(userId);
    expect(event!.data).toMatchObject({ price: 94.5, source: 'Simulated market, imported prices' });
    expect(event!.smsText).toContain('Simulated market, imported prices');
    expect(event!.smsText.length).toBeLessThanOrEqual(160);
  });

  it('CURRENT_PRICE fires on a crossing of its target in its direction only', async () => {
    const headers = await userWithFavorites(t, 'target', ['NVDA']);
    const userId = await userIdOf(headers);
    control.quote('NVDA', 140);
    await save(headers, { alert_type: 'CURRENT_PRICE', stock_symbols: ['NVDA'], targets: [{ symbol: 'NVDA', price: 150, direction: 'above' }] });
    control.quote('NVDA', 149.9);
    await t.app.alertEvaluation.pollQuotes();
    expect(await eventsOf(userId)).toHaveLength(0);
    control.quote('NVDA', 150.42);
    await t.app.alertEvaluation.pollQuotes();
    const events = await eventsOf(userId);
    expect(events).toHaveLength(1);
    expect(events[0]!.smsText).toContain('NVDA crossed above 150.00 (now 150.42)');
  });

  it('two evaluations of the same tick (two processes) make one alert and one delivery per channel', async () => {
    const headers = await userWithFavorites(t, 'twice', ['AMZN']);
    const userId = await userIdOf(headers);
    control.quote('AMZN', 100);
    await save(headers, { alert_type: 'PERCENT_DROP', stock_symbols: ['AMZN'], threshold_value: 3 });
    const other = createAlertEvaluation({ db: t.db, market: t.market, marketClock: { nowMs: () => Date.parse(OPEN_NOW) }, clock: t.clock, log: { info() {}, warn() {} } });
    control.quote('AMZN', 96);
    await Promise.all([t.app.alertEvaluation.pollQuotes(), other.pollQuotes(), other.evaluateQuotes([{ symbol: 'AMZN', price: 96, previousClose: 100, asOfMs: Date.parse(OPEN_NOW), source: 'Simulated market' }])]);
    const events = await eventsOf(userId);
    expect(events).toHaveLength(1);
    expect(await t.db.select().from(alertDeliveries).where(eq(alertDeliveries.eventId, events[0]!.id))).toHaveLength(1);
  });

  it('a pass split into shares (one per worker job) reads only its symbols; the shares together fire each crossing once', async () => {
    const headers = await userWithFavorites(t, 'shares', ['GOOGL', 'NFLX']);
    const userId = await userIdOf(headers);
    control.quote('GOOGL', 100);
    control.quote('NFLX', 100);
    await save(headers, { alert_type: 'PERCENT_DROP', stock_symbols: ['GOOGL', 'NFLX'], threshold_value: 3 });
    const symbols = await t.app.alertEvaluation.watchedSymbols();
    expect(symbols).toEqual(expect.arrayContaining(['GOOGL', 'NFLX']));
    expect(symbols).toEqual([...symbols].sort());
    control.quote('GOOGL', 96);
    control.quote('NFLX', 96);
    expect(await t.app.alertEvaluation.pollQuotes({ symbols: ['GOOGL'], watched: symbols.length })).toMatchObject({ symbols: 1, fired: 1, failed: [] });
    expect((await eventsOf(userId)).map((event) => event.symbol)).toEqual(['GOOGL']);
    // A retried share on another worker, overlapping the next one: still one alert per crossing.
    const other = createAlertEvaluation({ db: t.db, market: t.market, marketClock: { nowMs: () => Date.parse(OPEN_NOW) }, clock: t.clock, log: { info() {}, warn() {} } });
    await Promise.all([t.app.alertEvaluation.pollQuotes({ symbols: ['NFLX'], watched: symbols.length }), other.pollQuotes({ symbols: ['GOOGL', 'NFLX'], watched: symbols.length })]);
    expect((await eventsOf(userId)).map((event) => event.symbol).sort()).toEqual(['GOOGL', 'NFLX']);
  });

  it('tells of each alert once its transaction committed (the live updates), never of one not written', async () => {
    const headers = await userWithFavorites(t, 'committed', ['META']);
    const userId = await userIdOf(headers);
    control.quote('META', 100);
    await save(headers, { alert_type: 'PERCENT_DROP', stock_symbols: ['META'], threshold_value: 3 });
    const committed: NewAlert[] = [];
    const evaluation = createAlertEvaluation({ db: t.db, market: t.market, marketClock: { nowMs: () => Date.parse(OPEN_NOW) }, clock: t.clock, alertCommitted: (alert) => committed.push(alert), log: { info() {}, warn() {} } });
    const quote = (price: number) => ({ symbol: 'META', price, previousClose: 100, asOfMs: Date.parse(OPEN_NOW), source: 'Simulated market' });
    await evaluation.evaluateQuotes([quote(100)]);
    expect(committed).toEqual([]);
    await evaluation.evaluateQuotes([quote(96)]);
    await evaluation.evaluateQuotes([quote(95.5)]);
    expect(committed.map((alert) => [alert.userId, alert.alertType, alert.symbol])).toEqual([[userId, 'PERCENT_DROP', 'META']]);
    expect(await eventsOf(userId)).toHaveLength(1);
  });

  it('a stale quote never fires', async () => {
    const headers = await userWithFavorites(t, 'stale', ['TSLA']);
    const userId = await userIdOf(headers);
    control.quote('TSLA', 100);
    await save(headers, { alert_type: 'PERCENT_DROP', stock_symbols: ['TSLA'], threshold_value: 5 });
    const report = await t.app.alertEvaluation.evaluateQuotes([{ symbol: 'TSLA', price: 90, previousClose: 100, asOfMs: Date.parse(OPEN_NOW) - 31_000, source: 'Simulated market' }]);
    expect(report.stale).toBe(1);
    expect(await eventsOf(userId)).toHaveLength(0);
  });

  it('a poll pass records the evaluation lag: from its freshest quote to the end of the pass', async () => {
    const headers = await userWithFavorites(t, 'lag', ['KO']);
    control.quote('KO', 100);
    await save(headers, { alert_type: 'PERCENT_DROP', stock_symbols: ['KO'], threshold_value: 5 });
    metrics.alertEvaluationLag.set(-1);
    const report = await t.app.alertEvaluation.pollQuotes();
    expect(report.symbols).toBeGreaterThanOrEqual(1);
    const [lag] = (await metrics.alertEvaluationLag.get()).values;
    expect(lag!.value).toBeGreaterThanOrEqual(0);
    expect(lag!.value).toBeLessThan(60);
  });

  it('an inactive rule or a deactivated user fires nothing; rules are per user', async () => {
    const first = await userWithFavorites(t, 'iso-a', ['META']);
    const second = await userWithFavorites(t, 'iso-b', ['META']);
    const third = await userWithFavorites(t, 'iso-c', ['META']);
    const [a, b, c] = [await userIdOf(first), await userIdOf(second), await userIdOf(third)];
    control.quote('META', 100);
    await save(first, { alert_type: 'PERCENT_DROP', stock_symbols: ['META'], threshold_value: 5 });
    await save(second, { alert_type: 'PERCENT_DROP', stock_symbols: ['META'], threshold_value: 5, is_active: false });
    await save(third, { alert_type: 'PERCENT_DROP', stock_symbols: ['META'], threshold_value: 5 });
    await t.db.update(users).set({ isActive: false }).where(eq(users.id, c));
    control.quote('META', 90);
    await t.app.alertEvaluation.pollQuotes();
    expect(await eventsOf(a)).toHaveLength(1);
    expect(await eventsOf(b)).toHaveLength(0);
    expect(await eventsOf(c)).toHaveLength(0);
  });
});

describe('market hours', () => {
  it('stock rules wait for the session; crypto targets fire around the clock', async () => {
    const closed = await createTestApp({ MARKET_NOW: '2026-11-21T15:30:00Z' }, { market: (config, clock) => withTestQuotes(createMarket(config, clock), control, clock) });
    try {
      const headers = await userWithFavorites(closed, 'weekend', ['AAPL']);
      const response = await closed.app.inject({ method: 'GET', url: '/api/getemail', headers });
      const [row] = await closed.db.select({ id: users.id }).from(users).where(eq(users.email, response.json<{ email: string }>().email));
      control.quote('AAPL', 100);
      control.quote('BTC', 90_000, 91_000);
      for (const body of [
        { alert_type: 'PERCENT_DROP', stock_symbols: ['AAPL'], threshold_value: 5 },
        { alert_type: 'BITCOIN', stock_symbols: ['BTC'], targets: [{ symbol: 'BTC', price: 95_000, direction: 'above' }] },
      ]) {
        const saved = await closed.app.inject({ method: 'POST', url: '/api/save_alert_preferences', headers, payload: { enable_sms: false, enable_email: true, is_active: true, ...body } });
        expect(saved.statusCode, saved.body).toBe(200);
      }
      control.quote('AAPL', 80);
      control.quote('BTC', 96_120.55, 91_000);
      await closed.app.alertEvaluation.pollQuotes();
      const events = await closed.db.select().from(alertEvents).where(eq(alertEvents.userId, row!.id));
      expect(events.map((event) => event.symbol)).toEqual(['BTC']);
      expect(events[0]!.smsText).toContain('96,120.55');
    } finally {
      await closed.close();
    }
  });
});

describe('idea events', () => {
  const event = (sequenceLabel: string, fields: Partial<typeof ideaEvents.$inferInsert>): typeof ideaEvents.$inferInsert => ({
    ideaId: `options.NVDA.2026-11-19@1.0.0`,
    engine: 'options',
    market: 'US',
    symbol: 'NVDA',
    type: 'opened',
    level: sequenceLabel,
    barDate: '2026-11-19',
    price: 145,
    data: { side: 'CALL', expiry: '2026-12-19', strike: 150, signalValue: 4.1, strengthScore: 75 },
    ruleVersion: '1.0.0',
    paramHash: 'test',
    origin: 'live',
    recordedAt: new Date(Date.parse(OPEN_NOW)),
    ...fields,
  });

  it('a new live option trade alerts the OPTION_ALERT rules of its ticker; a saved trade alerts on its target; replayed events alert nobody', async () => {
    const headers = await userWithFavorites(t, 'ideas', []);
    const userId = await userIdOf(headers);
    const bystander = await userIdOf(await userWithFavorites(t, 'ideas-other', []));
    await save(headers, { alert_type: 'OPTION_ALERT', stock_symbols: ['NVDA'] });
    // The cursor starts after the events already stored.
    await t.app.alertEvaluation.consumeIdeaEvents();
    await t.db.insert(userOptionAlerts).values({ userId, ideaId: 'options.NVDA.2026-11-19@1.0.0' });
    await t.db.insert(ideaEvents).values([
      event('', {}),
      event('', { ideaId: 'options.NVDA.2026-11-18@1.0.0', barDate: '2026-11-18', origin: 'replayed' }),
      event('TARGET', { type: 'target_hit', barDate: '2026-11-20', price: 5.33, data: { target: 5.33 } }),
      event('', { ideaId: 'options.AMD.2026-11-19@1.0.0', symbol: 'AMD' }),
    ]);
    // The replayed event is not even read: three events can alert.
    expect(await consumeIdeaEventsUntil(3)).toBe(3);
    const events = await eventsOf(userId);
    expect(events.map((row) => [row.alertType, row.symbol])).toEqual([
      ['OPTION_ALERT', 'NVDA'],
      ['SAVED_OPTION_TRADE', 'NVDA'],
    ]);
    expect(events[0]!.smsText).toContain('New CALL NVDA 2026-12-19 150C, entry 4.10, strength 75/100');
    expect(await eventsOf(bystander)).toHaveLength(0);
    // Read once: a second pass finds nothing new.
    expect(await t.app.alertEvaluation.consumeIdeaEvents()).toBe(0);
    expect(await t.db.select().from(alertEvents).where(and(eq(alertEvents.userId, userId), eq(alertEvents.alertType, 'OPTION_ALERT')))).toHaveLength(1);
  });

  it('an engine transaction that commits after a later one was read still alerts (events are read by finished transaction)', async () => {
    const headers = await userWithFavorites(t, 'late-commit', []);
    const userId = await userIdOf(headers);
    await save(headers, { alert_type: 'OPTION_ALERT', stock_symbols: ['AAPL', 'MSFT'] });
    await t.app.alertEvaluation.consumeIdeaEvents();
    const slow = await t.pool.connect();
    try {
      // The slow engine's transaction takes the lower sequence and stays open…
      await slow.query('begin');
      await slow.query(
        `insert into idea_events (idea_id, engine, market, symbol, type, level, bar_date, price, data, rule_version, param_hash, origin, recorded_at)
         values ('options.AAPL.2026-11-19@1.0.0', 'options', 'US', 'AAPL', 'opened', '', '2026-11-19', 200, $1, '1.0.0', 'test', 'live', $2)`,
        [JSON.stringify({ side: 'PUT', expiry: '2026-12-19', strike: 190, signalValue: 3.2, strengthScore: 60 }), new Date(Date.parse(OPEN_NOW))],
      );
      // …while a faster one with a higher sequence commits.
      await t.db.insert(ideaEvents).values(event('', { ideaId: 'options.MSFT.2026-11-19@1.0.0', symbol: 'MSFT' }));
      await t.app.alertEvaluation.consumeIdeaEvents();
      expect(await eventsOf(userId)).toHaveLength(0);
      await slow.query('commit');
    } finally {
      slow.release();
    }
    await expect
      .poll(async () => {
        await t.app.alertEvaluation.consumeIdeaEvents();
        return (await eventsOf(userId)).map((row) => row.symbol).sort();
      })
      .toEqual(['AAPL', 'MSFT']);
  });

  it('a trade opened during the replay alerts its saver on a stop a live pass records; history recorded long ago alerts nobody', async () => {
    const headers = await userWithFavorites(t, 'replayed', []);
    const userId = await userIdOf(headers);
    await t.app.alertEvaluation.consumeIdeaEvents();
    const idea = 'options.AMD.2026-10-01@1.0.0';
    await t.db.insert(userOptionAlerts).values({ userId, ideaId: idea });
    await t.db.insert(ideaEvents).values([
      event('', { ideaId: idea, symbol: 'AMD', barDate: '2026-10-01', origin: 'replayed', recordedAt: new Date('2026-10-01T21:30:00Z') }),
      event('TARGET', { ideaId: idea, symbol: 'AMD', type: 'target_hit', barDate: '2026-10-09', origin: 'replayed', recordedAt: new Date('2026-10-09T21:30:00Z') }),
      event('STOP', { ideaId: idea, symbol: 'AMD', type: 'stop_hit', barDate: '2026-11-20', origin: 'replayed', price: 1.2 }),
    ]);
    // Only the stop, recorded lately, is read.
    await consumeIdeaEventsUntil(1);
    const events = await eventsOf(userId);
    expect(events.map((row) => [row.alertType, row.symbol, (row.data as { event: string }).event])).toEqual([['SAVED_OPTION_TRADE', 'AMD', 'stop_hit']]);
  });
});

describe('the other types', () => {
  const stored = (fields: Partial<typeof ideaEvents.$inferInsert>): typeof ideaEvents.$inferInsert => ({
    ideaId: 'x',
    engine: 'drop',
    market: 'US',
    symbol: 'AAPL',
    type: 'opened',
    level: '',
    barDate: '2026-11-19',
    price: 100,
    data: {},
    ruleVersion: '1.0.0',
    paramHash: 'test',
    origin: 'live',
    recordedAt: new Date(Date.parse(OPEN_NOW)),
    ...fields,
  });

  it('drop items, swing progress and a coin label change alert their rules once per pass; a saved drop item alerts on its stop', async () => {
    const headers = await userWithFavorites(t, 'engines', []);
    const userId = await userIdOf(headers);
    await save(headers, { alert_type: 'STOCK_DROP_ALERTS', stock_symbols: [] });
    await save(headers, { alert_type: 'ALLSTOCKS_PROGRESS_ALERT', stock_symbols: [] });
    await save(headers, { alert_type: 'BITCOIN', stock_symbols: ['BTC'], targets: [{ symbol: 'BTC', price: 1_000_000, direction: 'above' }] });
    await t.app.alertEvaluation.consumeIdeaEvents();
    await t.db.insert(userStockScannerAlerts).values({ userId, ideaId: 'drop.PEP.2026-11-18@1.0.0', tradeType: 'S' });
    await t.db.insert(ideaEvents).values([
      stored({ ideaId: 'drop.KO.2026-11-19@1.0.0', symbol: 'KO', data: { stockType: 'S' }, price: 58.2 }),
      stored({ ideaId: 'drop.XOM.2026-11-19@1.0.0', symbol: 'XOM', data: { stockType: 'L' }, price: 101.5 }),
      stored({ ideaId: 'swing.AMD.2026-11-19@1.0.0', engine: 'swing', symbol: 'AMD', price: 140 }),
      stored({ ideaId: 'swing.ORCL.2026-11-10@1.0.0', engine: 'swing', symbol: 'ORCL', type: 'target_hit', level: 'T1', price: 180 }),
      stored({ ideaId: 'crypto.BTC.2026-01-01@1.0.0', engine: 'crypto', market: 'CRYPTO', symbol: 'BTC', type: 'signal_changed', level: 'Short', data: { horizon: 'Short', from: 'Hold', to: 'Buy' }, price: 96_120.55 }),
      stored({ ideaId: 'drop.PEP.2026-11-18@1.0.0', symbol: 'PEP', type: 'stop_hit', level: 'STOP', price: 140.1 }),
    ]);
    await consumeIdeaEventsUntil(6);
    const events = await eventsOf(userId);
    expect(events.map((row) => row.alertType).sort()).toEqual(['ALLSTOCKS_PROGRESS_ALERT', 'BITCOIN', 'SAVED_STOCK_SCANNER', 'STOCK_DROP_ALERTS']);
    const text = (type: string) => events.find((row) => row.alertType === type)!.smsText;
    expect(text('STOCK_DROP_ALERTS')).toMatch(/KO/);
    expect(text('STOCK_DROP_ALERTS')).toMatch(/XOM/);
    expect(text('ALLSTOCKS_PROGRESS_ALERT')).toMatch(/AMD/);
    expect(text('ALLSTOCKS_PROGRESS_ALERT')).toMatch(/ORCL/);
    expect(text('BITCOIN')).toContain('BTC short-term signal Hold → Buy at 96,120.55');
    expect(text('SAVED_STOCK_SCANNER')).toMatch(/PEP/);
    expect(text('ALLSTOCKS_PROGRESS_ALERT')).not.toMatch(/imported prices/);
  });

  it('an idea alert names its source with "imported prices" when the idea is an imported symbol\'s on a version run on imported prices', async () => {
    const headers = await userWithFavorites(t, 'imported-ideas', []);
    const userId = await userIdOf(headers);
    await save(headers, { alert_type: 'ALLSTOCKS_PROGRESS_ALERT', stock_symbols: [] });
    await t.app.alertEvaluation.consumeIdeaEvents();
    await t.db.insert(ideaEvents).values([
      stored({ ideaId: `swing.${IMPORTED}.2026-11-19@1.0.0+data.1a2b3c4d`, engine: 'swing', symbol: IMPORTED, price: 24.5, barDate: '2026-11-19', ruleVersion: 'swing@1.0.0+data.1a2b3c4d' }),
      // The same symbol on the source's data (an earlier version's live idea): not imported.
      stored({ ideaId: `swing.${IMPORTED}.2026-11-18@1.0.0`, engine: 'swing', symbol: IMPORTED, price: 24.1, barDate: '2026-11-18' }),
    ]);
    await consumeIdeaEventsUntil(2);
    const alerts = (await eventsOf(userId)).filter((row) => row.alertType === 'ALLSTOCKS_PROGRESS_ALERT');
    const byDate = new Map(alerts.map((row) => [(row.data as { bar_date: string }).bar_date, row]));
    expect(byDate.get('2026-11-19')!.smsText).toMatch(/imported prices/);
    expect((byDate.get('2026-11-19')!.data as { source: string }).source).toMatch(/, imported prices$/);
    expect(byDate.get('2026-11-18')!.smsText).not.toMatch(/imported prices/);
  });

  it('news batches alert the categories and keywords their rules chose, once per batch', async () => {
    const headers = await userWithFavorites(t, 'news', []);
    const userId = await userIdOf(headers);
    await save(headers, { alert_type: 'GENERAL_NEWS', stock_symbols: ['Economy Monetary'] });
    await save(headers, { alert_type: 'NEWS+TRUMP+MAG7+GNEWS', stock_symbols: ['TSLA'] });
    const article = (id: string, headline: string, datetime: number, related = ''): NewsArticle => ({ id, headline, summary: '', source: 'Test wire', category: 'general', datetime, url: `https://example.com/${id}`, image: '', related });
    const base = Math.floor(Date.parse(OPEN_NOW) / 1000) - 3600;
    news = [article('old', 'Fed holds interest rates steady', base)];
    try {
      await t.app.alertEvaluation.consumeNews();
      // The news already there when the cursor starts alerts nobody.
      expect(await eventsOf(userId)).toHaveLength(0);
      news = [
        ...news,
        article('a', 'Fed signals a rate cut as inflation cools', base + 60),
        article('b', 'Tesla (TSLA) deliveries beat estimates', base + 120, 'TSLA'),
        article('c', 'Oil prices climb on supply worries', base + 180),
      ];
      expect(await t.app.alertEvaluation.consumeNews()).toBe(3);
      expect(await t.app.alertEvaluation.consumeNews()).toBe(0);
      const events = await eventsOf(userId);
      expect(events.map((row) => row.alertType).sort()).toEqual(['GENERAL_NEWS', 'NEWS+TRUMP+MAG7+GNEWS']);
      const general = events.find((row) => row.alertType === 'GENERAL_NEWS')!;
      expect(general.data).toMatchObject({ count: 1 });
      expect(general.emailText).toContain('Fed signals a rate cut as inflation cools');
      const keyword = events.find((row) => row.alertType === 'NEWS+TRUMP+MAG7+GNEWS')!;
      expect(keyword.emailText).toContain('Tesla (TSLA) deliveries beat estimates');
      expect(keyword.emailText).toContain('GNews is not configured');
    } finally {
      news = null;
    }
  });

  it('LEVEL_SYSTEM fires when a favourite comes within half an ATR of one of its levels', async () => {
    const headers = await userWithFavorites(t, 'levels', ['JPM']);
    const userId = await userIdOf(headers);
    const bars = (await t.market.getRecentDailyBars('JPM', 400)).value;
    const level = volumeProfileLevels(bars.high, bars.low, bars.close, bars.volume)[0]!;
    const range = atr(bars.high, bars.low, bars.close, 14).at(-1)!;
    const away = Math.max(...bars.high) + 10 * range;
    control.quote('JPM', away, away);
    await save(headers, { alert_type: 'LEVEL_SYSTEM', stock_symbols: ['JPM'] });
    await t.app.alertEvaluation.pollQuotes();
    expect(await eventsOf(userId)).toHaveLength(0);
    control.quote('JPM', level + 0.1 * range, away);
    await t.app.alertEvaluation.pollQuotes();
    const events = await eventsOf(userId);
    expect(events).toHaveLength(1);
    expect(events[0]!.smsText).toMatch(/^JPM at (support|resistance) /);
  });
});
