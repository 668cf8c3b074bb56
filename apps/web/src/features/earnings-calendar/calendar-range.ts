import { monthDay } from '../../components/en-us-format';
import type { EarningsCalendarRequestBody } from './api/get-earnings';

/**
 * The date range the Earnings Calendar asks for (spec §4): the calendar's visible range, whose end
 * is exclusive, as the inclusive ISO days of POST api/earnings_calendar.
 */

/** A local calendar day as YYYY-MM-DD (the calendar runs in the user's time zone). */
export function isoDay(date: Date): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** YYYY-MM-DD → 'Nov 29' (the day in words, for messages). */
export function dayInWords(isoDate: string): string {
  const [year, month, day] = isoDate.split('-').map(Number) as [number, number, number];
  return monthDay(new Date(year, month - 1, day));
}

/** 'from Nov 29 to Dec 5', or 'on Nov 20' for one day. */
export function rangeInWords(range: EarningsCalendarRequestBody): string {
  return range.start_date === range.end_date
    ? `on ${dayInWords(range.start_date)}`
    : `from ${dayInWords(range.start_date)} to ${dayInWords(range.end_date)}`;
}

/** [activeStart, activeEnd) → { start_date, end_date } with end_date the last visible day. */
export function requestRangeOf(activeStart: Date, activeEnd: Date): EarningsCalendarRequestBody {
  const last = new Date(activeEnd.getFullYear(), activeEnd.getMonth(), activeEnd.getDate() - 1);
  return { start_date: isoDay(activeStart), end_date: isoDay(last < activeStart ? activeStart : last) };
}

export const sameRange = (a: EarningsCalendarRequestBody | null, b: EarningsCalendarRequestBody) =>
  a !== null && a.start_date === b.start_date && a.end_date === b.end_date;

/**
 * Spec §4: on load the calendar is built, then the earnings of its current range are fetched; each
 * change of the visible range refetches, and "the first range-change notification after start is
 * ignored". The calendar announces its first range while it renders, before the screen's initial
 * fetch: that announcement is the one skipped, so the initial range is fetched exactly once (by
 * `start`) and every later announcement refetches.
 */
export interface RangeTracker {
  /** The calendar is built: fetch its visible range. */
  start(range: EarningsCalendarRequestBody): void;
  /** The calendar's range-change notification (FullCalendar's datesSet). */
  notify(range: EarningsCalendarRequestBody): void;
}

export function createRangeTracker(fetchRange: (range: EarningsCalendarRequestBody) => void): RangeTracker {
  let notifications = 0;
  return {
    start: (range) => fetchRange(range),
    notify(range) {
      notifications += 1;
      if (notifications === 1) return;
      fetchRange(range);
    },
  };
}
