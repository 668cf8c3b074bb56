import { describe, expect, it } from 'vitest';
import {
  formatDay,
  formatIndicatorChange,
  formatIndicatorValue,
  formatIsoShort,
  formatNextChange,
  formatSignedPrice,
  heatBackground,
  latestIso,
  localIsoDay,
} from './dashboard-format';
import { favoriteEarnings } from './todays-earnings';
import { dashboardAlert } from './use-dashboard-data';
import { SOME_DATA_FAILED, UNEXPECTED_ERROR } from './dashboard-messages';
import type { EarningsRow } from '@signalboard/core';

const NOW = new Date(2026, 10, 20, 10, 30); // Friday

describe('dashboard formats', () => {
  it("today's ISO day is the local calendar day", () => {
    expect(localIsoDay(NOW)).toBe('2026-11-20');
    expect(localIsoDay(new Date(2026, 0, 5, 23, 59))).toBe('2026-01-05');
  });

  it('short "as of" times: the time today, the day and time before', () => {
    expect(formatIsoShort(new Date(2026, 10, 20, 9, 5).toISOString(), NOW)).toBe('9:05 AM');
    expect(formatIsoShort(new Date(2026, 10, 19, 16, 0).toISOString(), NOW)).toBe('Nov 19, 4:00 PM');
    expect(formatIsoShort('not a date', NOW)).toBe('not a date');
  });

  it('the next open or close in New York time: the time today, else the weekday and time', () => {
    const friday = new Date('2026-11-20T15:30:00Z');
    expect(formatNextChange('2026-11-20T21:00:00.000Z', friday)).toBe('4:00 PM ET');
    expect(formatNextChange('2026-11-23T14:30:00.000Z', friday)).toBe('Mon 9:30 AM ET');
    // Summer time: 13:30 UTC is 9:30 in New York.
    expect(formatNextChange('2026-07-06T13:30:00.000Z', new Date('2026-07-03T20:00:00Z'))).toBe('Mon 9:30 AM ET');
  });

  it('the latest of some ISO times', () => {
    expect(latestIso(['2026-11-20T08:00:00.000Z', 'x', '2026-11-20T09:00:00.000Z'])).toBe('2026-11-20T09:00:00.000Z');
    expect(latestIso([])).toBeNull();
  });

  it('calendar days without a zone shift', () => {
    expect(formatDay('2026-10-01')).toBe('Oct 1, 2026');
    expect(formatDay('2026-Q3')).toBe('2026-Q3');
  });

  it('signed prices and indicator numbers', () => {
    expect(formatSignedPrice(3.4)).toBe('+3.40');
    expect(formatSignedPrice(-1210.75)).toBe('\u22121,210.75');
    expect(formatSignedPrice(0)).toBe('0.00');
    expect(formatIndicatorValue(159000)).toBe('159,000');
    expect(formatIndicatorValue(4.1)).toBe('4.1');
    expect(formatIndicatorValue(-0.256)).toBe('\u22120.26');
    expect(formatIndicatorChange(4.2 - 4.1)).toBe('+0.1');
    expect(formatIndicatorChange(-2000)).toBe('\u22122,000');
    expect(formatIndicatorChange(0)).toBe('0');
  });

  it('heatmap colour: green up, red down, stronger with the move, full at 3%', () => {
    expect(heatBackground(0)).toBe('var(--mantine-color-default-hover)');
    expect(heatBackground(0.3)).toBe('color-mix(in srgb, var(--mantine-color-green-filled) 17%, var(--mantine-color-body))');
    expect(heatBackground(-1.5)).toBe('color-mix(in srgb, var(--mantine-color-red-filled) 37%, var(--mantine-color-body))');
    expect(heatBackground(3)).toBe(heatBackground(9));
    expect(heatBackground(9)).toContain('62%');
  });
});

const row = (symbol: string, time: EarningsRow['time']): EarningsRow => ({
  symbol,
  date: '2026-11-20',
  time,
  eps_actual: null,
  eps_estimate: 1,
  difference: null,
  surprise_percent: null,
  exchange: 'NASDAQ',
  country: 'US',
});

describe("today's favourite earnings", () => {
  it('keeps favourites only (any case), pre-market first, after hours last, then by symbol', () => {
    const rows = [row('tsla', 'After Hours'), row('AAPL', 'After Hours'), row('XOM', 'Pre Market'), row('MSFT', 'Time Not Supplied'), row('NVDA', 'Pre Market')];
    expect(favoriteEarnings(rows, ['AAPL', 'MSFT', 'NVDA', ' TSLA ']).map((r) => `${r.symbol} ${r.time}`)).toEqual([
      'NVDA Pre Market',
      'MSFT Time Not Supplied',
      'AAPL After Hours',
      'tsla After Hours',
    ]);
    expect(favoriteEarnings(rows, [])).toEqual([]);
  });
});

describe('the alert over the dashboard', () => {
  it('none without failures; the unexpected sentence when a failure is not an API error', () => {
    expect(dashboardAlert([{ failed: false, unexpected: false }])).toBeNull();
    expect(dashboardAlert([{ failed: true, unexpected: false }, { failed: false, unexpected: false }])).toBe(SOME_DATA_FAILED);
    expect(dashboardAlert([{ failed: true, unexpected: false }, { failed: true, unexpected: true }])).toBe(UNEXPECTED_ERROR);
  });
});
