/**
 * A registry job whose holder died (a worker SIGKILLed mid-job leaves its job_runs claim 'running'
 * and fresh) is run at once by the same queued job started again (BullMQ redelivers it; TickOptions
 * `queued` with a later attempt), not 15 minutes later when the claim goes stale — for every kind of
 * job the registry ticks: the dashboard's three, the engines' daily passes and marks. A first start
 * still leaves a live claim alone, so does another queued job started again (a duplicate tick: the
 * queue's lock says nothing about the claim's holder), a done slot is never run again, and a holder
 * that wakes after its claim was taken over records nothing over the new holder's claim. The dead holder here is a second "process" (its
 * own jobs on the same database) held right after its claim (JobRunnerDeps.hold) and never let go.
 */
import { hostname } from 'node:os';
import { and, count, eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { createFakeEngine, testUniverse } from '../../test/fake-engine';
import { createTestApp, type TestApp } from '../../test/helpers';
import { economicIndicators, jobRuns, overallSentiment, sectorSentiment, tradeEngineVersions } from '../db/schema';
import { createDashboardJobs, DASHBOARD_INDICATORS } from '../features/dashboard/dashboard.jobs';
import { createDashboardRepo } from '../features/dashboard/dashboard.repo';
import { createTradeJobs } from '../features/trades/trades.jobs';
import { createTradesRepo } from '../features/trades/trades.repo';
import type { AnyEngine } from '../features/trades/trades.types';
import { createLocalAnalyst } from '../providers/ai/local';
import { GICS_SECTORS } from '../providers/market/universe';
import { createJobRuns } from './job-runs';

const DASHBOARD = ['overall-sentiment', 'sector-sentiment', 'economic-indicators'] as const;
/** Monday 2 November 2026, 16:31 New York (EST): the daily pass of that session is due. */
const AFTER_CLOSE = Date.UTC(2026, 10, 2, 21, 31);

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** A hold for the named jobs (all when none named): each waits after its claim until `release`. */
function gate(names?: readonly string[]) {
  let release = () => undefined as void;
  const released = new Promise<void>((resolve) => (release = resolve));
  return { release, hold: (job: string) => (names && !names.includes(job) ? Promise.resolve() : released) };
}

/** The claims of these jobs (status and attempt), by job. */
async function claims(app: TestApp, names: readonly string[]) {
  const rows = await app.db.select().from(jobRuns);
  return Object.fromEntries(rows.filter((row) => names.includes(row.job)).map((row) => [row.job, `${row.status} ${row.attempts}`]));
}

async function until(test: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await test())) {
    if (Date.now() > deadline) throw new Error('the expected state never came');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const log = { info() {}, warn() {} };
/** The dead holder's queued tick (a BullMQ repeat job), its first start and BullMQ's redelivery of it. */
const TICK = 'repeat:jobs-tick:1796169600000';
const first = { queued: { jobId: TICK, attempt: 1 } };
const again = { queued: { jobId: TICK, attempt: 2 } };
/** Another scheduler's tick, itself started again. */
const otherTick = { queued: { jobId: 'jobs-tick-start-29936160', attempt: 2 } };
const all = (outcome: string) => Object.fromEntries(DASHBOARD.map((job) => [job, outcome]));

describe('the dashboard jobs', () => {
  /** Another server process on the app's database, its runs held after their claim by `hold`. */
  const dashboardProcess = (app: TestApp, hold: (job: string) => Promise<void>) =>
    createDashboardJobs({ repo: createDashboardRepo(app.db), runs: createJobRuns(app.db), market: app.market, analyst: createLocalAnalyst({ maxInputChars: 20_000 }), marketClock: app.clock, clock: app.clock, log, hold });

  it('each one left running by a dead holder is skipped by a first start and taken over at once by its job started again; a done slot never', async () => {
    t = await createTestApp();
    const dead = dashboardProcess(t, gate().hold);
    void dead.tick(first);
    await until(async () => Object.values(await claims(t!, DASHBOARD)).filter((claim) => claim === 'running 1').length === 3);
    // The claims name their holder: this process, and the queued job's first start.
    const [claim] = await t.db.select().from(jobRuns).where(eq(jobRuns.job, 'sector-sentiment'));
    expect(claim).toMatchObject({ holder: `${hostname()}:${process.pid}`, holderJob: TICK, holderAttempt: 1 });
    // A first start leaves a live holder's claim alone (no 15 minutes have passed) ...
    expect(await t.app.dashboardJobs.tick()).toEqual(all('skipped'));
    // ... and so does another tick started again: its lost lock says nothing of this claim's holder ...
    expect(await t.app.dashboardJobs.tick(otherTick)).toEqual(all('skipped'));
    expect(await claims(t, DASHBOARD)).toEqual(all('running 1'));
    // ... the job started again (its worker died holding it) takes every claim over and fills the dashboard.
    expect(await t.app.dashboardJobs.tick(again)).toEqual(all('done'));
    expect(await claims(t, DASHBOARD)).toEqual(all('done 2'));
    const rows = async (table: typeof overallSentiment | typeof sectorSentiment | typeof economicIndicators) => (await t!.db.select({ n: count() }).from(table))[0]!.n;
    expect([await rows(overallSentiment), await rows(sectorSentiment), await rows(economicIndicators)]).toEqual([1, GICS_SECTORS.length, DASHBOARD_INDICATORS.length]);
    // A done slot stays done, however often its job is started again.
    expect(await t.app.dashboardJobs.tick({ queued: { jobId: TICK, attempt: 3 } })).toEqual(all('skipped'));
    expect(await claims(t, DASHBOARD)).toEqual(all('done 2'));
  });

  it('a holder that wakes after its claims were taken over records nothing over the new holder', async () => {
    t = await createTestApp();
    const firstGate = gate();
    const second = gate();
    const asleep = dashboardProcess(t, firstGate.hold).tick(first);
    await until(async () => Object.keys(await claims(t!, DASHBOARD)).length === 3);
    const taking = dashboardProcess(t, second.hold).tick(again);
    await until(async () => Object.values(await claims(t!, DASHBOARD)).every((claim) => claim === 'running 2'));
    // The first wakes and runs its slots (their writes are idempotent), but the claims are the second's: it records nothing.
    firstGate.release();
    expect(await asleep).toEqual(all('skipped'));
    expect(await claims(t, DASHBOARD)).toEqual(all('running 2'));
    second.release();
    expect(await taking).toEqual(all('done'));
    expect(await claims(t, DASHBOARD)).toEqual(all('done 2'));
  });
});

describe("the engines' daily pass and marks", () => {
  it('each one left running by a dead holder is taken over at once by its job started again; a done slot never', async () => {
    const engine = createFakeEngine() as unknown as AnyEngine;
    t = await createTestApp({}, { tradeEngines: [engine], tradeUniverse: testUniverse });
    await t.app.tradeJobs.tick();
    await t.app.tradeJobs.replaysIdle();
    const app = t;
    const tradesProcess = () =>
      createTradeJobs({ engines: [engine], repo: createTradesRepo(app.db), runs: createJobRuns(app.db), market: app.market, marketClock: app.clock, clock: app.clock, log, universe: testUniverse, hold: gate().hold });
    const [daily, marks] = ['trades-daily:swing', 'trades-marks:swing'];
    const latest = async (job: string) => (await app.db.select().from(jobRuns).where(eq(jobRuns.job, job)).orderBy(jobRuns.slot)).at(-1);

    // Monday 10:00 New York (the market open): Friday's pass is done, the marks' slot is due.
    expect(await app.app.tradeJobs.runDaily(engine)).toBe('done');
    void tradesProcess().tick(first);
    await until(async () => (await latest(marks))?.status === 'running');
    expect(await app.app.tradeJobs.tick()).toEqual({ [daily]: 'skipped', [marks]: 'skipped' });
    expect(await app.app.tradeJobs.tick(otherTick)).toEqual({ [daily]: 'skipped', [marks]: 'skipped' });
    expect(await app.app.tradeJobs.tick(again)).toEqual({ [daily]: 'skipped', [marks]: 'done' });
    expect(await latest(marks)).toMatchObject({ status: 'done', attempts: 2 });
    expect(await app.app.tradeJobs.tick(again)).toEqual({ [daily]: 'skipped', [marks]: 'skipped' });

    // 16:31: Monday's daily pass (the market closed: no marks).
    app.clock.advance(AFTER_CLOSE - app.clock.nowMs());
    void tradesProcess().tick(first);
    await until(async () => (await latest(daily))?.slot.toISOString() === '2026-11-02T21:30:00.000Z');
    expect(await app.app.tradeJobs.tick()).toEqual({ [daily]: 'skipped', [marks]: 'skipped' });
    expect(await app.app.tradeJobs.tick(otherTick)).toEqual({ [daily]: 'skipped', [marks]: 'skipped' });
    expect(await app.app.tradeJobs.tick(again)).toEqual({ [daily]: 'done', [marks]: 'skipped' });
    expect(await latest(daily)).toMatchObject({ status: 'done', attempts: 2 });
    const [version] = await app.db.select().from(tradeEngineVersions).where(and(eq(tradeEngineVersions.engine, 'swing'), eq(tradeEngineVersions.ruleVersion, engine.ruleVersion)));
    expect(version!.lastSession).toBe('2026-11-02');
    expect(await app.app.tradeJobs.tick(again)).toEqual({ [daily]: 'skipped', [marks]: 'skipped' });
  });
});
