import { marketEndpoints } from '@signalboard/core';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../../lib/client';

/** GET api/symbol_lookup?q=&exchange=US|TO (spec §7). */
export const getSymbolLookup = (q: string, exchange: 'US' | 'TO', signal?: AbortSignal) =>
  apiCall(marketEndpoints.lookupSymbol, { query: { q, exchange }, signal });

/**
 * Keyed by the (debounced) term and the exchange: asking for the same term again is answered from
 * the cache, which is the spec's "duplicates skipped" (§5).
 */
export const symbolLookupQuery = (q: string, exchange: 'US' | 'TO') =>
  queryOptions({
    queryKey: ['symbol-lookup', exchange, q],
    queryFn: ({ signal }) => getSymbolLookup(q, exchange, signal),
    staleTime: 5 * 60_000,
    retry: false,
    enabled: q !== '',
  });

export const useSymbolLookup = (q: string, exchange: 'US' | 'TO') => useQuery(symbolLookupQuery(q, exchange));
