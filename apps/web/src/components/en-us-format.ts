import { newYorkOffsetMinutes } from '@signalboard/core';

/**
 * The app's few en-US number and date formats, written out rather than asked of Intl (docs/ui.md
 * "Numbers", "Dates"; issue 24). On a phone's CPU the first Intl.NumberFormat of a page costs about
 * 150 ms and the first Intl.DateTimeFormat about 250 ms (the locale's data loads then), and the Market
 * Dashboard's first answers needed both: two long tasks of their own. What is written here gives the
 * same text as Intl for these options (en-us-format.test.ts compares them over many values).
 */

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;

export interface DecimalOptions {
  /** Decimals always shown (Intl's minimumFractionDigits). */
  min: number;
  /** Decimals at most, rounded half away from zero (Intl's maximumFractionDigits). */
  max: number;
  /** 'exceptZero': "+" before a positive number and no sign on a zero (Intl's signDisplay). */
  sign?: 'auto' | 'exceptZero';
}

/** The digits of |value| as a plain decimal (no exponent): the shortest text that reads back as the same number, as Intl rounds from. */
function plainDigits(magnitude: number): { whole: string; fraction: string } {
  const text = String(magnitude);
  const exponentAt = text.indexOf('e');
  if (exponentAt === -1) {
    const point = text.indexOf('.');
    return point === -1 ? { whole: text, fraction: '' } : { whole: text.slice(0, point), fraction: text.slice(point + 1) };
  }
  // 1.5e-7: the mantissa's digits with the point moved by the exponent.
  const mantissa = text.slice(0, exponentAt);
  const exponent = Number(text.slice(exponentAt + 1));
  const digits = mantissa.replace('.', '');
  const pointAt = (mantissa.indexOf('.') === -1 ? mantissa.length : mantissa.indexOf('.')) + exponent;
  if (pointAt <= 0) return { whole: '0', fraction: '0'.repeat(-pointAt) + digits };
  if (pointAt >= digits.length) return { whole: digits + '0'.repeat(pointAt - digits.length), fraction: '' };
  return { whole: digits.slice(0, pointAt), fraction: digits.slice(pointAt) };
}

/** Adds one to a string of decimal digits ("199" → "200", "99" → "100"). */
function increment(digits: string): string {
  const out = digits.split('');
  for (let index = out.length - 1; index >= 0; index -= 1) {
    if (out[index] !== '9') {
      out[index] = String(Number(out[index]) + 1);
      return out.join('');
    }
    out[index] = '0';
  }
  return `1${out.join('')}`;
}

const grouped = (whole: string) => whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/**
 * `value` as Intl.NumberFormat('en-US', { minimumFractionDigits, maximumFractionDigits, signDisplay })
 * writes it: thousands grouped with commas, an ASCII minus (the callers put a true minus in).
 * Not for non-finite values (the callers answer 'N/A' for those).
 */
export function formatDecimal(value: number, { min, max, sign = 'auto' }: DecimalOptions): string {
  const negative = value < 0 || Object.is(value, -0);
  const magnitude = Math.abs(value);
  if (magnitude >= 1e21) return new Intl.NumberFormat('en-US', { minimumFractionDigits: min, maximumFractionDigits: max, signDisplay: sign }).format(value);
  let { whole, fraction } = plainDigits(magnitude);
  if (fraction.length > max) {
    const roundUp = fraction.charCodeAt(max) >= 53; // '5' or more: half away from zero
    const kept = whole + fraction.slice(0, max);
    const rounded = roundUp ? increment(kept) : kept;
    whole = rounded.slice(0, rounded.length - max) || '0';
    fraction = rounded.slice(rounded.length - max);
  }
  fraction = fraction.replace(/0+$/, '');
  if (fraction.length < min) fraction = fraction.padEnd(min, '0');
  const text = fraction ? `${grouped(whole)}.${fraction}` : grouped(whole);
  const zero = /^[0.,]*$/.test(text);
  if (sign === 'exceptZero') return zero ? text : `${negative ? '-' : '+'}${text}`;
  return negative ? `-${text}` : text;
}

const two = (value: number) => (value < 10 ? `0${value}` : String(value));

/** "9:41 AM" (or "9:41:07 AM" with seconds) from a wall clock's hours, minutes and seconds. */
function clock(hours: number, minutes: number, seconds?: number): string {
  const hour12 = hours % 12 === 0 ? 12 : hours % 12;
  return `${hour12}:${two(minutes)}${seconds === undefined ? '' : `:${two(seconds)}`} ${hours < 12 ? 'AM' : 'PM'}`;
}

/** A wall clock's reading: the user's zone (a Date's local fields) or New York's. */
interface WallClock {
  year: number;
  month: number;
  day: number;
  weekday: number;
  hours: number;
  minutes: number;
  seconds: number;
}

const localClock = (date: Date): WallClock => ({
  year: date.getFullYear(),
  month: date.getMonth(),
  day: date.getDate(),
  weekday: date.getDay(),
  hours: date.getHours(),
  minutes: date.getMinutes(),
  seconds: date.getSeconds(),
});

/** New York's wall clock at `date` (the US daylight-time rules in force since 2007, as the trading calendar reads them). */
export function newYorkClockOf(date: Date): WallClock {
  const shifted = new Date(date.getTime() + newYorkOffsetMinutes(date.getTime()) * 60_000);
  return {
    year: shifted.getUTCFullYear(),
    month: shifted.getUTCMonth(),
    day: shifted.getUTCDate(),
    weekday: shifted.getUTCDay(),
    hours: shifted.getUTCHours(),
    minutes: shifted.getUTCMinutes(),
    seconds: shifted.getUTCSeconds(),
  };
}

/** "9:41 AM" in the user's zone. */
export const timeOfDay = (date: Date): string => {
  const wall = localClock(date);
  return clock(wall.hours, wall.minutes);
};

/** "9:41 AM" in New York. */
export const newYorkTimeOfDay = (date: Date): string => {
  const wall = newYorkClockOf(date);
  return clock(wall.hours, wall.minutes);
};

/** "Mon" in New York. */
export const newYorkWeekday = (date: Date): string => WEEKDAYS[newYorkClockOf(date).weekday]!;

/** New York's calendar day of `date`, as YYYY-MM-DD. */
export const newYorkIsoDay = (date: Date): string => {
  const wall = newYorkClockOf(date);
  return `${wall.year}-${two(wall.month + 1)}-${two(wall.day)}`;
};

/** "Nov 22" in the user's zone. */
export const monthDay = (date: Date): string => `${MONTHS[date.getMonth()]} ${date.getDate()}`;

/** "Nov 22, 2026" in the user's zone. */
export const monthDayYear = (date: Date): string => `${monthDay(date)}, ${date.getFullYear()}`;

/** "Nov 22, 2026, 9:41 AM" in the user's zone. */
export const dateAndTime = (date: Date): string => `${monthDayYear(date)}, ${timeOfDay(date)}`;

/** "Nov 22, 2026, 9:41:07 AM" in the user's zone (Angular's medium date). */
export const dateAndTimeWithSeconds = (date: Date): string => {
  const wall = localClock(date);
  return `${monthDayYear(date)}, ${clock(wall.hours, wall.minutes, wall.seconds)}`;
};
