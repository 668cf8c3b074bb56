/**
 * Intraday prices of the simulated market. During a session the price follows a Brownian bridge
 * from the day's open to its close that touches exactly the day's high and low, so the quote, the
 * day's running bar and the five-minute bars all agree with the daily bars.
 */
import { DAY_MS, MIN_INTRADAY_BARS, newYorkInstantMs, SESSION_OPEN_MINUTES } from '@signalboard/core';
import type { Bars } from '../types';
import type { UniverseEntry } from '../universe/types';
import { isCrypto, roundPrice, type DailySeries } from './prices';
import { gaussian, hashString, mix } from './random';

/** Path steps of a session: US one-minute steps over 09:30–16:00; crypto five-minute steps over the UTC day. */
export const US_STEPS = 390;
export const CRYPTO_STEPS = 288;
export const stepsOf = (entry: UniverseEntry) => (isCrypto(entry) ? CRYPTO_STEPS : US_STEPS);
// RSI(14) needs 15 closes: with fewer bars in the running session, the one before comes first
// (MIN_INTRADAY_BARS, core/market/intraday-window.ts).

type OhlcBar = { open: number; high: number; low: number; close: number };

/** Share of a session's volume traded by fraction `x` (0–1) of it: a U-shaped day. */
export function cumulativeVolumeShare(x: number): number {
  const t = Math.min(1, Math.max(0, x));
  return (t + ((2 * t - 1) ** 3 + 1) / 2) / 2;
}

/** Paths built, by symbol, day and bar (callers must not write into them). */
const pathCache = new Map<string, Float64Array>();
const MAX_CACHED_PATHS = 2000;

/**
 * The day's price path, one point per step (US: 390 one-minute steps; crypto: 288 five-minute
 * steps), from open to close, touching the day's high and low exactly.
 */
export function intradayPath(entry: UniverseEntry, day: number, bar: OhlcBar, steps: number): Float64Array {
  // The quote, the running daily bar and the five-minute bars all read the same path: build it once.
  const key = `${entry.symbol}|${day}|${bar.open}|${bar.high}|${bar.low}|${bar.close}|${steps}`;
  const cached = pathCache.get(key);
  if (cached) return cached;
  const path = buildPath(entry, day, bar, steps);
  if (pathCache.size >= MAX_CACHED_PATHS) pathCache.delete(pathCache.keys().next().value!);
  pathCache.set(key, path);
  return path;
}

function buildPath(entry: UniverseEntry, day: number, bar: OhlcBar, steps: number): Float64Array {
  const seed = mix(hashString(entry.symbol), day, 41);
  const walk = new Float64Array(steps + 1);
  for (let i = 1; i <= steps; i += 1) walk[i] = walk[i - 1]! + gaussian(mix(seed, i));
  const path = new Float64Array(steps + 1);
  // A trend day (opening near one extreme, closing near the other, as in a selloff or a rally)
  // trades like a staircase: little noise around the open-to-close line. Other days wander.
  const range = bar.high - bar.low;
  const trend = range > 0 ? Math.abs(bar.close - bar.open) / range : 0;
  const scale = (range / Math.sqrt(steps)) * 0.55 * (1 - 0.75 * trend * trend);
  let maxAt = 0;
  let minAt = 0;
  for (let i = 0; i <= steps; i += 1) {
    const bridge = walk[i]! - (i / steps) * walk[steps]!;
    const value = bar.open + ((bar.close - bar.open) * i) / steps + bridge * scale;
    path[i] = Math.min(bar.high, Math.max(bar.low, value));
    if (path[i]! > path[maxAt]!) maxAt = i;
    if (path[i]! < path[minAt]!) minAt = i;
  }
  path[0] = bar.open;
  path[steps] = bar.close;
  // Touch the extremes inside the session unless the open or close already is one.
  if (bar.high > Math.max(bar.open, bar.close)) path[maxAt === 0 || maxAt === steps ? Math.floor(steps / 3) : maxAt] = bar.high;
  if (bar.low < Math.min(bar.open, bar.close)) path[minAt === 0 || minAt === steps ? Math.floor((2 * steps) / 3) : minAt] = bar.low;
  for (let i = 0; i <= steps; i += 1) path[i] = roundPrice(path[i]!);
  return path;
}

