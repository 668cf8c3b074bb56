/** The accounts and their favourites (the WatchList): spec §5 "Favourites". */
import { sql } from 'drizzle-orm';
import { boolean, check, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/** An installation's roles (issue 28): an admin also administers the installation; a member sees the spec's product. */
export const USER_ROLES = ['admin', 'member'] as const;
export type UserRole = (typeof USER_ROLES)[number];

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
    /** 'admin' or 'member' (USER_ROLES); every account is a member until made an admin (cli/user.ts, ADMIN_EMAILS). */
    role: text('role').$type<UserRole>().notNull().default('member'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex('users_email_unique').on(table.email), check('users_role_known', sql`${table.role} in ('admin', 'member')`)],
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
