import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { saveScanResponse, scanBacktestResponse, type ScanBacktestResponse } from '@signalboard/core';
import { createContainer } from '../../container';
import { BACKTEST_JOBS_QUEUE, createJobQueue, startJobWorkers, type JobQueue, type JobWorkers } from '../../jobs/queue';
import { queuedWork, taskDepsOf, taskHandlers, TASKS, type QueuedWork } from '../../jobs/tasks';
import { marketClock } from '../../providers/market';
import type { CachedMarket } from '../../providers/market/cached-market';
import { createTestApp, TEST_JWT_SECRET, userWithFavorites, type TestApp } from '../../../test/helpers';
import { testRedisSettings, testRedisUrl } from '../../../test/redis';
import { createFavoritesRepo } from '../watchlist/watchlist.repo';
import { createScanBacktests, SHUTDOWN_MESSAGE, type BacktestJob } from './backtest.job';
import { createBacktestRepo } from './backtest.repo';

// The backtest with REDIS_URL (docs/custom-scans.md "Backtest jobs"): a start is a long job on the
// queue, which a worker runs (jobs/tasks.ts `scan-backtest`); the API process runs none itself.

type Headers = { authorization: string };

async function startOn(t: TestApp, headers: Headers, name: string): Promise<{ id: number; answer: ScanBacktestResponse }> {
  const saved = await t.app.inject({ method: 'POST', url: '/api/scans', headers, payload: { name, universe: 'favorites', formula: 'close crosses above sma(20)' } });
  const { id } = saveScanResponse.parse(saved.json()).scan;
  const response = await t.app.inject({ method: 'POST', url: `/api/scans/${id}/backtest`, headers });
  expect(response.statusCode, response.body).toBe(200);
  return { id, answer: scanBacktestResponse.parse(response.json()) };
}
async function readOn(t: TestApp, headers: Headers, id: number): Promise<ScanBacktestResponse> {
  return scanBacktestResponse.parse((await t.app.inject({ method: 'GET', url: `/api/scans/${id}/backtest`, headers })).json());
}

describe('a start with the job queue (a fake one)', () => {
  const jobs: BacktestJob[] = [];
  let refuse = false;
  const queued: QueuedWork = {
    kickDelivery: () => undefined,
    fillDashboard: async () => undefined,
    replay: async () => undefined,
    backtest: async (job) => {
      if (refuse) throw new Error('Redis did not answer');
      jobs.push(job);
    },
    alertsEvaluatedAtMs: () => null,
    close: () => undefined,
  };
  let t: TestApp;
  let headers: Headers;
  beforeAll(async () => {
    t = await createTestApp({}, { queued });
    headers = await userWithFavorites(t, 'backtest-queued', ['AAPL', 'MSFT']);
  });
  afterAll(async () => t?.close());

  it('is enqueued, not run in the API process; the job run as a worker runs it finishes it', async () => {
    const { id, answer } = await startOn(t, headers, 'Queued');
    expect(answer.status).toBe('queued');
    expect(jobs).toEqual([{ scanId: id, version: 1, attempt: 1 }]);
    await t.app.scanBacktests.idle();
    expect((await readOn(t, headers, id)).status).toBe('queued');
    // What a worker does with the job (here on the app's own services).
    expect(await t.app.scanBacktests.run(jobs[0]!)).toBe('done');
    expect(await readOn(t, headers, id)).toMatchObject({ status: 'done', current: true });
    // The same start delivered again (its worker died after the end) finds nothing to do.
    expect(await t.app.scanBacktests.run(jobs[0]!)).toBe('skipped');
  });

  it('a job whose scan changed after its start fails, saying so', async () => {
    const { id } = await startOn(t, headers, 'Changed');
    await t.app.inject({ method: 'PUT', url: `/api/scans/${id}`, headers, payload: { name: 'Changed', universe: 'favorites', formula: 'rsi(14) < 30' } });
    expect(await t.app.scanBacktests.run(jobs.at(-1)!)).toBe('failed');
    expect(await readOn(t, headers, id)).toMatchObject({ status: 'failed', current: false, error: 'The scan changed before its backtest began. Start it again.' });
  });

  it('a process that stops ends its backtests at their next slice, marked failed', async () => {
    const { id } = await startOn(t, headers, 'Stopped');
    let release = () => undefined as void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let reading = () => undefined as void;
    const read = new Promise<void>((resolve) => (reading = resolve));
    const runner = createScanBacktests({
      repo: createBacktestRepo(t.db),
      market: {
        ...t.market,
        getDailyBars: async (...args) => {
          reading();
          await held;
          return t.market.getDailyBars(...args);
        },
      },
      marketClock: marketClock(t.config, t.clock),
      favorites: createFavoritesRepo(t.db),
      log: pino({ level: 'silent' }),
    });
    const outcome = runner.run(jobs.at(-1)!);
    await read;
    const stopped = runner.stop();
    release();
    await stopped;
    expect(await outcome).toBe('failed');
    expect(await readOn(t, headers, id)).toMatchObject({ status: 'failed', error: SHUTDOWN_MESSAGE, result: null });
  });

  it('a start the queue does not take fails at once, saying so', async () => {
    refuse = true;
    try {
      const { id, answer } = await startOn(t, headers, 'Refused');
      expect(answer).toMatchObject({ status: 'failed', error: 'The job queue did not take the backtest (Redis did not answer). Please try again shortly.' });
      expect(await readOn(t, headers, id)).toMatchObject({ status: 'failed', error: answer.error });
    } finally {
      refuse = false;
    }
  });
});

