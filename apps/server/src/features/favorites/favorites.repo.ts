import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { FavoriteStock } from '@signalboard/core';
import type { Database } from '../../db/client';
import { favoriteStocks } from '../../db/schema';

/** Every query is scoped by the owner's id: one user never reads or changes another's list. */
export function createFavoritesRepo(db: Database) {
  return {
    async list(userId: number): Promise<Array<{ symbol: string; description: string }>> {
      return db
        .select({ symbol: favoriteStocks.symbol, description: favoriteStocks.description })
        .from(favoriteStocks)
        .where(eq(favoriteStocks.userId, userId))
        .orderBy(asc(favoriteStocks.createdAt), asc(favoriteStocks.id));
    },
    /** Inserts new symbols and updates the description of existing ones. */
    async upsert(userId: number, stocks: FavoriteStock[]): Promise<number> {
      const bySymbol = new Map(stocks.map((stock) => [stock.symbol, stock]));
      const rows = [...bySymbol.values()].map((stock) => ({ userId, symbol: stock.symbol, description: stock.description }));
      await db
        .insert(favoriteStocks)
        .values(rows)
        .onConflictDoUpdate({
          target: [favoriteStocks.userId, favoriteStocks.symbol],
          set: { description: sql`excluded.description` },
        });
      return rows.length;
    },
    async remove(userId: number, symbols: string[]): Promise<number> {
      const deleted = await db
        .delete(favoriteStocks)
        .where(and(eq(favoriteStocks.userId, userId), inArray(favoriteStocks.symbol, [...new Set(symbols)])))
        .returning({ id: favoriteStocks.id });
      return deleted.length;
    },
  };
}

export type FavoritesRepo = ReturnType<typeof createFavoritesRepo>;
