/**
 * The backtest job (docs/custom-scans.md "Backtest jobs"): one start of a saved scan's backtest, run
 * to its end. It takes its start up (claim), reads what the replay needs (backtest-input.ts), replays
 * the sessions one at a time with core's createBacktest in slices of about SLICE_MS that give way to
 * requests (lib/foreground.ts), writes its progress at most every PROGRESS_EVERY_MS (and a heartbeat
 * every HEARTBEAT_MS while a read is slow), and stores the result with the data version of the bars
 * it read (backtest-data.ts). A write that finds the row no
 * longer its own (cancelled, restarted, the scan deleted) stops it without a result.
 *
 * Where it runs: without REDIS_URL in this process's background (`start` answers at once); with it,
 * `start` enqueues it (jobs/tasks.ts `scan-backtest`) and a worker runs `run`. Either way a process
 * runs at most `maxConcurrent` at once (SCAN_BACKTEST_MAX_CONCURRENT, backtest-slots.ts): the others
 * wait in this process, queued, touching their row so it is not given up as stale. The statistics
 * (core's resultSteps) are worked out in steps that give way too. A process that stops
 * stops its jobs at their next slice and marks them failed; one that dies leaves a 'running' row that
 * goes stale (backtest.repo.ts) and is started again by the next start.
 */
import { createBacktest, type Backtest, type BacktestResult } from '@signalboard/core';
import { createPacer, NO_FOREGROUND, type Foreground } from '../../lib/foreground';
import { failureReason, type ScanLog } from '../../lib/scan-failure';
import { BacktestError, loadBacktestInput, type BacktestInputDeps } from './backtest-input';
import { createBacktestSlots } from './backtest-slots';
import type { BacktestRepo, JobRef } from './backtest.repo';
import { backtestResultBody } from './backtest-result';

/** Progress is written at most this often (each write also tells whether the job may go on). */
export const PROGRESS_EVERY_MS = 500;
/**
 * While a read is slow (a live source's rate limits), the row is still touched this often: far below
 * STALE_RUNNING_SECONDS; a start waiting for a slot touches its queued row as often (STALE_QUEUED_SECONDS).
 */
export const HEARTBEAT_MS = 30_000;
/** Backtests a process runs at once unless told (SCAN_BACKTEST_MAX_CONCURRENT's default). */
export const DEFAULT_MAX_CONCURRENT = 1;

export const SHUTDOWN_MESSAGE = 'The server stopped during the backtest. Start it again.';
const UNEXPECTED_MESSAGE = 'The backtest failed on our side. Please try again.';

/** One start of a backtest: the scan, its start (`attempt`) and the version it replays. */
export interface BacktestJob extends JobRef {
  version: number;
}

/** How a run ended: 'stopped' when its start was cancelled or replaced, 'skipped' when it was not there to take up. */
export type BacktestOutcome = 'done' | 'failed' | 'stopped' | 'skipped';

export type BacktestLog = ScanLog & { info(context: object, msg: string): void };

export interface ScanBacktestsDeps extends Omit<BacktestInputDeps, 'log'> {
  repo: Pick<BacktestRepo, 'claim' | 'touchQueued' | 'progress' | 'finish' | 'fail'>;
  log: BacktestLog;
  /** REDIS_URL: a start is handed to the queue (a worker runs it) instead of run in this process. */
  enqueue?: (job: BacktestJob) => Promise<void>;
  /** This process's requests, which the replay gives way to (none in a worker). */
  foreground?: Foreground;
  /** Backtests this process runs at once (SCAN_BACKTEST_MAX_CONCURRENT; default DEFAULT_MAX_CONCURRENT); more wait for a slot. */
  maxConcurrent?: number;
  /** Tests: the heartbeats' interval (default HEARTBEAT_MS) and the slices' length (default lib/foreground.ts SLICE_MS). */
  heartbeatMs?: number;
  sliceMs?: number;
}

/** Why a job stopped before its end: its start was cancelled or replaced, or this process stops. */
class JobStopped extends Error {
  constructor(readonly why: 'cancelled' | 'shutdown') {
    super(why);
  }
}

