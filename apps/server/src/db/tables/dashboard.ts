/** The Market Dashboard's jobs' rows, with their history. */
import { doublePrecision, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

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
