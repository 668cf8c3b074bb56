/**
 * Where an imported entry may be listed, and how a favourite is written for TradingView
 * (docs/data-in-and-out.md "Watchlist import and export"). Favourites are US and Canadian stocks
 * only: a `.TO` suffix or a `TSX:` prefix means the Toronto listing (stored as `RY.TO`); a US
 * exchange prefix means the US listing; a bare symbol may be either, and is ambiguous when both exist.
 */
import { toCsv, type CsvColumn } from '../csv/csv-writer';
import type { WatchlistImportEntry } from './parse';

/** Exchange names (TradingView's and ours, upper-cased) that mean a US listing. */
export const US_EXCHANGE_NAMES: ReadonlySet<string> = new Set([
  'NASDAQ', 'NYSE', 'AMEX', 'NYSEARCA', 'NYSE ARCA', 'ARCA', 'NYSEAMERICAN', 'NYSE AMERICAN', 'NYSEMKT', 'BATS', 'CBOE', 'US',
]);
/** Exchange names that mean the Toronto Stock Exchange (the only Canadian market the lookup covers). */
export const CANADIAN_EXCHANGE_NAMES: ReadonlySet<string> = new Set(['TSX', 'TO', 'TOR']);

const TORONTO_SUFFIX = '.TO';

export type ListingPlan =
  /** Look the symbol up on these markets; `US` under `us`, `TO` under `canadian` (`RY.TO`). */
  | { kind: 'lookup'; us: string | null; canadian: string | null }
  | { kind: 'refused'; reason: string };

/** Which listings an imported entry may be: the symbols to look up on the US and Toronto markets. */
export function listingPlan(entry: Pick<WatchlistImportEntry, 'symbol' | 'exchange'>): ListingPlan {
  const symbol = entry.symbol.toUpperCase();
  const exchange = entry.exchange?.toUpperCase() ?? null;
  const toronto = symbol.endsWith(TORONTO_SUFFIX);
  const base = toronto ? symbol.slice(0, -TORONTO_SUFFIX.length) : symbol;
  if (base === '') return { kind: 'refused', reason: 'No symbol before ".TO".' };
  if (exchange === null) return toronto ? { kind: 'lookup', us: null, canadian: symbol } : { kind: 'lookup', us: symbol, canadian: `${symbol}${TORONTO_SUFFIX}` };
  if (CANADIAN_EXCHANGE_NAMES.has(exchange)) return { kind: 'lookup', us: null, canadian: `${base}${TORONTO_SUFFIX}` };
  if (US_EXCHANGE_NAMES.has(exchange)) {
    if (toronto) return { kind: 'refused', reason: `${exchange} is a US exchange but ${symbol} is a Toronto (.TO) symbol.` };
    return { kind: 'lookup', us: symbol, canadian: null };
  }
  return { kind: 'refused', reason: `${exchange} is not a US or Canadian (TSX) exchange; favorites are US and Canadian stocks only.` };
}

/** A favourite with its listing venue, as GET /api/watchlist/export answers it. */
export interface ExportedFavorite {
  symbol: string;
  description: string;
  /** `NASDAQ`, `NYSE`, `NYSE Arca`, `Cboe`, `TSX`…; '' when the market data does not know the symbol. */
  exchange: string;
}

/** Our exchange names as TradingView writes them (NYSE Arca is `AMEX` there). */
const TRADINGVIEW_EXCHANGE: Readonly<Record<string, string>> = { 'NYSE ARCA': 'AMEX', 'NYSE AMERICAN': 'AMEX', CBOE: 'CBOE' };

/** `NASDAQ:AAPL`, `TSX:RY` (the `.TO` dropped), `AMEX:SPY`; the bare symbol when the exchange is unknown. */
export function tradingViewSymbol(favorite: Pick<ExportedFavorite, 'symbol' | 'exchange'>): string {
  const exchange = favorite.exchange.trim().toUpperCase();
  const symbol = favorite.symbol.toUpperCase();
  if (exchange === '') return symbol;
  if (CANADIAN_EXCHANGE_NAMES.has(exchange)) return `TSX:${symbol.endsWith(TORONTO_SUFFIX) ? symbol.slice(0, -TORONTO_SUFFIX.length) : symbol}`;
  return `${TRADINGVIEW_EXCHANGE[exchange] ?? exchange.replace(/\s+/g, '')}:${symbol}`;
}

/** TradingView's watchlist format: `NASDAQ:AAPL,TSX:RY` (one line, comma separated). */
export const watchlistTradingViewText = (favorites: readonly ExportedFavorite[]): string => favorites.map(tradingViewSymbol).join(',');

export const WATCHLIST_EXPORT_COLUMNS: readonly CsvColumn<ExportedFavorite>[] = [
  { header: 'symbol', value: (row) => row.symbol },
  { header: 'description', value: (row) => row.description },
  { header: 'exchange', value: (row) => row.exchange },
];

/** The favourites as CSV (symbol, description, exchange), through the one CSV writer. */
export const watchlistCsv = (favorites: readonly ExportedFavorite[]): string => toCsv(WATCHLIST_EXPORT_COLUMNS, favorites);