export function createScanBacktests(deps: ScanBacktestsDeps) {
  const { repo, log } = deps;
  const foreground = deps.foreground ?? NO_FOREGROUND;
  /** The runs under way in this process, by start (those waiting for a slot too). */
  const runs = new Map<string, Promise<BacktestOutcome>>();
  const slots = createBacktestSlots(deps.maxConcurrent ?? DEFAULT_MAX_CONCURRENT);
  const heartbeatMs = deps.heartbeatMs ?? HEARTBEAT_MS;
  const aborts = new Set<AbortController>();
  let stopping = false;

  /** The text the row shows for a failure; what is no market or input problem is logged as an error. */
  function failureText(error: unknown, scanId: number): string {
    if (error instanceof BacktestError) return error.message;
    const reason = failureReason(error);
    if (reason.log === 'error') {
      log.error({ err: error, scanId }, 'custom scan backtest failed unexpectedly');
      return UNEXPECTED_MESSAGE;
    }
    log.warn({ err: error, scanId }, 'custom scan backtest failed: market data unavailable');
    return reason.msg;
  }

  async function replay(job: BacktestJob): Promise<BacktestOutcome> {
    if (stopping) return (await repo.fail(job, SHUTDOWN_MESSAGE)) ? 'failed' : 'skipped';
    const claimed = await repo.claim(job);
    if (!claimed) return 'skipped';
    const abort = new AbortController();
    aborts.add(abort);
    // This process began to stop while the claim was on its way.
    if (stopping) abort.abort(new JobStopped('shutdown'));
    const progress = { done: 0, total: 0, writtenAt: performance.now() };
    /** Writes the progress; a row no longer this start's stops the job. */
    const write = async (): Promise<void> => {
      progress.writtenAt = performance.now();
      if (!(await repo.progress(job, progress.done, progress.total))) abort.abort(new JobStopped('cancelled'));
    };
    const writeQuietly = () => void write().catch((error: unknown) => log.warn({ err: error, scanId: job.scanId }, 'custom scan backtest: progress not written'));
    const heartbeat = setInterval(writeQuietly, heartbeatMs);
    heartbeat.unref();
    try {
      if (claimed.version !== claimed.scan.version) throw new BacktestError('The scan changed before its backtest began. Start it again.');
      // Reading (a simulated history is generated synchronously) and replaying both give way to requests.
      const pace = createPacer(foreground, deps.sliceMs === undefined ? {} : { sliceMs: deps.sliceMs });
      const onSymbol = async () => {
        if (performance.now() - progress.writtenAt >= PROGRESS_EVERY_MS) writeQuietly();
        await pace();
      };
      const input = await loadBacktestInput({ ...deps, log }, { userId: claimed.userId, scan: claimed.scan }, { signal: abort.signal, onSymbol });
      const backtest = createBacktest(input);
      progress.total = backtest.total;
      await write();
      let finished = false;
      while (!finished) {
        abort.signal.throwIfAborted();
        finished = backtest.step(1);
        progress.done = backtest.done;
        await pace();
        if (!finished && performance.now() - progress.writtenAt >= PROGRESS_EVERY_MS) await write();
      }
      const result = await statistics(backtest, pace, abort.signal);
      return (await repo.finish(job, backtestResultBody(result, claimed.scan.universe), input.dataVersion)) ? 'done' : 'stopped';
    } catch (error) {
      if (error instanceof JobStopped) {
        if (error.why === 'cancelled') return 'stopped';
        await repo.fail(job, SHUTDOWN_MESSAGE);
        return 'failed';
      }
      await repo.fail(job, failureText(error, job.scanId));
      return 'failed';
    } finally {
      clearInterval(heartbeat);
      aborts.delete(abort);
    }
  }

  /**
   * The start waits for a slot (at once while one is free), its row kept queued and touched every
   * heartbeat; the wait ends when the row is no longer its queued start (cancelled, restarted: the
   * claim would fail too), and at a stop (replay then marks it failed). Then it replays.
   */
  async function inTurn(job: BacktestJob): Promise<BacktestOutcome> {
    const wait = slots.take();
    const touch = () =>
      void repo
        .touchQueued(job)
        .then((mine) => (mine ? undefined : wait.abandon()))
        .catch((error: unknown) => log.warn({ err: error, scanId: job.scanId }, 'custom scan backtest: its queued row was not touched'));
    const heartbeat = setInterval(touch, heartbeatMs);
    heartbeat.unref();
    let release: (() => void) | null;
    try {
      release = await wait.slot;
    } finally {
      clearInterval(heartbeat);
    }
    if (release === null) return stopping ? replay(job) : 'skipped';
    try {
      return await replay(job);
    } finally {
      release();
    }
  }

  /** Runs the start to its end here (after its turn); a second call for a start this process runs waits for it. Never rejects on the job's own failure. */
  function run(job: BacktestJob): Promise<BacktestOutcome> {
    const key = `${job.scanId}#${job.attempt}`;
    const underWay = runs.get(key);
    if (underWay) return underWay.then(() => 'skipped');
    const running = inTurn(job)
      .then((outcome) => {
        log.info({ scanId: job.scanId, version: job.version, outcome }, `custom scan backtest ${outcome}`);
        return outcome;
      })
      .finally(() => runs.delete(key));
    runs.set(key, running);
    return running;
  }

  return {
    run,
    /**
     * A start made by a call: enqueued (REDIS_URL), else run in this process's background; answers
     * at once: null, or why the start failed at once (the queue did not take it; the row says so too).
     */
    async start(job: BacktestJob): Promise<string | null> {
      if (!deps.enqueue) {
        run(job).catch((error: unknown) => log.error({ err: error, scanId: job.scanId }, 'custom scan backtest: its failure could not be recorded'));
        return null;
      }
      try {
        await deps.enqueue(job);
        return null;
      } catch (error) {
        log.warn({ err: error, scanId: job.scanId }, 'custom scan backtest could not be queued');
        const text = `The job queue did not take the backtest (${error instanceof Error ? error.message : String(error)}). Please try again shortly.`;
        await repo.fail(job, text);
        return text;
      }
    },
    /** Starts waiting for a slot in this process, and backtests running in it. */
    load(): { waiting: number; running: number } {
      return { waiting: slots.waiting, running: slots.running };
    },
    /** Waits for the runs under way in this process (tests). */
    async idle(): Promise<void> {
      while (runs.size > 0) await Promise.allSettled([...runs.values()]);
    },
    /** Stops the runs under way at their next slice (each marked failed: SHUTDOWN_MESSAGE) and waits for them. */
    async stop(): Promise<void> {
      stopping = true;
      slots.closeAll();
      for (const abort of aborts) abort.abort(new JobStopped('shutdown'));
      await Promise.allSettled([...runs.values()]);
    },
  };
}

export type ScanBacktests = ReturnType<typeof createScanBacktests>;

/**
 * The replay's statistics (core's resultSteps), giving way between its steps: with thousands of
 * entries they held the event loop for seconds in one piece; each step is now tens of ms at most.
 */
async function statistics(backtest: Pick<Backtest, 'resultSteps'>, pace: () => Promise<void>, signal: AbortSignal): Promise<BacktestResult> {
  const steps = backtest.resultSteps();
  for (;;) {
    signal.throwIfAborted();
    const next = steps.next();
    if (next.done) return next.value;
    await pace();
  }
}
