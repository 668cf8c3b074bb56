/**
 * The symbols a custom scan runs over (docs/custom-scans.md, "Running a scan"), in the universe's
 * order, each with its name and what the source lists about it (sector, exchange). The file source
 * lists its own symbols (`listSymbols`); the simulated and live sources use the built-in lists of
 * providers/market/universe. A universe is one entry of UNIVERSES: a missing one is a type error.
 */
import type { ScanUniverse } from '@signalboard/core';
import type { CachedMarket } from '../../providers/market/cached-market';
import type { Market, SymbolInfo } from '../../providers/market/types';
import { CRYPTOS, TSX_STOCKS, universeBySymbol, US_STOCKS, type UniverseEntry } from '../../providers/market/universe';
import { importedListings, stockUniverse } from '../trades/trades.market';
import type { FavoritesRepo } from '../watchlist/watchlist.repo';

/** A symbol of a scan's universe. Sector and exchange are null when the source's list does not give them. */
export interface ScanMember {
  symbol: string;
  name: string;
  sector: string | null;
  exchange: string | null;
  /** False when the symbol is on no list of the source (a favourite the lists lack): its listing is still to be asked for. */
  listed: boolean;
}

export interface UniverseDeps {
  market: CachedMarket;
  favorites: Pick<FavoritesRepo, 'list'>;
}

type Listing = Omit<ScanMember, 'symbol'>;

const fromInfo = (info: SymbolInfo): Listing => ({ name: info.description, sector: info.sector ?? null, exchange: info.exchange || null, listed: true });
const fromEntry = (entry: UniverseEntry): Listing => ({ name: entry.name, sector: entry.sector ?? null, exchange: entry.exchange, listed: true });
const member = (symbol: string, listing: Listing): ScanMember => ({ symbol, ...listing });

/** The file source's symbols (null for a source that cannot list them: the built-in lists stand in). */
async function sourceList(market: CachedMarket): Promise<SymbolInfo[] | null> {
  return market.source === 'file' && market.listSymbols ? market.listSymbols() : null;
}

/** The source's own symbols of one market (of one asset class, when given), else the built-in list. */
const listedOr =
  (builtIn: readonly UniverseEntry[], wanted: Market, assetClass?: SymbolInfo['assetClass']) =>
  async ({ market }: UniverseDeps): Promise<ScanMember[]> => {
    const wantedInfo = (info: SymbolInfo) => info.market === wanted && (assetClass === undefined || info.assetClass === assetClass);
    const listed = await sourceList(market);
    const members = listed ? listed.filter(wantedInfo).map((info) => member(info.symbol, fromInfo(info))) : builtIn.map((entry) => member(entry.symbol, fromEntry(entry)));
    // Imported price files' symbols of this market join the list (docs/data-in-and-out.md).
    const known = new Set(members.map((entry) => entry.symbol));
    const imported = (await importedListings(market)).filter((info) => wantedInfo(info) && !known.has(info.symbol));
    return [...members, ...imported.map((info) => member(info.symbol, fromInfo(info)))];
  };

/** What the source lists about each symbol (the file source's list, else the built-in lists). */
async function listingsOf(market: CachedMarket): Promise<(symbol: string) => Listing | undefined> {
  const [listed, imported] = await Promise.all([sourceList(market), importedListings(market)]);
  const importedBySymbol = new Map(imported.map((info) => [info.symbol, info]));
  const fromImport = (symbol: string) => {
    const info = importedBySymbol.get(symbol.toUpperCase());
    return info && fromInfo(info);
  };
  if (!listed) {
    return (symbol) => {
      const entry = universeBySymbol.get(symbol);
      return entry ? fromEntry(entry) : fromImport(symbol);
    };
  }
  const bySymbol = new Map(listed.map((info) => [info.symbol.toUpperCase(), info]));
  return (symbol) => {
    const info = bySymbol.get(symbol.toUpperCase());
    return info ? fromInfo(info) : fromImport(symbol);
  };
}

const UNIVERSES: Record<ScanUniverse, (deps: UniverseDeps, userId: number) => Promise<ScanMember[]>> = {
  // The stock engines' universe: today's S&P 500 members the source knows (the file source: its US stocks).
  sp500: async ({ market }) => {
    const [members, listingOf] = await Promise.all([stockUniverse(market, false), listingsOf(market)]);
    return members.map(({ symbol, sector }) => member(symbol, listingOf(symbol) ?? { name: symbol, sector: sector ?? null, exchange: null, listed: false }));
  },
  us: listedOr(US_STOCKS, 'US', 'stock'),
  tsx: listedOr(TSX_STOCKS, 'TO', 'stock'),
  crypto: listedOr(CRYPTOS, 'CRYPTO'),
  favorites: async ({ market, favorites }, userId) => {
    const [saved, listingOf] = await Promise.all([favorites.list(userId), listingsOf(market)]);
    return saved.map(({ symbol, description }) => {
      const listing = listingOf(symbol);
      return member(symbol, { name: description || listing?.name || symbol, sector: listing?.sector ?? null, exchange: listing?.exchange ?? null, listed: listing !== undefined });
    });
  },
};

/** The universe's symbols in its order: the list's order, the favourites in the order they were added. */
export function scanUniverseMembers(universe: ScanUniverse, deps: UniverseDeps, userId: number): Promise<ScanMember[]> {
  return UNIVERSES[universe](deps, userId);
}
