import { describe, expect, it } from 'vitest';
import { dayNumber } from '../../market/trading-calendar';
import { type DailySeries } from '../types';
import { benchmarkReturn, benchmarkSummary, indexBenchmark } from './benchmark';
import { outcome } from './test-engine';

// SPY on four sessions (Tue 2024-01-02 … Fri 2024-01-05).
const DATES = ['2024-01-02', '2024-01-03', '2024-01-04', '2024-01-05'];
const spy: DailySeries = {
  symbol: 'SPY',
  market: 'US',
  day: Int32Array.from(DATES, dayNumber),
  open: Float64Array.from([400, 404, 410, 420]),
  high: Float64Array.from([405, 412, 421, 425]),
  low: Float64Array.from([398, 400, 405, 415]),
  close: Float64Array.from([402, 408, 416, 424]),
  volume: Float64Array.from([1, 1, 1, 1]),
};
const bench = indexBenchmark(spy);

describe('benchmarkReturn: the same price points as the idea', () => {
  it('buys at the entry open and sells at the exit close', () => {
    const r = benchmarkReturn(outcome({ entryDate: '2024-01-02', exitDate: '2024-01-04', exitAt: 'close' }), bench);
    expect(r).toBeCloseTo(416 / 400 - 1, 12);
  });

  it("sells at the exit session's open when the idea exited at the open", () => {
    const r = benchmarkReturn(outcome({ entryDate: '2024-01-03', exitDate: '2024-01-05', exitAt: 'open' }), bench);
    expect(r).toBeCloseTo(420 / 404 - 1, 12);
  });

  it('is null while open or when SPY has no bar on a price point', () => {
    expect(benchmarkReturn(outcome({ closed: false, exitDate: null, exitAt: null }), bench)).toBeNull();
    expect(benchmarkReturn(outcome({ entryDate: '2024-01-01', exitDate: '2024-01-04' }), bench)).toBeNull();
    expect(benchmarkReturn(outcome({ entryDate: '2024-01-02', exitDate: '2024-01-08' }), bench)).toBeNull();
  });

  it('follows a layered plan’s cash flows: SPY bought with each tranche, sold in the same proportions', () => {
    const plan = outcome({
      entryDate: '2024-01-02',
      exitDate: '2024-01-05',
      exitAt: 'open',
      deployed: 4000,
      pnl: 500,
      returnPct: 0.125,
      cashFlows: [
        { date: '2024-01-02', amount: -2000 }, // ENL1 at the entry open: SPY 400 → 5 shares
        { date: '2024-01-03', amount: -2000 }, // ENL2, a limit fill: SPY close 408 → 4.9019608 shares
        { date: '2024-01-04', amount: 1800 }, // EXL1 (close 416): 1,800 / 4,500 = 40 % of the SPY position
        { date: '2024-01-05', amount: 2700 }, // the rest at the exit open (420): 60 %
      ],
    });
    // Shares = 2000/400 + 2000/408 = 9.9019608; value = 9.9019608 × (0.4 × 416 + 0.6 × 420 = 418.4) = 4,142.9804.
    const shares = 2000 / 400 + 2000 / 408;
    const expected = (shares * (0.4 * 416 + 0.6 * 420)) / 4000 - 1;
    expect(benchmarkReturn(plan, bench)).toBeCloseTo(expected, 12);
    expect(expected).toBeCloseTo(0.0357451, 6);
  });
});

describe('benchmarkSummary', () => {
  it('reports the mean benchmark return and the mean excess over the covered ideas', () => {
    const ideas = [
      outcome({ entryDate: '2024-01-02', exitDate: '2024-01-04', exitAt: 'close', returnPct: 0.1 }), // SPY +4 %
      outcome({ entryDate: '2024-01-03', exitDate: '2024-01-05', exitAt: 'open', returnPct: -0.02 }), // SPY +3.96 %
      outcome({ entryDate: '2023-12-01', exitDate: '2024-01-05', returnPct: 0.5 }), // not covered
    ];
    const s = benchmarkSummary(ideas, bench);
    const b1 = 416 / 400 - 1;
    const b2 = 420 / 404 - 1;
    expect(s.symbol).toBe('SPY');
    expect(s.meanReturn).toBeCloseTo((b1 + b2) / 2, 12);
    expect(s.meanExcess).toBeCloseTo((0.1 - b1 + (-0.02 - b2)) / 2, 12);
    expect(benchmarkSummary([], bench)).toEqual({ symbol: 'SPY', meanReturn: null, meanExcess: null });
  });
});
