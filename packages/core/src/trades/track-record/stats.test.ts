import { describe, expect, it } from 'vitest';
import { BOOTSTRAP_SEED, bootstrapMeanInterval, breakEvenWinRate, computeIdeaStats, entryWeekOf, median, profitFactor, quantileSorted, wilsonInterval, xirr } from './stats';
import { sha256 } from './sha256';
import { outcome } from './test-engine';

describe('wilsonInterval (z = 1.96)', () => {
  it('7 wins of 10: p = 0.7, interval [0.3968, 0.8922]', () => {
    // By hand: z² = 3.8416, z²/n = 0.38416, denominator 1.38416.
    // centre = (0.7 + 0.19208) / 1.38416 = 0.644492; half = 1.96·√(0.021 + 0.009604) / 1.38416
    // = 1.96 × 0.174940 / 1.38416 = 0.247719 → [0.396773, 0.892211].
    const w = wilsonInterval(7, 10)!;
    expect(w.rate).toBe(0.7);
    expect(w.low).toBeCloseTo(0.396773, 5);
    expect(w.high).toBeCloseTo(0.892211, 5);
  });

  it('0 wins of 10: [0, 0.2775] (not the empty interval of p ± z·se)', () => {
    // centre = 0.19208 / 1.38416 = 0.138770; half = 1.96 × √0.009604 / 1.38416 = 0.138770 → [0, 0.277540].
    const w = wilsonInterval(0, 10)!;
    expect(w.low).toBeCloseTo(0, 12);
    expect(w.high).toBeCloseTo(0.27754, 5);
  });

  it('50 of 100: [0.4038, 0.5962]', () => {
    // centre = 0.5 exactly (symmetric); half = 1.96·√(0.0025 + 0.00009604) / 1.038416
    // = 1.96 × 0.0509513 / 1.038416 = 0.0961700 → [0.403830, 0.596170].
    const w = wilsonInterval(50, 100)!;
    expect(w.low).toBeCloseTo(0.40383, 5);
    expect(w.high).toBeCloseTo(0.59617, 5);
  });

  it('is null without trials', () => {
    expect(wilsonInterval(0, 0)).toBeNull();
  });
});

describe('break-even win rate, profit factor, median, quantile', () => {
  it('break-even = |avg loss| / (avg win + |avg loss|)', () => {
    expect(breakEvenWinRate(0.05, -0.03)).toBeCloseTo(0.375, 12);
    expect(breakEvenWinRate(0.05, null)).toBeNull();
  });

  it("profit factor is Σ gains / |Σ losses|, null ('—') with no losses", () => {
    expect(profitFactor([0.1, 0.05, -0.05])).toBeCloseTo(3, 12);
    expect(profitFactor([0.1, 0.05, 0])).toBeNull();
  });

  it('median and type-7 quantiles', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 2, 3])).toBe(2.5);
    expect(median([])).toBeNull();
    expect(quantileSorted([0, 10], 0.25)).toBe(2.5);
  });

  it('entry weeks start on Monday', () => {
    // 2024-01-01 was a Monday; the 7th a Sunday, the 8th the next Monday.
    expect(entryWeekOf('2024-01-01')).toBe(entryWeekOf('2024-01-07'));
    expect(entryWeekOf('2024-01-08')).toBe(entryWeekOf('2024-01-01') + 7);
    expect(entryWeekOf('1970-01-01')).toBe(-3);
  });
});

