import {
  batchUpdateFavoriteStocksResponse,
  deleteFavoriteStocksResponse,
  getFavoriteStocksResponse,
  type BatchUpdateFavoriteStocksRequest,
  type DeleteFavoriteStocksRequest,
} from '@signalboard/core';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../client';

/** The signed-in user's favourites (spec §3 "Favourite stock"), shared by every screen that needs them. */
export const favoritesQuery = () =>
  queryOptions({
    queryKey: ['favorites'],
    queryFn: ({ signal }) => apiRequest(getFavoriteStocksResponse, 'get_favorite_stocks', { signal }),
  });
export const useFavorites = () => useQuery(favoritesQuery());

export const batchUpdateFavoriteStocks = (body: BatchUpdateFavoriteStocksRequest) =>
  apiRequest(batchUpdateFavoriteStocksResponse, 'batch_update_favorite_stocks', { json: body });

export const deleteFavoriteStocks = (body: DeleteFavoriteStocksRequest) =>
  apiRequest(deleteFavoriteStocksResponse, 'delete_favorite_stocks', { json: body });
