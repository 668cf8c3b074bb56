import { describe, expect, it } from 'vitest';
import {
  dateAndTime,
  dateAndTimeWithSeconds,
  formatDecimal,
  monthDay,
  monthDayYear,
  newYorkIsoDay,
  newYorkTimeOfDay,
  newYorkWeekday,
  timeOfDay,
  type DecimalOptions,
} from './en-us-format';

/** A small seeded generator, so a failure names values that can be run again. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const intl = (value: number, { min, max, sign = 'auto' }: DecimalOptions) =>
  new Intl.NumberFormat('en-US', { minimumFractionDigits: min, maximumFractionDigits: max, signDisplay: sign }).format(value);

describe('formatDecimal', () => {
  const OPTIONS: DecimalOptions[] = [
    { min: 2, max: 2 },
    { min: 2, max: 2, sign: 'exceptZero' },
    { min: 0, max: 2 },
    { min: 0, max: 2, sign: 'exceptZero' },
    { min: 0, max: 0 },
    { min: 4, max: 4 },
    { min: 8, max: 8 },
    { min: 1, max: 3 },
  ];

  it('writes what Intl writes for ties, carries, tiny and large numbers, zeros and signs', () => {
    const values = [
      0, -0, 1, -1, 0.5, 1.005, 2.675, 1.115, 0.125, -0.125, 0.045, 9.995, 99.995, 999.995, 999_999.995, 0.001, -0.001, -0.004, -0.005, 1e-7, 1.5e-7,
      -2.5e-9, 123_456_789.125, 1_234_567.891, 1e20, 9.999_999e20, 0.1 + 0.2, 1 / 3, -2 / 3, 4.35, 1.45, 8.325, 1234.5, 0.000123456,
    ];
    for (const options of OPTIONS) for (const value of values) expect(formatDecimal(value, options), `${value} ${JSON.stringify(options)}`).toBe(intl(value, options));
  });

  it('writes what Intl writes for 10,000 random numbers of every size', () => {
    const next = random(24);
    for (let index = 0; index < 10_000; index += 1) {
      const magnitude = 10 ** Math.floor(next() * 24 - 10);
      // Half of them on a decimal tie (x.xx5), where the two ways of rounding part.
      const raw = next() * magnitude * 10;
      const value = (index % 2 === 0 ? Number(raw.toFixed(3)) + 0.005 : raw) * (next() < 0.5 ? -1 : 1);
      const options = OPTIONS[index % OPTIONS.length]!;
      expect(formatDecimal(value, options), `${value} ${JSON.stringify(options)}`).toBe(intl(value, options));
    }
  });
});

describe('dates and times', () => {
  const local = (options: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat('en-US', options);
  const newYork = (options: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat('en-US', { ...options, timeZone: 'America/New_York' });

  it('writes what Intl writes, in the user zone and in New York, over thirty years from 2007 (when the US daylight-time rules last changed) and around clock changes', () => {
    const next = random(7);
    const instants = Array.from({ length: 5_000 }, () => Date.UTC(2007, 0, 1) + Math.floor(next() * 30 * 365.25 * 86_400_000));
    // Around New York's clock changes: 2026-03-08 07:00 UTC and 2026-11-01 06:00 UTC, a minute either side.
    for (const change of [Date.UTC(2026, 2, 8, 7), Date.UTC(2026, 10, 1, 6), Date.UTC(2007, 2, 11, 7), Date.UTC(2030, 10, 3, 6)]) {
      instants.push(change - 60_000, change, change + 60_000);
    }
    instants.push(Date.UTC(2026, 11, 2, 0, 0, 0), Date.UTC(2026, 11, 2, 12, 0, 0), Date.UTC(2026, 11, 2, 17, 0, 0));
    const formats = {
      time: local({ hour: 'numeric', minute: '2-digit' }),
      monthDay: local({ month: 'short', day: 'numeric' }),
      monthDayYear: local({ month: 'short', day: 'numeric', year: 'numeric' }),
      dateAndTime: local({ month: 'short', day: 'numeric', year: 'numeric', hour: 'numeric', minute: '2-digit' }),
      withSeconds: local({ month: 'short', day: 'numeric', year: 'numeric', hour: 'numeric', minute: '2-digit', second: '2-digit' }),
      newYorkTime: newYork({ hour: 'numeric', minute: '2-digit' }),
      newYorkWeekday: newYork({ weekday: 'short' }),
      newYorkDay: new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York' }),
    };
    for (const ms of instants) {
      const date = new Date(ms);
      const at = date.toISOString();
      expect(timeOfDay(date), at).toBe(formats.time.format(date));
      expect(monthDay(date), at).toBe(formats.monthDay.format(date));
      expect(monthDayYear(date), at).toBe(formats.monthDayYear.format(date));
      expect(dateAndTime(date), at).toBe(formats.dateAndTime.format(date));
      expect(dateAndTimeWithSeconds(date), at).toBe(formats.withSeconds.format(date));
      expect(newYorkTimeOfDay(date), at).toBe(formats.newYorkTime.format(date));
      expect(newYorkWeekday(date), at).toBe(formats.newYorkWeekday.format(date));
      expect(newYorkIsoDay(date), at).toBe(formats.newYorkDay.format(date));
    }
  });
});