describe('bootstrapMeanInterval', () => {
  const returns = [0.05, -0.02, 0.03, 0.04, -0.06, 0.01, 0.02, -0.01, 0.07, -0.03, 0.0, 0.02];
  const weeks = [0, 0, 7, 7, 14, 14, 21, 28, 28, 35, 42, 42];

  it('is deterministic: the same seed gives the same interval', () => {
    const a = bootstrapMeanInterval(returns, weeks)!;
    const b = bootstrapMeanInterval(returns, weeks, { seed: BOOTSTRAP_SEED })!;
    expect(a).toEqual(b);
    expect(a.low).toBeLessThan(0.0083);
    expect(a.high).toBeGreaterThan(0.0083);
  });

  it('changes with the seed', () => {
    const a = bootstrapMeanInterval(returns, weeks)!;
    const c = bootstrapMeanInterval(returns, weeks, { seed: sha256('another seed').slice(0, 8) })!;
    expect(c).not.toEqual(a);
  });

  it('resamples whole weeks: one week gives a point interval at its mean', () => {
    const one = bootstrapMeanInterval([0.01, 0.03], [5, 5])!;
    expect(one.low).toBeCloseTo(0.02, 12);
    expect(one.high).toBeCloseTo(0.02, 12);
  });

  it('is wider when like returns cluster in the same weeks (a sell-off week holds the losses)', () => {
    const spread = bootstrapMeanInterval(returns, returns.map((_, i) => i * 7))!;
    // The same returns in three weeks by rank: the four worst, the four middle, the four best.
    const rank = [...returns.keys()].sort((a, b) => returns[a]! - returns[b]!);
    const clusteredWeeks = returns.map((_, i) => Math.floor(rank.indexOf(i) / 4) * 7);
    const clustered = bootstrapMeanInterval(returns, clusteredWeeks)!;
    expect(clustered.high - clustered.low).toBeGreaterThan(spread.high - spread.low);
  });

  it('is null when empty', () => {
    expect(bootstrapMeanInterval([], [])).toBeNull();
  });
});

describe('xirr', () => {
  it("matches Excel's XIRR documentation example (0.373362535)", () => {
    const flows = [
      { date: '2008-01-01', amount: -10000 },
      { date: '2008-03-01', amount: 2750 },
      { date: '2008-10-30', amount: 4250 },
      { date: '2009-02-15', amount: 3250 },
      { date: '2009-04-01', amount: 2750 },
    ];
    expect(xirr(flows)).toBeCloseTo(0.373362535, 8);
  });

  it('one year, +10 %, 365 days: exactly 0.10; a loss gives a negative rate', () => {
    expect(xirr([{ date: '2021-01-01', amount: -1000 }, { date: '2022-01-01', amount: 1100 }])).toBeCloseTo(0.1, 10);
    // −1000 then +500 after 365 days: r = −0.5.
    expect(xirr([{ date: '2021-01-01', amount: -1000 }, { date: '2022-01-01', amount: 500 }])).toBeCloseTo(-0.5, 10);
  });

  it('finds roots far from 0 on either side (+500 %, −90 %)', () => {
    expect(xirr([{ date: '2021-01-01', amount: -1000 }, { date: '2022-01-01', amount: 6000 }])).toBeCloseTo(5, 9);
    expect(xirr([{ date: '2021-01-01', amount: -1000 }, { date: '2022-01-01', amount: 100 }])).toBeCloseTo(-0.9, 10);
    // Half a year at +10 %: (1.1)^(365/181) − 1 (2021-01-01 → 2021-07-01 is 181 days).
    expect(xirr([{ date: '2021-01-01', amount: -1000 }, { date: '2021-07-01', amount: 1100 }])).toBeCloseTo(1.1 ** (365 / 181) - 1, 10);
  });

  it('pools flows of the same day and order does not matter', () => {
    const a = xirr([
      { date: '2022-01-01', amount: 600 },
      { date: '2021-01-01', amount: -400 },
      { date: '2021-01-01', amount: -600 },
      { date: '2022-01-01', amount: 500 },
    ]);
    expect(a).toBeCloseTo(0.1, 10);
  });

  it('is null when the flows do not change sign or there is no root in range', () => {
    expect(xirr([{ date: '2021-01-01', amount: -1000 }])).toBeNull();
    expect(xirr([{ date: '2021-01-01', amount: 100 }, { date: '2021-06-01', amount: 100 }])).toBeNull();
    expect(xirr([])).toBeNull();
    // A total loss one day later: r → −100 %, outside (−99.99 %, …).
    expect(xirr([{ date: '2021-01-01', amount: -1000 }, { date: '2021-01-02', amount: 1e-9 }])).toBeNull();
  });
});

