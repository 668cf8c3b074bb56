import {
  highestHigh,
  latestRsi,
  lowestLow,
  rangeMetrics,
  supportResistance,
  toEarningsRow,
  trendDirection,
  volumeProfileLevels,
  type EarningsRow,
  type HighLowResponse,
  type MetricsResponse,
  type QuoteResponse,
  type RangeMetrics,
  type RsiResponse,
} from '@signalboard/core';
import type { Clock } from '../../lib/clock';
import type { Cached } from '../../providers/market/cache';
import type { CachedMarket } from '../../providers/market/cached-market';
import { barsAreImported } from '../../providers/market/imported/imported-figures';
import { CapabilityUnavailableError, NoPriceHistoryError, ProviderError, UnknownSymbolError, type Bars, type NewsSentiment, type Quote } from '../../providers/market/types';

/**
 * Calendar days of daily history behind fetch_metrics and api/rsi (and api/rsi_td) without a range:
 * ~137 trading days, enough for the 126-bar 6-month window, and a long warm-up for Wilder's RSI
 * (its smoothing carries every earlier change, so a shorter history gives a different 14DayRSI).
 * One constant, so 14DayRSI and latest_rsi are the same number for the same symbol and time.
 */
export const DAILY_HISTORY_DAYS = 200;

/** The bars, or NoPriceHistoryError when there are none. */
function requireBars(bars: Cached<Bars>, symbol: string): Cached<Bars> {
  if (bars.value.time.length === 0) throw new NoPriceHistoryError(bars.value.symbol || symbol);
  return bars;
}

const freshness = (...parts: Array<Cached<unknown>>) => ({
  stale: parts.some((part) => part.stale),
  as_of: Math.floor(Math.min(...parts.map((part) => part.fetchedAtMs)) / 1000),
});

/** `imported: true` when a figure's daily bars come from an imported price file (docs/data-in-and-out.md). */
const importedOf = (...parts: Array<Cached<Bars>>): { imported?: true } => (parts.some((part) => barsAreImported(part.value)) ? { imported: true } : {});

const isoOf = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);

/** Weekly or monthly bars from daily ones (Monday-start weeks, calendar months). */
export function aggregateBars(bars: Bars, period: 'W' | 'M'): Bars {
  const keyOf = (seconds: number) => {
    const date = new Date(seconds * 1000);
    if (period === 'M') return date.getUTCFullYear() * 12 + date.getUTCMonth();
    return Math.floor((seconds / 86_400 + 3) / 7); // weeks starting Monday
  };
  const groups: number[][] = [];
  let lastKey: number | undefined;
  bars.time.forEach((time, index) => {
    const key = keyOf(time);
    if (key !== lastKey) groups.push([]);
    groups[groups.length - 1]!.push(index);
    lastKey = key;
  });
  const build = (pick: (indices: number[]) => number) => Float64Array.from(groups, pick);
  return {
    symbol: bars.symbol,
    time: build((g) => bars.time[g[0]!]!),
    open: build((g) => bars.open[g[0]!]!),
    high: build((g) => Math.max(...g.map((i) => bars.high[i]!))),
    low: build((g) => Math.min(...g.map((i) => bars.low[i]!))),
    close: build((g) => bars.close[g[g.length - 1]!]!),
    volume: build((g) => g.reduce((sum, i) => sum + bars.volume[i]!, 0)),
  };
}

const EMPTY_BARS: Bars = { symbol: '', time: new Float64Array(), open: new Float64Array(), high: new Float64Array(), low: new Float64Array(), close: new Float64Array(), volume: new Float64Array() };

/**
 * A symbol's news sentiment, or none (no article, no bullish or bearish share) when the source does not
 * know it: a symbol of an imported price file has prices only (docs/data-in-and-out.md).
 */
