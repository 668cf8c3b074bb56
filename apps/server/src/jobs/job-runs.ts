/**
 * The `job_runs` claims every scheduled job shares: one row per (job, slot). A process claims a slot
 * by inserting its row; a second process (or a second tick) finds it taken and skips, so any number
 * of server processes on one database run each slot once. A failed run is retried with backoff by
 * re-claiming it; a 'running' claim whose process died is taken over once stale (no heartbeat for
 * STALE_RUN_MS). Each claim records its holder: the process (`host:pid`) and, for a queued job
 * (REDIS_URL), the BullMQ job id and which start of it. A job BullMQ started again — its worker lost
 * the job's lock (died), or an attempt failed — takes over at once the claim its own earlier start
 * holds (`queued` with a higher attempt); a claim another queued job holds (a duplicate tick) stays
 * that job's while fresh, since only the queue's lock on *that* job says its holder is gone. Each
 * claim is an attempt (its number, `attempts`, counts up with every claim of the slot): a holder
 * finishes (or heartbeats) only its own attempt, so one that wakes after its claim was taken over
 * leaves the new holder's alone.
 */
import { hostname } from 'node:os';
import { and, desc, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { jobRuns } from '../db/schema';

/** The queued (BullMQ) job a pass runs in: its id, and which start of it this is (1: the first; BullMQ's attemptsStarted). */
export interface QueuedRun {
  jobId: string;
  attempt: number;
}

/** How long a 'running' claim is trusted (since its start or last heartbeat) before another process may take it over. */
export const STALE_RUN_MS = 15 * 60_000;

/** This process, as a claim's holder. */
export const PROCESS_HOLDER = `${hostname()}:${process.pid}`;

export interface ClaimOptions {
  /** The queued job claiming (QueuedRun): recorded as the holder; a later start of it takes its earlier start's claim over. */
  queued?: QueuedRun;
}

export function createJobRuns(db: Database) {
  /** As claim; answers the claim's attempt number (for finish and heartbeat), or null when not claimed. */
  async function claimAttempt(job: string, slot: Date, nowMs: number, options: ClaimOptions = {}): Promise<number | null> {
    const now = new Date(nowMs);
    const staleBefore = new Date(nowMs - STALE_RUN_MS);
    const queued = options.queued;
    // Only a later start of the same queued job takes over: its earlier start lost the job's lock.
    const ownEarlierStart = queued && queued.attempt > 1 ? sql`(${jobRuns.holderJob} = ${queued.jobId} and ${jobRuns.holderAttempt} < ${queued.attempt})` : sql`false`;
    const rows = await db.execute(sql`
      insert into ${jobRuns} (job, slot, status, attempts, started_at, holder, holder_job, holder_attempt)
      values (${job}, ${slot.toISOString()}, 'running', 1, ${now.toISOString()}, ${PROCESS_HOLDER}, ${queued?.jobId ?? null}, ${queued?.attempt ?? null})
      on conflict (job, slot) do update set status = 'running', attempts = ${jobRuns.attempts} + 1, started_at = excluded.started_at, finished_at = null, error = null,
        holder = excluded.holder, holder_job = excluded.holder_job, holder_attempt = excluded.holder_attempt
      where (${jobRuns.status} = 'failed' and ${jobRuns.finishedAt} + make_interval(mins => least(30, power(2, greatest(0, ${jobRuns.attempts} - 1))::int)) <= ${now.toISOString()}::timestamptz)
         or (${jobRuns.status} = 'running' and ${jobRuns.startedAt} < ${staleBefore.toISOString()}::timestamptz)
         or (${jobRuns.status} <> 'done' and ${ownEarlierStart})
      returning ${jobRuns.attempts} as attempts`);
    const [row] = rows.rows as Array<{ attempts: number }>;
    return row ? Number(row.attempts) : null;
  }

  return {
    /**
     * Claims `job` for `slot` at wall time `nowMs`. True when this caller may run it: the slot is new,
     * its last attempt failed and the backoff has passed (1, 2, 4 … minutes after the failure, at
     * most 30), or a 'running' claim is stale (its process died). Two concurrent callers: exactly one
     * gets true (the row's unique key decides). `queued` started again (attempt > 1): also a running
     * claim however fresh and a failed one within its backoff, when its own earlier start holds it —
     * the queue's lock says no one else runs that start any more; a done slot stays done. (The
     * earlier start may still be running after all — a worker that lost its lock while stalled —:
     * both run it, the slot's writes are idempotent, and only the later attempt records the outcome.)
     */
    async claim(job: string, slot: Date, nowMs: number, options: ClaimOptions = {}): Promise<boolean> {
      return (await claimAttempt(job, slot, nowMs, options)) !== null;
    },
    claimAttempt,
    /** Keeps a long run's claim fresh (a replay), so no other process takes it over as stale; `attempt`: only while it is still that attempt. */
    async heartbeat(job: string, slot: Date, nowMs: number, attempt?: number): Promise<void> {
      await db
        .update(jobRuns)
        .set({ startedAt: new Date(nowMs) })
        .where(and(eq(jobRuns.job, job), eq(jobRuns.slot, slot), eq(jobRuns.status, 'running'), attempt === undefined ? undefined : eq(jobRuns.attempts, attempt)));
    },
    /**
     * Records the run's outcome. `attempt` (claimAttempt's answer): only while the claim is still that
     * attempt — false when another process has taken it over since (its run stands, and finishes it).
     */
    async finish(job: string, slot: Date, nowMs: number, error?: string, attempt?: number): Promise<boolean> {
      const rows = await db
        .update(jobRuns)
        .set({ status: error === undefined ? 'done' : 'failed', finishedAt: new Date(nowMs), error: error?.slice(0, 2000) ?? null })
        .where(and(eq(jobRuns.job, job), eq(jobRuns.slot, slot), attempt === undefined ? undefined : eq(jobRuns.attempts, attempt)))
        .returning({ id: jobRuns.id });
      return rows.length > 0;
    },
    /** The last run of `job` (any slot), for logs and tests. */
    async lastRun(job: string) {
      const [row] = await db.select().from(jobRuns).where(eq(jobRuns.job, job)).orderBy(desc(jobRuns.slot)).limit(1);
      return row;
    },
    /** Drops the runs of these jobs older than `before`. */
    async prune(jobs: readonly string[], before: Date): Promise<void> {
      await db.delete(jobRuns).where(and(inArray(jobRuns.job, [...jobs]), lt(jobRuns.slot, before)));
    },
  };
}

export type JobRuns = ReturnType<typeof createJobRuns>;
