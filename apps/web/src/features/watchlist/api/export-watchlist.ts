import { watchlistEndpoints } from '@signalboard/core';
import { apiCall } from '../../../lib/client';

/** GET api/watchlist/export: the saved favourites with their exchange, read when the user exports. */
export const getWatchlistExport = () => apiCall(watchlistEndpoints.exportWatchlist, {});
