/** The alerts users saved on the Option Scanner and All Stocks Scanner screens. */
import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users';

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