const barAt = (series: DailySeries, index: number): OhlcBar => ({ open: series.open[index]!, high: series.high[index]!, low: series.low[index]!, close: series.close[index]! });

/**
 * The last bar of `series` as it stands `progress` (0–1) into its session: high and low so far,
 * the price now as close, and the volume traded so far.
 */
export function runningBar(entry: UniverseEntry, series: DailySeries, progress: number): { high: number; low: number; close: number; volume: number } {
  const last = series.days.length - 1;
  const steps = stepsOf(entry);
  const path = intradayPath(entry, series.days[last]!, barAt(series, last), steps);
  const upTo = Math.max(0, Math.min(steps, Math.floor(progress * steps)));
  let high = path[0]!;
  let low = path[0]!;
  for (let i = 1; i <= upTo; i += 1) {
    high = Math.max(high, path[i]!);
    low = Math.min(low, path[i]!);
  }
  return { high, low, close: path[upTo]!, volume: Math.round(series.volume[last]! * cumulativeVolumeShare(upTo / steps)) };
}

/** Five-minute bars of the session at `index` of `series`, through path step `upTo`. */
function sessionBars(entry: UniverseEntry, series: DailySeries, index: number, upTo: number): Bars {
  const crypto = isCrypto(entry);
  const steps = stepsOf(entry);
  const day = series.days[index]!;
  const stepsPerBar = crypto ? 1 : 5;
  const stepMinutes = crypto ? 5 : 1;
  const path = intradayPath(entry, day, barAt(series, index), steps);
  const count = Math.floor(Math.min(steps, upTo) / stepsPerBar);
  const openMs = crypto ? day * DAY_MS : newYorkInstantMs(day, SESSION_OPEN_MINUTES);
  const bars = emptyBars(entry.symbol, count);
  for (let k = 0; k < count; k += 1) {
    const a = k * stepsPerBar;
    const b = a + stepsPerBar;
    let high = path[a]!;
    let low = path[a]!;
    for (let i = a; i <= b; i += 1) {
      high = Math.max(high, path[i]!);
      low = Math.min(low, path[i]!);
    }
    bars.time[k] = Math.floor((openMs + a * stepMinutes * 60_000) / 1000);
    bars.open[k] = path[a]!;
    bars.close[k] = path[b]!;
    bars.high[k] = high;
    bars.low[k] = low;
    bars.volume[k] = Math.round(series.volume[index]! * (cumulativeVolumeShare(b / steps) - cumulativeVolumeShare(a / steps)));
  }
  return bars;
}

/**
 * Intraday bars as `getIntradayBars` answers them: the last session's five-minute bars through
 * `progress` (1 once it has closed). While the running session has fewer than MIN_INTRADAY_BARS
 * bars, the previous session's bars come first.
 */
export function intradayBars(entry: UniverseEntry, series: DailySeries, lastDay: number, progress: number): Bars {
  const last = series.days.length - 1;
  if (last < 0 || series.days[last] !== lastDay) return emptyBars(entry.symbol, 0);
  const today = sessionBars(entry, series, last, Math.floor(Math.min(1, progress) * stepsOf(entry)));
  if (today.time.length >= MIN_INTRADAY_BARS || last === 0) return today;
  return concatBars(sessionBars(entry, series, last - 1, stepsOf(entry)), today);
}

function emptyBars(symbol: string, count: number): Bars {
  return { symbol, time: new Float64Array(count), open: new Float64Array(count), high: new Float64Array(count), low: new Float64Array(count), close: new Float64Array(count), volume: new Float64Array(count) };
}

function concatBars(first: Bars, second: Bars): Bars {
  const join = (a: Float64Array, b: Float64Array) => {
    const out = new Float64Array(a.length + b.length);
    out.set(a);
    out.set(b, a.length);
    return out;
  };
  return {
    symbol: first.symbol,
    time: join(first.time, second.time),
    open: join(first.open, second.open),
    high: join(first.high, second.high),
    low: join(first.low, second.low),
    close: join(first.close, second.close),
    volume: join(first.volume, second.volume),
  };
}
