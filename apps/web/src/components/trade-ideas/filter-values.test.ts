import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dateRangeError, dateSymbolQuery, localDayEndMs, localDayStartMs, matchesDateSymbol, NO_DATE_SYMBOL_FILTER } from './filter-values';

// A zone away from UTC, so "local" cannot pass by being UTC.
const savedTz = process.env.TZ;
beforeAll(() => {
  process.env.TZ = 'America/New_York';
});
afterAll(() => {
  process.env.TZ = savedTz;
});

describe('trade filters: dates in the browser’s zone, symbol case-insensitive', () => {
  it('From Date starts at local midnight and To Date runs through 23:59:59 local', () => {
    expect(new Date(localDayStartMs('2026-11-20')!).toISOString()).toBe('2026-11-20T05:00:00.000Z');
    expect(new Date(localDayEndMs('2026-11-20')!).toISOString()).toBe('2026-11-21T04:59:59.999Z');
    expect(localDayStartMs('')).toBeNull();
    expect(localDayStartMs('2026-02-30')).toBeNull();
  });

  it('keeps an idea created at 23:59:59 local on the To Date, not one a second later', () => {
    const filter = { ...NO_DATE_SYMBOL_FILTER, from: '2026-11-20', to: '2026-11-20' };
    // 23:59:59 in New York is 04:59:59 UTC the next day: a UTC reading would drop it.
    expect(matchesDateSymbol(filter, 'AAPL', '2026-11-21T04:59:59.000Z')).toBe(true);
    expect(matchesDateSymbol(filter, 'AAPL', '2026-11-21T05:00:00.000Z')).toBe(false);
    expect(matchesDateSymbol(filter, 'AAPL', '2026-11-20T05:00:00.000Z')).toBe(true);
    expect(matchesDateSymbol(filter, 'AAPL', '2026-11-20T04:59:59.999Z')).toBe(false);
  });

  it('matches the symbol as a case-insensitive contains, trimmed', () => {
    expect(matchesDateSymbol({ ...NO_DATE_SYMBOL_FILTER, symbol: ' ap ' }, 'AAPL', '2026-11-20T12:00:00Z')).toBe(true);
    expect(matchesDateSymbol({ ...NO_DATE_SYMBOL_FILTER, symbol: 'msf' }, 'AAPL', '2026-11-20T12:00:00Z')).toBe(false);
    expect(matchesDateSymbol(NO_DATE_SYMBOL_FILTER, 'AAPL', '2026-11-20T12:00:00Z')).toBe(true);
  });

  it('sends the same range to the server as instants, and names a reversed range', () => {
    expect(dateSymbolQuery({ from: '2026-11-01', to: '2026-11-20', symbol: ' aapl ' })).toEqual({
      from: '2026-11-01T04:00:00.000Z',
      to: '2026-11-21T04:59:59.999Z',
      symbol: 'aapl',
    });
    expect(dateSymbolQuery(NO_DATE_SYMBOL_FILTER)).toEqual({});
    expect(dateRangeError({ from: '2026-11-21', to: '2026-11-20', symbol: '' })).toBe('From Date is after To Date.');
    expect(dateRangeError({ from: '2026-11-20', to: '2026-11-20', symbol: '' })).toBeNull();
  });
});
