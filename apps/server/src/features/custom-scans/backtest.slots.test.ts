import { eq, sql } from 'drizzle-orm';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BACKTEST_HORIZONS, saveScanResponse, scanBacktestResponse, type ScanBacktestResponse } from '@signalboard/core';
import { customScanBacktests } from '../../db/schema';
import type { Foreground } from '../../lib/foreground';
import type { QueuedWork } from '../../jobs/tasks';
import { createMarket, marketClock } from '../../providers/market';
import type { CachedMarket } from '../../providers/market/cached-market';
import { createTestApp, userWithFavorites, type TestApp } from '../../../test/helpers';
import { createFavoritesRepo } from '../watchlist/watchlist.repo';
import { createScanBacktests, SHUTDOWN_MESSAGE, type BacktestJob } from './backtest.job';
import { createBacktestRepo } from './backtest.repo';
import { STALE_MESSAGES } from './backtest.service';

// The backtests one process runs at once (SCAN_BACKTEST_MAX_CONCURRENT, docs/custom-scans.md
// "Backtest jobs"), and the statistics that give way between their steps. A symbol's daily bars can
// be held (its read waits, the backtest stays running), so each state is seen without racing the job.

type Headers = { authorization: string };

/** Symbols whose reads wait until released, and every symbol asked for, in order. */
function gatedMarket(market: CachedMarket) {
  const held = new Map<string, { promise: Promise<void>; release: () => void }>();
  const asked: string[] = [];
  const gated: CachedMarket = {
    ...market,
    async getDailyBars(symbol, from, to) {
      asked.push(symbol);
      await held.get(symbol)?.promise;
      return market.getDailyBars(symbol, from, to);
    },
  };
  return {
    market: gated,
    asked,
    hold(symbol: string) {
      let release = () => undefined as void;
      const promise = new Promise<void>((resolve) => (release = resolve));
      held.set(symbol, { promise, release });
    },
    release(symbol: string) {
      held.get(symbol)?.release();
      held.delete(symbol);
    },
  };
}

async function saveOn(t: TestApp, headers: Headers, name: string): Promise<number> {
  const saved = await t.app.inject({ method: 'POST', url: '/api/scans', headers, payload: { name, universe: 'favorites', formula: 'close crosses above sma(20)' } });
  return saveScanResponse.parse(saved.json()).scan.id;
}
async function startOn(t: TestApp, headers: Headers, id: number): Promise<ScanBacktestResponse> {
  const response = await t.app.inject({ method: 'POST', url: `/api/scans/${id}/backtest`, headers });
  expect(response.statusCode, response.body).toBe(200);
  return scanBacktestResponse.parse(response.json());
}
async function readOn(t: TestApp, headers: Headers, id: number): Promise<ScanBacktestResponse> {
  return scanBacktestResponse.parse((await t.app.inject({ method: 'GET', url: `/api/scans/${id}/backtest`, headers })).json());
}
/** Reads until `until` holds (a hang guard only: the states come within seconds). */
async function waitOn(t: TestApp, headers: Headers, id: number, until: (answer: ScanBacktestResponse) => boolean): Promise<ScanBacktestResponse> {
  return vi.waitFor(
    async () => {
      const current = await readOn(t, headers, id);
      if (!until(current)) throw new Error(`still ${current.status} ${current.done}/${current.total}`);
      return current;
    },
    { timeout: 60_000, interval: 20 },
  );
}

describe('without REDIS_URL: the API process runs SCAN_BACKTEST_MAX_CONCURRENT backtests at once (default 1)', () => {
  let t: TestApp;
  let gate: ReturnType<typeof gatedMarket>;
  beforeAll(async () => {
    t = await createTestApp({}, { market: (config, clock, store) => (gate = gatedMarket(createMarket(config, clock, store))).market });
  });
  afterAll(async () => t?.close());

  it("keeps a second user's start queued at 0 of 0 while one runs, and runs it once the slot frees", async () => {
    const [first, second] = [await userWithFavorites(t, 'slots-first', ['AAPL']), await userWithFavorites(t, 'slots-second', ['MSFT'])];
    const [firstId, secondId] = [await saveOn(t, first, 'First'), await saveOn(t, second, 'Second')];
    gate.hold('AAPL');
    expect((await startOn(t, first, firstId)).status).toBe('queued');
    await waitOn(t, first, firstId, (answer) => answer.status === 'running');
    await vi.waitFor(() => expect(gate.asked).toContain('AAPL'));

    expect(await startOn(t, second, secondId)).toMatchObject({ status: 'queued', done: 0, total: 0 });
    expect(t.app.scanBacktests.load()).toEqual({ waiting: 1, running: 1 });
    expect(await readOn(t, second, secondId)).toMatchObject({ status: 'queued', done: 0, total: 0, error: null });
    expect(gate.asked).not.toContain('MSFT');

    gate.release('AAPL');
    expect((await waitOn(t, second, secondId, (answer) => answer.status === 'done')).result).not.toBeNull();
    expect((await readOn(t, first, firstId)).status).toBe('done');
    // The second one read its bars only after the first one's were read.
    expect(gate.asked.indexOf('MSFT')).toBeGreaterThan(gate.asked.indexOf('AAPL'));
    expect(t.app.scanBacktests.load()).toEqual({ waiting: 0, running: 0 });
  });

  it('a start cancelled while it waits never runs; the next one waiting does', async () => {
    const users = [await userWithFavorites(t, 'slots-a', ['NVDA']), await userWithFavorites(t, 'slots-b', ['JPM']), await userWithFavorites(t, 'slots-c', ['XOM'])];
    const ids = [await saveOn(t, users[0]!, 'A'), await saveOn(t, users[1]!, 'B'), await saveOn(t, users[2]!, 'C')];
    gate.hold('NVDA');
    for (const [index, user] of users.entries()) await startOn(t, user, ids[index]!);
    await vi.waitFor(() => expect(gate.asked).toContain('NVDA'));
    expect(t.app.scanBacktests.load()).toEqual({ waiting: 2, running: 1 });
    expect((await t.app.inject({ method: 'DELETE', url: `/api/scans/${ids[1]}/backtest`, headers: users[1]! })).statusCode).toBe(200);
    gate.release('NVDA');
    expect((await waitOn(t, users[2]!, ids[2]!, (answer) => answer.status === 'done')).result).not.toBeNull();
    await t.app.scanBacktests.idle();
    expect(await readOn(t, users[1]!, ids[1]!)).toMatchObject({ status: 'cancelled', result: null, done: 0, total: 0 });
    expect(gate.asked).not.toContain('JPM');
  });
});

