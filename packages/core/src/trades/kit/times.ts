import { DAY_MS, dayNumber, isTradingDayNumber, newYorkInstantMs, SESSION_CLOSE_MINUTES } from '../../market/trading-calendar';
import type { SessionCalendar } from '../types';

/** The daily pass's nominal time: 16:30 America/New_York (docs/rules/conventions.md §0.3), daylight time included. */
export const PASS_MINUTES = 16 * 60 + 30;

/** ISO 8601 UTC of the daily pass for the session `isoDate` (what a replay uses as `now`). */
export function passTimeOf(isoDate: string): string {
  return new Date(newYorkInstantMs(dayNumber(isoDate), PASS_MINUTES)).toISOString();
}

/** ISO 8601 UTC of the session's close, 16:00 New York (a level's `_LastReached`). */
export function closeTimeOf(isoDate: string): string {
  return new Date(newYorkInstantMs(dayNumber(isoDate), SESSION_CLOSE_MINUTES)).toISOString();
}

/** ISO 8601 UTC of the session's close for a day number. */
export function closeTimeOfDay(day: number): string {
  return new Date(newYorkInstantMs(day, SESSION_CLOSE_MINUTES)).toISOString();
}

/**
 * The crypto engine's daily pass (docs/rules/conventions.md §0.3): 00:05 UTC. Its session is a UTC day whose
 * candle completes at the next midnight, so the pass deciding session D runs at D + 1, 00:05 UTC.
 */
export const CRYPTO_PASS_MINUTES = 5;

/** ISO 8601 UTC of the crypto pass deciding the UTC day `isoDate` (the next day, 00:05 UTC). */
export function cryptoPassTimeOf(isoDate: string): string {
  return new Date((dayNumber(isoDate) + 1) * DAY_MS + CRYPTO_PASS_MINUTES * 60_000).toISOString();
}

/** The nominal pass time of a session on a calendar: 00:05 UTC the next day on 'utc', else 16:30 New York. */
export function passTimeOn(calendar: SessionCalendar, isoDate: string): string {
  return calendar === 'utc' ? cryptoPassTimeOf(isoDate) : passTimeOf(isoDate);
}

/** Is the next earnings date (swing's and the option trades' earnings rule) within `sessions` trading sessions of the session (that day included)? */
export function earningsWithin(sessionDate: string, earningsDate: string | undefined, sessions: number): boolean {
  if (!earningsDate) return false;
  const from = dayNumber(sessionDate);
  const to = dayNumber(earningsDate);
  if (!(to >= from)) return false;
  let count = 0;
  for (let day = from + 1; day <= to; day += 1) {
    if (isTradingDayNumber(day)) count += 1;
    if (count > sessions) return false;
  }
  return true;
}

