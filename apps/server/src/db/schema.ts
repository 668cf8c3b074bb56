import { sql } from 'drizzle-orm';
import {
  customType,
  bigint,
  bigserial,
  boolean,
  check,
  date,
  doublePrecision,
  index,
  jsonb,
  integer,
  pgTable,
  primaryKey,
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
    /** The process that holds the claim (`host:pid`), for operators and logs. */
    holder: text('holder'),
    /** The queued (BullMQ) job holding it and which start of that job (jobs/registry.ts QueuedRun); null in-process. */
    holderJob: text('holder_job'),
    holderAttempt: integer('holder_attempt'),
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

/**
 * Saved option alerts (spec §3 "Saved option alerts", issue 12): per user, the option trades (ideas
 * of engine 'options', by their store id, the row's `Id`) the user asked to be alerted about. Written
 * only by POST api/save_user_option_alerts, which replaces the user's whole set in one transaction
 * and keeps only ids of option ideas that existed and were active at that moment. The alert engine
 * reads it: a user gets an alert for an event of an idea listed here for them. A row may outlive its
 * idea's activity (the trade closes after the save): its closing event is the last alert it gives.
 * No FK to `ideas` (a rule version's re-replay rewrites rows; the id stays the key).
 */
export const userOptionAlerts = pgTable(
  'user_option_alerts',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The option idea's store id (`ideas.id`, engine 'options'). */
    ideaId: text('idea_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.ideaId] }), index('user_option_alerts_idea').on(table.ideaId)],
);

/**
 * Saved drop alerts (spec §3 "Saved stock scanner alert", §4 "Drop alerts", issue 12): per user, the
 * drop items (ideas of engine 'drop', by their store id, the row's StockScannerId) and their StockType
 * (trade_type: S, L or O) the user asked to be alerted about. Written only by POST
 * api/save_user_stock_scanner_alerts, which replaces the user's whole set in one transaction and keeps
 * only items that existed, were active and whose StockType matched trade_type at that moment. The
 * alert engine reads it as the option alerts above (same lifetime rules).
 */
export const userStockScannerAlerts = pgTable(
  'user_stock_scanner_alerts',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The drop item's store id (`ideas.id`, engine 'drop'). */
    ideaId: text('idea_id').notNull(),
    /** The item's StockType when saved: S, L or O. */
    tradeType: text('trade_type').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.ideaId] }),
    index('user_stock_scanner_alerts_idea').on(table.ideaId),
    check('user_stock_scanner_alerts_trade_type', sql`${table.tradeType} in ('S', 'L', 'O')`),
  ],
);

/**
 * The user's verified phone number for SMS alerts (issue 14): written only by POST api/verify_code
 * once a code sent to the number has been entered; read by GET api/get_user_phone_number.
 */
export const userPhones = pgTable('user_phones', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** E.164. */
  phoneNumber: text('phone_number').notNull(),
  smsEnabled: boolean('sms_enabled').notNull().default(true),
  verifiedAt: timestamp('verified_at', { withTimezone: true }).notNull(),
});

/**
 * One row per verification code a user asked for (POST api/send_verification_code), whatever the
 * SMS provider: the limits of docs/rules/alerts.md count them (3 per number per 10 minutes, 10 per
 * user per day), and a check needs the user's own recent send to that number.
 */
export const phoneVerificationRequests = pgTable(
  'phone_verification_requests',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    phoneNumber: text('phone_number').notNull(),
    /** The address the request came from (request.ip): the per-address daily limit counts it. */
    clientAddress: text('client_address'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    index('phone_verification_requests_user').on(table.userId, table.createdAt),
    index('phone_verification_requests_number').on(table.phoneNumber, table.createdAt),
    index('phone_verification_requests_address').on(table.clientAddress, table.createdAt),
    index('phone_verification_requests_created').on(table.createdAt),
  ],
);

/**
 * The codes of the outbox SMS provider (Twilio Verify keeps its own): 6 digits, stored only as a
 * keyed hash (HMAC-SHA256 with a per-row salt), valid until expires_at, at most 5 checks. A new code
 * for a number closes the number's earlier ones (closed_at).
 */
