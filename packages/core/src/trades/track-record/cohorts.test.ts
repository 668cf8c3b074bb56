import { describe, expect, it } from 'vitest';
import { addSessions, cohortMaturity, cohortMaturityDate, cohortOf, sessionDateOf } from './cohorts';
import { dayNumber, isoFromDayNumber } from '../../market/trading-calendar';

describe('cohorts', () => {
  it('a cohort is the month of the entry fill', () => {
    expect(cohortOf('2024-03-28')).toBe('2024-03');
  });

  it('counts sessions after a day, skipping weekends and holidays', () => {
    // After Thu 2024-03-28 (Good Friday, the 29th, is a holiday): Mon Apr 1 is session 1.
    expect(isoFromDayNumber(addSessions(dayNumber('2024-03-28'), 1, 'us'))).toBe('2024-04-01');
    expect(isoFromDayNumber(addSessions(dayNumber('2024-03-31'), 5, 'us'))).toBe('2024-04-05');
    expect(isoFromDayNumber(addSessions(dayNumber('2024-03-31'), 5, 'utc'))).toBe('2024-04-05');
    expect(isoFromDayNumber(addSessions(dayNumber('2024-02-29'), 2, 'utc'))).toBe('2024-03-02');
  });

  it('swing (21 sessions): the March 2024 cohort matures on the 21st session after March 31', () => {
    // April 2024 has no NYSE holiday: sessions Apr 1–5 (5), 8–12 (10), 15–19 (15), 22–26 (20), 29 (21).
    expect(cohortMaturityDate('2024-03', 21)).toBe('2024-04-29');
  });

  it('is not mature the day before maturity, mature on the day', () => {
    const mature = (now: string) => cohortMaturity(21, now)('2024-03');
    // 2024-04-28 23:00 New York is 2024-04-29 03:00 UTC: still the day before in New York.
    expect(mature('2024-04-29T03:00:00.000Z')).toBe(false);
    expect(mature('2024-04-28T20:30:00.000Z')).toBe(false);
    expect(mature('2024-04-29T13:00:00.000Z')).toBe(true);
    expect(mature('2024-05-15T13:00:00.000Z')).toBe(true);
  });

  it('layered (504 sessions) is about two years', () => {
    const date = cohortMaturityDate('2024-01', 504);
    expect(date > '2026-01-15' && date < '2026-02-15').toBe(true);
    expect(cohortMaturity(504, '2025-12-31T21:00:00Z')('2024-01')).toBe(false);
  });

  it('crypto counts UTC days and reads now in UTC', () => {
    expect(cohortMaturityDate('2024-03', 10, 'utc')).toBe('2024-04-10');
    expect(cohortMaturity(10, '2024-04-09T23:59:59Z', 'utc')('2024-03')).toBe(false);
    expect(cohortMaturity(10, '2024-04-10T00:00:00Z', 'utc')('2024-03')).toBe(true);
  });

  it('rejects a now that is not an instant', () => {
    expect(() => sessionDateOf('yesterday')).toThrow(RangeError);
  });
});
