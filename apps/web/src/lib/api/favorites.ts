import {
  watchlistEndpoints,
  type BatchUpdateFavoriteStocksRequest,
  type DeleteFavoriteStocksRequest,
} from '@signalboard/core';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../client';

/** The signed-in user's favourites (spec §3 "Favourite stock"), shared by every screen that needs them. */
export const favoritesQuery = () =>
  queryOptions({
    queryKey: ['favorites'],
    queryFn: ({ signal }) => apiCall(watchlistEndpoints.getFavoriteStocks, { signal }),
  });
export const useFavorites = () => useQuery(favoritesQuery());

export const batchUpdateFavoriteStocks = (body: BatchUpdateFavoriteStocksRequest) =>
  apiCall(watchlistEndpoints.batchUpdateFavoriteStocks, { body });

export const deleteFavoriteStocks = (body: DeleteFavoriteStocksRequest) =>
  apiCall(watchlistEndpoints.deleteFavoriteStocks, { body });
