import type { EarningsRow } from '@signalboard/core';

/** Release times in the order of the trading day: before the open, unknown, after the close. */
const TIME_ORDER: Readonly<Record<string, number>> = { 'Pre Market': 0, 'Time Not Supplied': 1, 'Transfer Agent': 2, 'After Hours': 3 };
const normalise = (symbol: string) => symbol.trim().toUpperCase();

/**
 * Spec §2 "Today's Earnings (Favorites)": today's releases of the user's favourite symbols only,
 * in the order of the day (pre-market first, after hours last), then by symbol.
 */
export function favoriteEarnings(rows: readonly EarningsRow[], favoriteSymbols: Iterable<string>): EarningsRow[] {
  const favorites = new Set(Array.from(favoriteSymbols, normalise));
  return rows
    .filter((row) => typeof row?.symbol === 'string' && favorites.has(normalise(row.symbol)))
    .sort((a, b) => (TIME_ORDER[a.time] ?? 1) - (TIME_ORDER[b.time] ?? 1) || a.symbol.localeCompare(b.symbol));
}
