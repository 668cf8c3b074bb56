/**
 * Bar series builders for the engine tests (not exported; not used by production code): crafted
 * bars on consecutive US trading days, and a seeded random-walk universe.
 */
import { dayNumber, isoFromDayNumber, isTradingDayNumber } from '../../market/trading-calendar';
import type { DailySeries, InstrumentMarket } from '../types';

export interface Bar {
  o: number;
  h: number;
  l: number;
  c: number;
  v?: number;
}

/** `count` consecutive US trading days from `start` (inclusive, or the next trading day). */
export function tradingDays(start: string, count: number): string[] {
  const out: string[] = [];
  for (let day = dayNumber(start); out.length < count; day += 1) if (isTradingDayNumber(day)) out.push(isoFromDayNumber(day));
  return out;
}

/** A series of `bars` dated on consecutive trading days from `start`. Volume defaults to 1,000,000. */
export function seriesOf(symbol: string, bars: readonly Bar[], start = '2023-01-03', market: InstrumentMarket = 'US'): DailySeries {
  const days = tradingDays(start, bars.length);
  return {
    symbol,
    market,
    day: Int32Array.from(days, (date) => dayNumber(date)),
    open: Float64Array.from(bars, (bar) => bar.o),
    high: Float64Array.from(bars, (bar) => bar.h),
    low: Float64Array.from(bars, (bar) => bar.l),
    close: Float64Array.from(bars, (bar) => bar.c),
    volume: Float64Array.from(bars, (bar) => bar.v ?? 1_000_000),
  };
}

/** `count` flat bars: open = close = `price`, High/Low ± `halfRange`. */
export function flatBars(count: number, price = 100, halfRange = 0.5, volume = 1_000_000): Bar[] {
  return Array.from({ length: count }, () => ({ o: price, h: price + halfRange, l: price - halfRange, c: price, v: volume }));
}

/** `count` bars rising by `step` a day from `from`: open = previous close, High/Low ± `halfRange`. */
export function risingBars(count: number, from: number, step: number, halfRange = 0.5, volume = 1_000_000): Bar[] {
  return Array.from({ length: count }, (_, i) => {
    const c = from + step * i;
    return { o: i === 0 ? c : c - step, h: c + halfRange, l: c - halfRange, c, v: volume };
  });
}

/** A copy of the series truncated to its first `length` bars, in fresh buffers. */
export function truncatedCopy(series: DailySeries, length: number): DailySeries {
  return {
    symbol: series.symbol,
    market: series.market,
    day: series.day.slice(0, length),
    open: series.open.slice(0, length),
    high: series.high.slice(0, length),
    low: series.low.slice(0, length),
    close: series.close.slice(0, length),
    volume: series.volume.slice(0, length),
  };
}

/** mulberry32: a small seeded PRNG. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * A seeded universe of `symbols` random walks over `bars` trading days from `start`: per-symbol
 * drift (−10 % … +40 % a year) and volatility (15 % … 60 % a year), gaps, fat-tailed days, and
 * volume with occasional spikes; liquid enough for the swing universe (close × volume ≫ $50M).
 */
export function randomUniverse(seed: number, symbols: number, bars: number, start = '2023-01-03'): Map<string, DailySeries> {
  const next = seededRandom(seed);
  const normal = () => {
    const u = Math.max(next(), 1e-12);
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * next());
  };
  const days = Int32Array.from(tradingDays(start, bars), (date) => dayNumber(date));
  const out = new Map<string, DailySeries>();
  for (let s = 0; s < symbols; s += 1) {
    const symbol = `S${String(s).padStart(3, '0')}`;
    const drift = (-0.1 + 0.5 * next()) / 252;
    const vol = (0.15 + 0.45 * next()) / Math.sqrt(252);
    const open = new Float64Array(bars);
    const high = new Float64Array(bars);
    const low = new Float64Array(bars);
    const close = new Float64Array(bars);
    const volume = new Float64Array(bars);
    let price = 20 + 280 * next();
    const baseVolume = 1e6 * (1 + 4 * next());
    for (let i = 0; i < bars; i += 1) {
      const gap = price * (1 + 0.3 * vol * normal());
      const shock = next() < 0.02 ? 3 : 1;
      const c = Math.max(1, gap * (1 + drift + shock * vol * normal()));
      open[i] = Math.round(gap * 100) / 100;
      close[i] = Math.round(c * 100) / 100;
      high[i] = Math.round(Math.max(open[i]!, close[i]!) * (1 + Math.abs(0.5 * vol * normal())) * 100) / 100;
      low[i] = Math.round(Math.min(open[i]!, close[i]!) * (1 - Math.abs(0.5 * vol * normal())) * 100) / 100;
      volume[i] = Math.round(baseVolume * (0.6 + 0.8 * next()) * (next() < 0.03 ? 2.5 : 1));
      price = c;
    }
    out.set(symbol, { symbol, market: 'US', day: days.slice(), open, high, low, close, volume });
  }
  return out;
}