export const smsVerificationCodes = pgTable(
  'sms_verification_codes',
  {
    id: serial('id').primaryKey(),
    phoneNumber: text('phone_number').notNull(),
    codeSalt: text('code_salt').notNull(),
    codeHash: text('code_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    checkCount: integer('check_count').notNull().default(0),
    /** Set when the code was approved or replaced by a newer one. */
    closedAt: timestamp('closed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('sms_verification_codes_number').on(table.phoneNumber, table.createdAt)],
);

/**
 * Every SMS the outbox provider "sent": the row plus a .txt file in DATA_DIR/sms-outbox. A
 * verification SMS's row holds its text with the code masked; only the file (the stand-in for the
 * phone) holds the code.
 */
export const outboxSms = pgTable(
  'outbox_sms',
  {
    id: serial('id').primaryKey(),
    toNumber: text('to_number').notNull(),
    /** 'verification' or 'message'. */
    kind: text('kind').notNull(),
    body: text('body').notNull(),
    filePath: text('file_path').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    index('outbox_sms_to_created').on(table.toNumber, table.createdAt),
    check('outbox_sms_kind', sql`${table.kind} in ('verification', 'message')`),
  ],
);

/**
 * Alert rules (issue 14; docs/rules/alerts.md §3 "The rule as stored and exchanged"): one per (user,
 * alert_type), written only by POST api/save_alert_preferences after the contract's checks and the
 * user's own favourites / verified phone. `symbols` upper-case (news categories keep their spelling);
 * `targets` one `{ symbol, price, direction }` per symbol for CURRENT_PRICE and BITCOIN, else [].
 */
export const alertRules = pgTable(
  'alert_rules',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    alertType: text('alert_type').notNull(),
    symbols: jsonb('symbols').$type<string[]>().notNull(),
    thresholdValue: doublePrecision('threshold_value'),
    targets: jsonb('targets').$type<Array<{ symbol: string; price: number; direction: 'above' | 'below' }>>().notNull(),
    enableSms: boolean('enable_sms').notNull(),
    enableEmail: boolean('enable_email').notNull(),
    isActive: boolean('is_active').notNull(),
    /** Set when the rule was paused for firing more than 15 times in 3 minutes (is_active turned off); cleared by a save. */
    autoPausedAt: timestamp('auto_paused_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.alertType] })],
);

/**
 * A user's alert delivery settings (issue 14; docs/rules/alerts.md §4 "Delivery"): time zone (IANA), quiet hours per
 * channel ('HH:MM' in that zone), pause all alerts. No row: the defaults (America/New_York, SMS
 * 21:00–08:00, e-mail off, not paused).
 */
export const alertDeliverySettings = pgTable('alert_delivery_settings', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  timeZone: text('time_zone').notNull(),
  smsQuietEnabled: boolean('sms_quiet_enabled').notNull(),
  smsQuietStart: text('sms_quiet_start').notNull(),
  smsQuietEnd: text('sms_quiet_end').notNull(),
  emailQuietEnabled: boolean('email_quiet_enabled').notNull(),
  emailQuietStart: text('email_quiet_start').notNull(),
  emailQuietEnd: text('email_quiet_end').notNull(),
  paused: boolean('paused').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});

/**
 * Each channel's last successful delivery to a user ('sms' | 'email'): written when a provider
 * accepted a message (test sends now, the alert engine's deliveries next), shown on the screen.
 */
export const alertChannelDeliveries = pgTable(
  'alert_channel_deliveries',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    channel: text('channel').notNull(),
    lastDeliveredAt: timestamp('last_delivered_at', { withTimezone: true }).notNull(),
    /** The provider's answer for that delivery (outbox file, Twilio SID, SMTP reply). */
    providerAnswer: text('provider_answer').notNull(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.channel] }), check('alert_channel_deliveries_channel', sql`${table.channel} in ('sms', 'email')`)],
);

/**
 * Per-symbol evaluation state of a rule (issue 15; docs/rules/alerts.md §1 "Semantics"): one row per (user,
 * alert_type, symbol) of a price rule. `rule_stamp` is the rule's updated_at when the state was made:
 * a re-saved rule starts again (armed from the quote at save time: created-already-true waits for a
 * new crossing). Changed only inside the transaction that writes the alert event it causes, with a
 * check on `version`, so two processes evaluating the same tick make one event.
 */
export const alertSymbolState = pgTable(
  'alert_symbol_state',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    alertType: text('alert_type').notNull(),
    symbol: text('symbol').notNull(),
    ruleStamp: timestamp('rule_stamp', { withTimezone: true }).notNull(),
    /** False after a fire (or when created already true) until the condition is false again by the re-arm margin. */
    armed: boolean('armed').notNull(),
    /** The level the last fire crossed (re-arm is measured from it). */
    triggerPrice: doublePrecision('trigger_price'),
    lastFiredAt: timestamp('last_fired_at', { withTimezone: true }),
    /** The market session (YYYY-MM-DD, New York) of the last fire: once per session for PERCENT_DROP and LEVEL_SYSTEM. */
    lastFiredSession: date('last_fired_session', { mode: 'string' }),
    lastPrice: doublePrecision('last_price'),
    lastEvaluatedAt: timestamp('last_evaluated_at', { withTimezone: true }),
    /** Bumped on every change: a conditional update on it makes concurrent evaluations of one tick write once. */
    version: integer('version').notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.userId, table.alertType, table.symbol] }), index('alert_symbol_state_symbol').on(table.symbol)],
);

