/** Sign-in sessions (issue 28; docs/accounts.md): one row per sign-in, ended by its user, an admin, a password change or Sign Out. */
import { boolean, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users';

export const sessions = pgTable(
  'sessions',
  {
    /** 128 random bits, base64url: the access token's `sid` claim. */
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** When a request last used it (written at most once a minute per process). */
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    /** Its token's expiry: the session is over then even if nobody ends it. */
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    /** Why it ended: 'sign-out', 'user', 'password-change', 'admin', 'deactivated'. */
    endedReason: text('ended_reason'),
    /** Signed in with a temporary or initial password: may only change it and read the e-mail until it does. */
    restricted: boolean('restricted').notNull().default(false),
    /**
     * Signed in without two-factor while the installation requires it: may only turn it on (and read
     * the e-mail, sign out) until it does (docs/accounts.md "Two-factor sign-in").
     */
    needsTwoFactor: boolean('needs_two_factor').notNull().default(false),
    /** The User-Agent header as sent (at most 300 characters). */
    userAgent: text('user_agent').notNull().default(''),
    /** The client's address (behind TRUST_PROXY, the proxy's forwarded one). */
    address: text('address').notNull().default(''),
  },
  (table) => [index('sessions_user_idx').on(table.userId)],
);
