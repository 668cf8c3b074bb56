import type { FastifyInstance } from 'fastify';
import {
  batchUpdateFavoriteStocksRequest,
  deleteFavoriteStocksRequest,
  type GetFavoriteStocksResponse,
} from '@signalboard/core';
import { HttpError, parseInput } from '../../lib/errors';
import { FavoritesLimitError, type FavoritesRepo } from './watchlist.repo';

export async function favoritesRoutes(app: FastifyInstance, options: { favorites: FavoritesRepo }) {
  const { favorites } = options;

  app.get('/get_favorite_stocks', async (request): Promise<GetFavoriteStocksResponse> =>
    favorites.list(request.user.id),
  );

  app.post('/delete_favorite_stocks', async (request) => {
    const { symbols } = parseInput(deleteFavoriteStocksRequest, request.body);
    const deleted = await favorites.remove(request.user.id, symbols);
    return { msg: `Removed ${deleted} favorite ${deleted === 1 ? 'stock' : 'stocks'}.`, deleted };
  });

  app.post('/batch_update_favorite_stocks', async (request) => {
    const { stocks } = parseInput(batchUpdateFavoriteStocksRequest, request.body);
    const saved = await favorites.upsert(request.user.id, stocks).catch((error: unknown) => {
      throw error instanceof FavoritesLimitError ? new HttpError(400, error.message) : error;
    });
    return { msg: `Saved ${saved} favorite ${saved === 1 ? 'stock' : 'stocks'}.`, saved };
  });
}
