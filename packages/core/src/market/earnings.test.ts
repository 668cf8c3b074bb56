import { describe, expect, it } from 'vitest';
import { earningsSurprise, earningsTimeOf, toEarningsRow } from './earnings';

describe('earnings rows (spec §3)', () => {
  it('words the release time', () => {
    expect(earningsTimeOf('bmo')).toBe('Pre Market');
    expect(earningsTimeOf('amc')).toBe('After Hours');
    expect(earningsTimeOf('')).toBe('Time Not Supplied');
    expect(earningsTimeOf('dmh')).toBe('Time Not Supplied');
  });

  it('computes difference and surprise percent', () => {
    expect(earningsSurprise(1.65, 1.5)).toEqual({ difference: 0.15, surprisePercent: 10 });
    expect(earningsSurprise(-0.2, -0.25)).toEqual({ difference: 0.05, surprisePercent: 20 });
    expect(earningsSurprise(null, 1.5)).toEqual({ difference: null, surprisePercent: null });
    expect(earningsSurprise(0.1, 0)).toEqual({ difference: 0.1, surprisePercent: null });
  });

  it('builds the row', () => {
    expect(
      toEarningsRow({ symbol: 'AAPL', date: '2026-10-29', hour: 'amc', epsActual: 1.85, epsEstimate: 1.77, exchange: 'NASDAQ', country: 'United States' }),
    ).toEqual({
      symbol: 'AAPL',
      date: '2026-10-29',
      time: 'After Hours',
      eps_actual: 1.85,
      eps_estimate: 1.77,
      difference: 0.08,
      surprise_percent: 4.52,
      exchange: 'NASDAQ',
      country: 'United States',
    });
  });
});
