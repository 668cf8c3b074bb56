import { describe, expect, it } from 'vitest';
import { createRangeTracker, isoDay, rangeInWords, requestRangeOf, sameRange } from './calendar-range';
import type { EarningsCalendarRequestBody } from './api/get-earnings';

const week = { start_date: '2026-11-15', end_date: '2026-11-21' };
const nextWeek = { start_date: '2026-11-22', end_date: '2026-11-28' };
const month = { start_date: '2026-11-01', end_date: '2026-12-12' };

describe('the range the calendar asks for', () => {
  it('sends the visible days, the exclusive end turned into the last visible day', () => {
    // listWeek of Friday 2026-11-20: Sunday 15 to the next Sunday 22 (exclusive).
    expect(requestRangeOf(new Date(2026, 10, 15), new Date(2026, 10, 22))).toEqual(week);
    // dayGridMonth of November 2026: six weeks from Sunday 1 November.
    expect(requestRangeOf(new Date(2026, 10, 1), new Date(2026, 11, 13))).toEqual(month);
    // listDay: one day.
    expect(requestRangeOf(new Date(2026, 10, 20), new Date(2026, 10, 21))).toEqual({ start_date: '2026-11-20', end_date: '2026-11-20' });
  });

  it('formats local days, across year ends', () => {
    expect(isoDay(new Date(2026, 0, 5))).toBe('2026-01-05');
    expect(requestRangeOf(new Date(2026, 11, 27), new Date(2027, 0, 3))).toEqual({ start_date: '2026-12-27', end_date: '2027-01-02' });
  });

  it('words a range for messages', () => {
    expect(rangeInWords({ start_date: '2026-11-29', end_date: '2026-12-05' })).toBe('from Nov 29 to Dec 5');
    expect(rangeInWords({ start_date: '2026-11-20', end_date: '2026-11-20' })).toBe('on Nov 20');
  });

  it('compares ranges by their days', () => {
    expect(sameRange(null, week)).toBe(false);
    expect(sameRange({ ...week }, week)).toBe(true);
    expect(sameRange(week, nextWeek)).toBe(false);
  });
});

describe("refetching ('each date-range change refetches; the first range-change notification after start is ignored')", () => {
  function track() {
    const fetched: EarningsCalendarRequestBody[] = [];
    return { fetched, tracker: createRangeTracker((range) => fetched.push(range)) };
  }

  it('fetches the initial range once: the calendar announces it while rendering, the screen fetches it when built', () => {
    const { fetched, tracker } = track();
    tracker.notify(week); // announced while the calendar renders: ignored
    tracker.start(week); // the calendar is built: the initial fetch
    expect(fetched).toEqual([week]);
  });

  it('refetches every later range change', () => {
    const { fetched, tracker } = track();
    tracker.notify(week);
    tracker.start(week);
    tracker.notify(nextWeek);
    tracker.notify(week);
    tracker.notify(month);
    expect(fetched).toEqual([week, nextWeek, week, month]);
  });

  it('ignores only the first notification, whenever it comes', () => {
    const { fetched, tracker } = track();
    tracker.start(week);
    tracker.notify(week);
    tracker.notify(nextWeek);
    expect(fetched).toEqual([week, nextWeek]);
  });
});
