/**
 * Daily prices of the simulated market. A stock's log price is its trend line (its base price,
 * growing at its drift) plus a common part and its own part. Each session the common part takes the
 * market and sector standard normal draws, weighted by the stock's profile (profiles.ts) and scaled
 * by its daily volatility; the own part takes its own draw and its events: capitulations and
 * momentum rallies (episodes.ts), rare one-day crashes and jumps, and earnings-day gaps sized by the
 * EPS surprise. Market and sector selloffs and rallies shift the common draws. Both parts are pulled
 * back towards the trend, which keeps levels realistic and lets a stock recover after a selloff.
 * Every term is a pure function of (symbol, day): history never changes, whichever process asks.
 * Intraday prices are in intraday.ts.
 */
import { dayNumber, isTradingDayNumber } from '@signalboard/core';
import type { UniverseEntry } from '../universe/types';
import { earningsBetween } from './earnings';
import { companyEpisodeDirection, companyEpisodeMove, episodeAt, factorShift, schedulesOf } from './episodes';
import { isCrypto, priceModel } from './profiles';
import { gaussian, hashString, mix, unit } from './random';

export { isCrypto } from './profiles';

/** First simulated trading day: history runs from here to "now". */
export const HISTORY_START_DAY = dayNumber('2023-01-03');
/** The day the universe's base prices describe: each trend line passes through it. */
export const BASE_PRICE_DAY = dayNumber('2025-10-01');

const MARKET_SEED = hashString('signalboard-market');
const CRYPTO_SEED = hashString('signalboard-crypto');

/**
 * Share of the company's own deviation from its trend line closed each session (half-life about
 * 23 sessions): a stock stays within a realistic band around its trend and recovers after a
 * selloff, while a month's moves still look like a random walk.
 */
const PULL_PER_SESSION = 0.03;
/**
 * The same for the market and sector part of the price, faster (half-life about 6 sessions): index
 * and sector moves fade within weeks, so the whole market is rarely far below its highs and the
 * scanners' hit rates stay steady from day to day.
 */
const COMMON_PULL_PER_SESSION = 0.12;
/** During its own episode a stock grinds one way: this share of its usual own noise. */
const EPISODE_NOISE_SHARE = 0.5;
/** Wicks beyond the open and close, in daily sigmas: episode days trade from one end of the range to the other. */
const WICK_SIGMAS = 0.45;
const EPISODE_WICK_SIGMAS = 0.15;
const NO_EPISODE_MOVE = { intraday: 0, gap: 0 };

export interface DailySeries {
  /** Day numbers (days since 1970-01-01) of each bar, ascending. */
  days: Int32Array;
  open: Float64Array;
  high: Float64Array;
  low: Float64Array;
  close: Float64Array;
  volume: Float64Array;
}

/** Trading days of the asset: exchange days for stocks and ETFs, every day for crypto. */
export function isSessionDay(entry: UniverseEntry, day: number): boolean {
  return isCrypto(entry) || isTradingDayNumber(day);
}

/** Rounds a price the way its market quotes it. */
export function roundPrice(value: number): number {
  if (value >= 1) return Math.round(value * 100) / 100;
  const digits = Math.max(2, 3 - Math.floor(Math.log10(value)));
  return Number(value.toPrecision(Math.min(digits, 8)));
}

/**
 * Series are generated once per symbol through the latest day asked (and a week beyond, so a clock
 * moving through the next days reuses them) and answered as prefixes: history never changes, so a
 * process asking about many days, or many symbols on one day, generates each symbol once.
 * Callers must not write into the arrays.
 */
const seriesCache = new Map<string, { throughDay: number; series: DailySeries }>();
const GENERATE_AHEAD_DAYS = 7;
const MAX_CACHED_SERIES = 1000;

/** Daily bars of `entry` from HISTORY_START_DAY through `lastDay` (inclusive, session days only). */
export function dailySeries(entry: UniverseEntry, lastDay: number): DailySeries {
  // Keyed by everything the series depends on: tests build universes of their own.
  const key = `${entry.symbol}|${entry.exchange}|${entry.sector ?? ''}|${entry.basePrice}|${entry.avgVolume}|${entry.volatility}`;
  let cached = seriesCache.get(key);
  if (!cached || cached.throughDay < lastDay) {
    cached = { throughDay: lastDay + GENERATE_AHEAD_DAYS, series: generate(entry, lastDay + GENERATE_AHEAD_DAYS) };
    if (seriesCache.size >= MAX_CACHED_SERIES) seriesCache.delete(seriesCache.keys().next().value!);
    seriesCache.set(key, cached);
  }
  return prefix(cached.series, lastDay);
}

/** The bars of `series` through `lastDay` (views, no copies). */
function prefix(series: DailySeries, lastDay: number): DailySeries {
  let n = series.days.length;
  while (n > 0 && series.days[n - 1]! > lastDay) n -= 1;
  if (n === series.days.length) return series;
  return {
    days: series.days.subarray(0, n),
    open: series.open.subarray(0, n),
    high: series.high.subarray(0, n),
    low: series.low.subarray(0, n),
    close: series.close.subarray(0, n),
    volume: series.volume.subarray(0, n),
  };
}

