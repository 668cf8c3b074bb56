/**
 * Economic series of the simulated market: slow, mean-reverting paths around realistic levels,
 * published with each series' usual lag. Ids follow FRED where FRED has the series.
 */
import { DAY_MS, isoFromDayNumber } from '@signalboard/core';
import type { EconomicSeries } from '../types';
import { gaussian, hashString, mix } from './random';

interface SeriesSpec {
  id: string;
  name: string;
  unit: string;
  frequency: EconomicSeries['frequency'];
  /** Long-run level, noise per period, persistence (0–1), decimals. */
  level: number;
  noise: number;
  persistence: number;
  decimals: number;
  /** Days after the period's end the value is published. */
  lagDays: number;
  /** Index series (CPI) grow by `level` percent a year instead of hovering around it. */
  index?: { start: number };
}

export const ECONOMIC_SERIES: readonly SeriesSpec[] = [
  { id: 'CPIAUCSL', name: 'Consumer Price Index (CPI-U)', unit: 'Index 1982-1984=100', frequency: 'Monthly', level: 2.9, noise: 0.35, persistence: 0.9, decimals: 3, lagDays: 12, index: { start: 300 } },
  { id: 'UNRATE', name: 'Unemployment Rate', unit: 'Percent', frequency: 'Monthly', level: 4.2, noise: 0.08, persistence: 0.92, decimals: 1, lagDays: 5 },
  { id: 'FEDFUNDS', name: 'Federal Funds Effective Rate', unit: 'Percent', frequency: 'Monthly', level: 4.1, noise: 0.06, persistence: 0.97, decimals: 2, lagDays: 1 },
  { id: 'DGS10', name: '10-Year Treasury Constant Maturity Rate', unit: 'Percent', frequency: 'Daily', level: 4.3, noise: 0.04, persistence: 0.995, decimals: 2, lagDays: 1 },
  { id: 'A191RL1Q225SBEA', name: 'Real GDP Growth (annualised, quarterly)', unit: 'Percent', frequency: 'Quarterly', level: 2.2, noise: 0.9, persistence: 0.4, decimals: 1, lagDays: 28 },
  { id: 'ISM_PMI', name: 'ISM Manufacturing PMI', unit: 'Index', frequency: 'Monthly', level: 49.5, noise: 1.1, persistence: 0.8, decimals: 1, lagDays: 1 },
  { id: 'PAYEMS_CHG', name: 'Nonfarm Payrolls (monthly change)', unit: 'Thousands of persons', frequency: 'Monthly', level: 150, noise: 60, persistence: 0.5, decimals: 0, lagDays: 5 },
  { id: 'UMCSENT', name: 'University of Michigan Consumer Sentiment', unit: 'Index 1966:Q1=100', frequency: 'Monthly', level: 62, noise: 2.5, persistence: 0.85, decimals: 1, lagDays: 0 },
];

/** Period start days of a frequency, from `fromDay` on, ending at `toDay`. */
function periods(frequency: SeriesSpec['frequency'], fromDay: number, toDay: number): number[] {
  const out: number[] = [];
  if (frequency === 'Daily') {
    for (let day = fromDay; day <= toDay; day += 1) {
      const weekday = new Date(day * DAY_MS).getUTCDay();
      if (weekday !== 0 && weekday !== 6) out.push(day);
    }
    return out;
  }
  const months = frequency === 'Monthly' ? 1 : 3;
  const start = new Date(fromDay * DAY_MS);
  let year = start.getUTCFullYear();
  let month = Math.floor(start.getUTCMonth() / months) * months;
  for (;;) {
    const day = Date.UTC(year, month, 1) / DAY_MS;
    if (day > toDay) return out;
    out.push(day);
    month += months;
    if (month >= 12) {
      month -= 12;
      year += 1;
    }
  }
}

/** The series as published by `nowDay`: newest first, at most `limit` observations. */
export function economicSeries(id: string, nowDay: number, limit = 36): EconomicSeries | undefined {
  const spec = ECONOMIC_SERIES.find((series) => series.id === id);
  if (!spec) return undefined;
  const seed = hashString(`economy|${spec.id}`);
  const origin = Date.UTC(2022, 0, 1) / DAY_MS;
  const all = periods(spec.frequency, origin, nowDay);
  const periodLength = spec.frequency === 'Daily' ? 1 : spec.frequency === 'Monthly' ? 31 : 92;
  let deviation = 0;
  let indexValue = spec.index?.start ?? 0;
  const observations: Array<{ date: string; value: number }> = [];
  const factor = 10 ** spec.decimals;
  for (const day of all) {
    deviation = deviation * spec.persistence + gaussian(mix(seed, day)) * spec.noise;
    let value: number;
    if (spec.index) {
      const annual = spec.level + deviation;
      indexValue *= 1 + annual / 100 / 12;
      value = indexValue;
    } else {
      value = spec.level + deviation;
    }
    const published = day + periodLength + spec.lagDays - (spec.frequency === 'Daily' ? periodLength : 0);
    if (published <= nowDay) observations.push({ date: isoFromDayNumber(day), value: Math.round(value * factor) / factor });
  }
  return {
    id: spec.id,
    name: spec.name,
    unit: spec.unit,
    frequency: spec.frequency,
    observations: observations.reverse().slice(0, limit),
  };
}
