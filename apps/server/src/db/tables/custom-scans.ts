/** Custom scans (issue 26, docs/custom-scans.md): the scans users saved. */
import { sql } from 'drizzle-orm';
import { check, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './users';

/**
 * A user's saved scans, at most MAX_SAVED_SCANS (50) each: the count is checked by the insert's
 * transaction with the user's row locked (features/custom-scans/saved-scans.repo.ts). Only the
 * canonical formula is stored (printFormula of the parsed scan); the builder's groups are derived
 * from it when read. Names are unique per user regardless of case (the unique index on
 * lower(name), whose leading user_id also serves the per-user reads). `version` goes up by one when
 * the universe or the formula changes, not on a rename: a stored backtest belongs to one version.
 */
export const customScans = pgTable(
  'custom_scans',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** One of SCAN_UNIVERSES (packages/core/src/contract/custom-scans.ts). */
    universe: text('universe').notNull(),
    /** The canonical formula: it parses, and printing it again gives the same text. */
    formula: text('formula').notNull(),
    version: integer('version').notNull().default(1),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('custom_scans_user_name_unique').on(table.userId, sql`lower(${table.name})`),
    check('custom_scans_universe', sql`${table.universe} in ('sp500', 'us', 'tsx', 'crypto', 'favorites')`),
  ],
);
