/**
 * Alert channels beyond SMS and e-mail (issue 27; docs/rules/alerts.md §4.9 "Webhooks"): a user's webhook
 * endpoints. The signing secret is stored sealed (lib/secret-box.ts) and never read back by the API.
 */
import { bigserial, boolean, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users';

export const alertWebhooks = pgTable(
  'alert_webhooks',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** Checked when saved and again at each send (lib/outbound/url-guard.ts). */
    url: text('url').notNull(),
    /** The alert types sent to it (WEBHOOK_ALERT_TYPES). */
    alertTypes: jsonb('alert_types').$type<string[]>().notNull(),
    /** The `whsec_…` secret, sealed with the installation's encryption key. */
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
  (table) => [index('alert_webhooks_user').on(table.userId)],
);
