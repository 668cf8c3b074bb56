/**
 * The simulated market's symbols: a universe entry as the SymbolInfo every source answers, and the
 * symbol search's ranking.
 */
import type { SymbolInfo } from '../types';
import type { UniverseEntry } from '../universe/types';

/** A universe entry as a SymbolInfo (market, country and currency from its exchange). */
export function toSymbolInfo(entry: UniverseEntry): SymbolInfo {
  const crypto = entry.exchange === 'Crypto';
  const canadian = entry.exchange === 'TSX';
  return {
    symbol: entry.symbol,
    description: entry.name,
    market: crypto ? 'CRYPTO' : canadian ? 'TO' : 'US',
    exchange: entry.exchange,
    country: crypto ? 'Global' : canadian ? 'Canada' : 'United States',
    currency: canadian ? 'CAD' : 'USD',
    assetClass: crypto ? 'crypto' : entry.sector ? 'stock' : 'etf',
    sector: entry.sector,
    industry: entry.industry,
  };
}

/** Exact ticker first, then tickers starting with the query, then names containing it. */
export function rank(entries: readonly UniverseEntry[], query: string): UniverseEntry[] {
  const scored: Array<[number, UniverseEntry]> = [];
  for (const entry of entries) {
    const symbol = entry.symbol.toUpperCase();
    const bare = symbol.replace(/\.TO$/, '');
    const name = entry.name.toUpperCase();
    let score = -1;
    if (symbol === query || bare === query) score = 0;
    else if (symbol.startsWith(query)) score = 1;
    else if (name.startsWith(query)) score = 2;
    else if (name.includes(query)) score = 3;
    if (score >= 0) scored.push([score, entry]);
  }
  return scored.sort((a, b) => a[0] - b[0] || a[1].symbol.localeCompare(b[1].symbol)).slice(0, 20).map(([, entry]) => entry);
}
