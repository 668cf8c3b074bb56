/**
 * Generic scheduled jobs: a job is a name, the slot a time falls in (its cadence window, or null when
 * it has nothing to do then) and a run. `runJob` claims the slot in job_runs (jobs/job-runs.ts),
 * runs it and records the outcome; a registry ticks every job whose slot is due. The scheduler
 * (scheduler.ts) calls the registry's tick once a minute in every server process; with REDIS_URL a
 * worker's `jobs-tick` job does (tasks.ts), and when BullMQ starts that job again after its worker
 * died, the pass takes over every claim that job's earlier start left (TickOptions.queued).
 */
import type { Clock } from '../lib/clock';
import type { JobRuns, QueuedRun } from './job-runs';

export type { QueuedRun } from './job-runs';

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
   * The queued job running this pass (REDIS_URL; none in-process). Its claims record it as their
   * holder. Started again (attempt > 1: BullMQ redelivered it because its worker lost the lock —
   * died — or an attempt failed), each job takes over the running or failed claim its own earlier
   * start holds (never a done one) instead of waiting 15 minutes for it to go stale; a claim another
   * job holds (a duplicate tick) is left to that job while its heartbeat is fresh (jobs/job-runs.ts).
   */
  queued?: QueuedRun;
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** A pass of a queued job started again (it may take over its earlier start's claims). */
export const isRedelivery = (options: TickOptions) => (options.queued?.attempt ?? 1) > 1;

/**
 * Claims the job's current slot, runs it, and records the outcome. A holder whose claim another
 * process took over while it ran (it was not dead after all) records nothing: 'skipped'.
 */
export async function runJob(job: Job, deps: JobRunnerDeps, options: TickOptions = {}): Promise<RunOutcome> {
  const { runs, marketClock, clock, log } = deps;
  const nowMs = marketClock.nowMs();
  const slot = job.slotOf(nowMs);
  if (!slot) return 'skipped';
  const attempt = await runs.claimAttempt(job.name, slot, clock.nowMs(), options.queued ? { queued: options.queued } : {});
  if (attempt === null) return 'skipped';
  if (isRedelivery(options) && attempt > 1) log.info(`Job ${job.name}: slot ${slot.toISOString()} taken over (attempt ${attempt}; its queued job ${options.queued!.jobId} was started again)`);
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
 * A pass that concurrent calls share. A queued job started again (TickOptions.queued, attempt > 1)
 * joins only a pass of that same start (another pass would skip the claims it is to take over): it
 * runs its own once the one under way ended.
 */
export function sharedPass<T>(pass: (options: TickOptions) => Promise<T>): Tick<T> {
  let running: { result: Promise<T>; options: TickOptions } | undefined;
  const sameStart = (a: TickOptions, b: TickOptions) => a.queued?.jobId === b.queued?.jobId && a.queued?.attempt === b.queued?.attempt;
  return (options = {}) => {
    if (running && (!isRedelivery(options) || sameStart(running.options, options))) return running.result;
    const entry = { options, result: undefined as unknown as Promise<T> };
    // Started at once when nothing runs (as before: a caller sees the pass under way as soon as it asked).
    const started = running ? running.result.catch(() => undefined).then(() => pass(options)) : pass(options);
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
