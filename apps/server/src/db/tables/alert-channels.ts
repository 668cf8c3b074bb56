/**
 * Alert channels beyond SMS and e-mail (issue 27; docs/rules/alerts.md §4.8 "Webhooks"): a user's endpoints
 * (signed webhooks, Discord channels, ntfy topics). Secrets are stored sealed (lib/secret-box.ts) and
 * never read back by the API.
 */
import { sql } from 'drizzle-orm';
import { bigserial, boolean, check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './users';

export const alertWebhooks = pgTable(
  'alert_webhooks',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /**
     * 'webhook' (signed JSON), 'discord' (a channel webhook's embed), 'ntfy' (a topic's notification),
     * 'telegram' (a chat bound through the bot) or 'push' (a browser's Web Push subscription).
     */
    kind: text('kind').notNull().default('webhook'),
    name: text('name').notNull(),
    /**
     * Checked when saved and again at each send (lib/outbound/url-guard.ts). A webhook's URL; an ntfy
     * server; a Discord URL with its token masked (the real one is sealed in secret_sealed).
     */
    url: text('url').notNull(),
    /** ntfy: the topic; telegram: the chat's title or @username, as shown to its user. */
    topic: text('topic'),
    /**
     * telegram: HMAC of the chat id (a chat's /stop finds its rows without opening every secret);
     * push: SHA-256 of the subscription's endpoint (one row per device, and the browser can tell
     * which row is itself). Null for the other kinds.
     */
    lookupHash: text('lookup_hash'),
    /** telegram and push: sent during the user's SMS quiet hours too (the user's choice); else held until they end. */
    alsoQuietHours: boolean('also_quiet_hours').notNull().default(false),
    /** The alert types sent to it (WEBHOOK_ALERT_TYPES). */
    alertTypes: jsonb('alert_types').$type<string[]>().notNull(),
    /**
     * Sealed with the installation's encryption key: a webhook's `whsec_…` secret, a Discord webhook's
     * whole URL (it carries the token), an ntfy access token ('' when none), a Telegram chat id, a push
     * subscription (its endpoint and keys, as JSON).
     */
    secretSealed: text('secret_sealed').notNull(),
    enabled: boolean('enabled').notNull(),
    /** Why it is off: the user's choice, or three days of failures (then the user was e-mailed). */
    disabledReason: text('disabled_reason'),
    /** The first failure since the last success: three days of it disable the endpoint. */
    failingSince: timestamp('failing_since', { withTimezone: true }),
    lastSuccessAt: timestamp('last_success_at', { withTimezone: true }),
    /** The last answer of a delivery or a test, in words ('200 OK in 84 ms', 'timed out after 5 s'). */
    lastAnswer: text('last_answer'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    index('alert_webhooks_user').on(table.userId),
    uniqueIndex('alert_webhooks_user_lookup').on(table.userId, table.lookupHash),
    index('alert_webhooks_lookup').on(table.lookupHash),
    check('alert_webhooks_kind', sql`${table.kind} in ('webhook', 'discord', 'ntfy', 'telegram', 'push')`),
  ],
);

/**
 * "Connect Telegram" codes (issue 27; docs/rules/alerts.md §4.8): one per press, single use, valid ten minutes.
 * Only a hash of the code is kept; the bot's /start <code> update binds its chat to the code's user.
 */
export const telegramLinkCodes = pgTable(
  'telegram_link_codes',
  {
    codeHash: text('code_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('telegram_link_codes_user').on(table.userId)],
);
