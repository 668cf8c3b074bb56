/**
 * The trade screens' shared filters (spec §5 "Filters"): a date range on the creation time,
 * inclusive, whose end runs to 23:59:59 of its day in the browser's time zone, and a symbol search
 * that is a case-insensitive "contains". Dates are the native date input's values (YYYY-MM-DD).
 */

export interface DateSymbolFilter {
  /** YYYY-MM-DD or '' (no lower bound). */
  from: string;
  /** YYYY-MM-DD or '' (no upper bound). */
  to: string;
  symbol: string;
}

export const NO_DATE_SYMBOL_FILTER: DateSymbolFilter = { from: '', to: '', symbol: '' };

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

function localDay(value: string): [number, number, number] | null {
  const match = DAY.exec(value);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const check = new Date(year, month - 1, day);
  return check.getFullYear() === year && check.getMonth() === month - 1 && check.getDate() === day ? [year, month, day] : null;
}

/** The first millisecond of a local day (From Date), or null for an empty or invalid value. */
export function localDayStartMs(value: string): number | null {
  const day = localDay(value);
  return day ? new Date(day[0], day[1] - 1, day[2], 0, 0, 0, 0).getTime() : null;
}

/** The last millisecond of a local day (To Date: through 23:59:59 of that day), or null. */
export function localDayEndMs(value: string): number | null {
  const day = localDay(value);
  return day ? new Date(day[0], day[1] - 1, day[2], 23, 59, 59, 999).getTime() : null;
}

/** The symbol search as typed, trimmed and upper-cased ('' matches everything). */
export function symbolNeedle(symbol: string): string {
  return symbol.trim().toUpperCase();
}

/** Whether an idea created at `createdAt` (ISO instant) for `symbol` passes the date and symbol filters. */
export function matchesDateSymbol(filter: DateSymbolFilter, symbol: string, createdAt: string): boolean {
  const needle = symbolNeedle(filter.symbol);
  if (needle && !symbol.toUpperCase().includes(needle)) return false;
  const created = Date.parse(createdAt);
  const from = localDayStartMs(filter.from);
  const to = localDayEndMs(filter.to);
  if (from !== null && !(created >= from)) return false;
  if (to !== null && !(created <= to)) return false;
  return true;
}

/** The same filters as the list calls' and the track record's query: ISO instants and the symbol. */
export function dateSymbolQuery(filter: DateSymbolFilter): { from?: string; to?: string; symbol?: string } {
  const from = localDayStartMs(filter.from);
  const to = localDayEndMs(filter.to);
  const symbol = filter.symbol.trim().slice(0, 20);
  return {
    ...(from !== null ? { from: new Date(from).toISOString() } : {}),
    ...(to !== null ? { to: new Date(to).toISOString() } : {}),
    ...(symbol ? { symbol } : {}),
  };
}

/** A From Date after the To Date matches nothing: the bar says so rather than showing an empty list silently. */
export function dateRangeError(filter: DateSymbolFilter): string | null {
  const from = localDayStartMs(filter.from);
  const to = localDayEndMs(filter.to);
  return from !== null && to !== null && from > to ? 'From Date is after To Date.' : null;
}
