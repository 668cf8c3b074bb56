/**
 * Daily price files a user brought (issue 29; docs/data-in-and-out.md "Daily price files"): each
 * imported symbol's listing and the bars of its files. Stored here, not on one process's disk, so
 * every API process and worker serves the same history; the market layer
 * (providers/market/imported/imported-market.ts) puts them over the configured source.
 */
import { sql } from 'drizzle-orm';
import { check, date, doublePrecision, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users';

export const importedSymbols = pgTable(
  'imported_symbols',
  {
    symbol: text('symbol').primaryKey(),
    description: text('description').notNull(),
    /** 'US' or 'TO' (the spec's two stock markets). */
    market: text('market').notNull(),
    exchange: text('exchange').notNull(),
    sector: text('sector'),
    /** The last file imported for it (its name as given) and that file's SHA-256. */
    sourceFile: text('source_file').notNull(),
    fileSha256: text('file_sha256').notNull(),
    /**
     * MD5 over the symbol's stored bars (day, OHLC, volume), recomputed by an import that changed one:
     * the content the engines read. The trade engines' data version hashes it (features/trades/data-version.ts).
     */
    barsDigest: text('bars_digest').notNull().default(''),
    importedAt: timestamp('imported_at', { withTimezone: true }).notNull().defaultNow(),
    /** Who imported it (null: the command line). */
    importedBy: integer('imported_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (table) => [check('imported_symbols_market', sql`${table.market} in ('US', 'TO')`)],
);

export const importedBars = pgTable(
  'imported_bars',
  {
    symbol: text('symbol')
      .notNull()
      .references(() => importedSymbols.symbol, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    open: doublePrecision('open').notNull(),
    high: doublePrecision('high').notNull(),
    low: doublePrecision('low').notNull(),
    close: doublePrecision('close').notNull(),
    /** The file's Adj Close, when it had one (kept for a later split adjustment; the engines read close). */
    adjClose: doublePrecision('adj_close'),
    volume: doublePrecision('volume'),
  },
  (table) => [primaryKey({ columns: [table.symbol, table.day] })],
);