/**
 * Every alert that fired (issue 15): the rule as it was, the data that fired it (price, source, as
 * of), the messages. `trigger_key` is the trigger window (e.g. the session for PERCENT_DROP, the fire
 * time for a target crossing, the idea event's sequence): the unique key (user, alert_type, symbol,
 * trigger_key) makes a second insert of the same alert a no-op. alert_type is one of the ten rule
 * types, or SAVED_OPTION_TRADE / SAVED_STOCK_SCANNER for the trade screens' saved alerts.
 */
export const alertEvents = pgTable(
  'alert_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    alertType: text('alert_type').notNull(),
    symbol: text('symbol').notNull(),
    triggerKey: text('trigger_key').notNull(),
    /** The rule when it fired: { stock_symbols, threshold_value, targets, enable_sms, enable_email, is_active } or the saved idea. */
    rule: jsonb('rule').notNull(),
    /** What fired it: { price, previousClose?, target?, direction?, source, asOf, ... }. */
    data: jsonb('data').notNull(),
    /** The SMS text (≤ 160 characters per symbol line). */
    smsText: text('sms_text').notNull(),
    emailSubject: text('email_subject').notNull(),
    emailText: text('email_text').notNull(),
    firedAt: timestamp('fired_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    uniqueIndex('alert_events_trigger_unique').on(table.userId, table.alertType, table.symbol, table.triggerKey),
    index('alert_events_user_fired').on(table.userId, table.firedAt),
  ],
);

/**
 * One row per channel of an alert event, written in the event's transaction (docs/rules/alerts.md "Durable
 * outbox"); unique (event, channel). Status: queued → sent → delivered | failed | expired |
 * suppressed. The delivery worker claims queued rows whose next_attempt_at is due (claimed_until is
 * its lease), sends, and records the provider's id; status callbacks move sent → delivered | failed.
 */
export const alertDeliveries = pgTable(
  'alert_deliveries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    eventId: bigint('event_id', { mode: 'number' })
      .notNull()
      .references(() => alertEvents.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    channel: text('channel').notNull(),
    status: text('status').notNull(),
    /** Why it failed, expired or was suppressed (said to the user). */
    reason: text('reason'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull(),
    /** After this the alert is stale: never sent late (15 minutes for price alerts). */
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** A worker's lease on the row while it sends. */
    claimedUntil: timestamp('claimed_until', { withTimezone: true }),
    /** The provider's id (Twilio message SID, SMTP message id, outbox file). */
    providerId: text('provider_id'),
    /** Set when a crash may have left the provider's acceptance unrecorded: the resend may be a duplicate. */
    possiblyDuplicate: boolean('possibly_duplicate').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    uniqueIndex('alert_deliveries_event_channel_unique').on(table.eventId, table.channel),
    index('alert_deliveries_due').on(table.nextAttemptAt).where(sql`${table.status} = 'queued'`),
    index('alert_deliveries_provider').on(table.providerId),
    index('alert_deliveries_user_created').on(table.userId, table.createdAt),
    check('alert_deliveries_channel', sql`${table.channel} in ('sms', 'email')`),
    check('alert_deliveries_status', sql`${table.status} in ('queued', 'sending', 'sent', 'delivered', 'failed', 'expired', 'suppressed')`),
  ],
);

/** Each status a delivery went through, with its reason: the history's timeline. */
export const alertDeliverySteps = pgTable(
  'alert_delivery_steps',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    deliveryId: bigint('delivery_id', { mode: 'number' })
      .notNull()
      .references(() => alertDeliveries.id, { onDelete: 'cascade' }),
    status: text('status').notNull(),
    reason: text('reason'),
    at: timestamp('at', { withTimezone: true }).notNull(),
  },
  (table) => [index('alert_delivery_steps_delivery').on(table.deliveryId, table.at)],
);

/**
 * Opt-outs and channel problems per user (docs/rules/alerts.md §4.6 "Opt-out", "Permanent errors"): SMS STOP (Twilio's
 * inbound webhook) and START; e-mail unsubscribe from all alerts (a rule's own unsubscribe turns its
 * enable_email off); a channel flagged by a permanent error, with the reason shown on the screen.
 */
export const alertChannelStatus = pgTable(
  'alert_channel_status',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    channel: text('channel').notNull(),
    /** The user opted out (SMS STOP, e-mail unsubscribe from all). */
    optedOutAt: timestamp('opted_out_at', { withTimezone: true }),
    /** A permanent error stopped the channel (invalid number, hard bounce, 21610); cleared by a new verification. */
    problem: text('problem'),
    problemAt: timestamp('problem_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.channel] }), check('alert_channel_status_channel', sql`${table.channel} in ('sms', 'email')`)],
);

/** How far each stream consumer has read (e.g. 'idea_events' → the last sequence turned into alerts). */
export const alertCursors = pgTable('alert_cursors', {
  name: text('name').primaryKey(),
  position: bigint('position', { mode: 'number' }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});

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
