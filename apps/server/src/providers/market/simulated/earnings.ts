/**
 * Quarterly earnings of the simulated market: each company reports about the same number of days
 * after each quarter end, at its usual time of day, with an EPS estimate and (once reported) an
 * actual. The surprise also moves the price: the reaction day gets a gap (see prices.ts).
 */
import { dayNumber, tradingDayOnOrAfter, isoFromDayNumber } from '@signalboard/core';
import type { EarningsHour } from '../types';
import { gaussian, hashString, mix, unit } from './random';
import type { UniverseEntry } from '../universe/types';

export interface SimEarnings {
  symbol: string;
  /** Report day number and ISO date. */
  day: number;
  date: string;
  hour: EarningsHour;
  /** Trading day whose price reacts: the report day (before/during market) or the next (after close). */
  reactionDay: number;
  year: number;
  quarter: number;
  epsEstimate: number;
  /** The EPS as reported (known to the simulation ahead; the API hides it until the report). */
  epsActual: number;
  revenueEstimate: number;
  revenueActual: number;
  /** (actual − estimate) / |estimate|. */
  surprise: number;
}

const SECTOR_PE: Record<string, number> = {
  'Information Technology': 32,
  'Communication Services': 22,
  'Consumer Discretionary': 26,
  'Consumer Staples': 22,
  'Health Care': 24,
  Financials: 15,
  Industrials: 22,
  Energy: 12,
  Materials: 18,
  'Real Estate': 30,
  Utilities: 18,
};

export function reportsEarnings(entry: UniverseEntry): boolean {
  return entry.exchange !== 'Crypto' && entry.sector !== undefined;
}

const releaseCache = new Map<string, SimEarnings>();
const MAX_CACHED_RELEASES = 20_000;

/** The company's release for fiscal quarter `quarter` (1–4) of `year` (memoised: news asks often). */
export function earningsFor(entry: UniverseEntry, year: number, quarter: number): SimEarnings {
  const key = `${entry.symbol}|${entry.sector ?? ''}|${entry.basePrice}|${entry.avgVolume}|${year}|${quarter}`;
  const cached = releaseCache.get(key);
  if (cached) return cached;
  const release = computeRelease(entry, year, quarter);
  if (releaseCache.size >= MAX_CACHED_RELEASES) releaseCache.clear();
  releaseCache.set(key, release);
  return release;
}

function computeRelease(entry: UniverseEntry, year: number, quarter: number): SimEarnings {
  const seed = hashString(entry.symbol);
  // Quarter end: Mar 31, Jun 30, Sep 30, Dec 31. Reports come 18–52 days later, the same each quarter.
  const quarterEnd = dayNumber(`${quarter === 4 ? year : year}-${['03-31', '06-30', '09-30', '12-31'][quarter - 1]}`);
  const lagDays = 18 + Math.floor(unit(mix(seed, 11)) * 34) + Math.floor(unit(mix(seed, year, quarter)) * 5) - 2;
  const day = tradingDayOnOrAfter(quarterEnd + lagDays);
  const timing = unit(mix(seed, 12));
  const hour: EarningsHour = timing < 0.47 ? 'bmo' : timing < 0.93 ? 'amc' : '';
  const reactionDay = hour === 'amc' ? tradingDayOnOrAfter(day + 1) : day;

  const pe = (SECTOR_PE[entry.sector ?? ''] ?? 22) * (0.7 + unit(mix(seed, 13)) * 0.7);
  const quartersSince2020 = (year - 2020) * 4 + quarter;
  const growth = Math.pow(1 + 0.015 + unit(mix(seed, 14)) * 0.02, quartersSince2020 - 20);
  const epsEstimate = round2((entry.basePrice / pe / 4) * growth);
  const surpriseSeed = mix(seed, year * 10 + quarter, 15);
  const surprise = 0.03 + gaussian(surpriseSeed) * 0.08;
  const epsActual = round2(epsEstimate + Math.abs(epsEstimate) * surprise);
  const revenuePerShare = entry.basePrice / (1.5 + unit(mix(seed, 16)) * 6) / 4;
  const shares = entry.avgVolume * (80 + unit(mix(seed, 17)) * 120);
  const revenueEstimate = Math.round(revenuePerShare * shares * growth);
  const revenueActual = Math.round(revenueEstimate * (1 + surprise * 0.3 + gaussian(mix(surpriseSeed, 3)) * 0.01));
  return {
    symbol: entry.symbol,
    day,
    date: isoFromDayNumber(day),
    hour,
    reactionDay,
    year,
    quarter,
    epsEstimate,
    epsActual,
    revenueEstimate,
    revenueActual,
    surprise: epsEstimate === 0 ? 0 : (epsActual - epsEstimate) / Math.abs(epsEstimate),
  };
}

/** Every release of the company with a report day in [fromDay, toDay]. */
export function earningsBetween(entry: UniverseEntry, fromDay: number, toDay: number): SimEarnings[] {
  if (!reportsEarnings(entry)) return [];
  const out: SimEarnings[] = [];
  const firstYear = new Date(fromDay * 86_400_000).getUTCFullYear() - 1;
  const lastYear = new Date(toDay * 86_400_000).getUTCFullYear();
  for (let year = firstYear; year <= lastYear; year += 1) {
    for (let quarter = 1; quarter <= 4; quarter += 1) {
      const release = earningsFor(entry, year, quarter);
      if (release.day >= fromDay && release.day <= toDay) out.push(release);
    }
  }
  return out;
}

const round2 = (value: number) => Math.round(value * 100) / 100;
