/**
 * buildApp with `queued` (the REDIS_URL wiring of server.ts and worker.ts): what the API would run
 * in-process goes to the queue instead — the delivery kick after an alert commit, the first
 * dashboard fill (with the read's request id), the engines' replays — and the health answer says
 * when the workers last evaluated alerts.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertDeliveries, alertEvents, jobRuns, tradeEngineVersions, users } from '../db/schema';
import { createTradesRepo } from '../features/trades/trades.repo';
import { createTestApp, type TestApp, userWithFavorites } from '../../test/helpers';
import type { QueuedWork } from './tasks';

/** Friday 2026-11-20, 10:30 in New York: the market is open. */
const OPEN_NOW = '2026-11-20T15:30:00Z';

const calls: string[] = [];
const queued: QueuedWork = {
  kickDelivery: () => void calls.push('kick'),
  fillDashboard: async (requestId) => void calls.push(`fill ${requestId ?? '-'}`),
  replay: async (ruleVersion) => void calls.push(`replay ${ruleVersion}`),
  backtest: async (job) => void calls.push(`backtest ${job.scanId}`),
  alertsEvaluatedAtMs: () => 1_795_000_000_000,
  close: () => undefined,
};

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ MARKET_NOW: OPEN_NOW }, { queued });
});
afterAll(async () => t?.close());

describe('an app whose jobs run on the queue', () => {
  it('an alert commit kicks a queued delivery pass', async () => {
    const headers = await userWithFavorites(t, 'queued-kick', ['AAPL']);
    const saved = await t.app.inject({
      method: 'POST',
      url: '/api/save_alert_preferences',
      headers,
      payload: { alert_type: 'PERCENT_DROP', stock_symbols: ['AAPL'], threshold_value: 50, enable_sms: false, enable_email: true, is_active: true },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    calls.length = 0;
    const report = await t.app.alertEvaluation.evaluateQuotes([{ symbol: 'AAPL', price: 40, previousClose: 100, asOfMs: Date.parse(OPEN_NOW), source: 'Simulated market' }]);
    expect(report.fired).toBe(1);
    expect(calls).toEqual(['kick']);
    // The delivery waits for the worker's pass.
    const email = (await t.app.inject({ method: 'GET', url: '/api/getemail', headers })).json<{ email: string }>().email;
    const [user] = await t.db.select({ id: users.id }).from(users).where(eq(users.email, email));
    const [event] = await t.db.select().from(alertEvents).where(eq(alertEvents.userId, user!.id));
    const deliveries = await t.db.select().from(alertDeliveries).where(eq(alertDeliveries.eventId, event!.id));
    expect(deliveries.map((delivery) => delivery.status)).toEqual(['queued']);
  });

  it('a dashboard read that finds its part empty asks the queue for the fill, with its request id, and runs no job itself', async () => {
    const headers = await userWithFavorites(t, 'queued-fill', []);
    calls.length = 0;
    // The caller's (or the proxy's) request id travels with the job to the worker's log.
    const response = await t.app.inject({ method: 'GET', url: '/api/top_economic_indicators', headers: { ...headers, 'x-request-id': 'proxy-fill-7' } });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual([]);
    expect(response.headers['x-request-id']).toBe('proxy-fill-7');
    expect(calls).toEqual(['fill proxy-fill-7']);
    expect(await t.db.select().from(jobRuns)).toEqual([]);
  });

  it('a tick enqueues the replays due instead of running them, drop’s once swing’s is done', async () => {
    calls.length = 0;
    await t.app.tradeJobs.tick();
    const replays = () => calls.filter((call) => call.startsWith('replay ')).sort();
    expect(replays()).toEqual(['replay crypto@1.0.0', 'replay layered@1.0.0', 'replay options@1.1.0', 'replay swing@1.0.0']);
    // Nothing ran here: no claim, no progress row.
    expect(await t.db.select().from(jobRuns)).toEqual([]);
    expect(await t.db.select().from(tradeEngineVersions)).toEqual([]);
    const swing = t.app.tradeJobs.versions.registered.get('swing')!;
    await createTradesRepo(t.db).saveVersion(t.db, { engine: 'swing', ruleVersion: swing.ruleVersion, paramHash: swing.paramHash, replayState: 'done' }, t.clock.nowMs());
    calls.length = 0;
    await t.app.tradeJobs.tick();
    expect(replays()).toEqual(['replay crypto@1.0.0', 'replay drop@1.1.0', 'replay layered@1.0.0', 'replay options@1.1.0']);
  });

  it('the health answer says when the workers last evaluated alerts', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.json()).toMatchObject({ alerts_evaluated_at: 1_795_000_000_000 });
  });
});
