import { formatDecimal, monthDay, monthDayYear, newYorkIsoDay, newYorkTimeOfDay, newYorkWeekday, timeOfDay } from '../../components/en-us-format';
import { formatMediumDate, formatPrice } from '../../components/format';

/**
 * Date and number formats of the Market Dashboard, on top of components/format.ts (docs/ui.md
 * "Numbers", "Dates"): every time in the user's zone.
 */

const MINUS = '\u2212';
const pad = (value: number) => String(value).padStart(2, '0');

/** A local calendar day as YYYY-MM-DD: "today" for the earnings call (the browser's clock and zone). */
export function localIsoDay(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

const epochMs = (iso: string): number | null => {
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? null : ms;
};

/** ISO 8601 → "Nov 22, 2026, 9:41:07 AM" (medium date and time); an unreadable text is shown as is. */
export function formatIsoMedium(iso: string): string {
  const ms = epochMs(iso);
  return ms === null ? iso : formatMediumDate(ms / 1000);
}

/** ISO 8601 → "9:41 AM" when it is today, else "Nov 21, 9:41 AM", for short "as of" tags. */
export function formatIsoShort(iso: string, now: Date = new Date()): string {
  const ms = epochMs(iso);
  if (ms === null) return iso;
  const date = new Date(ms);
  const time = timeOfDay(date);
  if (localIsoDay(date) === localIsoDay(now)) return time;
  return `${monthDay(date)}, ${time}`;
}

/** ISO 8601 → "Mon 9:30 AM" (or "9:30 AM" today), for the market's next open or close. */
export function formatNextChange(iso: string, now: Date = new Date()): string {
  const ms = epochMs(iso);
  if (ms === null) return iso;
  // US market hours are read in New York time, wherever the reader is.
  const date = new Date(ms);
  const time = `${newYorkTimeOfDay(date)} ET`;
  if (newYorkIsoDay(date) === newYorkIsoDay(now)) return time;
  return `${newYorkWeekday(date)} ${time}`;
}

/** The latest of some ISO times (unreadable ones ignored), or null. */
export function latestIso(values: readonly string[]): string | null {
  let best: { iso: string; ms: number } | null = null;
  for (const iso of values) {
    const ms = epochMs(iso);
    if (ms !== null && (best === null || ms > best.ms)) best = { iso, ms };
  }
  return best?.iso ?? null;
}

/** YYYY-MM-DD → "Oct 1, 2026" (a calendar day, no zone shift); anything else as is. */
export function formatDay(value: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value.trim());
  if (!match) return value;
  const date = new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  return monthDayYear(date);
}

/** 1.2 → "+1.20", −0.5 → "−0.50", 0 → "0.00": a price change with its sign. */
export function formatSignedPrice(value: number): string {
  const text = formatPrice(value);
  return value > 0 && text !== '0.00' ? `+${text}` : text;
}

const INDICATOR_NUMBER = { min: 0, max: 2 } as const;
const INDICATOR_CHANGE = { min: 0, max: 2, sign: 'exceptZero' } as const;

/** An indicator's value: up to 2 decimals (rates 4.1, CPI 310.33, payrolls 159,000). */
export function formatIndicatorValue(value: number): string {
  return Number.isFinite(value) ? formatDecimal(value, INDICATOR_NUMBER).replace('-', MINUS) : 'N/A';
}

/** The change between two indicator values, with its sign: "+0.1", "−2,000", "0". */
export function formatIndicatorChange(value: number): string {
  return Number.isFinite(value) ? formatDecimal(value, INDICATOR_CHANGE).replace('-', MINUS) : 'N/A';
}

/** A percent change as a heatmap tile's background: green up, red down, stronger as it grows (full at 3%). */
export const HEAT_FULL_PERCENT = 3;
export function heatBackground(percentChange: number): string {
  if (!Number.isFinite(percentChange) || percentChange === 0) return 'var(--mantine-color-default-hover)';
  const strength = Math.min(Math.abs(percentChange) / HEAT_FULL_PERCENT, 1);
  const share = Math.round(12 + strength * 50);
  const color = percentChange > 0 ? 'green' : 'red';
  return `color-mix(in srgb, var(--mantine-color-${color}-filled) ${share}%, var(--mantine-color-body))`;
}
