import type { EarningsRow } from '../contract/market';

/** Release time as providers code it: before open, after close, during market hours, unknown. */
export type EarningsHourCode = 'bmo' | 'amc' | 'dmh' | '';

/** Spec §3: the earnings row's `time` wording for a provider's hour code. */
export function earningsTimeOf(hour: EarningsHourCode): EarningsRow['time'] {
  if (hour === 'bmo') return 'Pre Market';
  if (hour === 'amc') return 'After Hours';
  return 'Time Not Supplied';
}

/** difference = actual − estimate; surprise % = difference / |estimate| × 100, both to 2 decimals. */
export function earningsSurprise(epsActual: number | null, epsEstimate: number | null): { difference: number | null; surprisePercent: number | null } {
  if (epsActual === null || epsEstimate === null) return { difference: null, surprisePercent: null };
  const difference = Math.round((epsActual - epsEstimate) * 100) / 100;
  const surprisePercent = epsEstimate === 0 ? null : Math.round(((epsActual - epsEstimate) / Math.abs(epsEstimate)) * 10_000) / 100;
  return { difference, surprisePercent };
}

export function toEarningsRow(event: {
  symbol: string;
  date: string;
  hour: EarningsHourCode;
  epsActual: number | null;
  epsEstimate: number | null;
  exchange: string;
  country: string;
}): EarningsRow {
  const { difference, surprisePercent } = earningsSurprise(event.epsActual, event.epsEstimate);
  return {
    symbol: event.symbol,
    date: event.date,
    time: earningsTimeOf(event.hour),
    eps_actual: event.epsActual,
    eps_estimate: event.epsEstimate,
    difference,
    surprise_percent: surprisePercent,
    exchange: event.exchange,
    country: event.country,
  };
}
