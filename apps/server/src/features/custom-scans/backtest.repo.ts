/**
 * The saved scans' backtests (table custom_scan_backtests; docs/custom-scans.md "Backtest jobs").
 * The calls' queries are scoped by the scan's owner; the job's are fenced by the row's `attempt`:
 * a job writes only while the row still holds its attempt and status 'running', so a cancel, a newer
 * start or the scan's deletion stops it at its next write, and a job that lost its row writes nothing.
 * Every time is the database's (`now()`), so any number of processes agree on what is stale.
 */
import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import type { BacktestResultBody, BacktestStatus, ScanUniverse } from '@signalboard/core';
import type { Database } from '../../db/client';
import { pgErrorCode } from '../../db/errors';
import { customScanBacktests as backtests, customScans, users } from '../../db/schema';

/** A 'running' row whose job has not written for this long belongs to a process that died. */
export const STALE_RUNNING_SECONDS = 120;
/** A 'queued' row no process has taken up for this long (no worker runs, or it died first) is given up. */
export const STALE_QUEUED_SECONDS = 600;

export interface BacktestRow {
  scanId: number;
  version: number;
  status: BacktestStatus;
  attempt: number;
  done: number;
  total: number;
  result: BacktestResultBody | null;
  error: string | null;
  startedAt: Date;
  finishedAt: Date | null;
  /** The data version of the bars the result was replayed from (null: no result, or one stored before data versions were kept). */
  dataVersion: string | null;
  /** This start replays imported prices that changed since the result before it. */
  dataRerun: boolean;
  /** Queued or running, but its job has not written for too long (STALE_RUNNING_SECONDS, STALE_QUEUED_SECONDS). */
  stale: boolean;
}

/** The scan a call is about (its owner's). */
export interface BacktestScan {
  id: number;
  name: string;
  universe: ScanUniverse;
  formula: string;
  version: number;
}

/** What a job runs: its start, the version it replays, and the scan as it is now. */
export interface JobRef {
  scanId: number;
  attempt: number;
}
export interface ClaimedBacktest {
  version: number;
  userId: number;
  scan: BacktestScan;
}

/** Why a start did not happen: the user has no such scan, or another of their backtests runs (its scan's name). */
export interface BeginOptions {
  /**
   * The data version of a done result whose imported prices changed since (a stored null counts as
   * ''): that result, still done, of the scan's version and of this data version, is replaced by a
   * start on the new data (`dataRerun`). Without it a done result of the scan's version is kept.
   */
  replacing?: string;
}
export type BeginResult = { row: BacktestRow; started: boolean; scanVersion: number } | { missing: true } | { busy: string };

/** A queued or running row whose job still writes (SQL, on the backtests table). */
const live = sql`((${backtests.status} = 'running' and ${backtests.updatedAt} > now() - ${sql.raw(`interval '${STALE_RUNNING_SECONDS} seconds'`)})
  or (${backtests.status} = 'queued' and ${backtests.updatedAt} > now() - ${sql.raw(`interval '${STALE_QUEUED_SECONDS} seconds'`)}))`;

const rowColumns = {
  scanId: backtests.scanId,
  version: backtests.version,
  status: sql<BacktestStatus>`${backtests.status}`,
  attempt: backtests.attempt,
  done: backtests.done,
  total: backtests.total,
  result: sql<BacktestResultBody | null>`${backtests.result}`,
  error: backtests.error,
  startedAt: backtests.startedAt,
  finishedAt: backtests.finishedAt,
  dataVersion: backtests.dataVersion,
  dataRerun: backtests.dataRerun,
};
const withStale = { ...rowColumns, stale: sql<boolean>`(${backtests.status} in ('queued', 'running') and not ${live})` };

const scanColumns = {
  id: customScans.id,
  name: customScans.name,
  universe: sql<ScanUniverse>`${customScans.universe}`,
  formula: customScans.formula,
  version: customScans.version,
};

/** A job's own row: its start, still running. */
const fenced = ({ scanId, attempt }: JobRef) => and(eq(backtests.scanId, scanId), eq(backtests.attempt, attempt), eq(backtests.status, 'running'));

