import { describe, expect, it } from 'vitest';
import type { EarningsRow } from '../contract/market';
import {
  EARNINGS_HOUR_LABELS,
  earningsHourOf,
  epsLine,
  eventStartOf,
  surpriseLine,
  toCalendarEvents,
  toEarningsEvent,
} from './earnings-events';

const row = (overrides: Partial<EarningsRow> = {}): EarningsRow => ({
  symbol: 'GOOGL',
  date: '2026-11-17',
  time: 'Pre Market',
  eps_actual: 2.1,
  eps_estimate: 1.9,
  difference: 0.2,
  surprise_percent: 10.53,
  exchange: 'NASDAQ',
  country: 'United States',
  ...overrides,
});

describe('calendar events from earnings rows (spec §3 "Calendar event")', () => {
  it("is titled '{symbol} Earnings Release' and carries the row's numbers, exchange and country", () => {
    expect(toEarningsEvent(row())).toEqual({
      id: 'GOOGL:2026-11-17',
      symbol: 'GOOGL',
      title: 'GOOGL Earnings Release',
      start: '2026-11-17',
      epsActual: 2.1,
      epsEstimate: 1.9,
      difference: 0.2,
      surprisePercent: 10.53,
      hour: 'BMO',
      exchange: 'NASDAQ',
      country: 'United States',
    });
  });

  it("gives 'N/A' for each missing number ('each N/A when missing')", () => {
    const event = toEarningsEvent(row({ eps_actual: null, difference: null, surprise_percent: null }));
    expect(event).toMatchObject({ epsActual: 'N/A', epsEstimate: 1.9, difference: 'N/A', surprisePercent: 'N/A' });
    expect(toEarningsEvent(row({ eps_estimate: null })).epsEstimate).toBe('N/A');
    // Zero is a number, not a missing value.
    expect(toEarningsEvent(row({ difference: 0 })).difference).toBe(0);
  });

  it("gives 'Unknown' for a missing exchange or country", () => {
    expect(toEarningsEvent(row({ exchange: '', country: '  ' }))).toMatchObject({ exchange: 'Unknown', country: 'Unknown' });
  });
});

describe('release time mapping (spec §4, §9 "Pre Market is BMO, After Hours is AMC, others Unknown")', () => {
  it('maps the four row times', () => {
    expect(earningsHourOf('Pre Market')).toBe('BMO');
    expect(earningsHourOf('After Hours')).toBe('AMC');
    expect(earningsHourOf('Time Not Supplied')).toBe('Unknown');
    expect(earningsHourOf('Transfer Agent')).toBe('Unknown');
  });

  it('has a label for DMH but never produces it', () => {
    expect(EARNINGS_HOUR_LABELS).toEqual({
      BMO: 'Before market open',
      AMC: 'After market close',
      DMH: 'During market hours',
      Unknown: 'Time unknown',
    });
    for (const time of ['Pre Market', 'After Hours', 'Time Not Supplied', 'Transfer Agent', 'During Market Hours', 'dmh', '']) {
      expect(earningsHourOf(time)).not.toBe('DMH');
    }
  });
});

describe("the After Hours shift ('if the event date's UTC hour is before 20, the date moves one day forward')", () => {
  it('moves every After Hours row to the next day: a date-only row is 00:00 UTC, always before 20:00', () => {
    // Consequence of the rule as stated: 'YYYY-MM-DD' parses as UTC midnight (hour 0 < 20), so AMC
    // events always show on the day after the row's date.
    expect(eventStartOf({ date: '2026-11-18', time: 'After Hours' })).toBe('2026-11-19');
    expect(toEarningsEvent(row({ date: '2026-11-18', time: 'After Hours' }))).toMatchObject({ start: '2026-11-19', hour: 'AMC' });
  });

  it('crosses month and year ends', () => {
    expect(eventStartOf({ date: '2026-11-30', time: 'After Hours' })).toBe('2026-12-01');
    expect(eventStartOf({ date: '2026-12-31', time: 'After Hours' })).toBe('2027-01-01');
    expect(eventStartOf({ date: '2028-02-28', time: 'After Hours' })).toBe('2028-02-29');
  });

  it('applies the UTC-hour test as written: a date carrying 20:00 UTC or later stays', () => {
    expect(eventStartOf({ date: '2026-11-18T19:59:00Z', time: 'After Hours' })).toBe('2026-11-19');
    expect(eventStartOf({ date: '2026-11-18T20:00:00Z', time: 'After Hours' })).toBe('2026-11-18');
  });

  it('keeps the date of every other release time', () => {
    for (const time of ['Pre Market', 'Time Not Supplied', 'Transfer Agent'] as const) {
      expect(eventStartOf({ date: '2026-11-18', time })).toBe('2026-11-18');
    }
  });
});

describe("favourites filter ('when show all earnings is false (the default) only events for favourite symbols are kept')", () => {
  const rows = [row(), row({ symbol: 'NFLX', date: '2026-11-18' }), row({ symbol: 'meta', date: '2026-11-18', time: 'After Hours' })];

  it('keeps only favourites by default, matching symbols whatever their case', () => {
    const events = toCalendarEvents(rows, { favoriteSymbols: ['GOOGL', ' META '] });
    expect(events.map((event) => [event.title, event.start])).toEqual([
      ['GOOGL Earnings Release', '2026-11-17'],
      ['meta Earnings Release', '2026-11-19'],
    ]);
  });

  it('keeps every event when show all is on', () => {
    expect(toCalendarEvents(rows, { favoriteSymbols: [], showAll: true }).map((event) => event.symbol)).toEqual(['GOOGL', 'NFLX', 'meta']);
  });

  it('answers no events for an empty result, which clears the calendar', () => {
    expect(toCalendarEvents([], { favoriteSymbols: ['GOOGL'] })).toEqual([]);
    expect(toCalendarEvents([], { favoriteSymbols: [], showAll: true })).toEqual([]);
    expect(toCalendarEvents(rows, { favoriteSymbols: [] })).toEqual([]);
  });
});

describe("display strings ('EPS: actual vs estimate (difference)' and 'Surprise: N%')", () => {
  it('shows two decimals, a sign on the difference and the surprise', () => {
    const event = toEarningsEvent(row());
    expect(epsLine(event)).toBe('EPS: 2.10 vs 1.90 (+0.20)');
    expect(surpriseLine(event)).toBe('Surprise: +10.53%');
  });

  it('shows a miss with a minus sign', () => {
    const event = toEarningsEvent(row({ eps_actual: 5.5, eps_estimate: 5.8, difference: -0.3, surprise_percent: -5.17 }));
    expect(epsLine(event)).toBe('EPS: 5.50 vs 5.80 (\u22120.30)');
    expect(surpriseLine(event)).toBe('Surprise: \u22125.17%');
  });

  it("shows 'N/A' for missing numbers and no sign for zero", () => {
    const missing = toEarningsEvent(row({ eps_actual: null, difference: null, surprise_percent: null, eps_estimate: 4.1 }));
    expect(epsLine(missing)).toBe('EPS: N/A vs 4.10 (N/A)');
    expect(surpriseLine(missing)).toBe('Surprise: N/A');
    const met = toEarningsEvent(row({ eps_actual: 1, eps_estimate: 1, difference: 0, surprise_percent: 0 }));
    expect(epsLine(met)).toBe('EPS: 1.00 vs 1.00 (0.00)');
    expect(surpriseLine(met)).toBe('Surprise: 0.00%');
  });
});