describe('computeIdeaStats', () => {
  it('computes the §6.3 figures of a small set', () => {
    const outcomes = [
      outcome({ returnPct: 0.1, entryDate: '2024-01-03', holdingSessions: 3, maxAdverseExcursion: -0.02, closeReason: 'target', status: 'Successful' }),
      outcome({ returnPct: -0.05, entryDate: '2024-01-04', holdingSessions: 10, maxAdverseExcursion: -0.07, closeReason: 'stop', status: 'Failed' }),
      outcome({ returnPct: 0.02, entryDate: '2024-01-10', holdingSessions: 21, maxAdverseExcursion: -0.04, closeReason: 'time', status: 'Partial' }),
      outcome({ returnPct: 0, entryDate: '2024-01-17', holdingSessions: 21, maxAdverseExcursion: -0.01, closeReason: 'time', status: 'Failed' }),
    ];
    const s = computeIdeaStats(outcomes);
    expect(s.n).toBe(4);
    expect(s.entryWeeks).toBe(3);
    expect(s.wins).toBe(2);
    expect(s.winRate!.rate).toBe(0.5);
    expect(s.meanReturn).toBeCloseTo(0.0175, 12);
    expect(s.medianReturn).toBeCloseTo(0.01, 12);
    expect(s.avgWin).toBeCloseTo(0.06, 12);
    expect(s.avgLoss).toBeCloseTo(-0.05, 12);
    expect(s.breakEvenWinRate).toBeCloseTo(0.05 / 0.11, 12);
    expect(s.profitFactor).toBeCloseTo(0.12 / 0.05, 12);
    expect(s.holdingMedian).toBe(15.5);
    expect(s.holdingMax).toBe(21);
    expect(s.worstReturn).toBe(-0.05);
    expect(s.maxAdverseExcursion).toBe(-0.07);
    expect(s.exitReasons).toEqual({ target: 0.25, stop: 0.25, time: 0.5 });
    expect(s.statuses).toEqual({ Successful: 0.25, Failed: 0.5, Partial: 0.25 });
    expect(s.dollarWeighted).toBeNull();
    expect(s.meanInterval!.low).toBeLessThanOrEqual(s.meanReturn!);
    expect(s.meanInterval!.high).toBeGreaterThanOrEqual(s.meanReturn!);
  });

  it("has no profit factor ('—') when nothing lost", () => {
    const s = computeIdeaStats([outcome({ returnPct: 0.03 }), outcome({ returnPct: 0.01 })]);
    expect(s.profitFactor).toBeNull();
    expect(s.avgLoss).toBeNull();
    expect(s.breakEvenWinRate).toBeNull();
  });

  it('is all nulls when empty', () => {
    const s = computeIdeaStats([]);
    expect(s).toMatchObject({ n: 0, entryWeeks: 0, wins: 0, winRate: null, meanReturn: null, meanInterval: null, dollarWeighted: null, holdingMax: null });
    expect(s.exitReasons).toEqual({});
  });

  it('dollar-weights layered plans: Σ P&L / Σ deployed, / (N × 10,000), and the pooled XIRR', () => {
    // Plan A deploys 2,000 and makes +200 over a year; plan B deploys 10,000 and loses 500 over a year.
    // The mean of per-plan returns is (+10 % − 5 %) / 2 = +2.5 %, but the dollars lost 300 of 12,000.
    const a = outcome({
      returnPct: 0.1,
      deployed: 2000,
      pnl: 200,
      cashFlows: [
        { date: '2021-01-01', amount: -2000 },
        { date: '2022-01-01', amount: 2200 },
      ],
    });
    const b = outcome({
      returnPct: -0.05,
      deployed: 10000,
      pnl: -500,
      cashFlows: [
        { date: '2021-01-01', amount: -10000 },
        { date: '2022-01-01', amount: 9500 },
      ],
    });
    const s = computeIdeaStats([a, b]);
    expect(s.meanReturn).toBeCloseTo(0.025, 12);
    expect(s.dollarWeighted!.onDeployed).toBeCloseTo(-300 / 12000, 12);
    expect(s.dollarWeighted!.onCommitted).toBeCloseTo(-300 / 20000, 12);
    expect(s.dollarWeighted!.xirr).toBeCloseTo(-0.025, 10);
  });
});
