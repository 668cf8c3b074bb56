/**
 * The Earnings Calendar's events (spec §3 "Calendar event", §4 "Earnings calendar", §9 "Calendar"):
 * each earnings row becomes one all-day event titled '{symbol} Earnings Release'.
 * - epsActual, epsEstimate, difference, surprisePercent: the row's numbers, 'N/A' when missing.
 * - hour: Pre Market → BMO; After Hours → AMC; every other time → Unknown. DMH (during market
 *   hours) has a label and an icon but this mapping never produces it.
 * - After Hours: when the event date's UTC hour is below 20 the date moves one day forward.
 * - exchange and country: 'Unknown' when missing.
 * - Only favourites' events unless 'show all earnings' is on; an empty result clears the events.
 */
import type { EarningsRow } from '../contract/market';

/** Release time of an event: before market open, after market close, during market hours, unknown. */
export type EarningsHour = 'BMO' | 'AMC' | 'DMH' | 'Unknown';

/** What each time-of-day icon means (spec §2: "Icons mean before market open, after market close, …"). */
export const EARNINGS_HOUR_LABELS: Readonly<Record<EarningsHour, string>> = {
  BMO: 'Before market open',
  AMC: 'After market close',
  DMH: 'During market hours',
  Unknown: 'Time unknown',
};

/** Spec §9: After Hours events whose date's UTC hour is below this move to the next day. */
export const AFTER_HOURS_SHIFT_BEFORE_UTC_HOUR = 20;

export const EARNINGS_NOT_AVAILABLE = 'N/A';
export const EARNINGS_UNKNOWN_PLACE = 'Unknown';

export type EarningsEventNumber = number | typeof EARNINGS_NOT_AVAILABLE;

/** Spec §3 "Calendar event" (plus the symbol and a stable id the calendar keys events by). */
export interface EarningsCalendarEvent {
  id: string;
  symbol: string;
  /** '{symbol} Earnings Release' */
  title: string;
  /** The day the event shows on, YYYY-MM-DD (all-day). */
  start: string;
  epsActual: EarningsEventNumber;
  epsEstimate: EarningsEventNumber;
  difference: EarningsEventNumber;
  surprisePercent: EarningsEventNumber;
  hour: EarningsHour;
  exchange: string;
  country: string;
}

/** Spec §9: Pre Market is BMO, After Hours is AMC, others Unknown (never DMH). */
export function earningsHourOf(time: EarningsRow['time'] | string): EarningsHour {
  if (time === 'Pre Market') return 'BMO';
  if (time === 'After Hours') return 'AMC';
  return 'Unknown';
}

/**
 * The day an event shows on. After Hours (AMC): the row's date is read as a Date and, when its UTC
 * hour is below 20, moved one day forward (spec §4, §9).
 *
 * Consequence, kept on purpose: the row's date is 'YYYY-MM-DD', which ECMAScript parses as 00:00
 * UTC, so its UTC hour is always 0 and every After Hours release shows on the day after its row's
 * date (a Tuesday after-close report sits on Wednesday, the session that trades on it). Other hours
 * keep the row's date. An unreadable date is left as it is.
 */
export function eventStartOf(row: Pick<EarningsRow, 'date' | 'time'>): string {
  if (earningsHourOf(row.time) !== 'AMC') return row.date;
  const date = new Date(row.date);
  if (Number.isNaN(date.getTime())) return row.date;
  if (date.getUTCHours() < AFTER_HOURS_SHIFT_BEFORE_UTC_HOUR) date.setUTCDate(date.getUTCDate() + 1);
  return date.toISOString().slice(0, 10);
}

const orNotAvailable = (value: number | null | undefined): EarningsEventNumber =>
  value === null || value === undefined || !Number.isFinite(value) ? EARNINGS_NOT_AVAILABLE : value;

const orUnknown = (value: string | null | undefined): string => (value && value.trim() ? value.trim() : EARNINGS_UNKNOWN_PLACE);

/** One earnings row as a calendar event (spec §3). */
export function toEarningsEvent(row: EarningsRow): EarningsCalendarEvent {
  const start = eventStartOf(row);
  return {
    id: `${row.symbol}:${row.date}`,
    symbol: row.symbol,
    title: `${row.symbol} Earnings Release`,
    start,
    epsActual: orNotAvailable(row.eps_actual),
    epsEstimate: orNotAvailable(row.eps_estimate),
    difference: orNotAvailable(row.difference),
    surprisePercent: orNotAvailable(row.surprise_percent),
    hour: earningsHourOf(row.time),
    exchange: orUnknown(row.exchange),
    country: orUnknown(row.country),
  };
}

export interface CalendarEventOptions {
  /** The signed-in user's favourite symbols. */
  favoriteSymbols: Iterable<string>;
  /** Spec §4 'show all earnings' (default false: favourites only). */
  showAll?: boolean;
}

const normalise = (symbol: string) => symbol.trim().toUpperCase();

/**
 * The events the calendar shows for one fetched range (spec §4): every row mapped, then only the
 * favourites' unless showAll. An empty (or filtered-out) result is an empty list, which clears the
 * calendar.
 */
export function toCalendarEvents(rows: readonly EarningsRow[], options: CalendarEventOptions): EarningsCalendarEvent[] {
  const events = rows.map(toEarningsEvent);
  if (options.showAll) return events;
  const favorites = new Set(Array.from(options.favoriteSymbols, normalise));
  return events.filter((event) => favorites.has(normalise(event.symbol)));
}

const MINUS = '\u2212';

/** 2.1 → "2.10", −0.3 → "−0.30"; 'N/A' stays. */
function fixed(value: EarningsEventNumber, signed = false): string {
  if (value === EARNINGS_NOT_AVAILABLE) return EARNINGS_NOT_AVAILABLE;
  const text = Math.abs(value).toFixed(2);
  if (value < 0 && Number(text) !== 0) return `${MINUS}${text}`;
  return signed && value > 0 && Number(text) !== 0 ? `+${text}` : text;
}

/** 'EPS: actual vs estimate (difference)', e.g. 'EPS: 2.10 vs 1.90 (+0.20)' or 'EPS: N/A vs 4.10 (N/A)'. */
export function epsLine(event: Pick<EarningsCalendarEvent, 'epsActual' | 'epsEstimate' | 'difference'>): string {
  return `EPS: ${fixed(event.epsActual)} vs ${fixed(event.epsEstimate)} (${fixed(event.difference, true)})`;
}

/** 'Surprise: N%', e.g. 'Surprise: +10.53%' or 'Surprise: −5.17%'; 'Surprise: N/A' without a number. */
export function surpriseLine(event: Pick<EarningsCalendarEvent, 'surprisePercent'>): string {
  const value = event.surprisePercent;
  return value === EARNINGS_NOT_AVAILABLE ? `Surprise: ${EARNINGS_NOT_AVAILABLE}` : `Surprise: ${fixed(value, true)}%`;
}
