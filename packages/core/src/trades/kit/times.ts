import { dayNumber, newYorkInstantMs, SESSION_CLOSE_MINUTES } from '../../market/trading-calendar';

/** The daily pass's nominal time: 16:30 America/New_York (strategies.md §0.3), daylight time included. */
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
