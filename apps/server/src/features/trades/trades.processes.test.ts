/**
 * The replay and the daily pass of the real option and drop engines are idempotent across server
 * processes on one database (issue 12): whatever two processes do at once, the idea store ends as
 * one process leaves it — the same events (no duplicate), the same idea rows. Each "process" here
 * has its own connection pool, its own market (and market cache) and its own jobs, as a second
 * server (or worker) would; they share the database and the market's clock. On the simulated
 * market, whose chains price both engines' contracts.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropEngine, optionsEngine, type EngineId, type UniverseMember } from '@signalboard/core';
import { createTestApp, FakeClock, REPLAY_TIMEOUT_MS, type TestApp } from '../../../test/helpers';
import { createDatabase, createPool, type Database } from '../../db/client';
import { ideaEvents, ideas, jobRuns, tradeEngineVersions } from '../../db/schema';
import { createJobRuns } from '../../jobs/job-runs';
import type { Clock } from '../../lib/clock';
import { createMarket } from '../../providers/market';
import type { CachedMarket } from '../../providers/market/cached-market';
import { OPTION_ALERT_TICKERS, universeBySymbol, US_STOCKS } from '../../providers/market/universe';
import { createTradeJobs } from './trades.jobs';
import { createTradesRepo, type TradesRepo } from './trades.repo';
import type { AnyEngine } from './trades.types';

const ENGINES = [optionsEngine, dropEngine] as unknown as AnyEngine[];
const OPTIONS = OPTION_ALERT_TICKERS.slice(0, 8);
const STOCKS = US_STOCKS.slice(0, 24).map((entry) => entry.symbol);
const member = (symbol: string, survivorshipBiased: boolean): UniverseMember => {
  const sector = universeBySymbol.get(symbol)?.sector;
  return { symbol, market: 'US', ...(sector ? { sector } : {}), survivorshipBiased };
};
/** Options: 8 OPTION_ALERT tickers; drop: 24 S&P 500 members (its index) and those. */
const universe = async (survivorshipBiased: boolean, engine: EngineId): Promise<UniverseMember[]> => {
  const symbols = engine === 'options' ? OPTIONS : engine === 'drop' ? [...new Set([...STOCKS, ...OPTIONS])] : STOCKS;
  return symbols.map((symbol) => member(symbol, survivorshipBiased));
};

/** Monday 2 November 2026, 16:31 New York (EST): the daily pass of that session is due. */
const AFTER_CLOSE = Date.UTC(2026, 10, 2, 21, 31);
const MINUTE = 60_000;
/** The start `attempt` of a replay's queued job (jobs/tasks.ts enqueueReplay: one job id per rule version). */
const queuedStart = (ruleVersion: string, attempt: number) => ({ queued: { jobId: `trades-replay-${ruleVersion}`, attempt } });

/**
 * Another server process on `app`'s database: its own pool, market and jobs; the market's clock
 * shared, wall time its own (`wall`); `market` wraps its market (e.g. to hold it up).
 */
function otherProcess(app: TestApp, options: { wall?: Clock; market?: (market: CachedMarket) => CachedMarket; repo?: (repo: TradesRepo) => TradesRepo } = {}) {
  const pool = createPool(app.url, 5);
  const db = createDatabase(pool);
  const own = createMarket(app.config, app.clock);
  const repo = createTradesRepo(db);
  const jobs = createTradeJobs({
    engines: ENGINES,
    repo: options.repo ? options.repo(repo) : repo,
    runs: createJobRuns(db),
    market: options.market ? options.market(own) : own,
    marketClock: app.clock,
    clock: options.wall ?? app.clock,
    log: { info() {}, warn() {} },
    universe,
  });
  return {
    jobs,
    async close() {
      await jobs.stop();
      await pool.end();
    },
  };
}

/** The job_runs row of an engine's daily pass of Monday. */
async function claimOf(app: TestApp, engine: AnyEngine) {
  const [row] = await app.db.select().from(jobRuns).where(and(eq(jobRuns.job, `trades-daily:${engine.id}`), eq(jobRuns.slot, new Date(Date.UTC(2026, 10, 2, 21, 30)))));
  return row;
}

