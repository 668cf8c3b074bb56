/**
 * Prices of the simulated market. Daily log returns combine a market factor, a sector factor and
 * the company's own noise (scaled by its volatility and beta), week-long market and sector
 * selloffs and rallies, rare single-stock crashes and jumps, earnings-day gaps sized by the EPS
 * surprise, and a slow pull back towards the company's base price so levels stay realistic. Every
 * term is a pure function of (symbol, day): history never changes, whichever process asks.
 * Intraday, the price follows a Brownian bridge from the day's open to its close that touches
 * exactly the day's high and low.
 */
import { dayNumber, isTradingDayNumber } from '@signalboard/core';
import type { UniverseEntry } from '../universe/types';
import { earningsBetween } from './earnings';
import { gaussian, hashString, mix, unit } from './random';

/** First simulated trading day: history runs from here to "now". */
export const HISTORY_START_DAY = dayNumber('2023-01-03');

const MARKET_SEED = hashString('signalboard-market');
const CRYPTO_SEED = hashString('signalboard-crypto');

export interface DailySeries {
  /** Day numbers (days since 1970-01-01) of each bar, ascending. */
  days: Int32Array;
  open: Float64Array;
  high: Float64Array;
  low: Float64Array;
  close: Float64Array;
  volume: Float64Array;
}

export const isCrypto = (entry: UniverseEntry) => entry.exchange === 'Crypto';

/** Trading days of the asset: exchange days for stocks and ETFs, every day for crypto. */
export function isSessionDay(entry: UniverseEntry, day: number): boolean {
  return isCrypto(entry) || isTradingDayNumber(day);
}

/** Regime of a week for a group: −1 selloff, +1 rally, 0 normal. */
function regime(seed: number, day: number, selloffChance: number, rallyChance: number): number {
  const week = Math.floor((day + 3) / 7);
  const u = unit(mix(seed, week, 97));
  if (u < selloffChance) return -1;
  if (u > 1 - rallyChance) return 1;
  return 0;
}

function marketFactor(crypto: boolean, day: number): number {
  const seed = crypto ? CRYPTO_SEED : MARKET_SEED;
  return gaussian(mix(seed, day)) + regime(seed, day, 0.05, 0.05) * (crypto ? 1.1 : 0.9);
}

function sectorFactor(sectorSeed: number, day: number): number {
  return gaussian(mix(sectorSeed, day)) + regime(sectorSeed, day, 0.06, 0.06) * 1.0;
}

/** Rounds a price the way its market quotes it. */
export function roundPrice(value: number): number {
  if (value >= 1) return Math.round(value * 100) / 100;
  const digits = Math.max(2, 3 - Math.floor(Math.log10(value)));
  return Number(value.toPrecision(Math.min(digits, 8)));
}

const seriesCache = new Map<string, DailySeries>();

/** Daily bars of `entry` from HISTORY_START_DAY through `lastDay` (inclusive, session days only). */
export function dailySeries(entry: UniverseEntry, lastDay: number): DailySeries {
  const key = `${entry.symbol}|${lastDay}`;
  const cached = seriesCache.get(key);
  if (cached) return cached;
  const series = generate(entry, lastDay);
  if (seriesCache.size > 4000) seriesCache.delete(seriesCache.keys().next().value!);
  seriesCache.set(key, series);
  return series;
}

