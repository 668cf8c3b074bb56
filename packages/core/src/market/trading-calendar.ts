/**
 * US equity trading calendar (NYSE/Nasdaq; the TSX follows the same weekdays here) and New York
 * time, in pure TypeScript. Dates are ISO `YYYY-MM-DD`; instants are epoch milliseconds (`…Ms`).
 * Regular session 09:30–16:00 America/New_York. Early closes (13:00 on some eves) are not modelled.
 */

export const DAY_MS = 86_400_000;
export const SESSION_OPEN_MINUTES = 9 * 60 + 30;
export const SESSION_CLOSE_MINUTES = 16 * 60;

/** Days since 1970-01-01 of an ISO date (UTC calendar arithmetic). */
export function dayNumber(isoDate: string): number {
  return Math.floor(Date.parse(`${isoDate}T00:00:00Z`) / DAY_MS);
}

export function isoFromDayNumber(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

export function isIsoDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const day = dayNumber(value);
  return Number.isFinite(day) && isoFromDayNumber(day) === value;
}

function nthWeekdayOfMonth(year: number, month: number, weekday: number, n: number): number {
  const first = Date.UTC(year, month, 1) / DAY_MS;
  const offset = (weekday - new Date(first * DAY_MS).getUTCDay() + 7) % 7;
  return first + offset + (n - 1) * 7;
}

function lastWeekdayOfMonth(year: number, month: number, weekday: number): number {
  const last = Date.UTC(year, month + 1, 0) / DAY_MS;
  const offset = (new Date(last * DAY_MS).getUTCDay() - weekday + 7) % 7;
  return last - offset;
}

/** Easter Sunday (Anonymous Gregorian algorithm). */
function easterSunday(year: number): number {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return Date.UTC(year, month - 1, day) / DAY_MS;
}

/** A fixed-date holiday falling on a weekend is observed on the Friday before or Monday after. */
function observed(day: number): number {
  const weekday = new Date(day * DAY_MS).getUTCDay();
  if (weekday === 6) return day - 1;
  if (weekday === 0) return day + 1;
  return day;
}

const holidayCache = new Map<number, Set<number>>();

/**
 * Days the NYSE closed for something other than its holidays, since 2000: the September 11 attacks,
 * the national days of mourning for Presidents Reagan, Ford, G. H. W. Bush and Carter, and Hurricane
 * Sandy (docs/market-data.md "The exchange calendar").
 */
export const NYSE_SPECIAL_CLOSURES: readonly string[] = [
  '2001-09-11',
  '2001-09-12',
  '2001-09-13',
  '2001-09-14',
  '2004-06-11',
  '2007-01-02',
  '2012-10-29',
  '2012-10-30',
  '2018-12-05',
  '2025-01-09',
];

/** The first year the NYSE closed for Juneteenth (made a federal holiday in June 2021, after that year's date). */
const FIRST_JUNETEENTH_YEAR = 2022;

/**
 * NYSE full-day closures of a year, as day numbers: its holidays as they were that year (the rules
 * below hold from 1998, when Martin Luther King Jr. Day was added, on), and its special closures.
 */
export function usMarketHolidays(year: number): Set<number> {
  const cached = holidayCache.get(year);
  if (cached) return cached;
  const days = new Set<number>([
    // New Year's Day: not observed on Friday Dec 31 (NYSE rule), so only a Sunday moves it.
    (() => {
      const day = Date.UTC(year, 0, 1) / DAY_MS;
      return new Date(day * DAY_MS).getUTCDay() === 0 ? day + 1 : day;
    })(),
    nthWeekdayOfMonth(year, 0, 1, 3), // Martin Luther King Jr. Day
    nthWeekdayOfMonth(year, 1, 1, 3), // Washington's Birthday
    easterSunday(year) - 2, // Good Friday
    lastWeekdayOfMonth(year, 4, 1), // Memorial Day
    ...(year >= FIRST_JUNETEENTH_YEAR ? [observed(Date.UTC(year, 5, 19) / DAY_MS)] : []), // Juneteenth
    observed(Date.UTC(year, 6, 4) / DAY_MS), // Independence Day
    nthWeekdayOfMonth(year, 8, 1, 1), // Labor Day
    nthWeekdayOfMonth(year, 10, 4, 4), // Thanksgiving
    observed(Date.UTC(year, 11, 25) / DAY_MS), // Christmas
    ...NYSE_SPECIAL_CLOSURES.filter((date) => date.startsWith(`${year}-`)).map(dayNumber),
  ]);
  holidayCache.set(year, days);
  return days;
}

