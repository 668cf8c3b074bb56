import { describe, expect, it } from 'vitest';
import { dayNumber, isoFromDayNumber } from '@signalboard/core';
import { calendarOf } from './trades.calendar';

const at = (iso: string) => Date.parse(iso);
const date = (day: number) => isoFromDayNumber(day);

describe('engine calendars (docs/rules/conventions.md §0.3)', () => {
  it('crypto: every UTC day is a session, decided at 00:05 UTC the next day', () => {
    const crypto = calendarOf('crypto');
    expect(date(crypto.passDay(at('2026-11-22T00:04:59Z')))).toBe('2026-11-20');
    expect(date(crypto.passDay(at('2026-11-22T00:05:00Z')))).toBe('2026-11-21');
    expect(new Date(crypto.passTimeMs(dayNumber('2026-11-21'))).toISOString()).toBe('2026-11-22T00:05:00.000Z');
    // Saturday and Sunday are sessions, as are NYSE holidays (Thanksgiving 2026-11-26).
    for (const day of ['2026-11-21', '2026-11-22', '2026-11-26']) expect(crypto.isSession(dayNumber(day)), day).toBe(true);
  });

  it('crypto: marks every minute around the clock; stocks every interval while the market is open only', () => {
    const crypto = calendarOf('crypto');
    expect(crypto.markSlot(at('2026-11-22T03:17:42Z'), 5 * 60_000)?.toISOString()).toBe('2026-11-22T03:17:00.000Z');
    const stocks = calendarOf('swing');
    expect(stocks.markSlot(at('2026-11-22T15:17:42Z'), 5 * 60_000)).toBeNull();
    expect(stocks.markSlot(at('2026-11-20T15:17:42Z'), 5 * 60_000)?.toISOString()).toBe('2026-11-20T15:15:00.000Z');
  });

  it('stocks: NYSE sessions, decided at 16:30 New York', () => {
    const stocks = calendarOf('layered');
    expect(stocks.isSession(dayNumber('2026-11-21'))).toBe(false);
    expect(date(stocks.passDay(at('2026-11-23T12:00:00Z')))).toBe('2026-11-20');
    expect(new Date(stocks.passTimeMs(dayNumber('2026-11-20'))).toISOString()).toBe('2026-11-20T21:30:00.000Z');
  });
});