/** Polls the database until `test` holds; a state that never comes fails the test (each test replays both engines: REPLAY_TIMEOUT_MS). */
async function until(test: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + REPLAY_TIMEOUT_MS;
  while (!(await test())) {
    if (Date.now() > deadline) throw new Error('the expected state never came');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** What the store holds, without what differs by the order of writes (the log's sequence numbers, the writing transactions). */
async function store(db: Database) {
  const events = (await db.select().from(ideaEvents)).map(({ sequence: _sequence, txId: _txId, ...event }) => JSON.stringify(event)).sort();
  const rows = (await db.select().from(ideas)).map(({ lastSequence: _lastSequence, ...row }) => JSON.stringify(row)).sort();
  const versions = (await db.select().from(tradeEngineVersions)).map((version) => `${version.ruleVersion} ${version.replayState} ${version.lastSession} ${version.sessionsDone}/${version.sessionsTotal}`).sort();
  return { events, rows, versions };
}
type Store = Awaited<ReturnType<typeof store>>;

const apps: TestApp[] = [];
async function newApp(): Promise<TestApp> {
  const app = await createTestApp({}, { tradeEngines: ENGINES, tradeUniverse: universe });
  apps.push(app);
  return app;
}

/** One process alone: the replays, then Monday's daily passes. */
let afterReplay: Store;
let afterDaily: Store;
beforeAll(async () => {
  const one = await newApp();
  await one.app.tradeJobs.tick();
  await one.app.tradeJobs.replaysIdle();
  afterReplay = await store(one.db);
  one.clock.advance(AFTER_CLOSE - one.clock.nowMs());
  for (const engine of ENGINES) expect(await one.app.tradeJobs.runDaily(engine)).toBe('done');
  afterDaily = await store(one.db);
}, REPLAY_TIMEOUT_MS);
afterAll(async () => {
  for (const app of apps) await app.close();
});

describe('the option and drop engines across two processes', { timeout: REPLAY_TIMEOUT_MS }, () => {
  it('the reference run has ideas of both engines, option trades and O items priced from the chains, and a daily pass that adds events', () => {
    const engines = new Set(afterReplay.rows.map((row) => (JSON.parse(row) as { engine: string }).engine));
    expect(engines).toEqual(new Set(['options', 'drop']));
    const opened = afterReplay.events.map((event) => JSON.parse(event) as { engine: string; type: string; data: { priceSource?: string; stockType?: string; option?: { pricing: { priceSource: string } } } }).filter((event) => event.type === 'opened');
    expect(opened.some((event) => event.engine === 'options' && event.data.priceSource === 'chain')).toBe(true);
    expect(opened.some((event) => event.data.stockType === 'O' && event.data.option?.pricing.priceSource === 'chain')).toBe(true);
    expect(afterDaily.events.length).toBeGreaterThan(afterReplay.events.length);
    expect(afterReplay.versions.map((version) => version.split(' ').slice(0, 3).join(' '))).toEqual(['drop@1.1.0 done 2026-10-30', 'options@1.1.0 done 2026-10-30']);
    expect(afterDaily.versions.map((version) => version.split(' ').slice(0, 3).join(' '))).toEqual(['drop@1.1.0 done 2026-11-02', 'options@1.1.0 done 2026-11-02']);
  });

  it('two processes tick and run the daily passes at the same time: each replay and pass runs once, and the store is one run’s', async () => {
    const app = await newApp();
    const other = otherProcess(app);
    try {
      await Promise.all([app.app.tradeJobs.tick(), other.jobs.tick()]);
      await Promise.all([app.app.tradeJobs.replaysIdle(), other.jobs.replaysIdle()]);
      expect(await store(app.db)).toEqual(afterReplay);

      app.clock.advance(AFTER_CLOSE - app.clock.nowMs());
      for (const engine of ENGINES) {
        const outcomes = await Promise.all([app.app.tradeJobs.runDaily(engine), other.jobs.runDaily(engine)]);
        expect(outcomes.sort(), engine.id).toEqual(['done', 'skipped']);
      }
      expect(await store(app.db)).toEqual(afterDaily);
      // The slots are done: neither runs them again.
      for (const engine of ENGINES) expect([await app.app.tradeJobs.runDaily(engine), await other.jobs.runDaily(engine)]).toEqual(['skipped', 'skipped']);
      expect(await store(app.db)).toEqual(afterDaily);
    } finally {
      await other.close();
    }
  });

  it('a daily pass taken over from a stalled process: the stalled one, waking up once the other has stored the session, stores nothing more', async () => {
    const app = await newApp();
    await app.app.tradeJobs.tick();
    await app.app.tradeJobs.replaysIdle();
    app.clock.advance(AFTER_CLOSE - app.clock.nowMs());
    for (const engine of ENGINES) {
      // The first process claims the pass (and reads which sessions to run), then stalls reading the bars.
      let wake = () => undefined as void;
      const held = new Promise<void>((resolve) => (wake = resolve));
      const stalled = otherProcess(app, { market: (market) => ({ ...market, getRecentDailyBars: async (symbol, days) => (await held, market.getRecentDailyBars(symbol, days)) }) });
      // The second one's wall clock is 16 minutes ahead: the first one's claim looks stale (15 min) to it.
      const second = otherProcess(app, { wall: new FakeClock(AFTER_CLOSE + 16 * MINUTE) });
      try {
        const first = stalled.jobs.runDaily(engine);
        await until(async () => (await claimOf(app, engine))?.status === 'running');
        expect(await second.jobs.runDaily(engine), engine.id).toBe('done');
        // The stalled one wakes with the session still on its list, and the store's open ideas past it; the claim
        // is the second's now (its attempt): the stalled one records nothing over it.
        wake();
        expect(await first, engine.id).toBe('skipped');
        expect(await claimOf(app, engine), engine.id).toMatchObject({ status: 'done', attempts: 2 });
      } finally {
        wake();
        await stalled.close();
        await second.close();
      }
    }
    expect(await store(app.db)).toEqual(afterDaily);
  });

  it('a replay whose worker died holding it is taken over at once by its job started again: the store ends as one run’s', async () => {
    const app = await newApp();
    // The first holder claims the replays, then hangs reading the bars: a dead worker's claims stay 'running', and fresh.
    let wake = () => undefined as void;
    const held = new Promise<void>((resolve) => (wake = resolve));
    const dead = otherProcess(app, { market: (market) => ({ ...market, getRecentDailyBars: async (symbol, days) => (await held, market.getRecentDailyBars(symbol, days)) }) });
    const second = otherProcess(app);
    try {
      const first = ENGINES.map((engine) => dead.jobs.runReplay(engine.ruleVersion, queuedStart(engine.ruleVersion, 1)));
      const running = async () => (await app.db.select().from(jobRuns)).filter((row) => row.job.startsWith('trades-replay:') && row.status === 'running').length;
      await until(async () => (await running()) === ENGINES.length);
      // A job's first start leaves a live claim alone (another process runs it) ...
      for (const engine of ENGINES) expect(await second.jobs.runReplay(engine.ruleVersion, queuedStart(engine.ruleVersion, 1)), engine.id).toBe('skipped');
      // ... the job started again, its worker gone, takes the claim over without waiting for it to go stale.
      for (const engine of ENGINES) expect(await second.jobs.runReplay(engine.ruleVersion, queuedStart(engine.ruleVersion, 2)), engine.id).toBe('done');
      expect(await store(app.db)).toEqual(afterReplay);
      // A done replay is not run again, whether or not its job was started before; nor an unknown version.
      expect(await second.jobs.runReplay(ENGINES[0]!.ruleVersion, queuedStart(ENGINES[0]!.ruleVersion, 2))).toBe('skipped');
      expect(await second.jobs.runReplay('options@0.9.0', queuedStart('options@0.9.0', 2))).toBe('skipped');
      // The first holder wakes after all: it stores nothing more.
      wake();
      await Promise.all(first);
      expect(await store(app.db)).toEqual(afterReplay);
    } finally {
      wake();
      await dead.close();
      await second.close();
    }
  });

  it('a holder that wakes after its replay was taken over leaves the claim to the process now running it', async () => {
    const app = await newApp();
    const [engine, other] = ENGINES as [AnyEngine, AnyEngine];
    const gate = () => {
      let open = () => undefined as void;
      const opened = new Promise<void>((resolve) => (open = resolve));
      return { opened, open };
    };
    // The first holder stalls once it has read where the store stands (nothing replayed yet) ...
    const firstHeld = gate();
    let versionReads = 0;
    const first = otherProcess(app, {
      repo: (repo) => ({
        ...repo,
        version: async (id, ruleVersion) => {
          const row = await repo.version(id, ruleVersion);
          if (ruleVersion === engine.ruleVersion && (versionReads += 1) === 2) await firstHeld.opened;
          return row;
        },
      }),
    });
    // ... the second takes it over and stalls half-way, 20 sessions stored.
    const secondHeld = gate();
    const second = otherProcess(app, {
      repo: (repo) => ({
        ...repo,
        saveVersion: async (tx, row, nowMs) => {
          await repo.saveVersion(tx, row, nowMs);
          if (row.ruleVersion === engine.ruleVersion && row.sessionsDone === 20 && row.replayState === undefined) await secondHeld.opened;
        },
      }),
    });
    const claim = async () => (await app.db.select().from(jobRuns).where(eq(jobRuns.job, `trades-replay:${engine.ruleVersion}`)))[0];
    try {
      const firstRun = first.jobs.runReplay(engine.ruleVersion, queuedStart(engine.ruleVersion, 1));
      await until(async () => versionReads >= 2);
      const secondRun = second.jobs.runReplay(engine.ruleVersion, queuedStart(engine.ruleVersion, 2));
      await until(async () => (await app.db.select().from(tradeEngineVersions).where(eq(tradeEngineVersions.ruleVersion, engine.ruleVersion)))[0]?.sessionsDone === 20);
      // The first wakes: its first session is stored already, so it hands the replay on, and the claim stays the second's.
      firstHeld.open();
      expect(await firstRun).toBe('skipped');
      expect(await claim()).toMatchObject({ status: 'running', attempts: 2 });
      secondHeld.open();
      expect(await secondRun).toBe('done');
      expect(await claim()).toMatchObject({ status: 'done', attempts: 2 });
      expect(await second.jobs.runReplay(other.ruleVersion, queuedStart(other.ruleVersion, 1))).toBe('done');
      expect(await store(app.db)).toEqual(afterReplay);
    } finally {
      firstHeld.open();
      secondHeld.open();
      await first.close();
      await second.close();
    }
  });

  it('a replay stopped half-way in one process is taken over by another: the store ends as one run’s', async () => {
    const app = await newApp();
    const first = otherProcess(app);
    await first.jobs.tick();
    // Stop the first process once some of its sessions are stored (the replay writes its progress every 10 sessions).
    for (;;) {
      const versions = await app.db.select().from(tradeEngineVersions);
      if (versions.some((version) => version.sessionsDone >= 20)) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await first.close();
    const partial = await store(app.db);
    expect(partial.versions.some((version) => version.includes(' failed '))).toBe(true);
    expect(partial.events.length).toBeGreaterThan(0);
    expect(partial.events.length).toBeLessThan(afterReplay.events.length);

    // The failed replay is retried (after its backoff) by the next process that ticks.
    const second = otherProcess(app, { wall: new FakeClock(app.clock.nowMs() + 2 * MINUTE) });
    try {
      await second.jobs.tick();
      await second.jobs.replaysIdle();
      expect(await store(app.db)).toEqual(afterReplay);
    } finally {
      await second.close();
    }
  });
});
