/**
 * The one interface every feature reads market data through (docs/design.md "Market data"). Sources:
 * `simulated` (default), `file` (a dataset directory) and `live` (provider adapters combined by
 * capability). All go through the cache in `cache/`. Times are Unix seconds (UTC); calendar dates
 * are ISO `YYYY-MM-DD` strings in the exchange's time zone (America/New_York for US and TSX).
 */

/** Where a symbol trades: US exchanges, the Toronto Stock Exchange, or a crypto market. */
export type Market = 'US' | 'TO' | 'CRYPTO';

export type AssetClass = 'stock' | 'etf' | 'crypto';

export interface SymbolInfo {
  /** Ticker as users type it: `AAPL`, `RY.TO`, `BTC`. */
  symbol: string;
  /** Company or asset name: `Apple Inc.` */
  description: string;
  market: Market;
  /** Listing venue as users know it: `NASDAQ`, `NYSE`, `NYSE Arca`, `TSX`, `Crypto`. */
  exchange: string;
  /** `United States`, `Canada`, or `Global` for crypto. */
  country: string;
  currency: 'USD' | 'CAD';
  assetClass: AssetClass;
  /** GICS sector for stocks (`Information Technology`, …); undefined for ETFs and crypto. */
  sector?: string;
  industry?: string;
}

export interface Quote {
  symbol: string;
  price: number;
  change: number;
  /** Percent, e.g. 1.25 for +1.25 %. */
  percentChange: number;
  previousClose: number;
  open: number;
  high: number;
  low: number;
  volume: number;
  /** When the price was observed, Unix seconds. */
  timestamp: number;
  /** The last bar of an imported price file, not a quote (the source does not quote the symbol). */
  lastBar?: true;
}

/**
 * Daily (or intraday) OHLCV bars, oldest first, one typed array per field: scans run over these
 * without allocating objects per bar.
 */
export interface Bars {
  symbol: string;
  /** Bar start, Unix seconds (daily bars: 00:00 UTC of the trading day). */
  time: Float64Array;
  open: Float64Array;
  high: Float64Array;
  low: Float64Array;
  close: Float64Array;
  volume: Float64Array;
  /** What the candles are, when the source says (crypto: Binance klines or CoinGecko's close-only chart); none: real OHLC. */
  candles?: CandleInfo;
}

/** Bars of `n` sessions, every value 0, for a reader to fill in place (one allocation per column). */
export function barsToFill(symbol: string, n: number, candles?: CandleInfo): Bars {
  const column = () => new Float64Array(n);
  return { symbol, time: column(), open: column(), high: column(), low: column(), close: column(), volume: column(), ...(candles ? { candles } : {}) };
}

/** Where a daily history came from and what it holds (the crypto engine's fields depend on it). */
export interface CandleInfo {
  provider: string;
  /** 'ohlc': real highs and lows; 'close_only': one price a day (open = the previous close, high/low span the two). */
  range: 'ohlc' | 'close_only';
  /** The volume's unit: the quote currency (USD) of one venue, the coin (base asset) of one venue, or summed across venues. */
  volume: 'quote' | 'base' | 'aggregate';
  /** Imported bars: the digest of the stored history these bars are (imported_symbols.bars_digest, read with them). */
  digest?: string;
}

export interface NewsArticle {
  /** Stable id within its source. */
  id: string;
  headline: string;
  summary: string;
  source: string;
  /** `general`, `company`, `economy`, `technology`, `crypto`, `merger`, … */
  category: string;
  /** Unix seconds. */
  datetime: number;
  /** http(s) URL of the article. */
  url: string;
  /** http(s) URL of an image, or '' for none. */
  image: string;
  /** Symbols the article is about, comma-separated (Finnhub's `related`). */
  related: string;
}

export interface NewsSentiment {
  symbol: string;
  /** Fractions 0–1 of bullish and bearish articles over the last week. */
  bullishPercent: number;
  bearishPercent: number;
  /** Mean bullish fraction over the symbol's sector, 0–1 (spec §5 multiplies it by 100). */
  sectorAverageBullishPercent: number;
  sectorAverageNewsScore: number;
  /** The symbol's news score, 0–1. */
  companyNewsScore: number;
  articlesInLastWeek: number;
  weeklyAverage: number;
}

export type EarningsHour = 'bmo' | 'amc' | 'dmh' | '';

export interface EarningsEvent {
  symbol: string;
  /** Report date, `YYYY-MM-DD`. */
  date: string;
  /** Before market open, after market close, during market hours, or unknown. */
  hour: EarningsHour;
  epsActual: number | null;
  epsEstimate: number | null;
  revenueActual: number | null;
  revenueEstimate: number | null;
  quarter: number;
  year: number;
  exchange: string;
  country: string;
}

export interface OptionContract {
  /** OCC symbol, e.g. `AAPL261218C00200000`. */
  contractSymbol: string;
  type: 'call' | 'put';
  strike: number;
  /** `YYYY-MM-DD`. */
  expiration: string;
  lastPrice: number;
  bid: number;
  ask: number;
  volume: number;
  openInterest: number;
  /** Annualised, as a fraction (0.32 = 32 %). */
  impliedVolatility: number;
}

