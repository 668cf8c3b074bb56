/**
 * The imported daily bars (db/tables/imported-prices.ts): a file's bars go in, atomically, as one
 * upsert; each symbol's history comes out as the market's Bars. Written with arrays in one statement
 * per file (unnest), never a statement per row: 5,000 rows are one round trip.
 */
import { asc, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { importedSymbols } from '../../db/schema';
import type { ImportedListing } from '../../providers/market/imported/imported-market';
import { barsToFill, type Bars } from '../../providers/market/types';

export type { ImportedListing };

/** One file's bars for one symbol, oldest first or not (the database orders them). */
export interface ImportedBarColumns {
  day: string[];
  open: number[];
  high: number[];
  low: number[];
  close: number[];
  adjClose: Array<number | null>;
  volume: Array<number | null>;
}

export interface ImportedSymbolSummary extends ImportedListing {
  sourceFile: string;
  fileSha256: string;
  importedAt: Date;
  importedBy: number | null;
  rows: number;
  firstDay: string | null;
  lastDay: string | null;
  lastClose: number | null;
}

/** What a file changed: bars new to the database, bars whose values changed, bars already there as given. */
export interface ImportCounts {
  inserted: number;
  updated: number;
  unchanged: number;
  /** The symbol's listing was new or changed (description, exchange, sector, source file). */
  listingChanged: boolean;
}

/** A PostgreSQL array literal of plain values (numbers, ISO days, nulls): one parameter for a whole column. */
function arrayLiteral(values: ReadonlyArray<string | number | null>): string {
  return `{${values.map((value) => (value === null ? 'NULL' : String(value))).join(',')}}`;
}

/**
 * The digest of a symbol's stored bars (imported_symbols.bars_digest): MD5 over each bar's day, OHLC and
 * volume in day order. Migration 0025 fills it with the same expression for the bars imported before it.
 */
const barsDigestOf = (symbol: string) =>
  sql`coalesce((select md5(string_agg(concat_ws(',', b.day, b.open, b.high, b.low, b.close, b.volume), ';' order by b.day)) from imported_bars b where b.symbol = ${symbol}), '')`;

export function createImportedPricesRepo(db: Database) {
  return {
    /**
     * Stores one file's bars, each symbol's listing and bars, in one transaction (a file is imported
     * whole or not at all). Bars already there with the same values are left alone: the same file
     * twice changes nothing.
     */
    async importFile(file: { name: string; sha256: string; importedBy: number | null }, entries: ReadonlyArray<{ listing: ImportedListing; bars: ImportedBarColumns }>, now: Date): Promise<Array<ImportCounts & { symbol: string }>> {
      return db.transaction(async (tx) => {
        const counts: Array<ImportCounts & { symbol: string }> = [];
        for (const { listing, bars } of entries) {
          const listed = await tx
            .insert(importedSymbols)
            .values({ ...listing, sourceFile: file.name, fileSha256: file.sha256, importedBy: file.importedBy, importedAt: now })
            .onConflictDoUpdate({
              target: importedSymbols.symbol,
              set: {
                description: sql`excluded.description`,
                market: sql`excluded.market`,
                exchange: sql`excluded.exchange`,
                sector: sql`excluded.sector`,
                sourceFile: sql`excluded.source_file`,
                fileSha256: sql`excluded.file_sha256`,
                importedBy: sql`excluded.imported_by`,
                importedAt: sql`excluded.imported_at`,
              },
              setWhere: sql`(${importedSymbols.description}, ${importedSymbols.market}, ${importedSymbols.exchange}, ${importedSymbols.sector}, ${importedSymbols.sourceFile}, ${importedSymbols.fileSha256})
                is distinct from (excluded.description, excluded.market, excluded.exchange, excluded.sector, excluded.source_file, excluded.file_sha256)`,
            })
            .returning({ symbol: importedSymbols.symbol });
          const listingChanged = listed.length > 0;
          if (bars.day.length === 0) {
            counts.push({ symbol: listing.symbol, inserted: 0, updated: 0, unchanged: 0, listingChanged });
            continue;
          }
          const result = await tx.execute<{ inserted: boolean }>(sql`
            insert into imported_bars (symbol, day, open, high, low, close, adj_close, volume)
            select ${listing.symbol}, day, open, high, low, close, adj_close, volume
            from unnest(${arrayLiteral(bars.day)}::date[], ${arrayLiteral(bars.open)}::float8[], ${arrayLiteral(bars.high)}::float8[],
                        ${arrayLiteral(bars.low)}::float8[], ${arrayLiteral(bars.close)}::float8[], ${arrayLiteral(bars.adjClose)}::float8[],
                        ${arrayLiteral(bars.volume)}::float8[]) as t(day, open, high, low, close, adj_close, volume)
            on conflict (symbol, day) do update set
              open = excluded.open, high = excluded.high, low = excluded.low, close = excluded.close,
              adj_close = excluded.adj_close, volume = excluded.volume
            where (imported_bars.open, imported_bars.high, imported_bars.low, imported_bars.close, imported_bars.adj_close, imported_bars.volume)
              is distinct from (excluded.open, excluded.high, excluded.low, excluded.close, excluded.adj_close, excluded.volume)
            returning (xmax = 0) as inserted`);
          const inserted = result.rows.filter((row) => row.inserted).length;
          const updated = result.rows.length - inserted;
          // The bars changed: their digest (the engines' data version) with them, in the same transaction.
          if (inserted + updated > 0) await tx.update(importedSymbols).set({ barsDigest: barsDigestOf(listing.symbol) }).where(eq(importedSymbols.symbol, listing.symbol));
          counts.push({ symbol: listing.symbol, inserted, updated, unchanged: bars.day.length - inserted - updated, listingChanged });
        }
        return counts;
      });
    },

    /** Every imported symbol's listing (what the market layer adds to the universe). */
    async listings(): Promise<ImportedListing[]> {
      const rows = await db
        .select({ symbol: importedSymbols.symbol, description: importedSymbols.description, market: importedSymbols.market, exchange: importedSymbols.exchange, sector: importedSymbols.sector, barsDigest: importedSymbols.barsDigest })
        .from(importedSymbols)
        .orderBy(asc(importedSymbols.symbol));
      return rows.map((row) => ({ ...row, market: row.market as ImportedListing['market'] }));
    },

    /** Each imported symbol with its range, row count and last bar (the Data card). */
    async summaries(): Promise<ImportedSymbolSummary[]> {
      const result = await db.execute<{
        symbol: string; description: string; market: string; exchange: string; sector: string | null; source_file: string; file_sha256: string;
        imported_at: string | Date; imported_by: number | null; rows: string | number; first_day: string | null; last_day: string | null; last_close: number | null;
      }>(sql`
        select s.symbol, s.description, s.market, s.exchange, s.sector, s.source_file, s.file_sha256, s.imported_at, s.imported_by,
               coalesce(b.rows, 0) as rows, b.first_day::text as first_day, b.last_day::text as last_day,
               (select close from imported_bars l where l.symbol = s.symbol order by l.day desc limit 1) as last_close
        from imported_symbols s
        left join (select symbol, count(*) as rows, min(day) as first_day, max(day) as last_day from imported_bars group by symbol) b on b.symbol = s.symbol
        order by s.symbol`);
      return result.rows.map((row) => ({
        symbol: row.symbol,
        description: row.description,
        market: row.market as ImportedListing['market'],
        exchange: row.exchange,
        sector: row.sector,
        sourceFile: row.source_file,
        fileSha256: row.file_sha256,
        importedAt: new Date(row.imported_at),
        importedBy: row.imported_by,
        rows: Number(row.rows),
        firstDay: row.first_day,
        lastDay: row.last_day,
        lastClose: row.last_close === null ? null : Number(row.last_close),
      }));
    },

    /**
     * A symbol's whole imported history as the market's Bars (00:00 UTC of each session day, oldest
     * first), with the digest of exactly these bars (`candles.digest`: one statement reads both, so
     * they are of the same import).
     */
    async bars(symbol: string): Promise<Bars> {
      const result = await db.execute<{ digest: string | null; day: string | null; open: number; high: number; low: number; close: number; volume: number | null }>(sql`
        select s.bars_digest as digest, b.day::text as day, b.open, b.high, b.low, b.close, b.volume
        from imported_symbols s left join imported_bars b on b.symbol = s.symbol
        where s.symbol = ${symbol}
        order by b.day`);
      const rows = result.rows.filter((row) => row.day !== null);
      const n = rows.length;
      const digest = result.rows[0]?.digest ?? '';
      const bars = barsToFill(symbol, n, { provider: 'imported', range: 'ohlc', volume: 'aggregate', digest });
      rows.forEach((row, index) => {
        bars.time[index] = Date.parse(`${row.day}T00:00:00Z`) / 1000;
        bars.open[index] = Number(row.open);
        bars.high[index] = Number(row.high);
        bars.low[index] = Number(row.low);
        bars.close[index] = Number(row.close);
        bars.volume[index] = row.volume === null ? 0 : Number(row.volume);
      });
      return bars;
    },

    /** Removes a symbol and its bars: whether there was one. */
    async remove(symbol: string): Promise<boolean> {
      const removed = await db.delete(importedSymbols).where(eq(importedSymbols.symbol, symbol)).returning({ symbol: importedSymbols.symbol });
      return removed.length > 0;
    },
  };
}

export type ImportedPricesRepo = ReturnType<typeof createImportedPricesRepo>;
