import type { FastifyInstance } from 'fastify';
import { watchlistEndpoints, type FavoriteQuotesResponse } from '@signalboard/core';
import { route } from '../../lib/endpoint';
import type { FavoriteQuotesService } from './favorite-quotes.service';

/** The WatchList's prices over the favourites (packages/core/src/contract/scans.ts). Behind the token; the signed-in user's favourites. */
export async function favoriteQuotesRoutes(app: FastifyInstance, options: { favoriteQuotes: FavoriteQuotesService }) {
  const { favoriteQuotes } = options;

  route(app, watchlistEndpoints.getFavoriteQuotes, async (request): Promise<FavoriteQuotesResponse> => favoriteQuotes.favoriteQuotes(request.user.id));
}
