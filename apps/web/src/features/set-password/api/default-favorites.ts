import { DEFAULT_FAVORITE_STOCKS, type BatchUpdateFavoriteStocksRequest } from '@signalboard/core';
import { apiRequestUnchecked } from '../../../lib/client';

/**
 * POST api/batch_update_favorite_stocks with the default favourites, after a first password is set.
 * The same call as lib/api/favorites.ts's batchUpdateFavoriteStocks, unchecked: /set-password is a
 * signed-out page, whose chunks must not load the schema library (see lib/api/auth.ts).
 */
export const saveDefaultFavorites = () => {
  const body: BatchUpdateFavoriteStocksRequest = { stocks: DEFAULT_FAVORITE_STOCKS.map((stock) => ({ ...stock })) };
  return apiRequestUnchecked<{ msg: string; saved: number }>('batch_update_favorite_stocks', { json: body });
};
