import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import { FAVORITES_MAX, type FavoriteStock } from '@signalboard/core';
import type { Database } from '../../db/client';
import { favoriteStocks, users } from '../../db/schema';

/** The upsert would leave the user with more than FAVORITES_MAX favourites; nothing was saved. */
export class FavoritesLimitError extends Error {
  constructor() {
    super(`You can keep at most ${FAVORITES_MAX} favorite stocks. Remove some before adding more.`);
  }
}

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
    /**
     * Inserts new symbols and updates the description of existing ones, all or nothing: a list that
     * would grow past FAVORITES_MAX is refused (FavoritesLimitError). The user's row is locked for the
     * transaction, so two concurrent saves cannot both pass the check.
     */
    async upsert(userId: number, stocks: FavoriteStock[]): Promise<number> {
      const bySymbol = new Map(stocks.map((stock) => [stock.symbol, stock]));
      const rows = [...bySymbol.values()].map((stock) => ({ userId, symbol: stock.symbol, description: stock.description }));
      await db.transaction(async (tx) => {
        await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
        await tx
          .insert(favoriteStocks)
          .values(rows)
          .onConflictDoUpdate({
            target: [favoriteStocks.userId, favoriteStocks.symbol],
            set: { description: sql`excluded.description` },
          });
        const [total] = await tx.select({ n: count() }).from(favoriteStocks).where(eq(favoriteStocks.userId, userId));
        if ((total?.n ?? 0) > FAVORITES_MAX) throw new FavoritesLimitError();
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
