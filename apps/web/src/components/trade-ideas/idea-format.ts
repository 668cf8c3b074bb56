import { dateAndTime } from '../en-us-format';
import { formatSignedPercent } from '../format';

/** ISO instant → "Nov 22, 2026, 9:41 AM" in the user's time zone ('N/A' when missing or invalid). */
export function formatInstant(iso: string | null | undefined): string {
  if (!iso) return 'N/A';
  const ms = Date.parse(iso);
  if (!Number.isFinite(ms)) return 'N/A';
  return dateAndTime(new Date(ms));
}

/** A return as a fraction (0.052) → "+5.20%"; '—' when there is none. */
export function formatFraction(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  return formatSignedPercent(value * 100);
}

/** A share (0…1) → "52.0%", '—' when there is none. */
export function formatShare(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  return `${(value * 100).toFixed(1)}%`;
}
