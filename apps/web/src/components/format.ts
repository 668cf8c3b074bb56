import { TONE } from '../theme';

/**
 * Number and date formats used by every screen (UI.md "Numbers", "Dates"): prices to 2 decimals,
 * percentages with a sign and 2 decimals, large volumes compact (1.2M), dates in the user's zone.
 */

/**
 * One Intl formatter per locale and options, made on first use: building one costs far more than
 * formatting with it (Date's toLocaleString builds one on every call), and a screen formats hundreds
 * of values in its first render. None is built when the module loads: on a phone's CPU the first
 * ones (which load the locale's data) were a long task of their own at the start (issue 24).
 */
const formats = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();
function cachedFormat<F extends Intl.NumberFormat | Intl.DateTimeFormat>(kind: string, options: object, make: () => F): F {
  const key = `${kind} ${JSON.stringify(options)}`;
  let format = formats.get(key) as F | undefined;
  if (!format) {
    format = make();
    formats.set(key, format);
  }
  return format;
}

export function dateTimeFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  return cachedFormat(`date ${locale}`, options, () => new Intl.DateTimeFormat(locale, options));
}

/** An en-US number format (UI.md "Numbers"), made once per options. */
export function numberFormat(options: Intl.NumberFormatOptions): Intl.NumberFormat {
  return cachedFormat('number', options, () => new Intl.NumberFormat('en-US', options));
}

const PRICE_2: Intl.NumberFormatOptions = { minimumFractionDigits: 2, maximumFractionDigits: 2 };
const PERCENT_2: Intl.NumberFormatOptions = { minimumFractionDigits: 2, maximumFractionDigits: 2, signDisplay: 'exceptZero' };
const COMPACT: Intl.NumberFormatOptions = { notation: 'compact', maximumFractionDigits: 1 };

const MINUS = '\u2212';

/** 1234.5 → "1,234.50"; the given decimals for crypto (spec §9: price 8, RSI 2, ATR 4…). */
export function formatPrice(value: number | null | undefined, decimals = 2): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return 'N/A';
  const formatter = numberFormat(decimals === 2 ? PRICE_2 : { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
  return formatter.format(value).replace('-', MINUS);
}

/** 1.234 → "+1.23%", −0.5 → "−0.50%", 0 → "0.00%" (a percent value, not a fraction). */
export function formatSignedPercent(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return 'N/A';
  return `${numberFormat(PERCENT_2).format(value).replace('-', MINUS)}%`;
}

/** 12.3456 → "12.35%" without a sign, for magnitudes a word already qualifies ("Dropped 12.35%"). */
export function formatPercent(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return 'N/A';
  return `${numberFormat(PRICE_2).format(value).replace('-', MINUS)}%`;
}

/** 1_234_567 → "1.2M". */
export function formatVolume(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return 'N/A';
  return numberFormat(COMPACT).format(value);
}

/** Unix seconds → "Nov 22, 2026, 9:41:07 AM" (Angular's medium date format) in the user's zone. */
export function formatMediumDate(unixSeconds: number): string {
  return dateTimeFormat('en-US', {
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    second: '2-digit',
  }).format(new Date(unixSeconds * 1000));
}

/** Unix seconds → "10:42 AM" in the user's zone, for "as of" tags. */
export function formatTime(unixSeconds: number): string {
  return dateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit' }).format(new Date(unixSeconds * 1000));
}

/**
 * The colour of a change for `c=` (UI.md "Up / down colours"): the gain colour up, the loss colour
 * down, dimmed when flat; always paired with a sign or an arrow. The one place screens get it from.
 */
export function changeColor(value: number | null | undefined): typeof TONE.gain | typeof TONE.loss | 'dimmed' {
  if (value === null || value === undefined || !Number.isFinite(value) || value === 0) return 'dimmed';
  return value > 0 ? TONE.gain : TONE.loss;
}
