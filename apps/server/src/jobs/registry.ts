/**
 * Generic scheduled jobs: a job is a name, the slot a time falls in (its cadence window, or null when
 * it has nothing to do then) and a run. `runJob` claims the slot in job_runs (jobs/job-runs.ts),
 * runs it and records the outcome; a registry ticks every job whose slot is due. The scheduler
 * (scheduler.ts) calls the registry's tick once a minute in every server process.
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
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Claims the job's current slot, runs it, and records the outcome. */
export async function runJob(job: Job, deps: JobRunnerDeps): Promise<RunOutcome> {
  const { runs, marketClock, clock, log } = deps;
  const nowMs = marketClock.nowMs();
  const slot = job.slotOf(nowMs);
  if (!slot) return 'skipped';
  if (!(await runs.claim(job.name, slot, clock.nowMs()))) return 'skipped';
  let failures: string[];
  try {
    failures = await job.run(slot, nowMs, { heartbeat: () => runs.heartbeat(job.name, slot, clock.nowMs()) });
  } catch (error) {
    failures = [errorText(error)];
  }
  const error = failures.length > 0 ? failures.join('; ') : undefined;
  await runs.finish(job.name, slot, clock.nowMs(), error);
  if (error) log.warn(`Job ${job.name} failed for slot ${slot.toISOString()} (the last good data stays; retried with backoff): ${error}`);
  return error ? 'failed' : 'done';
}

export interface JobRegistry {
  /** Runs every job whose slot is due, concurrently; concurrent calls share one pass. */
  tick(): Promise<Record<string, RunOutcome>>;
}

/** A registry over groups of jobs; each group is a tick of its own (the dashboard's, each engine's). */
export function createJobRegistry(groups: ReadonlyArray<{ tick(): Promise<Record<string, RunOutcome>> }>): JobRegistry {
  let running: Promise<Record<string, RunOutcome>> | undefined;
  return {
    tick() {
      running ??= (async () => {
        try {
          const outcomes = await Promise.all(groups.map((group) => group.tick()));
          return Object.assign({}, ...outcomes) as Record<string, RunOutcome>;
        } finally {
          running = undefined;
        }
      })();
      return running;
    },
  };
}

/** A tick over a fixed list of jobs (run concurrently); concurrent calls share one pass. */
export function tickOf(jobs: readonly Job[], deps: JobRunnerDeps): () => Promise<Record<string, RunOutcome>> {
  let running: Promise<Record<string, RunOutcome>> | undefined;
  return () => {
    running ??= (async () => {
      try {
        const outcomes = await Promise.all(jobs.map(async (job) => [job.name, await runJob(job, deps)] as const));
        return Object.fromEntries(outcomes);
      } finally {
        running = undefined;
      }
    })();
    return running;
  };
}
