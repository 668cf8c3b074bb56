/**
 * The calls on a saved scan's backtest (docs/custom-scans.md "Backtest jobs"): start, read, cancel.
 * Another user's scan and an unknown id are the same 404 as the saved-scan calls'. A start answers at
 * once; the job (backtest.job.ts) runs in the background or on a worker. A done result of the scan's
 * version whose universe's imported prices changed since it ran (its data version is not theirs now,
 * backtest-data.ts) is replaced by a replay on the new prices when it is read or started: through the
 * start's path (its one-at-a-time limit, the job's slots), its progress shown like any run's. While
 * another of the user's backtests is under way it stays, answered with `data_changed`, until a read
 * after that one can start it.
 */
import type { ScanBacktestResponse } from '@signalboard/core';
import { badRequest, HttpError } from '../../lib/errors';
import { compiledScanOf, unreplayableProblem } from './backtest-input';
import type { ScanBacktests } from './backtest.job';
import { STALE_QUEUED_SECONDS, type BacktestRepo, type BacktestRow, type BacktestScan, type BeginResult } from './backtest.repo';

export const NO_SUCH_SCAN = 'No such scan.';
export const NO_BACKTEST = 'No backtest of this scan yet.';
export const NOT_RUNNING = 'No backtest of this scan is running.';
/** What a stale row (backtest.repo.ts) says: it is shown as failed, and the next start runs it again. */
export const STALE_MESSAGES = {
  running: 'The backtest stopped answering: the process running it ended. Start it again.',
  queued: `No worker took the backtest up within ${STALE_QUEUED_SECONDS / 60} minutes (is \`npm run worker\` running?). Start it again.`,
} as const;
/** A second backtest while one runs is refused for this long at least. */
const BUSY_RETRY_SECONDS = 10;

export interface BacktestServiceDeps {
  repo: Pick<BacktestRepo, 'scanOf' | 'begin' | 'cancel'>;
  jobs: Pick<ScanBacktests, 'start'>;
  /** The data version the scan's universe reads now (backtest-data.ts universeDataVersion). */
  dataVersionNow: (scan: BacktestScan, userId: number) => Promise<string>;
  log: { warn(context: object, msg: string): void };
}

/**
 * The row as the calls answer it; a stale one (its process died) as failed, saying so. `dataChanged`:
 * a done result's imported prices changed since (a run under way says it from its row).
 */
export function backtestAnswer(row: BacktestRow, scanVersion: number, dataChanged = false): ScanBacktestResponse {
  const stale = row.stale && (row.status === 'queued' || row.status === 'running');
  const underWay = !stale && (row.status === 'queued' || row.status === 'running');
  return {
    scan_id: row.scanId,
    version: row.version,
    current: row.version === scanVersion,
    status: stale ? 'failed' : row.status,
    done: row.done,
    total: row.total,
    started_at: row.startedAt.toISOString(),
    finished_at: row.finishedAt?.toISOString() ?? null,
    error: stale ? STALE_MESSAGES[row.status as 'queued' | 'running'] : row.error,
    result: row.result,
    data_version: row.dataVersion,
    data_changed: underWay ? row.dataRerun : row.status === 'done' && dataChanged,
  };
}

export function createBacktestService({ repo, jobs, dataVersionNow, log }: BacktestServiceDeps) {
  /**
   * The data version of the scan's done result when its universe's imported prices changed since
   * (a result stored without one counts as ''); undefined when they did not, or it is no such result.
   * When the prices cannot be listed now, the result is kept (and the failure logged).
   */
  async function changedFrom(userId: number, scan: BacktestScan, row: BacktestRow | null): Promise<string | undefined> {
    if (row?.status !== 'done' || row.version !== scan.version) return undefined;
    const stored = row.dataVersion ?? '';
    try {
      return (await dataVersionNow(scan, userId)) === stored ? undefined : stored;
    } catch (error) {
      log.warn({ err: error, scanId: scan.id }, 'custom scan backtest: the imported prices of its universe could not be listed (its result is kept)');
      return undefined;
    }
  }

  /** The answer of a begin that started (the job handed on) or did not (the row as it is). */
  async function launched(begun: Extract<BeginResult, { row: BacktestRow }>, scanId: number): Promise<ScanBacktestResponse> {
    const answer = backtestAnswer(begun.row, begun.scanVersion);
    if (!begun.started) return answer;
    const refused = await jobs.start({ scanId, attempt: begun.row.attempt, version: begun.row.version });
    return refused === null ? answer : { ...answer, status: 'failed', error: refused };
  }

  return {
    /**
     * POST: the backtest of the scan's current version. Done (on the imported prices as they are) or
     * under way: answered as it is. Else started (status queued), unless the scan reads what cannot be
     * replayed (400) or another of the user's backtests is under way (429, naming its scan).
     */
    async start(userId: number, scanId: number): Promise<ScanBacktestResponse> {
      const found = await repo.scanOf(userId, scanId);
      if (!found) throw new HttpError(404, NO_SUCH_SCAN);
      const problem = unreplayableProblem(compiledScanOf(found.scan.formula));
      if (problem) throw badRequest(problem);
      const replacing = await changedFrom(userId, found.scan, found.backtest);
      const begun = await repo.begin(userId, scanId, replacing === undefined ? {} : { replacing });
      if ('missing' in begun) throw new HttpError(404, NO_SUCH_SCAN);
      if ('busy' in begun) {
        throw new HttpError(429, `Your backtest of "${begun.busy}" is still running, and one runs at a time. Wait for it to finish or cancel it, then start this one.`, {
          headers: { 'retry-after': String(BUSY_RETRY_SECONDS) },
        });
      }
      return launched(begun, scanId);
    },

    /**
     * GET: the scan's backtest, running or finished. A result whose imported prices changed since is
     * replayed on the new ones (answered queued); while another of the user's backtests is under way
     * it is answered as it is, with `data_changed`.
     */
    async get(userId: number, scanId: number): Promise<ScanBacktestResponse> {
      const found = await repo.scanOf(userId, scanId);
      if (!found) throw new HttpError(404, NO_SUCH_SCAN);
      if (!found.backtest) throw new HttpError(404, NO_BACKTEST);
      const replacing = await changedFrom(userId, found.scan, found.backtest);
      if (replacing === undefined) return backtestAnswer(found.backtest, found.scan.version);
      const begun = await repo.begin(userId, scanId, { replacing });
      if ('missing' in begun) throw new HttpError(404, NO_SUCH_SCAN);
      if ('busy' in begun) return backtestAnswer(found.backtest, found.scan.version, true);
      return launched(begun, scanId);
    },

    /** DELETE: cancels the scan's backtest under way; the job stops at its next write, without a result. */
    async cancel(userId: number, scanId: number): Promise<{ msg: string }> {
      const found = await repo.scanOf(userId, scanId);
      if (!found) throw new HttpError(404, NO_SUCH_SCAN);
      if (!(await repo.cancel(userId, scanId))) throw new HttpError(404, NOT_RUNNING);
      return { msg: `Cancelled the backtest of "${found.scan.name}".` };
    },
  };
}

export type BacktestService = ReturnType<typeof createBacktestService>;
