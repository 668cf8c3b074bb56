import type { SymbolLookupResponse, SymbolSearchResponse } from '@signalboard/core';
import type { FavoriteRow } from './favorites-editing';

/** Search results are kept only for these countries (spec §5). */
export const SEARCH_COUNTRIES: readonly string[] = ['United States', 'Canada'];

/** The lookup's market code: 'TO' with 'Search Canadian Stocks' ticked, else 'US' (spec §5). */
export const lookupExchange = (canadian: boolean): 'US' | 'TO' => (canadian ? 'TO' : 'US');

/** Empty or whitespace-only input asks nothing and clears the suggestions (spec §5). */
export const searchTerm = (input: string) => input.trim();

/**
 * One dropdown from both calls: the lookup's matches first, then the search's (United States and
 * Canada only), each symbol once.
 */
export function mergeSuggestions(
  lookup: SymbolLookupResponse['result'] | undefined,
  search: SymbolSearchResponse['results'] | undefined,
): FavoriteRow[] {
  const seen = new Set<string>();
  const out: FavoriteRow[] = [];
  const add = (symbol: string, description: string) => {
    const key = symbol.trim().toUpperCase();
    if (!key || seen.has(key)) return;
    seen.add(key);
    out.push({ symbol: symbol.trim(), description });
  };
  for (const row of lookup ?? []) add(row.symbol, row.description);
  for (const row of search ?? []) if (SEARCH_COUNTRIES.includes(row.country)) add(row.symbol, row.instrument_name);
  return out;
}
