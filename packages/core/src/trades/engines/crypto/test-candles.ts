/**
 * Candle builders for the crypto tests and bench (not exported; not used by production code):
 * hand-made candles on consecutive UTC days, and a seeded random-walk universe of coins.
 */
import { dayNumber } from '../../../market/trading-calendar';
import { seededRandom, type Bar } from '../../kit/test-bars';
import type { DailySeries } from '../../types';

/** A coin's candles on consecutive UTC days from `start`. Volume defaults to 1,000,000. */
export function candlesOf(symbol: string, bars: readonly Bar[], start = '2024-01-01'): DailySeries {
  const first = dayNumber(start);
  return {
    symbol,
    market: 'CRYPTO',
    day: Int32Array.from(bars, (_, i) => first + i),
    open: Float64Array.from(bars, (bar) => bar.o),
    high: Float64Array.from(bars, (bar) => bar.h),
    low: Float64Array.from(bars, (bar) => bar.l),
    close: Float64Array.from(bars, (bar) => bar.c),
    volume: Float64Array.from(bars, (bar) => bar.v ?? 1_000_000),
  };
}

/** Candles from closes alone: open = previous close, High/Low = max/min(open, close) ± `spread` × close. */
export function candlesFromCloses(symbol: string, closes: readonly number[], start = '2024-01-01', spread = 0.01, volumes?: readonly number[]): DailySeries {
  const bars: Bar[] = closes.map((c, i) => {
    const o = i === 0 ? c : closes[i - 1]!;
    return { o, h: Math.max(o, c) * (1 + spread), l: Math.min(o, c) * (1 - spread), c, v: volumes?.[i] ?? 1_000_000 };
  });
  return candlesOf(symbol, bars, start);
}

/** Ticker names of the random universe: the six always-included coins first, then C006, C007, … */
export function coinSymbol(index: number): string {
  return ['BTC', 'ETH', 'XRP', 'SOL', 'ADA', 'DOGE'][index] ?? `C${String(index).padStart(3, '0')}`;
}

/**
 * A seeded universe of `coins` random walks over `candles` consecutive UTC days from `start`: per-coin drift and volatility of crypto size (40 % … 120 % a year),
 * regime switches so that trends and their reversals occur, fat-tailed days, volume spikes; prices
 * from 0.0001 to 60,000. With `staggered`, every fifth coin after BTC starts up to 80 % of the
 * candles late (a new listing, so some coins warm up during a replay).
 */
export function randomCryptoUniverse(seed: number, coins: number, candles: number, start = '2024-01-01', staggered = false): Map<string, DailySeries> {
  const next = seededRandom(seed);
  const normal = () => Math.sqrt(-2 * Math.log(Math.max(next(), 1e-12))) * Math.cos(2 * Math.PI * next());
  const first = dayNumber(start);
  const out = new Map<string, DailySeries>();
  for (let s = 0; s < coins; s += 1) {
    const symbol = coinSymbol(s);
    const skip = staggered && s > 0 && s % 5 === 0 ? Math.floor(candles * 0.8 * next()) : 0;
    const n = candles - skip;
    const vol = (0.4 + 0.8 * next()) / Math.sqrt(365);
    let drift = (next() - 0.5) * 0.01;
    let price = 10 ** (-4 + 8.8 * next());
    const baseVolume = 1e6 * (1 + 20 * next());
    const series: DailySeries = {
      symbol,
      market: 'CRYPTO',
      day: Int32Array.from({ length: n }, (_, i) => first + skip + i),
      open: new Float64Array(n),
      high: new Float64Array(n),
      low: new Float64Array(n),
      close: new Float64Array(n),
      volume: new Float64Array(n),
    };
    for (let i = 0; i < n; i += 1) {
      if (next() < 0.02) drift = (next() - 0.5) * 0.012;
      const o = price;
      const shock = next() < 0.03 ? 3 : 1;
      const c = Math.max(1e-6, o * Math.exp(drift + shock * vol * normal()));
      series.open[i] = o;
      series.close[i] = c;
      series.high[i] = Math.max(o, c) * (1 + Math.abs(0.5 * vol * normal()));
      series.low[i] = Math.min(o, c) * (1 - Math.min(0.9, Math.abs(0.5 * vol * normal())));
      series.volume[i] = Math.round(baseVolume * (0.5 + next()) * (next() < 0.05 ? 3 : 1));
      price = c;
    }
    out.set(symbol, series);
  }
  return out;
}
