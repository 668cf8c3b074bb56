/** Custom scans (issue 26, docs/custom-scans.md "Backtest jobs"): each saved scan's backtest. */
import { sql } from 'drizzle-orm';
import { boolean, check, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { customScans } from './custom-scans';

/**
 * One backtest per saved scan (deleted with it), of one version of the scan: starting another
 * version's replaces it. `attempt` goes up by one at each start; the job that runs a start writes
 * only while the row still holds its attempt and status 'running' (a cancel, a newer start or the
 * scan's deletion stops it at its next write). `updated_at` is the job's heartbeat: a 'running' row
 * left untouched for two minutes belongs to a process that died
 * (features/custom-scans/backtest.repo.ts). `result` is the contract's backtestResult
 * (packages/core/src/contract/custom-scans.ts), set once done, with `data_version`: the imported
 * prices it was replayed on (providers/market/imported/data-version.ts; '' none), so a result is never
 * taken for one of other data (docs/custom-scans.md "Backtest jobs", "The data it ran on").
 */
export const customScanBacktests = pgTable(
  'custom_scan_backtests',
  {
    scanId: integer('scan_id')
      .primaryKey()
      .references(() => customScans.id, { onDelete: 'cascade' }),
    /** The version of the scan this backtest replays (custom_scans.version when it was started). */
    version: integer('version').notNull(),
    /** One of BACKTEST_STATUSES: queued, running, done, failed, cancelled. */
    status: text('status').notNull(),
    attempt: integer('attempt').notNull().default(1),
    /** Sessions replayed, of `total` (0 of 0 until the bars are read). */
    done: integer('done').notNull().default(0),
    total: integer('total').notNull().default(0),
    result: jsonb('result'),
    /** The data version of the bars the result was replayed from; null until done (and for results stored before migration 0026). */
    dataVersion: text('data_version'),
    /** This start replays the imported prices that changed since the result before it (set by the start, kept until the next). */
    dataRerun: boolean('data_rerun').notNull().default(false),
    error: text('error'),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [check('custom_scan_backtests_status', sql`${table.status} in ('queued', 'running', 'done', 'failed', 'cancelled')`)],
);
