/**
 * How alert messages write numbers, times and the SMS length limit (docs/rules/alerts.md "The eleven
 * types": "AAPL −5.3% to 212.40 (prev close 224.30) · 14:05 ET", "BTC crossed below 96,000.00").
 */
import { newYorkTime } from '../market/trading-calendar';

/** An SMS is at most this many characters (docs/rules/alerts.md "SMS ≤ 160 chars per symbol line"). */
export const ALERT_SMS_MAX_CHARS = 160;

/** The real minus sign (U+2212) that messages write before a negative percentage. */
export const MINUS_SIGN = '\u2212';

const twoDecimals = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const subUnit = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 4 });

/**
 * A price as messages write it: two decimals, thousands separators from 1,000 ("96,000.00"); below 1
 * (DOGE, ADA, XRP) up to four decimals ("0.0812"), since two would hide the move.
 */
export function formatAlertPrice(price: number): string {
  if (!Number.isFinite(price)) return String(price);
  return Math.abs(price) < 1 && price !== 0 ? subUnit.format(price) : twoDecimals.format(price);
}

/** A signed percentage with one decimal and the real minus sign: "−5.3%", "+2.0%", "0.0%". */
export function formatAlertPercent(percent: number): string {
  const rounded = Math.round(percent * 10) / 10;
  if (rounded === 0) return '0.0%';
  return `${rounded < 0 ? MINUS_SIGN : '+'}${Math.abs(rounded).toFixed(1)}%`;
}

/** A percentage without sign, one decimal: "6.2%". */
export function formatAlertMagnitude(percent: number): string {
  return `${(Math.round(Math.abs(percent) * 10) / 10).toFixed(1)}%`;
}

/** New York wall-clock time of `utcMs`, 24-hour: "14:05 ET". */
export function newYorkClock(utcMs: number): string {
  const minute = newYorkTime(utcMs).minuteOfDay;
  const hh = Math.floor(minute / 60);
  const mm = minute % 60;
  return `${hh < 10 ? '0' : ''}${hh}:${mm < 10 ? '0' : ''}${mm} ET`;
}

/** "14:05 ET (2026-11-24T19:05:00.000Z)": the e-mail's as-of line. */
export function asOfLine(utcMs: number): string {
  return `${newYorkClock(utcMs)} (${new Date(utcMs).toISOString()})`;
}

/** Cuts `text` to at most `max` UTF-16 units, ending with "…" when cut, never splitting a surrogate pair. */
export function truncateText(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= 0) return '';
  let end = max - 1;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return `${text.slice(0, Math.max(0, end)).trimEnd()}…`;
}

/** The longest source name an SMS carries (a provider's name is short; this bounds a misconfigured one). */
const SMS_SOURCE_MAX = 40;

/** " · Simulated market 14:05 ET": the price's source and as-of time every message names. */
export function sourceSuffix(source: string | undefined, asOfMs: number | undefined): string {
  const parts: string[] = [];
  if (source !== undefined && source.trim() !== '') parts.push(truncateText(source.trim(), SMS_SOURCE_MAX));
  if (asOfMs !== undefined && Number.isFinite(asOfMs)) parts.push(newYorkClock(asOfMs));
  return parts.length === 0 ? '' : ` · ${parts.join(' ')}`;
}

/**
 * `main` + `suffix` within 160 characters: the suffix (source and as-of) is kept whole and `main` is
 * cut with "…" when the two do not fit.
 */
export function fitSms(main: string, suffix = ''): string {
  if (main.length + suffix.length <= ALERT_SMS_MAX_CHARS) return main + suffix;
  const room = ALERT_SMS_MAX_CHARS - suffix.length;
  if (room < 20) return truncateText(main + suffix, ALERT_SMS_MAX_CHARS);
  return truncateText(main, room) + suffix;
}