/** Is the day (a day number) a US trading day: a weekday that is not an exchange holiday? */
export function isTradingDayNumber(day: number): boolean {
  const date = new Date(day * DAY_MS);
  const weekday = date.getUTCDay();
  if (weekday === 0 || weekday === 6) return false;
  return !usMarketHolidays(date.getUTCFullYear()).has(day);
}

export function isTradingDay(isoDate: string): boolean {
  return isTradingDayNumber(dayNumber(isoDate));
}

/** The trading day on or before `day`. */
export function tradingDayOnOrBefore(day: number): number {
  let current = day;
  while (!isTradingDayNumber(current)) current -= 1;
  return current;
}

/** The trading day on or after `day`. */
export function tradingDayOnOrAfter(day: number): number {
  let current = day;
  while (!isTradingDayNumber(current)) current += 1;
  return current;
}

/** Minutes New York is ahead of UTC at `utcMs` (−240 in daylight time, −300 otherwise). */
export function newYorkOffsetMinutes(utcMs: number): number {
  const year = new Date(utcMs).getUTCFullYear();
  // DST: from the second Sunday of March, 02:00 local (07:00 UTC), to the first Sunday of November, 02:00 local (06:00 UTC).
  const start = nthWeekdayOfMonth(year, 2, 0, 2) * DAY_MS + 7 * 3_600_000;
  const end = nthWeekdayOfMonth(year, 10, 0, 1) * DAY_MS + 6 * 3_600_000;
  return utcMs >= start && utcMs < end ? -240 : -300;
}

/** The New York calendar date and minute of day at `utcMs`. */
export function newYorkTime(utcMs: number): { day: number; isoDate: string; minuteOfDay: number } {
  const localMs = utcMs + newYorkOffsetMinutes(utcMs) * 60_000;
  const day = Math.floor(localMs / DAY_MS);
  return { day, isoDate: isoFromDayNumber(day), minuteOfDay: Math.floor((localMs - day * DAY_MS) / 60_000) };
}

/** The UTC instant of `minuteOfDay` New York time on day number `day`. */
export function newYorkInstantMs(day: number, minuteOfDay: number): number {
  const guess = day * DAY_MS + minuteOfDay * 60_000 + 300 * 60_000;
  return day * DAY_MS + minuteOfDay * 60_000 - newYorkOffsetMinutes(guess) * 60_000;
}

export type SessionPhase = 'pre-market' | 'open' | 'after-close' | 'closed';

export interface MarketSession {
  /** New York calendar day (day number) and its ISO date. */
  day: number;
  isoDate: string;
  phase: SessionPhase;
  /** Minutes since the open, clamped to [0, 390]. */
  minutesSinceOpen: number;
  /** The last trading day whose session has at least started (today if open or after the close). */
  lastSessionDay: number;
}

/** Where the US market stands at `utcMs`. */
export function marketSession(utcMs: number): MarketSession {
  const { day, isoDate, minuteOfDay } = newYorkTime(utcMs);
  const span = SESSION_CLOSE_MINUTES - SESSION_OPEN_MINUTES;
  if (!isTradingDayNumber(day)) {
    return { day, isoDate, phase: 'closed', minutesSinceOpen: span, lastSessionDay: tradingDayOnOrBefore(day - 1) };
  }
  if (minuteOfDay < SESSION_OPEN_MINUTES) {
    return { day, isoDate, phase: 'pre-market', minutesSinceOpen: 0, lastSessionDay: tradingDayOnOrBefore(day - 1) };
  }
  if (minuteOfDay >= SESSION_CLOSE_MINUTES) {
    return { day, isoDate, phase: 'after-close', minutesSinceOpen: span, lastSessionDay: day };
  }
  return { day, isoDate, phase: 'open', minutesSinceOpen: minuteOfDay - SESSION_OPEN_MINUTES, lastSessionDay: day };
}
