import type { BatchUpdateFavoriteStocksRequest, DeleteFavoriteStocksRequest, GetFavoriteStocksResponse } from '@signalboard/core';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from './client';

/** The signed-in user's favourites (spec §3 "Favourite stock"), shared by every screen that needs them. */
export const favoritesQuery = () =>
  queryOptions({
    queryKey: ['favorites'],
    queryFn: ({ signal }) => apiRequest<GetFavoriteStocksResponse>('get_favorite_stocks', { signal }),
  });
export const useFavorites = () => useQuery(favoritesQuery());

export const batchUpdateFavoriteStocks = (body: BatchUpdateFavoriteStocksRequest) =>
  apiRequest<{ msg: string; saved: number }>('batch_update_favorite_stocks', { json: body });

export const deleteFavoriteStocks = (body: DeleteFavoriteStocksRequest) =>
  apiRequest<{ msg: string; deleted: number }>('delete_favorite_stocks', { json: body });
