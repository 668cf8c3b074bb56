import type { FastifyInstance } from 'fastify';
import { watchlistEndpoints, type GetFavoriteStocksResponse } from '@signalboard/core';
import { route } from '../../lib/endpoint';
import { HttpError } from '../../lib/errors';
import { FavoritesLimitError, type FavoritesRepo } from './watchlist.repo';

export async function favoritesRoutes(app: FastifyInstance, options: { favorites: FavoritesRepo }) {
  const { favorites } = options;

  route(app, watchlistEndpoints.getFavoriteStocks, async (request): Promise<GetFavoriteStocksResponse> =>
    favorites.list(request.user.id),
  );

  route(app, watchlistEndpoints.deleteFavoriteStocks, async (request, _reply, { symbols }) => {
    const deleted = await favorites.remove(request.user.id, symbols);
    return { msg: `Removed ${deleted} favorite ${deleted === 1 ? 'stock' : 'stocks'}.`, deleted };
  });

  route(app, watchlistEndpoints.batchUpdateFavoriteStocks, async (request, _reply, { stocks }) => {
    const saved = await favorites.upsert(request.user.id, stocks).catch((error: unknown) => {
      throw error instanceof FavoritesLimitError ? new HttpError(400, error.message) : error;
    });
    return { msg: `Saved ${saved} favorite ${saved === 1 ? 'stock' : 'stocks'}.`, saved };
  });
}
