import { describe, expect, it } from 'vitest';
import type { ZodError } from 'zod';
import { formatIssues } from './common';
import { companyNewsQuery, highLowRequest, rsiQuery, symbolQuery, trendDirectionRequest } from './market';

function msgOf(result: { success: boolean; error?: ZodError }) {
  expect(result.success).toBe(false);
  return formatIssues(result.error!);
}

describe('market contract', () => {
  it('reads api/rsi ranges as Unix seconds or dates, both or neither', () => {
    expect(rsiQuery.parse({ symbol: ' aapl ' })).toEqual({ symbol: 'AAPL' });
    expect(rsiQuery.parse({ symbol: 'AAPL', from: '2026-06-01', to: '1794592800' })).toEqual({ symbol: 'AAPL', from: 1780272000, to: 1794592800 });
    expect(rsiQuery.parse({ symbol: 'AAPL', from: '', to: '' })).toEqual({ symbol: 'AAPL' });
    // Exactly five years (with one leap day) passes; a day more does not.
    expect(rsiQuery.safeParse({ symbol: 'AAPL', from: '2021-11-13', to: '2026-11-13' }).success).toBe(true);
    expect(msgOf(rsiQuery.safeParse({ symbol: 'AAPL', from: '2021-11-11', to: '2026-11-13' }))).toBe('The range may span at most 5 years');
  });

  it('rejects api/rsi ranges with a msg that says what is wrong', () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ from: '0', to: '1794592800' }, 'from must lie between 2000-01-01 and 2099-12-31'],
      [{ from: '946684799', to: '1794592800' }, 'from must lie between 2000-01-01 and 2099-12-31'],
      [{ from: '1794592800', to: '4102444800' }, 'to must lie between 2000-01-01 and 2099-12-31'],
      [{ from: '1794592800000', to: '1794600000000' }, 'from must be Unix seconds, not milliseconds'],
      [{ from: '2026-99-99', to: '2026-11-13' }, 'from must be Unix seconds or YYYY-MM-DD'],
      [{ from: '1.5e9', to: '2026-11-13' }, 'from must be Unix seconds or YYYY-MM-DD'],
      [{ from: '-1', to: '2026-11-13' }, 'from must be Unix seconds or YYYY-MM-DD'],
      [{ from: ['2026-01-01', '2026-02-01'], to: '2026-11-13' }, 'from must be Unix seconds or YYYY-MM-DD'],
      [{ from: '2026-11-13', to: '2026-11-13' }, 'from must be before to'],
      [{ from: '2026-11-13', to: '2026-01-13' }, 'from must be before to'],
      [{ from: '2026-01-13' }, 'Give both from and to, or neither'],
      [{ to: '2026-01-13' }, 'Give both from and to, or neither'],
    ];
    for (const [range, msg] of cases) expect(msgOf(rsiQuery.safeParse({ symbol: 'AAPL', ...range })), JSON.stringify(range)).toBe(msg);
  });

  it('names a missing or malformed symbol', () => {
    expect(msgOf(symbolQuery.safeParse({}))).toBe('Symbol is required');
    expect(msgOf(symbolQuery.safeParse({ symbol: '  ' }))).toBe('Symbol is required');
    expect(msgOf(symbolQuery.safeParse({ symbol: ['AAPL', 'MSFT'] }))).toBe('Symbol must be text');
    expect(msgOf(symbolQuery.safeParse({ symbol: 'A B' }))).toBe('Symbol may hold only letters, digits and . - ^ = :');
    expect(symbolQuery.parse({ symbol: 'btc' })).toEqual({ symbol: 'BTC' });
  });

  it('reads days from JSON numbers and form text, whole and in range', () => {
    expect(highLowRequest.parse({ symbol: 'AAPL', days: '30' })).toEqual({ symbol: 'AAPL', days: 30 });
    expect(highLowRequest.parse({ symbol: 'AAPL', days: 730 })).toEqual({ symbol: 'AAPL', days: 730 });
    const cases: Array<[unknown, string]> = [
      [undefined, 'days is required'],
      ['', 'days is required'],
      ['0', 'days must be between 1 and 730'],
      [731, 'days must be between 1 and 730'],
      [-3, 'days must be between 1 and 730'],
      [2.5, 'days must be a whole number'],
      ['1e2', 'days must be a whole number'],
      ['NaN', 'days must be a whole number'],
      [true, 'days must be a whole number'],
    ];
    for (const [days, msg] of cases) expect(msgOf(highLowRequest.safeParse({ symbol: 'AAPL', days })), String(days)).toBe(msg);
    expect(trendDirectionRequest.parse({ symbol: 'AAPL' })).toEqual({ symbol: 'AAPL', days: 20, interval: '1day' });
    expect(msgOf(trendDirectionRequest.safeParse({ symbol: 'AAPL', days: 4 }))).toBe('days must be between 5 and 730');
  });

  it('names a date that is not YYYY-MM-DD, and a missing one', () => {
    expect(msgOf(companyNewsQuery.safeParse({ symbol: 'AAPL', from: 20261101, to: '2026-11-13' }))).toBe('from must be a date as YYYY-MM-DD');
    expect(msgOf(companyNewsQuery.safeParse({ symbol: 'AAPL', from: '2026-11-01' }))).toBe('to is required (YYYY-MM-DD)');
  });
});