export function createBacktestRepo(db: Database) {
  return {
    /** The user's scan and its backtest (undefined: no such scan of theirs). */
    async scanOf(userId: number, scanId: number): Promise<{ scan: BacktestScan; backtest: BacktestRow | null } | undefined> {
      const [found] = await db
        .select({ scan: scanColumns, backtest: withStale })
        .from(customScans)
        .leftJoin(backtests, eq(backtests.scanId, customScans.id))
        .where(and(eq(customScans.id, scanId), eq(customScans.userId, userId)));
      if (!found) return undefined;
      // No backtest: drizzle answers the left-joined object as null, or (its sql columns) as one of nulls.
      return { scan: found.scan, backtest: found.backtest?.scanId ? found.backtest : null };
    },

    /**
     * Starts the backtest of the scan's current version, unless that version's is done or still
     * under way (then it is the answer, `started` false) or another of the user's backtests is under
     * way. The user's row is locked first (as a save does), so two starts of one user are decided one
     * after the other and never both pass the limit; the scan's row is read under a share lock, so its
     * version cannot change meanwhile. A (re)start: status queued, 0 of 0, the next attempt, no result
     * and no data version (a result is never kept beside another data's: BeginOptions.replacing).
     */
    async begin(userId: number, scanId: number, options: BeginOptions = {}): Promise<BeginResult> {
      try {
        return await db.transaction(async (tx): Promise<BeginResult> => {
          await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('no key update');
          const [scan] = await tx.select({ version: customScans.version }).from(customScans).where(and(eq(customScans.id, scanId), eq(customScans.userId, userId))).for('share');
          if (!scan) return { missing: true };
          const [current] = await tx.select(withStale).from(backtests).where(eq(backtests.scanId, scanId)).for('update');
          const underWay = current && (current.status === 'queued' || current.status === 'running') && !current.stale;
          const dataRerun = options.replacing !== undefined && current?.status === 'done' && current.version === scan.version && (current.dataVersion ?? '') === options.replacing;
          if (current && current.version === scan.version && ((current.status === 'done' && !dataRerun) || underWay)) return { row: current, started: false, scanVersion: scan.version };
          const [other] = await tx
            .select({ name: customScans.name })
            .from(backtests)
            .innerJoin(customScans, eq(customScans.id, backtests.scanId))
            .where(and(eq(customScans.userId, userId), ne(backtests.scanId, scanId), live))
            .limit(1);
          if (other) return { busy: other.name };
          const restart = {
            version: scan.version,
            status: 'queued',
            done: 0,
            total: 0,
            result: null,
            error: null,
            dataVersion: null,
            dataRerun,
            startedAt: sql`now()`,
            finishedAt: null,
            updatedAt: sql`now()`,
          } as const;
          const [row] = await tx
            .insert(backtests)
            .values({ scanId, ...restart })
            .onConflictDoUpdate({ target: backtests.scanId, set: { ...restart, attempt: sql`${backtests.attempt} + 1` } })
            .returning(rowColumns);
          return { row: { ...row!, stale: false }, started: true, scanVersion: scan.version };
        });
      } catch (error) {
        // The scan was deleted between the share lock's wait and the insert's check.
        if (pgErrorCode(error) === '23503') return { missing: true };
        throw error;
      }
    },

    /** Cancels the user's backtest of the scan if it is under way; false when none is. */
    async cancel(userId: number, scanId: number): Promise<boolean> {
      const owned = db.select({ id: customScans.id }).from(customScans).where(and(eq(customScans.id, scanId), eq(customScans.userId, userId)));
      const rows = await db
        .update(backtests)
        .set({ status: 'cancelled', finishedAt: sql`now()`, updatedAt: sql`now()` })
        .where(and(eq(backtests.scanId, scanId), inArray(backtests.scanId, owned), live))
        .returning({ scanId: backtests.scanId });
      return rows.length > 0;
    },

    /**
     * A job takes its start up: the row holds its attempt and is queued (or running: a worker that
     * died held it before). Answers the scan as it is now, or undefined when the start is not there
     * any more (cancelled, restarted, the scan deleted).
     */
    async claim(job: JobRef): Promise<ClaimedBacktest | undefined> {
      const [row] = await db
        .update(backtests)
        .set({ status: 'running', done: 0, total: 0, updatedAt: sql`now()` })
        .from(customScans)
        .where(and(eq(backtests.scanId, job.scanId), eq(backtests.attempt, job.attempt), inArray(backtests.status, ['queued', 'running']), eq(customScans.id, backtests.scanId)))
        .returning({ version: backtests.version, userId: customScans.userId, scan: scanColumns });
      return row;
    },

    /**
     * A start waiting in this process for a free slot (backtest-slots.ts) keeps its row queued and
     * fresh, so it is not given up as stale; false when the row is not its queued start any more
     * (cancelled, restarted, the scan deleted): the wait ends.
     */
    async touchQueued(job: JobRef): Promise<boolean> {
      const rows = await db
        .update(backtests)
        .set({ updatedAt: sql`now()` })
        .where(and(eq(backtests.scanId, job.scanId), eq(backtests.attempt, job.attempt), eq(backtests.status, 'queued')))
        .returning({ scanId: backtests.scanId });
      return rows.length > 0;
    },

    /** The job's progress (and its heartbeat); false when the row is not its own any more: stop. */
    async progress(job: JobRef, done: number, total: number): Promise<boolean> {
      const rows = await db.update(backtests).set({ done, total, updatedAt: sql`now()` }).where(fenced(job)).returning({ scanId: backtests.scanId });
      return rows.length > 0;
    },

    /** Stores the result and the data version it was replayed on; false when the row is not the job's any more (nothing written). */
    async finish(job: JobRef, result: BacktestResultBody, dataVersion: string): Promise<boolean> {
      const rows = await db
        .update(backtests)
        .set({ status: 'done', done: sql`${backtests.total}`, result, dataVersion, finishedAt: sql`now()`, updatedAt: sql`now()` })
        .where(fenced(job))
        .returning({ scanId: backtests.scanId });
      return rows.length > 0;
    },

    /** The start failed (queued: it could not be handed to a worker; running: the job failed). */
    async fail(job: JobRef, error: string): Promise<boolean> {
      const rows = await db
        .update(backtests)
        .set({ status: 'failed', error, finishedAt: sql`now()`, updatedAt: sql`now()` })
        .where(and(eq(backtests.scanId, job.scanId), eq(backtests.attempt, job.attempt), inArray(backtests.status, ['queued', 'running'])))
        .returning({ scanId: backtests.scanId });
      return rows.length > 0;
    },
  };
}

export type BacktestRepo = ReturnType<typeof createBacktestRepo>;
