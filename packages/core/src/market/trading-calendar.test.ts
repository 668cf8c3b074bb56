import { describe, expect, it } from 'vitest';
import {
  dayNumber,
  isTradingDay,
  isIsoDate,
  marketSession,
  newYorkInstantMs,
  newYorkOffsetMinutes,
  newYorkTime,
} from './trading-calendar';

describe('US trading calendar', () => {
  it('knows the 2025 and 2026 NYSE holidays', () => {
    const holidays2025 = ['2025-01-01', '2025-01-20', '2025-02-17', '2025-04-18', '2025-05-26', '2025-06-19', '2025-07-04', '2025-09-01', '2025-11-27', '2025-12-25'];
    const holidays2026 = ['2026-01-01', '2026-01-19', '2026-02-16', '2026-04-03', '2026-05-25', '2026-06-19', '2026-07-03', '2026-09-07', '2026-11-26', '2026-12-25'];
    for (const day of [...holidays2025, ...holidays2026]) expect(isTradingDay(day), day).toBe(false);
    expect(isTradingDay('2026-11-27')).toBe(true); // day after Thanksgiving (early close, still open)
    expect(isTradingDay('2026-11-21')).toBe(false); // Saturday
    expect(isTradingDay('2026-11-20')).toBe(true);
  });

  it('switches New York between EST and EDT on the right Sundays', () => {
    expect(newYorkOffsetMinutes(Date.UTC(2026, 2, 8, 6, 59))).toBe(-300);
    expect(newYorkOffsetMinutes(Date.UTC(2026, 2, 8, 7, 0))).toBe(-240);
    expect(newYorkOffsetMinutes(Date.UTC(2026, 10, 1, 5, 59))).toBe(-240);
    expect(newYorkOffsetMinutes(Date.UTC(2026, 10, 1, 6, 0))).toBe(-300);
  });

  it('places an instant in the session', () => {
    // 2026-11-20 (Friday) 15:00 UTC = 10:00 EST: open, 30 minutes in.
    const open = marketSession(Date.UTC(2026, 10, 20, 15, 0));
    expect(open).toMatchObject({ isoDate: '2026-11-20', phase: 'open', minutesSinceOpen: 30 });
    expect(marketSession(Date.UTC(2026, 10, 20, 14, 0)).phase).toBe('pre-market');
    expect(marketSession(Date.UTC(2026, 10, 20, 21, 0)).phase).toBe('after-close');
    const weekend = marketSession(Date.UTC(2026, 10, 22, 12, 0));
    expect(weekend.phase).toBe('closed');
    expect(weekend.lastSessionDay).toBe(dayNumber('2026-11-20'));
    expect(marketSession(Date.UTC(2026, 10, 20, 14, 0)).lastSessionDay).toBe(dayNumber('2026-11-19'));
  });

  it('converts New York wall time both ways', () => {
    const ms = newYorkInstantMs(dayNumber('2026-07-01'), 9 * 60 + 30);
    expect(new Date(ms).toISOString()).toBe('2026-07-01T13:30:00.000Z');
    expect(newYorkTime(ms)).toMatchObject({ isoDate: '2026-07-01', minuteOfDay: 570 });
  });

  it('validates ISO dates', () => {
    expect(isIsoDate('2026-02-28')).toBe(true);
    expect(isIsoDate('2026-02-30')).toBe(false);
    expect(isIsoDate('26-02-01')).toBe(false);
    expect(isIsoDate('2026-13-01')).toBe(false);
    expect(isIsoDate('2026-00-10')).toBe(false);
  });
});
