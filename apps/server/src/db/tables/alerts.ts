/** The Alert System: rules, delivery settings, evaluation state, the durable outbox of fired alerts and its deliveries. */
import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, check, date, doublePrecision, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './users';

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
 * trigger_key) makes a second insert of the same alert a no-op. alert_type is one of the eleven rule
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
 * outbox"); unique (event, channel, endpoint). Status: queued → sent → delivered | failed | expired |
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
    /**
     * The webhook endpoint (alert_webhooks.id) of a 'webhook' delivery, 0 for SMS and e-mail: one delivery
     * per (event, channel, endpoint). Not a foreign key: a deleted endpoint's deliveries stay in the history.
     */
    endpointId: bigint('endpoint_id', { mode: 'number' }).notNull().default(0),
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
    uniqueIndex('alert_deliveries_event_channel_endpoint_unique').on(table.eventId, table.channel, table.endpointId),
    index('alert_deliveries_due').on(table.nextAttemptAt).where(sql`${table.status} = 'queued'`),
    index('alert_deliveries_provider').on(table.providerId),
    index('alert_deliveries_user_created').on(table.userId, table.createdAt),
    check('alert_deliveries_channel', sql`${table.channel} in ('sms', 'email', 'webhook')`),
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
