import type { Config } from '../../config';
import { ConfigError } from '../../config';
import type { CacheStore } from '../../lib/cache-store';
import { systemClock, type Clock } from '../../lib/clock';
import { MarketCache } from './cache';
import type { TestControl } from '../../lib/test-control';
import { createCachedMarket as createCachedSource, type CachedMarket } from './cached-market';
import { withImportedPrices, type ImportedPricesSource } from './imported/imported-market';
import type { MarketData } from './types';
import { createFileMarket, DatasetError } from './file/file-market';
import { createLiveMarketData } from './live/composite';
import { createSimulatedMarket } from './simulated/simulated-market';
import { US_STOCKS, TSX_STOCKS, universeBySymbol } from './universe';

/** The largest stocks of `symbol`'s GICS sector on its market, by traded value (universe data). */
function universeSectorPeers(symbol: string): string[] {
  const entry = universeBySymbol.get(symbol.toUpperCase());
  if (!entry?.sector) return [];
  const pool = entry.exchange === 'TSX' ? TSX_STOCKS : US_STOCKS;
  return pool
    .filter((peer) => peer.sector === entry.sector)
    .sort((a, b) => b.basePrice * b.avgVolume - a.basePrice * a.avgVolume)
    .map((peer) => peer.symbol);
}

/** "Now" for every market source, the cache and the scans: MARKET_NOW pins it. */
export function marketClock(config: Pick<Config, 'MARKET_NOW'>, clock: Clock = systemClock): Clock {
  if (!config.MARKET_NOW) return clock;
  const pinned = Date.parse(config.MARKET_NOW);
  return { nowMs: () => pinned };
}

/**
 * The source MARKET_DATA names, behind the cache. With a shared `store` (Redis) the cache's level 2
 * and the live providers' token buckets are the installation's, not the process's. With `imported`
 * (the database's imported price files) their symbols are served from them over the source.
 */
export function createMarket(config: Config, clock: Clock, store?: CacheStore, imported?: ImportedPricesSource): CachedMarket {
  const cache = () => new MarketCache(clock, { store, maxBytes: config.MARKET_CACHE_MAX_MB * 1024 * 1024 });
  // Imported price files (docs/data-in-and-out.md) over whichever source, under the cache.
  const createCachedMarket = (source: MarketData, marketClock: Clock, marketCache: MarketCache) =>
    createCachedSource(imported ? withImportedPrices(source, imported, marketClock) : source, marketClock, marketCache);
  switch (config.MARKET_DATA) {
    case 'simulated':
      return createCachedMarket(createSimulatedMarket({ clock }), clock, cache());
    case 'file':
      if (!config.DATASET_DIR) throw new ConfigError('MARKET_DATA=file needs DATASET_DIR (a dataset directory; see docs/market-data.md).');
      try {
        return createCachedMarket(createFileMarket({ dir: config.DATASET_DIR, clock }), clock, cache());
      } catch (error) {
        if (error instanceof DatasetError) throw new ConfigError(`DATASET_DIR: ${error.message}`);
        throw error;
      }
    case 'live':
      return createCachedMarket(
        createLiveMarketData({
          finnhubApiKey: config.FINNHUB_API_KEY,
          twelveDataApiKey: config.TWELVEDATA_API_KEY,
          fredApiKey: config.FRED_API_KEY,
          coinGeckoApiKey: config.COINGECKO_API_KEY,
          baseUrls: { finnhub: config.FINNHUB_BASE_URL, twelveData: config.TWELVEDATA_BASE_URL, fred: config.FRED_BASE_URL, coinGecko: config.COINGECKO_BASE_URL, yahoo: config.YAHOO_BASE_URL, binance: config.BINANCE_BASE_URL },
          yahoo: config.YAHOO_ENABLED,
          sectorPeers: universeSectorPeers,
          clock,
          ...(store?.shared ? { store } : {}),
        }),
        clock,
        cache(),
      );
  }
}

/**
 * The market with the quotes of TEST_CONTROL_FILE (lib/test-control.ts) in front of its cache: a
 * symbol the file names answers the file's price (and previous close, else the source's), priced
 * now on the market clock; every other call goes to `market` unchanged.
 */
export function withTestQuotes(market: CachedMarket, control: TestControl, clock: Clock): CachedMarket {
  return {
    ...market,
    async getQuote(symbol) {
      const ticker = symbol.trim().toUpperCase();
      const override = control.values().quotes[ticker];
      if (!override) return market.getQuote(symbol);
      // A symbol the source has no quote for is quoted from the file alone when it gives the previous close.
      const base = override.previousClose === undefined ? (await market.getQuote(symbol)).value : await market.getQuote(symbol).then((cached) => cached.value, () => undefined);
      const previousClose = override.previousClose ?? base!.previousClose;
      const change = override.price - previousClose;
      const nowMs = clock.nowMs();
      return {
        stale: false,
        fetchedAtMs: nowMs,
        value: {
          symbol: ticker,
          open: previousClose,
          volume: 0,
          ...base,
          price: override.price,
          previousClose,
          change,
          percentChange: (change / previousClose) * 100,
          high: Math.max(base?.high ?? override.price, override.price),
          low: Math.min(base?.low ?? override.price, override.price),
          timestamp: Math.floor(nowMs / 1000),
        },
      };
    },
  };
}