export async function newsSentimentOrNone(market: Pick<CachedMarket, 'getNewsSentiment'>, symbol: string, nowMs: number): Promise<Cached<NewsSentiment>> {
  try {
    return await market.getNewsSentiment(symbol);
  } catch (error) {
    if (!(error instanceof UnknownSymbolError)) throw error;
    const none: NewsSentiment = { symbol, bullishPercent: 0, bearishPercent: 0, sectorAverageBullishPercent: 0, sectorAverageNewsScore: 0, companyNewsScore: 0, articlesInLastWeek: 0, weeklyAverage: 0 };
    return { value: none, stale: false, fetchedAtMs: nowMs };
  }
}

export function createMarketService(market: CachedMarket, clock: Clock) {
  /**
   * Today's bars, or none when no configured source has intraday data, or when the source does not
   * know the symbol (a symbol of an imported price file has daily bars only): dailyrsi is then null. A
   * symbol nobody knows still answers 404, from its daily bars.
   */
  const intradayOrNone = async (symbol: string): Promise<Cached<Bars>> => {
    try {
      return await market.getIntradayBars(symbol);
    } catch (error) {
      if (error instanceof CapabilityUnavailableError || error instanceof UnknownSymbolError) return { value: EMPTY_BARS, stale: false, fetchedAtMs: clock.nowMs() };
      throw error;
    }
  };

  /** True when the source lists the symbol (its profile answers). */
  const isListed = async (symbol: string): Promise<boolean> => {
    try {
      await market.getProfile(symbol);
      return true;
    } catch {
      return false;
    }
  };

  const service = {
    async quote(symbol: string): Promise<QuoteResponse> {
      let cached: Cached<Quote>;
      try {
        cached = await market.getQuote(symbol);
      } catch (error) {
        // A listed symbol without any price (a dataset with no bars for it) is not an unknown one.
        if (error instanceof UnknownSymbolError && (await isListed(symbol))) throw new NoPriceHistoryError(symbol);
        throw error;
      }
      const quote = cached.value;
      return {
        symbol: quote.symbol,
        current_price: quote.price,
        change: quote.change,
        percent_change: quote.percentChange,
        previous_close: quote.previousClose,
        open: quote.open,
        high: quote.high,
        low: quote.low,
        volume: quote.volume,
        timestamp: quote.timestamp,
        ...(quote.lastBar ? { last_bar: true } : {}),
        ...freshness(cached),
      };
    },

    /**
     * Only the 1- and 6-month highs and lows of fetch_metrics (the same bars and definitions), for the
     * Drop Scanner, which needs no intraday bars or news: fewer upstream reads per favourite.
     */
    async rangeMetrics(symbol: string): Promise<RangeMetrics & { symbol: string; stale: boolean; as_of: number; imported?: true }> {
      const bars = requireBars(await market.getRecentDailyBars(symbol, DAILY_HISTORY_DAYS), symbol);
      return { symbol: bars.value.symbol, ...rangeMetrics(bars.value.high, bars.value.low), ...freshness(bars), ...importedOf(bars) };
    },

    /** Spec §3 "Stock metrics", each defined once in core (see packages/core/src/indicators). */
    async metrics(symbol: string): Promise<MetricsResponse> {
      const [bars, intraday, sentiment] = await Promise.all([
        market.getRecentDailyBars(symbol, DAILY_HISTORY_DAYS),
        intradayOrNone(symbol),
        newsSentimentOrNone(market, symbol, clock.nowMs()),
      ]);
      const daily = requireBars(bars, symbol).value;
      return {
        symbol: daily.symbol,
        ...rangeMetrics(daily.high, daily.low),
        '14DayRSI': round(latestRsi(daily.close, 14)),
        dailyrsi: round(latestRsi(intraday.value.close, 14)),
        bullishPercent: sentiment.value.bullishPercent,
        bearishPercent: sentiment.value.bearishPercent,
        volumeProfileLevels: volumeProfileLevels(daily.high, daily.low, daily.close, daily.volume).map((level) => round(level)!),
        ...freshness(bars, intraday, sentiment),
        ...importedOf(bars),
      };
    },

    /**
     * latest_rsi over the daily closes in [from, to], or over the last DAILY_HISTORY_DAYS days (as
     * fetch_metrics' 14DayRSI) without a range. A range with no bars answers null when the symbol has
     * recent history, else NoPriceHistoryError.
     */
    async rsi(symbol: string, range?: { from: number; to: number }): Promise<RsiResponse> {
      const [bars, intraday] = await Promise.all([
        range ? market.getDailyBars(symbol, range.from, range.to) : market.getRecentDailyBars(symbol, DAILY_HISTORY_DAYS),
        intradayOrNone(symbol),
      ]);
      if (bars.value.time.length === 0) requireBars(range ? await market.getRecentDailyBars(symbol, DAILY_HISTORY_DAYS) : bars, symbol);
      return {
        symbol: bars.value.symbol,
        latest_rsi: round(latestRsi(bars.value.close, 14)),
        daily_rsi: round(latestRsi(intraday.value.close, 14)),
        ...freshness(bars, intraday),
        ...importedOf(bars),
      };
    },

    /**
     * api/rsi_td: latest_rsi from the provider's own RSI(14) (live: Twelve Data /rsi) when the source
     * has one, else exactly as api/rsi without a range. daily_rsi is always ours (5-minute closes).
     */
    async rsiTd(symbol: string): Promise<RsiResponse> {
      if (market.getProviderDailyRsi) {
        try {
          const [provided, intraday] = await Promise.all([market.getProviderDailyRsi(symbol), intradayOrNone(symbol)]);
          return {
            symbol: provided.value.symbol,
            latest_rsi: round(provided.value.rsi),
            daily_rsi: round(latestRsi(intraday.value.close, 14)),
            ...freshness(provided, intraday),
          };
        } catch (error) {
          // Not configured, not covered, out of credits or down with nothing cached: compute it from bars.
          if (!(error instanceof CapabilityUnavailableError || error instanceof ProviderError || error instanceof UnknownSymbolError)) throw error;
        }
      }
      return service.rsi(symbol);
    },

    async highLow(symbol: string, days: number): Promise<HighLowResponse> {
      const bars = requireBars(await market.getRecentDailyBars(symbol, Math.ceil(days * 1.6) + 10), symbol);
      const daily = bars.value;
      const high = highestHigh(daily.high, days);
      const low = lowestLow(daily.low, days);
      if (!high || !low) throw new NoPriceHistoryError(symbol);
      return {
        symbol: daily.symbol,
        days,
        high: high.value,
        high_date: isoOf(daily.time[high.index]!),
        low: low.value,
        low_date: isoOf(daily.time[low.index]!),
        ...freshness(bars),
        ...importedOf(bars),
      };
    },

    async supportResistance(symbol: string, resolution: 'D' | 'W' | 'M') {
      const bars = requireBars(await market.getRecentDailyBars(symbol, resolution === 'D' ? 400 : 750), symbol);
      const series = resolution === 'D' ? bars.value : aggregateBars(bars.value, resolution);
      return {
        symbol: bars.value.symbol,
        resolution,
        levels: supportResistance(series.high, series.low, series.close).map((level) => round(level)!),
        ...freshness(bars),
        ...importedOf(bars),
      };
    },

    async trend(symbol: string, days: number, interval: '1day' | '1week') {
      const bars = requireBars(await market.getRecentDailyBars(symbol, interval === '1week' ? days * 7 + 14 : Math.ceil(days * 1.6) + 10), symbol);
      const series = interval === '1week' ? aggregateBars(bars.value, 'W') : bars.value;
      const trend = trendDirection(series.close, { days: interval === '1week' ? Math.max(3, Math.round(days / 5)) : days });
      return {
        symbol: bars.value.symbol,
        days,
        interval,
        direction: trend.direction,
        slope_percent_per_bar: round(trend.slopePercentPerDay, 4)!,
        r_squared: round(trend.rSquared, 4)!,
        ...freshness(bars),
        ...importedOf(bars),
      };
    },

    async earnings(from: string, to: string): Promise<EarningsRow[]> {
      const cached = await market.getEarningsCalendar(from, to);
      return cached.value.map(toEarningsRow);
    },
  };
  return service;
}

export type MarketService = ReturnType<typeof createMarketService>;

function round(value: number | null | undefined, decimals = 2): number | null {
  if (value === null || value === undefined || !Number.isFinite(value)) return null;
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
}