describe.skipIf(!testRedisUrl())('a start with the job queue on Redis', () => {
  let settings: ReturnType<typeof testRedisSettings>;
  let queue: JobQueue;
  let work: QueuedWork;
  let t: TestApp;
  let worker: ReturnType<typeof createContainer>;
  let workers: JobWorkers;
  let headers: Headers;
  const quiet = { info: () => undefined, warn: () => undefined };
  /** The worker's reads of JPM wait while this is held. */
  let held: Promise<void> | null = null;
  let release = () => undefined as void;
  const backtestQueue = () => queue.queues.find((each) => each.name === BACKTEST_JOBS_QUEUE)!;

  beforeAll(async () => {
    settings = testRedisSettings('backtest');
    queue = createJobQueue(settings);
    work = queuedWork(queue, quiet, { nowMs: () => Date.now() });
    t = await createTestApp({}, { queued: work });
    // A worker process's services (worker.ts) on the same database and market, with no HTTP app.
    const market: CachedMarket = {
      ...t.market,
      async getDailyBars(symbol, from, to) {
        if (symbol === 'JPM') await held;
        return t.market.getDailyBars(symbol, from, to);
      },
    };
    worker = createContainer(
      { config: t.config, db: t.db, pool: t.pool, mailer: t.mailer, market, marketClock: marketClock(t.config, t.clock), jwtSecret: TEST_JWT_SECRET, clock: t.clock },
      { log: pino({ level: 'silent' }) },
    );
    // As worker.ts starts them: SCAN_BACKTEST_MAX_CONCURRENT backtests at once (here the default, 1).
    workers = startJobWorkers(settings, {
      handlers: taskHandlers(taskDepsOf(worker, t.clock)),
      queue,
      log: { ...quiet, child: () => quiet },
      depthEveryMs: 0,
      backtestConcurrency: t.config.SCAN_BACKTEST_MAX_CONCURRENT,
    });
    headers = await userWithFavorites(t, 'backtest-redis', ['AAPL', 'MSFT', 'NVDA']);
  });
  afterAll(async () => {
    release();
    await workers?.close();
    await worker?.close();
    work?.close();
    await queue?.close();
    await t?.close();
    await settings?.clear();
  });

  it('runs on a worker: queued at once, then done there', async () => {
    const { id, answer } = await startOn(t, headers, 'On a worker');
    expect(answer.status).toBe('queued');
    const done = await vi.waitFor(
      async () => {
        const current = await readOn(t, headers, id);
        if (current.status !== 'done') throw new Error(`still ${current.status}`);
        return current;
      },
      { timeout: 60_000, interval: 25 },
    );
    expect(done.result).toMatchObject({ symbols: 3, benchmark: 'SPY' });
    // The job was the backtests' queue's, removed once the worker finished it.
    await vi.waitFor(async () => expect(await backtestQueue().getJob(`${TASKS.scanBacktest}-${id}-1-1`)).toBeUndefined(), { timeout: 15_000, interval: 25 });
  });

  it("runs SCAN_BACKTEST_MAX_CONCURRENT at once on a worker: another user's start waits in the queue, queued at 0 of 0, then runs", async () => {
    expect(t.config.SCAN_BACKTEST_MAX_CONCURRENT).toBe(1);
    const [first, second] = [await userWithFavorites(t, 'backtest-redis-first', ['JPM']), await userWithFavorites(t, 'backtest-redis-second', ['XOM'])];
    held = new Promise<void>((resolve) => (release = resolve));
    const one = await startOn(t, first, 'Held on a worker');
    await vi.waitFor(async () => expect((await readOn(t, first, one.id)).status).toBe('running'), { timeout: 30_000, interval: 25 });
    const two = await startOn(t, second, 'Waits for the slot');
    expect(two.answer.status).toBe('queued');
    await vi.waitFor(async () => expect(await backtestQueue().getJobCounts('waiting', 'active')).toEqual({ waiting: 1, active: 1 }), { timeout: 15_000, interval: 25 });
    expect(await readOn(t, second, two.id)).toMatchObject({ status: 'queued', done: 0, total: 0 });
    release();
    for (const [headers, id] of [[first, one.id], [second, two.id]] as const) {
      await vi.waitFor(async () => expect((await readOn(t, headers, id)).status).toBe('done'), { timeout: 60_000, interval: 25 });
    }
  });
});
