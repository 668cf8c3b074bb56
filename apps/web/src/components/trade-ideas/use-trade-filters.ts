import { useDebouncedValue } from '@mantine/hooks';
import { useMemo, useState } from 'react';
import { dateSymbolQuery, NO_DATE_SYMBOL_FILTER, type DateSymbolFilter } from './filter-values';

/** The symbol search reaches the server (list and track record) after typing pauses this long. */
export const SYMBOL_DEBOUNCE_MS = 300;

/**
 * A trade screen's filter state: its status checkboxes, the dates and the symbol as typed (the
 * cards follow at once), and the same dates and symbol as the server's query (symbol debounced).
 */
export function useTradeFilters<K extends string>(initialStatuses: Record<K, boolean>) {
  const [statuses, setStatuses] = useState(initialStatuses);
  const [filter, setFilter] = useState<DateSymbolFilter>(NO_DATE_SYMBOL_FILTER);
  const [debouncedSymbol] = useDebouncedValue(filter.symbol, SYMBOL_DEBOUNCE_MS);
  const { from, to } = filter;
  const serverScope = useMemo(() => dateSymbolQuery({ from, to, symbol: debouncedSymbol }), [from, to, debouncedSymbol]);
  return { statuses, setStatuses, filter, setFilter, serverScope };
}
