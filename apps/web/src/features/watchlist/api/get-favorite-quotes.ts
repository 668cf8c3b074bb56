import { watchlistEndpoints, type FavoriteQuotesResponse } from '@signalboard/core';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/client';
import type { LiveQuote } from '../../../lib/live';

/** WatchList prices refresh this often while the screen is open. */
export const FAVORITE_QUOTES_REFRESH_MS = 30_000;

/** GET api/favorites/quotes: last price and day change of each saved favourite. */
export const getFavoriteQuotes = (signal?: AbortSignal) => apiCall(watchlistEndpoints.getFavoriteQuotes, { signal });

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

/** `refetchInterval`: false while live updates bring the prices (usePollingWhileDown). */
export const useFavoriteQuotes = (enabled: boolean, refetchInterval: number | false = FAVORITE_QUOTES_REFRESH_MS) =>
  useQuery({ ...favoriteQuotesQuery(), enabled, refetchInterval });

/** The answer with each symbol's newer live quote laid over its row (prices, change, time; fresh). */
export function withLiveQuotes(data: FavoriteQuotesResponse | undefined, live: ReadonlyMap<string, LiveQuote>): FavoriteQuotesResponse | undefined {
  if (!data || live.size === 0) return data;
  return {
    ...data,
    quotes: data.quotes.map((quote) => {
      const tick = live.get(quote.symbol.toUpperCase());
      if (!tick || tick.timestamp < quote.timestamp) return quote;
      return { ...quote, current_price: tick.price, change: tick.change, percent_change: tick.percentChange, timestamp: tick.timestamp, stale: false };
    }),
  };
}
