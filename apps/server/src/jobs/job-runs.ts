/**
 * The `job_runs` claims every scheduled job shares: one row per (job, slot). A process claims a slot
 * by inserting its row; a second process (or a second tick) finds it taken and skips, so any number
 * of server processes on one database run each slot once. A failed run is retried with backoff by
 * re-claiming it; a 'running' claim whose process died is taken over once stale.
 */
import { and, desc, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { jobRuns } from '../db/schema';

/** How long a 'running' claim is trusted (since its start or last heartbeat) before another process may take it over. */
export const STALE_RUN_MS = 15 * 60_000;

export function createJobRuns(db: Database) {
  return {
    /**
     * Claims `job` for `slot` at wall time `nowMs`. True when this caller may run it: the slot is new,
     * its last attempt failed and the backoff has passed (1, 2, 4 … minutes after the failure, at
     * most 30), or a 'running' claim is stale (its process died). Two concurrent callers: exactly one
     * gets true (the row's unique key decides). `takeOver`: also a 'running' claim however fresh and a
     * failed one within its backoff — for a queued job started again (its worker died holding it, or
     * an attempt failed), whose queue lock says no one else holds it; a done slot stays done.
     */
    async claim(job: string, slot: Date, nowMs: number, options: { takeOver?: boolean } = {}): Promise<boolean> {
      const now = new Date(nowMs);
      const staleBefore = new Date(nowMs - STALE_RUN_MS);
      const rows = await db.execute(sql`
        insert into ${jobRuns} (job, slot, status, attempts, started_at)
        values (${job}, ${slot.toISOString()}, 'running', 1, ${now.toISOString()})
        on conflict (job, slot) do update set status = 'running', attempts = ${jobRuns.attempts} + 1, started_at = excluded.started_at, finished_at = null, error = null
        where (${jobRuns.status} = 'failed' and ${jobRuns.finishedAt} + make_interval(mins => least(30, power(2, greatest(0, ${jobRuns.attempts} - 1))::int)) <= ${now.toISOString()}::timestamptz)
           or (${jobRuns.status} = 'running' and ${jobRuns.startedAt} < ${staleBefore.toISOString()}::timestamptz)
           or (${options.takeOver === true} and ${jobRuns.status} <> 'done')
        returning id`);
      return rows.rows.length === 1;
    },
    /** Keeps a long run's claim fresh (a replay), so no other process takes it over as stale. */
    async heartbeat(job: string, slot: Date, nowMs: number): Promise<void> {
      await db
        .update(jobRuns)
        .set({ startedAt: new Date(nowMs) })
        .where(and(eq(jobRuns.job, job), eq(jobRuns.slot, slot), eq(jobRuns.status, 'running')));
    },
    async finish(job: string, slot: Date, nowMs: number, error?: string): Promise<void> {
      await db
        .update(jobRuns)
        .set({ status: error === undefined ? 'done' : 'failed', finishedAt: new Date(nowMs), error: error?.slice(0, 2000) ?? null })
        .where(and(eq(jobRuns.job, job), eq(jobRuns.slot, slot)));
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
