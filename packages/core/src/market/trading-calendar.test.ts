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

  it('knows the closures of years with every kind of exception since 2000, as the NYSE published them', () => {
    // Each year's full-day closures on weekdays, written out from the exchange's calendars (not computed).
    const closures: Record<number, string[]> = {
      // September 11 attacks: closed Tuesday to Friday.
      2001: ['01-01', '01-15', '02-19', '04-13', '05-28', '07-04', '09-03', '09-11', '09-12', '09-13', '09-14', '11-22', '12-25'],
      // Reagan's day of mourning; Independence Day on a Sunday (Monday), Christmas on a Saturday (Friday).
      2004: ['01-01', '01-19', '02-16', '04-09', '05-31', '06-11', '07-05', '09-06', '11-25', '12-24'],
      // Ford's day of mourning, the day after New Year's Day.
      2007: ['01-01', '01-02', '01-15', '02-19', '04-06', '05-28', '07-04', '09-03', '11-22', '12-25'],
      // New Year's Day on a Saturday: the Friday before stays open (the NYSE's rule).
      2011: ['01-17', '02-21', '04-22', '05-30', '07-04', '09-05', '11-24', '12-26'],
      // Hurricane Sandy: closed Monday and Tuesday.
      2012: ['01-02', '01-16', '02-20', '04-06', '05-28', '07-04', '09-03', '10-29', '10-30', '11-22', '12-25'],
      // G. H. W. Bush's day of mourning.
      2018: ['01-01', '01-15', '02-19', '03-30', '05-28', '07-04', '09-03', '11-22', '12-05', '12-25'],
      // Juneteenth became a federal holiday on 2021-06-17: the NYSE stayed open on the observed Friday 06-18.
      2021: ['01-01', '01-18', '02-15', '04-02', '05-31', '07-05', '09-06', '11-25', '12-24'],
      // The first Juneteenth closure (a Sunday: Monday 06-20); New Year's Day on a Saturday again.
      2022: ['01-17', '02-21', '04-15', '05-30', '06-20', '07-04', '09-05', '11-24', '12-26'],
      // Carter's day of mourning.
      2025: ['01-01', '01-09', '01-20', '02-17', '04-18', '05-26', '06-19', '07-04', '09-01', '11-27', '12-25'],
    };
    // Sessions in each of those years, as the exchange counted them.
    const sessions: Record<number, number> = { 2001: 248, 2004: 252, 2007: 251, 2011: 252, 2012: 250, 2018: 251, 2021: 252, 2022: 251, 2025: 250 };
    for (const [year, dates] of Object.entries(closures)) {
      const closed: string[] = [];
      let open = 0;
      for (let day = dayNumber(`${year}-01-01`); day <= dayNumber(`${year}-12-31`); day += 1) {
        const weekday = new Date(day * 86_400_000).getUTCDay();
        if (weekday === 0 || weekday === 6) continue;
        const iso = new Date(day * 86_400_000).toISOString().slice(0, 10);
        if (isTradingDay(iso)) open += 1;
        else closed.push(iso.slice(5));
      }
      expect(closed, year).toEqual(dates);
      expect(open, year).toBe(sessions[Number(year)]);
    }
    expect(isTradingDay('2021-06-18')).toBe(true);
    expect(isTradingDay('2010-12-31')).toBe(true); // New Year's Day 2011 was a Saturday
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