function generate(entry: UniverseEntry, lastDay: number): DailySeries {
  const model = priceModel(entry);
  const schedules = schedulesOf(model);
  const { seed, sigmaDaily: sigma } = model;
  const marketSeed = model.crypto ? CRYPTO_SEED : MARKET_SEED;
  const trendAt = (day: number) => Math.log(entry.basePrice) + (model.driftPerYear * (day - BASE_PRICE_DAY)) / 365.25;
  /** Standard deviation of the own part around the trend without events (its stationary spread). */
  const band = sigma * Math.sqrt(1 / (2 * PULL_PER_SESSION));

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
  // The log price is the trend line plus a common part (market and sector draws) and the company's
  // own part, each pulled back towards zero, the common part faster. It starts somewhere in the
  // band, not on the trend line.
  let common = 0;
  let own = 0.5 * gaussian(mix(seed, 23)) * band;
  let logClose = trendAt(HISTORY_START_DAY) + own;
  let episodeDirection: -1 | 1 | 0 = 0;
  let n = 0;
  for (let day = HISTORY_START_DAY; day <= lastDay; day += 1) {
    if (!isSessionDay(entry, day)) continue;
    const marketEpisode = episodeAt(marketSeed, n, schedules.market);
    const sectorEpisode = schedules.sector && episodeAt(model.sectorSeed, n, schedules.sector, schedules.sectorOffset);
    const companyEpisode = schedules.company && episodeAt(seed, n, schedules.company, schedules.companyOffset);
    const market = gaussian(mix(marketSeed, day)) + factorShift(marketEpisode, 'market');
    const sector = gaussian(mix(model.sectorSeed, day)) + factorShift(sectorEpisode, 'sector');
    const commonZ = model.marketWeight * market + model.sectorWeight * sector;
    const ownZ = model.ownWeight * gaussian(mix(seed, day, 3)) * (companyEpisode ? EPISODE_NOISE_SHARE : 1);
    const z = commonZ + ownZ;
    if (companyEpisode && (companyEpisode.step === 0 || episodeDirection === 0)) episodeDirection = companyEpisodeDirection(companyEpisode, own / band);
    const episode = companyEpisode ? companyEpisodeMove(companyEpisode, episodeDirection || -1, sigma) : NO_EPISODE_MOVE;
    // Overnight events: the episode's news gap, crashes, jumps and earnings reactions.
    let event = episode.gap;
    const shock = unit(mix(seed, day, 31));
    if (shock < model.crashChance) event -= 0.07 + unit(mix(seed, day, 32)) * 0.13;
    else if (shock > 1 - model.jumpChance) event += 0.05 + unit(mix(seed, day, 33)) * 0.1;
    const surprise = reactions.get(day);
    if (surprise !== undefined) {
      const size = 0.02 + Math.min(Math.abs(surprise), 0.3) * 0.4 + Math.abs(gaussian(mix(seed, day, 34))) * 0.015;
      event += Math.max(-0.18, Math.min(0.18, Math.sign(surprise || 1) * size));
    }
    common += sigma * commonZ - COMMON_PULL_PER_SESSION * common;
    // The episode's drift trades during the session (open to close).
    own += sigma * ownZ + episode.intraday + event - PULL_PER_SESSION * own;
    const previous = Math.exp(logClose);
    const overnight = event + 0.25 * sigma * z + 0.2 * sigma * gaussian(mix(seed, day, 4));
    logClose = trendAt(day) + common + own;
    const o = previous * Math.exp(overnight);
    const c = Math.exp(logClose);
    const wick = sigma * (companyEpisode ? EPISODE_WICK_SIGMAS : WICK_SIGMAS);
    const h = Math.max(o, c) * Math.exp(Math.abs(gaussian(mix(seed, day, 5))) * wick);
    const l = Math.min(o, c) * Math.exp(-Math.abs(gaussian(mix(seed, day, 6))) * wick);
    // Volume rises with the size of the move and spikes on news, episodes (building to a climax)
    // and the odd block trade.
    const blockTrade = unit(mix(seed, day, 8)) < 0.015 ? 1.5 + unit(mix(seed, day, 9)) * 2 : 0;
    const episodeVolume = companyEpisode ? 0.6 + (1.5 * companyEpisode.step) / companyEpisode.length : 0;
    const intensity = 1 + 0.6 * Math.abs(z) + (event !== 0 ? 2 + Math.abs(event) * 20 : 0) + episodeVolume + (marketEpisode || sectorEpisode ? 0.3 : 0) + blockTrade;
    days[n] = day;
    open[n] = roundPrice(o);
    close[n] = roundPrice(c);
    high[n] = Math.max(roundPrice(h), open[n]!, close[n]!);
    low[n] = Math.min(roundPrice(l), open[n]!, close[n]!);
    volume[n] = Math.round(entry.avgVolume * Math.exp(0.22 * gaussian(mix(seed, day, 7))) * intensity * 0.7);
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
