import type { BacktestStats } from '@signalboard/core';
import { describe, expect, it } from 'vitest';
import { RESULT } from './__fixtures__/backtest';
import { equityDescription, equitySummary, immatureText, intervalText, longerRangeText, positiveIntervalText, progressText, verdictOf, verdictReason, windowText } from './backtest-model';

const stats = (low: number | null, high: number | null, n = 50): BacktestStats => ({
  n,
  mean: low === null || high === null ? null : (low + high) / 2,
  mean_low: low,
  mean_high: high,
  median: null,
  positive: null,
});

describe('verdictOf: the scan against random entries, from the two means’ intervals', () => {
  it('beats them only when its whole interval lies above theirs', () => {
    expect(verdictOf({ scan: stats(0.011, 0.03), random: stats(-0.01, 0.01) })).toBe('beats');
    expect(verdictOf({ scan: stats(0.01, 0.03), random: stats(-0.01, 0.01) })).toBe('indistinguishable'); // touching
    expect(verdictOf({ scan: stats(0.005, 0.03), random: stats(-0.01, 0.01) })).toBe('indistinguishable');
  });

  it('is worse only when its whole interval lies below theirs', () => {
    expect(verdictOf({ scan: stats(-0.05, -0.011), random: stats(-0.01, 0.01) })).toBe('worse');
    expect(verdictOf({ scan: stats(-0.05, -0.01), random: stats(-0.01, 0.01) })).toBe('indistinguishable');
  });

  it('a wide interval around theirs tells nothing', () => {
    expect(verdictOf({ scan: stats(-0.2, 0.2), random: stats(-0.01, 0.01) })).toBe('indistinguishable');
  });

  it('judges nothing without mature entries or without an interval', () => {
    expect(verdictOf({ scan: stats(null, null, 0), random: stats(-0.01, 0.01) })).toBe('no-data');
    expect(verdictOf({ scan: stats(0.02, 0.03), random: stats(null, null, 0) })).toBe('no-data');
  });

  it('says which intervals it read', () => {
    expect(verdictReason(RESULT.horizons[0]!)).toBe("The scan's mean interval (+1.20% to +3.00%) lies above the random entries' (−0.10% to +0.50%).");
    expect(verdictReason(RESULT.horizons[1]!)).toBe("The scan's mean interval (−0.40% to +2.60%) overlaps the random entries' (+0.40% to +1.20%).");
    expect(verdictReason(RESULT.horizons[2]!)).toBe("The scan's mean interval (−7.00% to −1.20%) lies below the random entries' (+1.60% to +3.20%).");
    expect(verdictReason({ scan: stats(null, null, 0), random: stats(0, 0.01) })).toBe('No entry of this scan is old enough for this horizon yet.');
  });
});

describe('texts', () => {
  it('writes intervals with signs, shares as percentages', () => {
    expect(intervalText(stats(-0.004, 0.026))).toBe('−0.40% to +2.60%');
    expect(intervalText(stats(null, null))).toBe('—');
    expect(positiveIntervalText(RESULT.horizons[0]!.scan)).toBe('54.0%–70.0%');
    expect(positiveIntervalText(stats(null, null))).toBe('—');
  });

  it('states the entries too recent for a horizon', () => {
    expect(immatureText({ horizon: 63, immature: 47 })).toBe('47 entries too recent for 63 sessions (left out of the figures)');
    expect(immatureText({ horizon: 5, immature: 1 })).toBe('1 entry too recent for 5 sessions (left out of the figures)');
    expect(immatureText({ horizon: 5, immature: 0 })).toBeNull();
  });

  it('writes the window replayed', () => {
    expect(windowText(RESULT)).toBe('Nov 21, 2024 – Nov 20, 2026 · 501 sessions · 503 symbols · 143 entries');
    expect(windowText({ ...RESULT, sessions: 1, symbols: 1, entries: 1 })).toBe('Nov 21, 2024 – Nov 20, 2026 · 1 session · 1 symbol · 1 entry');
  });

  it('counts the sessions replayed, and says what comes before the first', () => {
    expect(progressText({ status: 'running', done: 1200, total: 1501 })).toBe('Replaying session 1,200 of 1,501');
    expect(progressText({ status: 'running', done: 0, total: 0 })).toBe('Reading the daily bars...');
    expect(progressText({ status: 'queued', done: 0, total: 0 })).toBe('Waiting for the backtest to start...');
  });
});

describe('equitySummary', () => {
  it('answers the final return and the largest fall from a peak', () => {
    const summary = equitySummary(RESULT.equity)!;
    expect(summary.finalReturn).toBeCloseTo(0.05, 12);
    expect(summary.maxDrawdown).toBeCloseTo(0.99 / 1.1 - 1, 12);
  });

  it('starts from 1: a curve that only falls draws down from the start', () => {
    const summary = equitySummary([
      { date: '2025-01-02', value: 0.9 },
      { date: '2025-01-03', value: 0.95 },
    ])!;
    expect(summary.maxDrawdown).toBeCloseTo(-0.1, 12);
    expect(summary.finalReturn).toBeCloseTo(-0.05, 12);
  });

  it('has nothing to say of an empty curve', () => {
    expect(equitySummary([])).toBeNull();
    expect(equityDescription({ ...RESULT, equity: [] })).toBe('No equity curve: the replay had no entries.');
  });

  it('describes the curve in words (the chart’s text alternative)', () => {
    expect(equityDescription(RESULT)).toBe('Equal-weight entries held 21 sessions, Nov 21, 2024 to Nov 26, 2024: final value +5.00%, max drawdown −10.00%.');
  });
});

describe('longerRangeText: a backtest that reached back to older imported prices', () => {
  it('is null for the usual two years, and names the range covered beyond them', () => {
    expect(longerRangeText({ from: '2024-11-04', to: '2026-11-02' })).toBeNull();
    expect(longerRangeText({ from: '2024-11-01', to: '2026-11-02' })).toBe(
      "The universe's imported prices go back further than two years, so this backtest covers Nov 1, 2024 – Nov 2, 2026 (five years at most).",
    );
  });
});
