/** Custom scans (issue 26, docs/custom-scans.md "Backtest jobs"): each saved scan's backtest. */
import { sql } from 'drizzle-orm';
import { check, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { customScans } from './custom-scans';

/**
 * One backtest per saved scan (deleted with it), of one version of the scan: starting another
 * version's replaces it. `attempt` goes up by one at each start; the job that runs a start writes
 * only while the row still holds its attempt and status 'running' (a cancel, a newer start or the
 * scan's deletion stops it at its next write). `updated_at` is the job's heartbeat: a 'running' row
 * left untouched for two minutes belongs to a process that died
 * (features/custom-scans/backtest.repo.ts). `result` is the contract's backtestResult
 * (packages/core/src/contract/custom-scans.ts), set once done.
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
    error: text('error'),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [check('custom_scan_backtests_status', sql`${table.status} in ('queued', 'running', 'done', 'failed', 'cancelled')`)],
);