export interface OptionChain {
  symbol: string;
  underlyingPrice: number;
  /** Every listed expiry, `YYYY-MM-DD`, soonest first. */
  expirations: string[];
  /** Contracts of the requested expiry (or of all expiries when none was asked for). */
  contracts: OptionContract[];
}

export interface EconomicObservation {
  /** `YYYY-MM-DD`. */
  date: string;
  value: number;
}

export interface EconomicSeries {
  /** FRED-style id: `CPIAUCSL`, `UNRATE`, `FEDFUNDS`, `DGS10`, `A191RL1Q225SBEA`, `NAPM`… */
  id: string;
  name: string;
  unit: string;
  frequency: 'Daily' | 'Weekly' | 'Monthly' | 'Quarterly';
  /** Newest first. */
  observations: EconomicObservation[];
}

/** A provider's own RSI for a symbol's latest daily bar (the api/rsi_td variant). */
export interface ProviderRsi {
  symbol: string;
  /** Who computed it, e.g. `Twelve Data`. */
  provider: string;
  /** The daily bar the value belongs to: 00:00 UTC of its trading day, Unix seconds. */
  time: number;
  /** RSI(14) on daily closes, 0–100. */
  rsi: number;
}

/** What every source answers. Unknown symbols reject with UnknownSymbolError. */
export interface MarketData {
  readonly source: 'simulated' | 'file' | 'live';
  /** Symbols whose ticker or name matches `query`, on one market (spec: symbol_lookup, US or TO). */
  lookupSymbols(query: string, market: 'US' | 'TO'): Promise<SymbolInfo[]>;
  /** Symbols whose ticker or name matches `query` on any market (spec: symbol_search). */
  searchSymbols(query: string): Promise<SymbolInfo[]>;
  getProfile(symbol: string): Promise<SymbolInfo>;
  getQuote(symbol: string): Promise<Quote>;
  /** Daily bars whose day lies in [from, to] (Unix seconds), oldest first. */
  getDailyBars(symbol: string, from: number, to: number): Promise<Bars>;
  /**
   * The last session's intraday bars (5-minute), oldest first: today's so far while the market is
   * open, else the last complete session's. While the running session has fewer than 15 bars (its
   * first ~70 minutes), the previous session's bars come first, followed by today's, so RSI(14) on
   * 5-minute closes (`dailyrsi`) is defined from the open. A source without that history answers
   * today's bars alone (`dailyrsi` is then null until the 15th bar).
   */
  getIntradayBars(symbol: string): Promise<Bars>;
  /** Company news with datetime in the days [from, to] (`YYYY-MM-DD`), newest first. */
  getCompanyNews(symbol: string, from: string, to: string): Promise<NewsArticle[]>;
  /** Latest market news (category `general`), newest first. */
  getMarketNews(): Promise<NewsArticle[]>;
  getNewsSentiment(symbol: string): Promise<NewsSentiment>;
  /** Earnings releases dated in [from, to] (`YYYY-MM-DD`). */
  getEarningsCalendar(from: string, to: string): Promise<EarningsEvent[]>;
  /** The chain as quoted now (of `expiration` only, when given). */
  getOptionChain(symbol: string, expiration?: string): Promise<OptionChain>;
  /**
   * Optional: the chain as it was quoted on the session `date` (`YYYY-MM-DD`): at its close, or now
   * while that session is still running; of `expiration` only, when given. Only what was known by
   * then goes into it (no look-ahead). Null when the source has no chain for that session (a
   * holiday, a date after now, or a dataset without a chain of that date). Sources that only know
   * today's chain (the live providers) leave it out: today's chain says nothing about last year.
   */
  getOptionChainAsOf?(symbol: string, date: string, expiration?: string): Promise<OptionChain | null>;
  getEconomicSeries(id: string): Promise<EconomicSeries>;
  /**
   * Optional: RSI(14) on daily closes as a data provider computes it (live: Twelve Data `/rsi`), for
   * api/rsi_td. Sources without it leave it out. Rejects CapabilityUnavailableError when no provider
   * of it is configured or it does not cover the symbol; callers then compute RSI from getDailyBars.
   */
  getProviderDailyRsi?(symbol: string): Promise<ProviderRsi>;
  /** Optional: every symbol the source knows (a dataset's symbols.json), for the trade engines' universe. */
  listSymbols?(): Promise<SymbolInfo[]>;
}

/** The symbol is not known to the source (answers 404). */
export class UnknownSymbolError extends Error {
  constructor(readonly symbol: string) {
    super(`Unknown symbol: ${symbol}`);
  }
}

/** The symbol is listed but has no daily bars (or no price) to compute from: answers 404. */
export class NoPriceHistoryError extends Error {
  constructor(readonly symbol: string) {
    super(`No price history for ${symbol}`);
  }
}

/** An upstream failure: HTTP error, timeout, rate limit or malformed body. */
export class ProviderError extends Error {
  constructor(
    readonly provider: string,
    message: string,
    readonly options: { status?: number; retryable?: boolean; retryAfterSeconds?: number } = {},
  ) {
    super(`${provider}: ${message}`);
  }
}

/** The source cannot answer this kind of question (e.g. a premium-only endpoint, no key set). */
export class CapabilityUnavailableError extends Error {
  constructor(
    readonly provider: string,
    readonly capability: string,
  ) {
    super(`${provider} does not provide ${capability}`);
  }
}
