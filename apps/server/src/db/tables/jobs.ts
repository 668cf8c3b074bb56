/** The claims of the scheduled jobs and the counters every process shares. */
import { integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/**
 * One row per scheduled job and slot (the cadence window a run belongs to). A process claims a slot
 * by inserting its row; a second process (or a second tick) finds it taken and skips, so two
 * instances never do the same run twice. A failed run is retried with backoff by re-claiming it.
 */
export const jobRuns = pgTable(
  'job_runs',
  {
    id: serial('id').primaryKey(),
    job: text('job').notNull(),
    slot: timestamp('slot', { withTimezone: true }).notNull(),
    /** running, done or failed. */
    status: text('status').notNull(),
    attempts: integer('attempts').notNull().default(1),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    error: text('error'),
    /** The process that holds the claim (`host:pid`), for operators and logs. */
    holder: text('holder'),
    /** The queued (BullMQ) job holding it and which start of that job (jobs/registry.ts QueuedRun); null in-process. */
    holderJob: text('holder_job'),
    holderAttempt: integer('holder_attempt'),
  },
  (table) => [uniqueIndex('job_runs_job_slot_unique').on(table.job, table.slot)],
);

/**
 * Fixed-window counters every process shares through the database (issue 24): the installation's
 * daily SMS budget (key 'sms-budget', the window a UTC day) and the test-send limits (one key per
 * user and channel, the window an hour from its first send). A hit is one atomic upsert.
 */
export const usageCounters = pgTable('usage_counters', {
  key: text('key').primaryKey(),
  windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
  count: integer('count').notNull(),
});
