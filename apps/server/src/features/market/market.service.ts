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
  type RsiResponse,
} from '@signalboard/core';
import type { Clock } from '../../lib/clock';
import type { Cached } from '../../providers/market/cache';
import type { CachedMarket } from '../../providers/market/cached-market';
import { CapabilityUnavailableError, type Bars } from '../../providers/market/types';

/** Bars requested for the scanners' metrics: 120 days of history covers the 6-month window's needs (spec §9). */
const METRICS_HISTORY_DAYS = 200;

const freshness = (...parts: Array<Cached<unknown>>) => ({
  stale: parts.some((part) => part.stale),
  as_of: Math.floor(Math.min(...parts.map((part) => part.fetchedAtMs)) / 1000),
});

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

export function createMarketService(market: CachedMarket, clock: Clock) {
  /** Today's bars, or none when no configured source has intraday data (dailyrsi is then null). */
  const intradayOrNone = async (symbol: string): Promise<Cached<Bars>> => {
    try {
      return await market.getIntradayBars(symbol);
    } catch (error) {
      if (error instanceof CapabilityUnavailableError) return { value: EMPTY_BARS, stale: false, fetchedAtMs: clock.nowMs() };
      throw error;
    }
  };

  return {
    async quote(symbol: string): Promise<QuoteResponse> {
      const cached = await market.getQuote(symbol);
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
        ...freshness(cached),
      };
    },

    /** Spec §3 "Stock metrics", each defined once in core (see packages/core/src/indicators). */
    async metrics(symbol: string): Promise<MetricsResponse> {
      const [bars, intraday, sentiment] = await Promise.all([
        market.getRecentDailyBars(symbol, METRICS_HISTORY_DAYS),
        intradayOrNone(symbol),
        market.getNewsSentiment(symbol),
      ]);
      const daily = bars.value;
      return {
        symbol: daily.symbol,
        ...rangeMetrics(daily.high, daily.low),
        '14DayRSI': round(latestRsi(daily.close, 14)),
        dailyrsi: round(latestRsi(intraday.value.close, 14)),
        bullishPercent: sentiment.value.bullishPercent,
        bearishPercent: sentiment.value.bearishPercent,
        volumeProfileLevels: volumeProfileLevels(daily.high, daily.low, daily.close, daily.volume).map((level) => round(level)!),
        ...freshness(bars, intraday, sentiment),
      };
    },

    async rsi(symbol: string, from: number | undefined, to: number | undefined): Promise<RsiResponse> {
      const nowSeconds = Math.floor(clock.nowMs() / 1000);
      const [bars, intraday] = await Promise.all([
        from === undefined && to === undefined
          ? market.getRecentDailyBars(symbol, 120)
          : market.getDailyBars(symbol, from ?? (to ?? nowSeconds) - 120 * 86_400, to ?? nowSeconds + 86_400),
        intradayOrNone(symbol),
      ]);
      return {
        symbol: bars.value.symbol,
        latest_rsi: round(latestRsi(bars.value.close, 14)),
        daily_rsi: round(latestRsi(intraday.value.close, 14)),
        ...freshness(bars, intraday),
      };
    },

    async highLow(symbol: string, days: number): Promise<HighLowResponse> {
      const bars = await market.getRecentDailyBars(symbol, Math.ceil(days * 1.6) + 10);
      const daily = bars.value;
      const high = highestHigh(daily.high, days);
      const low = lowestLow(daily.low, days);
      if (!high || !low) throw new Error(`No daily bars for ${symbol}`);
      return {
        symbol: daily.symbol,
        days,
        high: high.value,
        high_date: isoOf(daily.time[high.index]!),
        low: low.value,
        low_date: isoOf(daily.time[low.index]!),
        ...freshness(bars),
      };
    },

    async supportResistance(symbol: string, resolution: 'D' | 'W' | 'M') {
      const bars = await market.getRecentDailyBars(symbol, resolution === 'D' ? 400 : 750);
      const series = resolution === 'D' ? bars.value : aggregateBars(bars.value, resolution);
      return {
        symbol: bars.value.symbol,
        resolution,
        levels: supportResistance(series.high, series.low, series.close).map((level) => round(level)!),
        ...freshness(bars),
      };
    },

    async trend(symbol: string, days: number, interval: '1day' | '1week') {
      const bars = await market.getRecentDailyBars(symbol, interval === '1week' ? days * 7 + 14 : Math.ceil(days * 1.6) + 10);
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
      };
    },

    async earnings(from: string, to: string): Promise<EarningsRow[]> {
      const cached = await market.getEarningsCalendar(from, to);
      return cached.value.map(toEarningsRow);
    },
  };
}

export type MarketService = ReturnType<typeof createMarketService>;

function round(value: number | null | undefined, decimals = 2): number | null {
  if (value === null || value === undefined || !Number.isFinite(value)) return null;
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
}
