import { marketEndpoints } from '@signalboard/core';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/client';

/** GET api/symbol_search?symbol= (spec §7). */
export const getSymbolSearch = (symbol: string, signal?: AbortSignal) =>
  apiCall(marketEndpoints.searchSymbols, { query: { symbol }, signal });

/** Runs on each input (spec §5), not debounced; a term asked before comes from the cache. */
export const symbolSearchQuery = (symbol: string) =>
  queryOptions({
    queryKey: ['symbol-search', symbol],
    queryFn: ({ signal }) => getSymbolSearch(symbol, signal),
    staleTime: 5 * 60_000,
    retry: false,
    enabled: symbol !== '',
  });

export const useSymbolSearch = (symbol: string) => useQuery(symbolSearchQuery(symbol));