describe('a process running backtests (its own runner: heartbeats and slices set short)', () => {
  const jobs: BacktestJob[] = [];
  // The app hands its starts to this "queue"; the runners below take them up as a process would.
  const queued: QueuedWork = {
    kickDelivery: () => undefined,
    fillDashboard: async () => undefined,
    replay: async () => undefined,
    backtest: async (job) => void jobs.push(job),
    alertsEvaluatedAtMs: () => null,
    close: () => undefined,
  };
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({}, { queued });
  });
  afterAll(async () => t?.close());

  function runner(market: CachedMarket, options: { foreground?: Foreground; sliceMs?: number } = {}) {
    return createScanBacktests({
      repo: createBacktestRepo(t.db),
      market,
      marketClock: marketClock(t.config, t.clock),
      favorites: createFavoritesRepo(t.db),
      log: pino({ level: 'silent' }),
      maxConcurrent: 1,
      heartbeatMs: 20,
      ...options,
    });
  }
  const jobOf = (id: number) => jobs.find((job) => job.scanId === id)!;

  it('keeps a waiting start fresh (never given up as stale), and fails it, saying so, when the process stops', async () => {
    const gate = gatedMarket(t.market);
    const [first, second] = [await userWithFavorites(t, 'wait-first', ['AAPL']), await userWithFavorites(t, 'wait-second', ['MSFT'])];
    const [firstId, secondId] = [await saveOn(t, first, 'Held'), await saveOn(t, second, 'Waiting')];
    await startOn(t, first, firstId);
    await startOn(t, second, secondId);
    const backtests = runner(gate.market);
    gate.hold('AAPL');
    const outcomes = [backtests.run(jobOf(firstId)), backtests.run(jobOf(secondId))];
    await vi.waitFor(() => expect(gate.asked).toContain('AAPL'));
    expect(backtests.load()).toEqual({ waiting: 1, running: 1 });

    // As if it had waited eleven minutes without a word: it is answered as failed, until its heartbeat.
    // The heartbeat (every 20 ms) may land between the write and the read: write again and read until
    // one read comes first (a stale row that never reads as failed times this out).
    await vi.waitFor(async () => {
      await t.db.update(customScanBacktests).set({ updatedAt: sql`now() - interval '11 minutes'` }).where(eq(customScanBacktests.scanId, secondId));
      expect(await readOn(t, second, secondId)).toMatchObject({ status: 'failed', error: STALE_MESSAGES.queued });
    });
    await waitOn(t, second, secondId, (answer) => answer.status === 'queued');

    const stopped = backtests.stop();
    gate.release('AAPL');
    await stopped;
    expect(await Promise.all(outcomes)).toEqual(['failed', 'failed']);
    for (const [headers, id] of [[first, firstId], [second, secondId]] as const) {
      expect(await readOn(t, headers, id)).toMatchObject({ status: 'failed', error: SHUTDOWN_MESSAGE, result: null });
    }
    expect(gate.asked).not.toContain('MSFT');
  });

  it('works the statistics out in steps, giving way between them, as it gives way between sessions', async () => {
    const user = await userWithFavorites(t, 'steps', ['AAPL', 'MSFT', 'NVDA']);
    const id = await saveOn(t, user, 'Steps');
    await startOn(t, user, id);
    let turns = 0;
    const counting: Foreground = {
      begin: () => () => undefined,
      turn: async () => {
        turns += 1;
        await new Promise<void>((resolve) => setImmediate(resolve));
      },
    };
    // Slices of 0 ms: a turn at every pause, so the turns count the pauses.
    expect(await runner(t.market, { foreground: counting, sliceMs: 0 }).run(jobOf(id))).toBe('done');
    const done = await readOn(t, user, id);
    expect(done.status).toBe('done');
    // One pause per symbol read and per session replayed; the rest are the statistics' own steps.
    const statisticsTurns = turns - 3 - done.total;
    expect(statisticsTurns).toBeGreaterThanOrEqual(3 * BACKTEST_HORIZONS.length);
  });
});
