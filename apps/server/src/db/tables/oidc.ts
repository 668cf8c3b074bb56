/**
 * Single sign-on (issue 28; docs/accounts.md "Single sign-on"): the provider accounts linked to each
 * user. A provider account is its issuer and subject (`iss`, `sub` of its ID tokens), never its e-mail:
 * an e-mail alone signs nobody in.
 */
import { index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './users';

export const oidcIdentities = pgTable(
  'oidc_identities',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    issuer: text('issuer').notNull(),
    subject: text('subject').notNull(),
    /** The provider's verified e-mail for it, as of its last use (shown on the Account screen). */
    email: text('email').notNull(),
    linkedAt: timestamp('linked_at', { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (table) => [uniqueIndex('oidc_identities_issuer_subject_unique').on(table.issuer, table.subject), index('oidc_identities_user_idx').on(table.userId)],
);
