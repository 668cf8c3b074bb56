/**
 * Generic scheduled jobs: a job is a name, the slot a time falls in (its cadence window, or null when
 * it has nothing to do then) and a run. `runJob` claims the slot in job_runs (jobs/job-runs.ts),
 * runs it and records the outcome; a registry ticks every job whose slot is due. The scheduler
 * (scheduler.ts) calls the registry's tick once a minute in every server process; with REDIS_URL a
 * worker's `jobs-tick` job does (tasks.ts), and when BullMQ starts that job again after its worker
 * died, the pass takes over every claim the dead worker left (TickOptions.takeOver).
 */
import type { Clock } from '../lib/clock';
import type { JobRuns } from './job-runs';

export type RunOutcome = 'done' | 'skipped' | 'failed';

export interface Job {
  name: string;
  /** The start of the slot `nowMs` (market clock) falls in; null: nothing to run now. */
  slotOf(nowMs: number): Date | null;
  /**
   * Runs the slot; answers what failed (empty: all good). A throw counts as one failure. A failure
   * keeps what the run wrote; the slot is retried with backoff.
   */
  run(slot: Date, nowMs: number, context: RunContext): Promise<string[]>;
}

export interface RunContext {
  /** Keeps the claim fresh during a long run. */
  heartbeat(): Promise<void>;
}

export interface JobRunnerDeps {
  runs: JobRuns;
  /** The market's clock (MARKET_NOW when pinned): it picks the slot. */
  marketClock: Clock;
  /** Wall time: claims and retry backoff. */
  clock: Clock;
  log: { info(message: string): void; warn(message: string): void };
  /**
   * Tests only (TEST_CONTROL_FILE's holdJobs, lib/test-control.ts; unit tests): awaited after the
   * claim and before the run, so a test can catch a process holding a claimed slot.
   */
  hold?: (job: string) => Promise<void>;
}

export interface TickOptions {
  /**
   * The queued job running this pass was started before (BullMQ redelivered it: its worker died
   * holding it, jobs/queue.ts `redelivered`): each job takes its slot's claim over when it is
   * running or failed (never a done one) instead of waiting 15 minutes for it to go stale.
   */
  takeOver?: boolean;
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Claims the job's current slot, runs it, and records the outcome. A holder whose claim another
 * process took over while it ran (it was not dead after all) records nothing: 'skipped'.
 */
export async function runJob(job: Job, deps: JobRunnerDeps, options: TickOptions = {}): Promise<RunOutcome> {
  const { runs, marketClock, clock, log } = deps;
  const nowMs = marketClock.nowMs();
  const slot = job.slotOf(nowMs);
  if (!slot) return 'skipped';
  const attempt = await runs.claimAttempt(job.name, slot, clock.nowMs(), { takeOver: options.takeOver === true });
  if (attempt === null) return 'skipped';
  if (options.takeOver && attempt > 1) log.info(`Job ${job.name}: slot ${slot.toISOString()} taken over (attempt ${attempt}; its queued job was started again)`);
  let failures: string[];
  try {
    await deps.hold?.(job.name);
    failures = await job.run(slot, nowMs, { heartbeat: () => runs.heartbeat(job.name, slot, clock.nowMs(), attempt) });
  } catch (error) {
    failures = [errorText(error)];
  }
  const error = failures.length > 0 ? failures.join('; ') : undefined;
  if (!(await runs.finish(job.name, slot, clock.nowMs(), error, attempt))) {
    log.info(`Job ${job.name}: slot ${slot.toISOString()} was taken over by another process while this one ran; that one records it`);
    return 'skipped';
  }
  if (error) log.warn(`Job ${job.name} failed for slot ${slot.toISOString()} (the last good data stays; retried with backoff): ${error}`);
  return error ? 'failed' : 'done';
}

export type Tick<T = Record<string, RunOutcome>> = (options?: TickOptions) => Promise<T>;

export interface JobRegistry {
  /** Runs every job whose slot is due, concurrently; concurrent calls share one pass (see sharedPass). */
  tick: Tick;
}

/**
 * A pass that concurrent calls share. A take-over call (TickOptions) never joins a pass that does
 * not take over (its jobs would skip the claims to take over): it runs its own once that one ended.
 */
export function sharedPass<T>(pass: (options: TickOptions) => Promise<T>): Tick<T> {
  let running: { result: Promise<T>; takeOver: boolean } | undefined;
  return (options = {}) => {
    const takeOver = options.takeOver === true;
    if (running && (running.takeOver || !takeOver)) return running.result;
    const entry = { takeOver, result: undefined as unknown as Promise<T> };
    // Started at once when nothing runs (as before: a caller sees the pass under way as soon as it asked).
    const started = running ? running.result.catch(() => undefined).then(() => pass({ takeOver })) : pass({ takeOver });
    entry.result = started.finally(() => {
      if (running === entry) running = undefined;
    });
    running = entry;
    return entry.result;
  };
}

/** A registry over groups of jobs; each group is a tick of its own (the dashboard's, each engine's). */
export function createJobRegistry(groups: ReadonlyArray<{ tick: Tick }>): JobRegistry {
  return {
    tick: sharedPass(async (options) => {
      const outcomes = await Promise.all(groups.map((group) => group.tick(options)));
      return Object.assign({}, ...outcomes) as Record<string, RunOutcome>;
    }),
  };
}

/** A tick over a fixed list of jobs (run concurrently); concurrent calls share one pass. */
export function tickOf(jobs: readonly Job[], deps: JobRunnerDeps): Tick {
  return sharedPass(async (options) => Object.fromEntries(await Promise.all(jobs.map(async (job) => [job.name, await runJob(job, deps, options)] as const))));
}
