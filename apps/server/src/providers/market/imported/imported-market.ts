/**
 * Imported daily price files over the configured source (issue 29; docs/data-in-and-out.md "Serving
 * imported prices"). A symbol with imported bars takes its whole daily history from them; its quote
 * comes from the source when the source quotes it, else from the last imported bar (`lastBar: true`).
 * A symbol the source does not know is listed, searched and profiled from its import's listing.
 * Lookups and searches are merged above the cache (cached-market.ts), so a new import shows at once.
 * Everything else is the source's. The imported list is read from the database and kept for
 * LISTING_TTL_MS, so every process sees a new import within that time (the import also calls
 * `refresh()` in its own process).
 */
import type { Clock } from '../../../lib/clock';
import { UnknownSymbolError, type Bars, type MarketData, type Quote, type SymbolInfo } from '../types';

export interface ImportedListing {
  symbol: string;
  description: string;
  market: 'US' | 'TO';
  exchange: string;
  sector: string | null;
  /** The digest of its stored bars (imported_symbols.bars_digest); the listings read it, an import does not give it. */
  barsDigest?: string;
}

/** Where the imported prices live (features/data-import/imported-prices.repo.ts). */
export interface ImportedPricesSource {
  listings(): Promise<ImportedListing[]>;
  bars(symbol: string): Promise<Bars>;
}

export const LISTING_TTL_MS = 10_000;

export interface ImportedMarketData extends MarketData {
  /** The imported symbols' listings (the universe adds them). */
  importedSymbols(): Promise<SymbolInfo[]>;
  /** Each imported symbol's bars digest (the kept list's: at most LISTING_TTL_MS old). */
  importedDigests(): Promise<ReadonlyMap<string, string>>;
  /** Forgets the kept list: the next call reads the database. */
  refresh(): void;
  /**
   * The imported listings a lookup or search matches (the symbol's start, or a word of the name). The
   * cached market adds them to the source's cached answer, so a new import shows at once.
   */
  matchImported(query: string, market?: 'US' | 'TO'): Promise<SymbolInfo[]>;
}

/** `first`, then the symbols of `more` it lacks. */
export function mergedListings(first: SymbolInfo[], more: SymbolInfo[]): SymbolInfo[] {
  const seen = new Set(first.map((info) => info.symbol));
  return [...first, ...more.filter((info) => !seen.has(info.symbol))];
}

export function infoOf(listing: ImportedListing): SymbolInfo {
  return {
    symbol: listing.symbol,
    description: listing.description,
    market: listing.market,
    exchange: listing.exchange,
    country: listing.market === 'TO' ? 'Canada' : 'United States',
    currency: listing.market === 'TO' ? 'CAD' : 'USD',
    assetClass: 'stock',
    ...(listing.sector ? { sector: listing.sector } : {}),
  };
}

export function withImportedPrices(base: MarketData, imported: ImportedPricesSource, clock: Clock): ImportedMarketData {
  let kept: { atMs: number; bySymbol: Promise<Map<string, ImportedListing>> } | null = null;
  const listed = (): Promise<Map<string, ImportedListing>> => {
    const nowMs = Date.now();
    if (!kept || nowMs - kept.atMs > LISTING_TTL_MS) {
      const bySymbol = imported.listings().then((rows) => new Map(rows.map((row) => [row.symbol, row])));
      // A failed read is not kept: the next call asks again.
      bySymbol.catch(() => (kept = null));
      kept = { atMs: nowMs, bySymbol };
    }
    return kept.bySymbol;
  };
  const importedOf = async (symbol: string) => (await listed()).get(symbol.trim().toUpperCase());
  const nowSeconds = () => Math.floor(clock.nowMs() / 1000);

  /** The listings matching a query the way the sources match: the symbol's start, or a word of the name. */
  const matching = async (query: string, market?: 'US' | 'TO'): Promise<SymbolInfo[]> => {
    const q = query.trim().toUpperCase();
    if (!q) return [];
    return [...(await listed()).values()]
      .filter((row) => (market === undefined || row.market === market) && (row.symbol.startsWith(q) || row.description.toUpperCase().includes(q)))
      .map(infoOf);
  };

  const lastBarQuote = (bars: Bars): Quote => {
    const n = bars.close.length;
    if (n === 0) throw new UnknownSymbolError(bars.symbol);
    const price = bars.close[n - 1]!;
    const previousClose = n > 1 ? bars.close[n - 2]! : price;
    const change = price - previousClose;
    return {
      symbol: bars.symbol,
      price,
      change: Math.round(change * 10_000) / 10_000,
      percentChange: previousClose === 0 ? 0 : Math.round((change / previousClose) * 1_000_000) / 10_000,
      previousClose,
      open: bars.open[n - 1]!,
      high: bars.high[n - 1]!,
      low: bars.low[n - 1]!,
      volume: bars.volume[n - 1]!,
      // The session's close, 16:00 New York (20:00 or 21:00 UTC): the day at 21:00 UTC is never early.
      timestamp: bars.time[n - 1]! + 21 * 3600,
      lastBar: true,
    };
  };
  /** The imported bars up to now (a pinned market clock sees no later bar). */
  const barsUpToNow = async (symbol: string): Promise<Bars> => {
    const bars = await imported.bars(symbol);
    const end = nowSeconds();
    let n = bars.time.length;
    while (n > 0 && bars.time[n - 1]! > end) n -= 1;
    return n === bars.time.length ? bars : { ...bars, time: bars.time.subarray(0, n), open: bars.open.subarray(0, n), high: bars.high.subarray(0, n), low: bars.low.subarray(0, n), close: bars.close.subarray(0, n), volume: bars.volume.subarray(0, n) };
  };

  return {
    ...base,
    source: base.source,
    importedSymbols: async () => [...(await listed()).values()].map(infoOf),
    importedDigests: async () => new Map([...(await listed()).values()].map((row) => [row.symbol, row.barsDigest ?? ''])),
    refresh: () => {
      kept = null;
    },
    matchImported: matching,
    async getProfile(symbol) {
      const listing = await importedOf(symbol);
      if (!listing) return base.getProfile(symbol);
      return base.getProfile(symbol).catch((error: unknown) => {
        if (error instanceof UnknownSymbolError) return infoOf(listing);
        throw error;
      });
    },
    async getQuote(symbol) {
      const listing = await importedOf(symbol);
      if (!listing) return base.getQuote(symbol);
      try {
        return await base.getQuote(symbol);
      } catch (error) {
        if (!(error instanceof UnknownSymbolError)) throw error;
        return lastBarQuote(await barsUpToNow(listing.symbol));
      }
    },
    async getDailyBars(symbol, from, to) {
      const listing = await importedOf(symbol);
      if (!listing) return base.getDailyBars(symbol, from, to);
      const bars = await barsUpToNow(listing.symbol);
      let start = 0;
      while (start < bars.time.length && bars.time[start]! < from) start += 1;
      let end = start;
      while (end < bars.time.length && bars.time[end]! <= to) end += 1;
      return { symbol: listing.symbol, time: bars.time.subarray(start, end), open: bars.open.subarray(start, end), high: bars.high.subarray(start, end), low: bars.low.subarray(start, end), close: bars.close.subarray(start, end), volume: bars.volume.subarray(start, end), candles: bars.candles ?? { provider: 'imported', range: 'ohlc', volume: 'aggregate' } };
    },
    ...(base.listSymbols && {
      listSymbols: async () => mergedListings(await base.listSymbols!(), [...(await listed()).values()].map(infoOf)),
    }),
  };
}
