/** The trade ideas: the engines' append-only event log, its fold, and each rule version's replay. */
import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, customType, date, doublePrecision, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/**
 * The trade ideas' append-only event log (docs/rules/conventions.md §0.4): every fill, hit, stop and close every
 * engine decided. A trigger (migration 0003) refuses UPDATE and DELETE; the unique key makes re-runs
 * of a session harmless (the first copy stays). `sequence` orders the log for subscribers (the alert
 * engine reads the events after the last sequence it handled).
 */
/** PostgreSQL's 64-bit transaction id (never wraps), as text in JavaScript. */
const xid8 = customType<{ data: string; driverData: string }>({ dataType: () => 'xid8' });

export const ideaEvents = pgTable(
  'idea_events',
  {
    sequence: bigserial('sequence', { mode: 'number' }).primaryKey(),
    /** The store's idea id: the engine's `${engine}.${symbol}.${signalDate}` and `@<semver>` of its rule version. */
    ideaId: text('idea_id').notNull(),
    engine: text('engine').notNull(),
    /** Instrument: market + symbol (a crypto ticker may equal a stock's). */
    market: text('market').notNull(),
    symbol: text('symbol').notNull(),
    type: text('type').notNull(),
    level: text('level').notNull().default(''),
    barDate: date('bar_date', { mode: 'string' }).notNull(),
    price: doublePrecision('price'),
    data: jsonb('data').notNull(),
    ruleVersion: text('rule_version').notNull(),
    paramHash: text('param_hash').notNull(),
    /** replayed or live (docs/rules/conventions.md §0.5). */
    origin: text('origin').notNull(),
    recordedAt: timestamp('recorded_at', { withTimezone: true }).notNull(),
    /**
     * The transaction that wrote the event (issue 15): the alert evaluation reads events by
     * transaction, only those of transactions older than every one still running, so an event whose
     * transaction commits after a later sequence was read is never skipped.
     */
    txId: xid8('tx_id').notNull().default(sql`pg_current_xact_id()`),
  },
  (table) => [
    uniqueIndex('idea_events_idea_type_level_bar_unique').on(table.ideaId, table.type, table.level, table.barDate),
    index('idea_events_engine_idea').on(table.engine, table.ideaId),
    index('idea_events_tx').on(table.txId),
  ],
);

/**
 * One row per idea: the fold of its events (engine.fold, jsonb) written after each pass, plus the
 * columns the lists filter and sort on. Marks (CurrentPrice and what follows from it) are no events:
 * they live here only (mark_price, mark_at, and the row folded at that mark).
 */
export const ideas = pgTable(
  'ideas',
  {
    id: text('id').primaryKey(),
    engine: text('engine').notNull(),
    market: text('market').notNull(),
    symbol: text('symbol').notNull(),
    /** The `opened` pass. */
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    /** The row's Status, lower-cased: active, successful, partial, failed. */
    status: text('status').notNull(),
    origin: text('origin').notNull(),
    ruleVersion: text('rule_version').notNull(),
    isActive: boolean('is_active').notNull(),
    /** Still followed by the daily pass (engine.openState is not null). */
    isOpen: boolean('is_open').notNull(),
    /** Voided ideas are hidden from the lists (docs/rules/conventions.md §0.1). */
    isVoided: boolean('is_voided').notNull().default(false),
    /** Lower-cased types the list's `type` filter matches (swing: trend or drop, and level). */
    types: text('types')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** engine.cooldownKey of the `opened` event, and the bar date it closed on (null while open). */
    cooldownKey: text('cooldown_key').notNull(),
    closedBarDate: date('closed_bar_date', { mode: 'string' }),
    signalDate: date('signal_date', { mode: 'string' }).notNull(),
    /** The last event folded into `row`. */
    lastSequence: bigint('last_sequence', { mode: 'number' }).notNull(),
    markPrice: doublePrecision('mark_price'),
    markAt: timestamp('mark_at', { withTimezone: true }),
    /** The option's value the mark carried (a drop O item's, or a chain's bid for an option trade); null: the price alone. */
    markOptionValue: doublePrecision('mark_option_value'),
    row: jsonb('row').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    index('ideas_engine_created').on(table.engine, table.createdAt.desc(), table.id.desc()),
    index('ideas_engine_open').on(table.engine, table.ruleVersion).where(sql`${table.isOpen}`),
  ],
);

/**
 * Per engine and rule version: its history replay (install, or a new rule version) and the last
 * session it has run (the replay's, then the daily passes'; catch-up runs the sessions after it).
 */
export const tradeEngineVersions = pgTable(
  'trade_engine_versions',
  {
    engine: text('engine').notNull(),
    ruleVersion: text('rule_version').notNull(),
    paramHash: text('param_hash').notNull(),
    /** pending, running, done or failed. */
    replayState: text('replay_state').notNull(),
    sessionsDone: integer('sessions_done').notNull().default(0),
    sessionsTotal: integer('sessions_total').notNull().default(0),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    error: text('error'),
    lastSession: date('last_session', { mode: 'string' }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.engine, table.ruleVersion] })],
);
