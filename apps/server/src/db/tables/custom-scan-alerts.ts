/** Custom Scan alerts (issue 26, docs/custom-scans.md "Custom Scan alerts"): what each watched scan matched. */
import { date, doublePrecision, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { customScans } from './custom-scans';

/**
 * The members of a saved scan's results after a daily pass: one row per (scan, session), written in
 * the transaction of the alert it causes (features/alerts/evaluation/scan.evaluator.ts). Its primary
 * key makes the pass of a session happen once per scan, however often the slot is retried and in
 * however many processes; the next session's new symbols are those not in the previous row. A row
 * compares only with one of the same `scan_version` (an edited scan starts again). Rows go with their
 * scan; the rules' save drops those of scans the rule no longer watches, so a scan chosen again starts
 * again; each pass keeps only the scan's latest two sessions.
 */
export const customScanMembers = pgTable(
  'custom_scan_members',
  {
    scanId: integer('scan_id')
      .notNull()
      .references(() => customScans.id, { onDelete: 'cascade' }),
    /** The New York session the scan ran as of (YYYY-MM-DD). */
    session: date('session', { mode: 'string' }).notNull(),
    /** custom_scans.version when it ran. */
    scanVersion: integer('scan_version').notNull(),
    /** The symbols in the results (sorted), plus those of the previous row the run could not read (kept, not left). */
    symbols: text('symbols').array().notNull(),
    /** The symbols this pass alerted on (empty on a first pass, which only records). */
    entered: text('entered').array().notNull(),
    recordedAt: timestamp('recorded_at', { withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.scanId, table.session] })],
);

/**
 * The symbols that entered a saved scan's results during a session, on the quote poller's cadence
 * (features/alerts/evaluation/scan-intraday.evaluator.ts; docs/custom-scans.md "Custom Scan alerts",
 * "During the session"): one row per (scan, session, symbol), written in the transaction of the alert
 * it causes. Its primary key makes a symbol alert at most once per scan and session however many
 * polls and processes see it enter, and the daily pass of that session leaves out the symbols it
 * holds. Rows go with their scan, with the rule's members when it stops watching the scan, and with
 * the next sessions' daily passes.
 */
export const customScanIntradayEntries = pgTable(
  'custom_scan_intraday_entries',
  {
    scanId: integer('scan_id')
      .notNull()
      .references(() => customScans.id, { onDelete: 'cascade' }),
    /** The New York session under way (YYYY-MM-DD). */
    session: date('session', { mode: 'string' }).notNull(),
    symbol: text('symbol').notNull(),
    /** custom_scans.version when it entered. */
    scanVersion: integer('scan_version').notNull(),
    /** The live price it entered at. */
    price: doublePrecision('price').notNull(),
    firedAt: timestamp('fired_at', { withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.scanId, table.session, table.symbol] })],
);
