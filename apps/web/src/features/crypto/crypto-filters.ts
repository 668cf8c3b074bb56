import type { CryptoSignal, CryptoTrade } from '@signalboard/core';
import { symbolNeedle } from '../../components/trade-ideas/filter-values';

/**
 * The Crypto Scanner's filters (issue 13): a signal (Buy, Sell or Hold) on one horizon or on any of
 * the three, and Search by Symbol (a case-insensitive "contains", as on the other trade screens).
 * The list updates as they change; the scorecard follows the symbol.
 */

export type SignalChoice = 'all' | CryptoSignal;
export type HorizonChoice = 'any' | 'Short' | 'Medium' | 'Long';

export interface CryptoFilter {
  signal: SignalChoice;
  horizon: HorizonChoice;
  symbol: string;
}

export const NO_CRYPTO_FILTER: CryptoFilter = { signal: 'all', horizon: 'any', symbol: '' };

export const SIGNAL_OPTIONS: { value: SignalChoice; label: string }[] = [
  { value: 'all', label: 'All signals' },
  { value: 'Buy', label: 'Buy' },
  { value: 'Sell', label: 'Sell' },
  { value: 'Hold', label: 'Hold' },
];

export const HORIZON_OPTIONS: { value: HorizonChoice; label: string }[] = [
  { value: 'any', label: 'Any horizon' },
  { value: 'Short', label: 'Short-term' },
  { value: 'Medium', label: 'Medium-term' },
  { value: 'Long', label: 'Long-term' },
];

/** The row's displayed label on a horizon. */
export function signalOf(row: CryptoTrade, horizon: Exclude<HorizonChoice, 'any'>): CryptoSignal {
  return horizon === 'Short' ? row.ShortTermSignal : horizon === 'Medium' ? row.MediumTermSignal : row.LongTermSignal;
}

export function matchesCryptoFilter(row: CryptoTrade, filter: CryptoFilter): boolean {
  const needle = symbolNeedle(filter.symbol);
  if (needle && !row.Symbol.toUpperCase().includes(needle)) return false;
  if (filter.signal === 'all') return true;
  const horizons = filter.horizon === 'any' ? (['Short', 'Medium', 'Long'] as const) : [filter.horizon];
  return horizons.some((horizon) => signalOf(row, horizon) === filter.signal);
}

/** The rows the filters keep, by symbol (code point order): a stable order a reader can scan. */
export function filterCrypto(rows: readonly CryptoTrade[], filter: CryptoFilter): CryptoTrade[] {
  return rows.filter((row) => matchesCryptoFilter(row, filter)).sort((a, b) => (a.Symbol < b.Symbol ? -1 : a.Symbol > b.Symbol ? 1 : 0));
}
