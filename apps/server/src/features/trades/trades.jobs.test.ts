import { count, eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { swingTrade, type EngineDefinition } from '@signalboard/core';
import { createFakeEngine, testUniverse, type FakeState } from '../../../test/fake-engine';
import { createTestApp, createUser, login, REPLAY_TIMEOUT_MS, uniqueEmail, type TestApp } from '../../../test/helpers';
import { ideaEvents, ideas, jobRuns, tradeEngineVersions } from '../../db/schema';
import { createJobRuns } from '../../jobs/job-runs';
import type { CachedMarket } from '../../providers/market/cached-market';
import { sliceBars } from '../../providers/market/cached-market';
import { createTradeJobs } from './trades.jobs';
import { createTradesRepo } from './trades.repo';
import type { AnyEngine } from './trades.types';
import type { LiveBus, LiveEvent } from '../../lib/live-bus';
import { createInProcessBus } from '../live/live-bus';

const MINUTE = 60_000;
/** Monday 2 November 2026, 16:31 New York (EST): the daily pass of that session is due. */
const AFTER_CLOSE = Date.UTC(2026, 10, 2, 21, 31);

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

type Fake = EngineDefinition<{ drop: number }, FakeState, Record<string, unknown>>;

/** An app on a fresh database whose engines have replayed their history (the clock: Monday 10:00 New York). */
async function replayed(engines: Fake[], bus?: LiveBus): Promise<TestApp> {
  const app = await createTestApp({}, { tradeEngines: engines, tradeUniverse: testUniverse, ...(bus ? { bus } : {}) });
  await app.app.tradeJobs.tick();
  await app.app.tradeJobs.replaysIdle();
  return app;
}

/** Another server process on the same database: its own jobs, on the same clock and market. */
const otherProcess = (app: TestApp, engines: readonly AnyEngine[], market: CachedMarket = app.market) =>
  createTradeJobs({ engines, repo: createTradesRepo(app.db), runs: createJobRuns(app.db), market, marketClock: app.clock, clock: app.clock, log: { info() {}, warn() {} }, universe: testUniverse });

const eventCount = async (app: TestApp) => (await app.db.select({ n: count() }).from(ideaEvents))[0]!.n;
const version = async (app: TestApp, ruleVersion: string) => (await app.db.select().from(tradeEngineVersions).where(eq(tradeEngineVersions.ruleVersion, ruleVersion)))[0];
const rowsById = async (app: TestApp) => new Map((await app.db.select().from(ideas)).map((row) => [row.id, row]));

describe('the daily pass', { timeout: REPLAY_TIMEOUT_MS }, () => {
  it('runs a session once, even when two processes run the slot at the same time', async () => {
    // Falls of 0.5 % open ideas: Monday's pass has events to record, whatever the market did that day.
    const engine = createFakeEngine({ drop: 0.005 });
    t = await replayed([engine]);
    expect((await version(t, 'swing@1.0.0'))!.lastSession).toBe('2026-10-30');
    // Before 16:30 the due slot is Friday's, which the replay covered: nothing to run.
    expect(await t.app.tradeJobs.runDaily(engine)).toBe('done');
    expect((await version(t, 'swing@1.0.0'))!.lastSession).toBe('2026-10-30');

    t.clock.advance(AFTER_CLOSE - t.clock.nowMs());
    const before = await eventCount(t);
    const other = otherProcess(t, [engine]);
    const outcomes = await Promise.all([t.app.tradeJobs.runDaily(engine), other.runDaily(engine)]);
    expect(outcomes.sort()).toEqual(['done', 'skipped']);
    expect((await version(t, 'swing@1.0.0'))!.lastSession).toBe('2026-11-02');
    const after = await eventCount(t);
    expect(after).toBeGreaterThan(before); // Friday's signals filled at Monday's open, Monday's own signals
    const runs = await t.db.select().from(jobRuns).where(eq(jobRuns.job, 'trades-daily:swing'));
    expect(runs.filter((run) => run.slot.toISOString() === '2026-11-02T21:30:00.000Z')).toMatchObject([{ status: 'done', attempts: 1 }]);
    // The slot is done: neither process runs it again.
    expect(await other.runDaily(engine)).toBe('skipped');
    expect(await t.app.tradeJobs.runDaily(engine)).toBe('skipped');
    expect(await eventCount(t)).toBe(after);
  });

  it('catches up missed sessions in order; ideas recorded after their entry bar opened count as replayed', async () => {
    const engine = createFakeEngine();
    t = await replayed([engine]);
    // The server was down Monday to Wednesday: Thursday 16:31 runs Monday, Tuesday, Wednesday and Thursday.
    t.clock.advance(AFTER_CLOSE + 3 * 24 * 60 * MINUTE - t.clock.nowMs());
    expect(await t.app.tradeJobs.runDaily(engine)).toBe('done');
    expect((await version(t, 'swing@1.0.0'))!.lastSession).toBe('2026-11-05');
    const opened = await t.db.select().from(ideaEvents).where(eq(ideaEvents.type, 'opened'));
    const late = opened.filter((event) => event.barDate >= '2026-11-02' && event.barDate < '2026-11-05');
    const onTime = opened.filter((event) => event.barDate === '2026-11-05');
    expect(late.length + onTime.length).toBeGreaterThan(0);
    for (const event of late) expect(event.origin).toBe('replayed');
    for (const event of onTime) expect(event.origin).toBe('live');
    // Each session's events are recorded in session order (the log's sequence follows the sessions).
    const dates = (await t.db.select().from(ideaEvents).orderBy(ideaEvents.sequence)).filter((event) => event.barDate >= '2026-11-02').map((event) => event.barDate);
    expect(dates).toEqual([...dates].sort());
  });

  it('a failed pass keeps the last good ideas and is retried with backoff', async () => {
    const failOn = { date: undefined as string | undefined };
    const engine = createFakeEngine({ failOn });
    t = await replayed([engine]);
    t.clock.advance(AFTER_CLOSE - t.clock.nowMs());
    const before = await rowsById(t);
    const events = await eventCount(t);
    failOn.date = '2026-11-02';
    expect(await t.app.tradeJobs.runDaily(engine)).toBe('failed');
    expect(await rowsById(t)).toEqual(before);
    expect(await eventCount(t)).toBe(events);
    expect((await version(t, 'swing@1.0.0'))!.lastSession).toBe('2026-10-30');
    const [run] = await t.db.select().from(jobRuns).where(eq(jobRuns.job, 'trades-daily:swing'));
    expect(run).toMatchObject({ status: 'failed', error: 'fake engine: 2026-11-02 fails' });

    failOn.date = undefined;
    expect(await t.app.tradeJobs.runDaily(engine)).toBe('skipped'); // within the backoff
    t.clock.advance(MINUTE);
    expect(await t.app.tradeJobs.runDaily(engine)).toBe('done');
    expect((await version(t, 'swing@1.0.0'))!.lastSession).toBe('2026-11-02');
  });

  it('waits until the bars of the session are there', async () => {
    const engine = createFakeEngine();
    t = await replayed([engine]);
    t.clock.advance(AFTER_CLOSE - t.clock.nowMs());
    // A source that has not published Monday's bar yet.
    const lagging: CachedMarket = {
      ...t.market,
      getRecentDailyBars: async (symbol, days) => {
        const answer = await t!.market.getRecentDailyBars(symbol, days);
        return { ...answer, value: sliceBars(answer.value, 0, Date.UTC(2026, 10, 1) / 1000) };
      },
    };
    const other = otherProcess(t, [engine], lagging);
    expect(await other.runDaily(engine)).toBe('failed');
    const [run] = await t.db.select().from(jobRuns).where(eq(jobRuns.job, 'trades-daily:swing'));
    expect(run!.error).toBe('the bars of 2026-11-02 are not there yet (0 of 12 symbols); retried until they are');
    expect((await version(t, 'swing@1.0.0'))!.lastSession).toBe('2026-10-30');
    t.clock.advance(MINUTE);
    expect(await t.app.tradeJobs.runDaily(engine)).toBe('done');
    expect((await version(t, 'swing@1.0.0'))!.lastSession).toBe('2026-11-02');
  });

  it('does not wait for symbols the source has no bars for at all', async () => {
    const engine = createFakeEngine();
    t = await replayed([engine]);
    t.clock.advance(AFTER_CLOSE - t.clock.nowMs());
    // Seven of the twelve symbols are listed for their quotes only: no daily bars, now or ever.
    const quoteOnly = new Set((await testUniverse(false)).slice(0, 7).map((member) => member.symbol));
    const partial: CachedMarket = {
      ...t.market,
      getRecentDailyBars: async (symbol, days) => {
        const answer = await t!.market.getRecentDailyBars(symbol, days);
        return quoteOnly.has(symbol) ? { ...answer, value: sliceBars(answer.value, 0, 0) } : answer;
      },
    };
    const other = otherProcess(t, [engine], partial);
    expect(await other.runDaily(engine)).toBe('done');
    expect((await version(t, 'swing@1.0.0'))!.lastSession).toBe('2026-11-02');
  });
});

describe('a new rule version', { timeout: REPLAY_TIMEOUT_MS }, () => {
  it('replays again; the list shows live ideas of every version and replayed ideas of the current one', async () => {
    const v1 = createFakeEngine();
    t = await replayed([v1]);
    t.clock.advance(AFTER_CLOSE - t.clock.nowMs());
    expect(await t.app.tradeJobs.runDaily(v1)).toBe('done');
    const v1Rows = await rowsById(t);
    const v1Live = [...v1Rows.values()].filter((row) => row.origin === 'live');
    const v1Replayed = [...v1Rows.values()].filter((row) => row.origin === 'replayed');
    expect(v1Replayed.length).toBeGreaterThan(0);

    // The next start runs swing@2.0.0 on the same database.
    const v2 = createFakeEngine({ ruleVersion: 'swing@2.0.0' });
    const second = otherProcess(t, [v2]);
    expect(await second.tick()).toEqual({});
    await second.replaysIdle();
    const status = await version(t, 'swing@2.0.0');
    expect(status).toMatchObject({ replayState: 'done', lastSession: '2026-11-02', error: null });
    expect(status!.sessionsDone).toBe(status!.sessionsTotal);
    // The old version's status and ideas stay.
    expect((await version(t, 'swing@1.0.0'))!.replayState).toBe('done');

    const v2Rows = [...(await rowsById(t)).values()].filter((row) => row.ruleVersion === 'swing@2.0.0');
    expect(v2Rows.length).toBeGreaterThan(0);
    for (const row of v2Rows) {
      expect(row.origin).toBe('replayed');
      expect(row.id).toMatch(/@2\.0\.0$/);
    }

    // The list (of an app on the new version) shows v2's replayed ideas and v1's live ones, no v1 replayed one.
    const email = uniqueEmail('v2');
    await createUser(t.db, email, 'pw');
    const listing = await listOf(t, [v2], email);
    const versions = new Set(listing.map((row) => `${row.RuleVersion} ${row.Origin}`));
    expect(versions.has('swing@2.0.0 replayed')).toBe(true);
    expect(versions.has('swing@1.0.0 replayed')).toBe(false);
    if (v1Live.length > 0) expect(versions.has('swing@1.0.0 live')).toBe(true);
    expect(listing.length).toBe(v2Rows.filter((row) => !row.isVoided).length + v1Live.length);
  });
});

/** The swing list as an app running `engines` on `app`'s database answers it. */
async function listOf(app: TestApp, engines: readonly AnyEngine[], email: string) {
  const { buildApp } = await import('../../app');
  const other = await buildApp({
    config: app.config,
    db: app.db,
    pool: app.pool,
    mailer: app.mailer,
    market: app.market,
    marketClock: app.clock,
    jwtSecret: 'test-secret-test-secret-test-secret-0123',
    clock: app.clock,
    logger: false,
    tradeEngines: engines,
    tradeUniverse: testUniverse,
  });
  try {
    await other.ready();
    const headers = await login(other, email, 'pw');
    const response = await other.inject({ method: 'GET', url: '/api/get_swing_trade_entries?limit=500', headers });
    return z.array(swingTrade).parse(response.json());
  } finally {
    await other.close();
  }
}

describe('marks', { timeout: REPLAY_TIMEOUT_MS }, () => {
  it('refresh CurrentPrice of open ideas while the market is open, without adding events', async () => {
    const engine = createFakeEngine();
    const bus = createInProcessBus();
    const published: LiveEvent[] = [];
    bus.subscribe((event) => published.push(event));
    t = await replayed([engine], bus);
    const before = await rowsById(t);
    const open = [...before.values()].filter((row) => row.isOpen);
    expect(open.length).toBeGreaterThan(0);
    const events = await eventCount(t);
    // Monday 10:00 New York: open; the replay marked the open ideas at Friday's close.
    expect(published.filter((event) => event.type === 'ideas')).toEqual([]);
    expect(await t.app.tradeJobs.runMarks(engine)).toBe('done');
    // The trade screens hear of it (live updates).
    await expect.poll(() => published.filter((event) => event.type === 'ideas').map((event) => event.type === 'ideas' && event.engine)).toEqual([engine.id]);
    expect(await eventCount(t)).toBe(events);
    const after = await rowsById(t);
    let changed = 0;
    for (const row of open) {
      const now = after.get(row.id)!;
      const quote = (await t.market.getQuote(row.symbol)).value;
      expect(now.markPrice).toBe(quote.price);
      expect((now.row as { CurrentPrice: number }).CurrentPrice).toBe(quote.price);
      expect(now.lastSequence).toBe(row.lastSequence);
      if (now.markPrice !== row.markPrice) changed += 1;
    }
    expect(changed).toBeGreaterThan(0);
    // Closed ideas are not touched.
    for (const row of before.values()) if (!row.isOpen) expect(after.get(row.id)).toEqual(row);
    // The same 5-minute slot is not run twice; the next one is.
    expect(await t.app.tradeJobs.runMarks(engine)).toBe('skipped');
    t.clock.advance(5 * MINUTE);
    expect(await t.app.tradeJobs.runMarks(engine)).toBe('done');
    // After the close there is no mark slot.
    t.clock.advance(AFTER_CLOSE - t.clock.nowMs());
    expect(await t.app.tradeJobs.runMarks(engine)).toBe('skipped');
  });
});

/** Thursday 5 November 2026, 11:00 New York (EST): the market is open; Wednesday's pass is the last due. */
const THURSDAY_OPEN = Date.UTC(2026, 10, 5, 16, 0);
/** The longest the first tick of a restarted server may take to catch up three sessions of the test universe. */
const CATCH_UP_BUDGET_MS = 15_000;

/**
 * Every stored row is the fold of its whole log: closed (not open, not active, not 'active') when
 * the log holds a close, else open and marked at `quote` of its symbol when given. Answers the ids
 * of the ideas `before` had open that are closed now.
 */
async function expectRowsFollowTheirLogs(app: TestApp, before: Map<string, typeof ideas.$inferSelect>, quote?: (symbol: string) => Promise<number>): Promise<string[]> {
  const after = await rowsById(app);
  const logs = await createTradesRepo(app.db).eventsOf(app.db, [...after.keys()]);
  for (const row of after.values()) {
    const log = logs.get(row.id)!;
    const closed = log.some((event) => event.type === 'closed');
    expect({ id: row.id, lastSequence: row.lastSequence, isOpen: row.isOpen, isActive: row.isActive, active: row.status === 'active' }).toEqual({ id: row.id, lastSequence: log.at(-1)!.sequence, isOpen: !closed, isActive: !closed, active: !closed });
    if (!closed && quote) expect({ id: row.id, markPrice: row.markPrice }).toEqual({ id: row.id, markPrice: await quote(row.symbol) });
  }
  return [...before.values()].filter((row) => row.isOpen && !after.get(row.id)!.isOpen).map((row) => row.id);
}

describe('a restart after days down (the clock moved forward)', { timeout: REPLAY_TIMEOUT_MS }, () => {
  it('runs the missed sessions on its first tick, closes what they close, then marks the ideas left open at the quote of now', async () => {
    const engine = createFakeEngine();
    t = await replayed([engine]);
    const before = await rowsById(t);
    // Stopped on Monday at 10:00, started again on Thursday at 11:00: Monday to Wednesday are missed.
    t.clock.advance(THURSDAY_OPEN - t.clock.nowMs());
    const restarted = otherProcess(t, [engine]);
    const started = performance.now();
    expect(await restarted.tick()).toEqual({ 'trades-daily:swing': 'done', 'trades-marks:swing': 'done' });
    expect(performance.now() - started).toBeLessThan(CATCH_UP_BUDGET_MS);
    expect((await version(t, 'swing@1.0.0'))!.lastSession).toBe('2026-11-04');
    const closed = await expectRowsFollowTheirLogs(t, before, async (symbol) => (await t!.market.getQuote(symbol)).value.price);
    expect(closed.length).toBeGreaterThan(0);
  });

  it('marks taken by another process during the catch-up never bring back an idea the catch-up closed', async () => {
    const engine = createFakeEngine();
    t = await replayed([engine]);
    const before = await rowsById(t);
    t.clock.advance(THURSDAY_OPEN - t.clock.nowMs());
    const app = t;
    // The interleaving the restarted server met: the marks read the open rows, the catch-up stores
    // its sessions (closing some of them), and only then do the marks write.
    let marksHaveRead = () => undefined as void;
    const marksRead = new Promise<void>((resolve) => (marksHaveRead = resolve));
    const caughtUp = async () => {
      const deadline = Date.now() + 20_000;
      while ((await version(app, 'swing@1.0.0'))!.lastSession !== '2026-11-04') {
        if (Date.now() > deadline) throw new Error('the catch-up did not store Wednesday within 20 s');
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    };
    const quotesAfterCatchUp: CachedMarket = {
      ...app.market,
      getQuote: async (symbol) => {
        marksHaveRead();
        await caughtUp();
        return app.market.getQuote(symbol);
      },
    };
    const barsAfterMarksRead: CachedMarket = {
      ...app.market,
      getRecentDailyBars: async (symbol, days) => {
        await marksRead;
        return app.market.getRecentDailyBars(symbol, days);
      },
    };
    const marking = otherProcess(app, [engine], quotesAfterCatchUp);
    const catchingUp = otherProcess(app, [engine], barsAfterMarksRead);
    expect(await Promise.all([catchingUp.runDaily(engine), marking.runMarks(engine)])).toEqual(['done', 'done']);
    const closed = await expectRowsFollowTheirLogs(app, before);
    expect(closed.length).toBeGreaterThan(0);
  });
});

describe('the replay gives way to requests (issue 24)', () => {
  it('takes a foreground turn within each session, before the engine runs, and stores the same as a run without', async () => {
    const engine = createFakeEngine();
    t = await createTestApp({}, { tradeEngines: [engine], tradeUniverse: testUniverse });
    // Each turn and each engine session, in order: between two sessions a turn before the session's
    // inputs (lib/foreground.ts) and one right before the engine (its session is a slice of its own).
    const order: string[] = [];
    const counted: AnyEngine = { ...(engine as unknown as AnyEngine), runSession: (input) => (order.push('engine'), engine.runSession(input as Parameters<Fake['runSession']>[0])) };
    const foreground = { begin: () => () => undefined, turn: async () => void order.push('turn') };
    const jobs = createTradeJobs({ engines: [counted], repo: createTradesRepo(t.db), runs: createJobRuns(t.db), market: t.market, marketClock: t.clock, clock: t.clock, log: { info() {}, warn() {} }, universe: testUniverse, foreground });
    await jobs.startReplay(counted);
    await jobs.replaysIdle();
    const sessions = order.filter((step) => step === 'engine').length;
    expect(sessions).toBeGreaterThan(10);
    // Every engine session follows at least two turns since the one before it.
    const turnsBefore = order.join(' ').split('engine').slice(0, -1).map((part) => part.split('turn').length - 1);
    expect(turnsBefore.every((turns) => turns >= 2)).toBe(true);
    expect((await version(t, 'swing@1.0.0'))!.replayState).toBe('done');

    // The same replay without turns (a worker) stores the same ideas.
    // By id: a select without ORDER BY answers in whatever order the table holds the rows.
    const byId = (rows: Map<string, typeof ideas.$inferSelect>) => [...rows.values()].sort((a, b) => a.id.localeCompare(b.id)).map(({ updatedAt: _updatedAt, ...row }) => row);
    const paced = byId(await rowsById(t));
    await t.close();
    t = await replayed([engine]);
    const plain = byId(await rowsById(t));
    expect(paced.length).toBeGreaterThan(0);
    expect(paced).toEqual(plain);
  });
});
