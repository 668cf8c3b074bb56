import { TONE } from '../theme';
import { dateAndTimeWithSeconds, formatDecimal, timeOfDay, type DecimalOptions } from './en-us-format';

/**
 * Number and date formats used by every screen (docs/ui.md "Numbers", "Dates"): prices to 2 decimals,
 * percentages with a sign and 2 decimals, large volumes compact (1.2M), dates in the user's zone.
 * Prices, percentages and dates are written by en-us-format.ts (no Intl: the first Intl formatter
 * of a page is a long task on a phone's CPU, issue 24); only the compact volumes ask Intl, with one
 * formatter made on first use.
 */

const MINUS = '\u2212';
const PRICE_2: DecimalOptions = { min: 2, max: 2 };
const PERCENT_2: DecimalOptions = { min: 2, max: 2, sign: 'exceptZero' };
let compactFormat: Intl.NumberFormat | undefined;

/** 1234.5 → "1,234.50"; the given decimals for crypto (spec §9: price 8, RSI 2, ATR 4…). */
export function formatPrice(value: number | null | undefined, decimals = 2): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return 'N/A';
  return formatDecimal(value, decimals === 2 ? PRICE_2 : { min: decimals, max: decimals }).replace('-', MINUS);
}

/** 1.234 → "+1.23%", −0.5 → "−0.50%", 0 → "0.00%" (a percent value, not a fraction). */
export function formatSignedPercent(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return 'N/A';
  return `${formatDecimal(value, PERCENT_2).replace('-', MINUS)}%`;
}

/** 12.3456 → "12.35%" without a sign, for magnitudes a word already qualifies ("Dropped 12.35%"). */
export function formatPercent(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return 'N/A';
  return `${formatDecimal(value, PRICE_2).replace('-', MINUS)}%`;
}

/** 1_234_567 → "1.2M". */
export function formatVolume(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return 'N/A';
  compactFormat ??= new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });
  return compactFormat.format(value);
}

/** Unix seconds → "Nov 22, 2026, 9:41:07 AM" (Angular's medium date format) in the user's zone. */
export function formatMediumDate(unixSeconds: number): string {
  return dateAndTimeWithSeconds(new Date(unixSeconds * 1000));
}

/** Unix seconds → "10:42 AM" in the user's zone, for "as of" tags. */
export function formatTime(unixSeconds: number): string {
  return timeOfDay(new Date(unixSeconds * 1000));
}

/**
 * The colour of a change for `c=` (docs/ui.md "Up / down colours"): the gain colour up, the loss colour
 * down, dimmed when flat; always paired with a sign or an arrow. The one place screens get it from.
 */
export function changeColor(value: number | null | undefined): typeof TONE.gain | typeof TONE.loss | 'dimmed' {
  if (value === null || value === undefined || !Number.isFinite(value) || value === 0) return 'dimmed';
  return value > 0 ? TONE.gain : TONE.loss;
}
