/**
 * Two-factor sign-in (issue 28; docs/accounts.md "Two-factor sign-in"): a user's TOTP key, their
 * single-use recovery codes, the sign-in challenges between the password and the code, and the
 * installation's "required for everyone" setting.
 */
import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, pgTable, serial, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './users';

export const userTwoFactor = pgTable('user_two_factor', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** The TOTP key, sealed with the container's secret box (lib/secret-box.ts): a copy of the database gives no codes. */
  secret: text('secret').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  /** Null while set up and not yet confirmed with a code: two-factor is on only once confirmed. */
  confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
  /** The TOTP time step of the last code accepted: a code of that step or an earlier one is refused (replay). */
  lastUsedStep: bigint('last_used_step', { mode: 'number' }),
});

export const twoFactorRecoveryCodes = pgTable(
  'two_factor_recovery_codes',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** SHA-256 (hex) of the code as typed without dashes or spaces, upper-cased (the codes are 50 random bits each). */
    codeHash: text('code_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (table) => [uniqueIndex('two_factor_recovery_codes_user_hash_unique').on(table.userId, table.codeHash)],
);

/** Between a correct password and the code: the login answer's `challenge`, valid five minutes. */
export const loginChallenges = pgTable(
  'login_challenges',
  {
    /** SHA-256 (hex) of the challenge (128 random bits): the database never holds a usable one. */
    idHash: text('id_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** Wrong codes so far; the fifth locks the challenge. */
    failures: integer('failures').notNull().default(0),
    lockedAt: timestamp('locked_at', { withTimezone: true }),
    /** When a code completed it (a challenge signs in once). */
    usedAt: timestamp('used_at', { withTimezone: true }),
    /** What the session it makes needs from the password step: */
    firstLogin: boolean('first_login').notNull(),
    userAgent: text('user_agent').notNull().default(''),
    address: text('address').notNull().default(''),
  },
  (table) => [index('login_challenges_user_idx').on(table.userId)],
);

/** The installation's settings: one row (id 1), written by an admin; a missing row means the defaults. */
export const installationSettings = pgTable(
  'installation_settings',
  {
    id: smallint('id').primaryKey().default(1),
    /** Every account must sign in with two-factor; one without it is led to turn it on at its next sign-in. */
    twoFactorRequired: boolean('two_factor_required').notNull().default(false),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [check('installation_settings_one_row', sql`${table.id} = 1`)],
);
