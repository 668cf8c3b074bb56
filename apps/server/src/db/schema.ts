import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  doublePrecision,
  index,
  jsonb,
  integer,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    /** Stored lower-cased; unique. */
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    /** Set by forgot-password; usable until it expires or a password is set. */
    tempPasswordHash: text('temp_password_hash'),
    tempPasswordExpiresAt: timestamp('temp_password_expires_at', { withTimezone: true }),
    firstLogin: boolean('first_login').notNull().default(true),
    isActive: boolean('is_active').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex('users_email_unique').on(table.email)],
);

export const favoriteStocks = pgTable(
  'favorite_stocks',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    symbol: text('symbol').notNull(),
    description: text('description').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex('favorite_stocks_user_symbol_unique').on(table.userId, table.symbol)],
);

/** Every e-mail the outbox transport "sent": the row plus an .eml file in DATA_DIR/outbox. */
export const outboxEmails = pgTable(
  'outbox_emails',
  {
    id: serial('id').primaryKey(),
    toAddress: text('to_address').notNull(),
    replyTo: text('reply_to'),
    subject: text('subject').notNull(),
    textBody: text('text_body').notNull(),
    attachmentNames: text('attachment_names')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull(),
    emlPath: text('eml_path').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('outbox_emails_to_created').on(table.toAddress, table.createdAt)],
);

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
  },
  (table) => [uniqueIndex('job_runs_job_slot_unique').on(table.job, table.slot)],
);

/** Spec §3 "Overall sentiment", with its history: one row per refresh slot. */
export const overallSentiment = pgTable(
  'overall_sentiment',
  {
    id: serial('id').primaryKey(),
    slot: timestamp('slot', { withTimezone: true }).notNull(),
    gptSummary: text('gpt_summary').notNull(),
    newsCount: integer('news_count').notNull(),
    /** The news' tone and score (-1 … +1) from the finance lexicon, whichever analyst wrote the summary. */
    tone: text('tone').notNull().default('neutral'),
    score: doublePrecision('score').notNull().default(0),
    /** Who wrote the summary: local or openai. */
    analyst: text('analyst').notNull(),
    dateCreated: timestamp('date_created', { withTimezone: true }).notNull(),
  },
  (table) => [uniqueIndex('overall_sentiment_slot_unique').on(table.slot)],
);

/** Spec §3 "Sector sentiment", with its history: one row per GICS sector and refresh slot. */
export const sectorSentiment = pgTable(
  'sector_sentiment',
  {
    id: serial('id').primaryKey(),
    sector: text('sector').notNull(),
    slot: timestamp('slot', { withTimezone: true }).notNull(),
    gptSummary: text('gpt_summary').notNull(),
    /** The sector's recent news: [{ title, url, image, summary, source, datetime, symbol }], newest first. */
    news: jsonb('news').notNull(),
    /** The news' tone and score (-1 … +1) from the finance lexicon, whichever analyst wrote the summary. */
    tone: text('tone').notNull().default('neutral'),
    score: doublePrecision('score').notNull().default(0),
    analyst: text('analyst').notNull(),
    lastUpdatedUtc: timestamp('last_updated_utc', { withTimezone: true }).notNull(),
  },
  (table) => [uniqueIndex('sector_sentiment_sector_slot_unique').on(table.sector, table.slot)],
);

/** Spec §3 "Economic indicator", with its history: one row per indicator and refresh slot. */
export const economicIndicators = pgTable(
  'economic_indicators',
  {
    id: serial('id').primaryKey(),
    indicatorCode: text('indicator_code').notNull(),
    indicatorName: text('indicator_name').notNull(),
    interval: text('interval').notNull(),
    unit: text('unit').notNull(),
    slot: timestamp('slot', { withTimezone: true }).notNull(),
    /** [{ date, value }], newest first. */
    observations: jsonb('observations').notNull(),
    gptSummary: text('gpt_summary').notNull(),
    analyst: text('analyst').notNull(),
    lastUpdatedUtc: timestamp('last_updated_utc', { withTimezone: true }).notNull(),
  },
  (table) => [uniqueIndex('economic_indicators_code_slot_unique').on(table.indicatorCode, table.slot)],
);
