import type { FavoriteQuotesResponse } from '@signalboard/core';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../api/client';

/** WatchList prices refresh this often while the screen is open. */
export const FAVORITE_QUOTES_REFRESH_MS = 30_000;

/** GET api/favorites/quotes: last price and day change of each saved favourite. */
export const getFavoriteQuotes = (signal?: AbortSignal) => apiRequest<FavoriteQuotesResponse>('favorites/quotes', { signal });

/**
 * Under the favourites' key, so anything that invalidates the favourites (a save) refreshes the
 * prices too.
 */
export const favoriteQuotesQuery = () =>
  queryOptions({
    queryKey: ['favorites', 'quotes'],
    queryFn: ({ signal }) => getFavoriteQuotes(signal),
    refetchInterval: FAVORITE_QUOTES_REFRESH_MS,
    staleTime: FAVORITE_QUOTES_REFRESH_MS,
  });

export const useFavoriteQuotes = (enabled: boolean) => useQuery({ ...favoriteQuotesQuery(), enabled });