function generate(entry: UniverseEntry, lastDay: number): DailySeries {
  const crypto = isCrypto(entry);
  const seed = hashString(entry.symbol);
  const sectorSeed = hashString(`sector|${entry.sector ?? (crypto ? 'crypto' : entry.symbol)}`);
  const periods = crypto ? 365 : 252;
  const sigma = entry.volatility / Math.sqrt(periods);
  const beta = crypto ? 0.8 + unit(mix(seed, 21)) * 0.5 : 0.6 + unit(mix(seed, 21)) * 0.9;
  const driftPerDay = (crypto ? 0.15 : 0.07) / periods;
  const logBase = Math.log(entry.basePrice);

  const reactions = new Map<number, number>();
  for (const release of earningsBetween(entry, HISTORY_START_DAY - 10, lastDay + 10)) {
    reactions.set(release.reactionDay, release.surprise);
  }

  const capacity = Math.max(0, lastDay - HISTORY_START_DAY + 1);
  const days = new Int32Array(capacity);
  const open = new Float64Array(capacity);
  const high = new Float64Array(capacity);
  const low = new Float64Array(capacity);
  const close = new Float64Array(capacity);
  const volume = new Float64Array(capacity);
  let n = 0;
  let logClose = logBase;
  for (let day = HISTORY_START_DAY; day <= lastDay; day += 1) {
    if (!isSessionDay(entry, day)) continue;
    const z = (0.5 * beta * marketFactor(crypto, day) + 0.4 * sectorFactor(sectorSeed, day) + 0.77 * gaussian(mix(seed, day, 3))) / 1.05;
    const target = logBase + driftPerDay * (day - HISTORY_START_DAY) * (periods / 365);
    const pull = -0.006 * (logClose - target);
    let event = 0;
    const shock = unit(mix(seed, day, 31));
    if (shock < 0.0025) event -= 0.07 + unit(mix(seed, day, 32)) * 0.13;
    else if (shock > 0.998) event += 0.05 + unit(mix(seed, day, 33)) * 0.1;
    const surprise = reactions.get(day);
    if (surprise !== undefined) {
      const size = 0.02 + Math.min(Math.abs(surprise), 0.3) * 0.4 + Math.abs(gaussian(mix(seed, day, 34))) * 0.015;
      event += Math.max(-0.18, Math.min(0.18, Math.sign(surprise || 1) * size));
    }
    const move = driftPerDay + pull + sigma * z;
    const previous = Math.exp(logClose);
    const overnight = event + 0.25 * sigma * z + 0.2 * sigma * gaussian(mix(seed, day, 4));
    logClose += move + event;
    const o = previous * Math.exp(overnight);
    const c = Math.exp(logClose);
    const h = Math.max(o, c) * Math.exp(Math.abs(gaussian(mix(seed, day, 5))) * sigma * 0.45);
    const l = Math.min(o, c) * Math.exp(-Math.abs(gaussian(mix(seed, day, 6))) * sigma * 0.45);
    const intensity = 1 + 0.6 * Math.abs(z) + (event !== 0 ? 2 + Math.abs(event) * 20 : 0);
    days[n] = day;
    open[n] = roundPrice(o);
    close[n] = roundPrice(c);
    high[n] = Math.max(roundPrice(h), open[n]!, close[n]!);
    low[n] = Math.min(roundPrice(l), open[n]!, close[n]!);
    volume[n] = Math.round(entry.avgVolume * Math.exp(0.22 * gaussian(mix(seed, day, 7))) * intensity * 0.8);
    n += 1;
  }
  return {
    days: days.slice(0, n),
    open: open.slice(0, n),
    high: high.slice(0, n),
    low: low.slice(0, n),
    close: close.slice(0, n),
    volume: volume.slice(0, n),
  };
}

/** Share of a session's volume traded by fraction `x` (0–1) of it: a U-shaped day. */
export function cumulativeVolumeShare(x: number): number {
  const t = Math.min(1, Math.max(0, x));
  return (t + ((2 * t - 1) ** 3 + 1) / 2) / 2;
}

/**
 * The day's price path, one point per step (US: 390 one-minute steps; crypto: 288 five-minute
 * steps), from open to close, touching the day's high and low exactly.
 */
export function intradayPath(entry: UniverseEntry, day: number, bar: { open: number; high: number; low: number; close: number }, steps: number): Float64Array {
  const seed = mix(hashString(entry.symbol), day, 41);
  const walk = new Float64Array(steps + 1);
  for (let i = 1; i <= steps; i += 1) walk[i] = walk[i - 1]! + gaussian(mix(seed, i));
  const path = new Float64Array(steps + 1);
  const scale = ((bar.high - bar.low) / Math.sqrt(steps)) * 0.55;
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
