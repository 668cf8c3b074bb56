import { describe, expect, it } from 'vitest';
import { trackRecord } from '../../contract/trades';
import { isoFromDayNumber } from '../../market/trading-calendar';
import { type DailySeries, type IdeaOutcome, type StoredIdeaEvent } from '../types';
import { computeTrackRecord, filterScope, SURVIVORSHIP_NOTE, type TrackRecordInput } from './track-record';
import { nyseSessions, outcome, toyEngine, toySeries } from './test-engine';

const NOW = '2024-06-28T21:00:00.000Z';

function input(overrides: Partial<TrackRecordInput<unknown, unknown, unknown>> = {}): TrackRecordInput<unknown, unknown, unknown> {
  return {
    engine: toyEngine({ holdSessions: 21 }) as never,
    outcomes: [],
    voided: [],
    series: new Map(),
    universeOn: () => [],
    benchmark: null,
    scope: {},
    now: NOW,
    survivorshipBiased: false,
    ...overrides,
  };
}

describe('filterScope: CreatedAt within [from, to] and the symbol contains the filter', () => {
  const items = [
    outcome({ symbol: 'AAPL', createdAt: '2024-03-01' }),
    outcome({ symbol: 'MSFT', createdAt: '2024-03-15' }),
    outcome({ symbol: 'aapx', createdAt: '2024-03-31T20:30:00.000Z' }),
    outcome({ symbol: 'NVDA', createdAt: '2024-04-01T20:30:00.000Z' }),
  ];
  const symbols = (scope: Parameters<typeof filterScope>[1]) => filterScope(items, scope).map((i) => i.symbol);

  it('includes both ends; a date-only "to" runs through the end of that day', () => {
    expect(symbols({ from: '2024-03-01', to: '2024-03-31' })).toEqual(['AAPL', 'MSFT', 'aapx']);
    expect(symbols({ from: '2024-03-15', to: '2024-03-15' })).toEqual(['MSFT']);
    expect(symbols({ from: '2024-04-01' })).toEqual(['NVDA']);
  });

  it('takes instants too', () => {
    expect(symbols({ from: '2024-03-31T20:30:00.000Z', to: '2024-04-01T20:30:00.000Z' })).toEqual(['aapx', 'NVDA']);
    expect(symbols({ to: '2024-03-31T20:29:59.999Z' })).toEqual(['AAPL', 'MSFT']);
  });

  it('matches the symbol case-insensitively, anywhere in it', () => {
    expect(symbols({ symbol: 'aap' })).toEqual(['AAPL', 'aapx']);
    expect(symbols({ symbol: 'SF' })).toEqual(['MSFT']);
    expect(symbols({ symbol: '' })).toHaveLength(4);
  });

  it('refuses a bound that is not a date', () => {
    expect(() => symbols({ from: 'last week' })).toThrow(/from must be/);
    expect(() => symbols({ to: '2024-02-30' })).toThrow(/to must be/);
  });
});

describe('computeTrackRecord: groups', () => {
  const ideas: IdeaOutcome[] = [
    outcome({ ideaId: 'a', origin: 'replayed', types: ['Price Drop', 'Level System'], entryDate: '2024-03-04', returnPct: 0.05 }),
    outcome({ ideaId: 'b', origin: 'replayed', types: ['Trend'], entryDate: '2024-03-12', returnPct: -0.03, closeReason: 'stop', status: 'Failed' }),
    outcome({ ideaId: 'c', origin: 'replayed', types: ['Trend', 'Level System'], entryDate: '2024-05-20', returnPct: 0.02 }),
    outcome({ ideaId: 'd', origin: 'live', types: ['Trend'], entryDate: '2024-05-21', returnPct: 0.08 }),
    outcome({ ideaId: 'e', origin: 'live', types: ['Trend'], entryDate: '2024-06-10', closed: false, exitDate: null, exitAt: null, returnPct: 0.01, holdingSessions: 14, status: 'Active', closeReason: null }),
    outcome({ ideaId: 'f', origin: 'live', types: ['Price Drop'], entryDate: '2024-06-24', closed: false, exitDate: null, exitAt: null, returnPct: -0.02, holdingSessions: 5, status: 'Active', closeReason: null }),
    outcome({ ideaId: 'g', origin: 'replayed', ruleVersion: 'swing@0.9.0', types: ['Trend'], entryDate: '2024-03-05', returnPct: 0.04 }),
  ];
  const record = computeTrackRecord(
    input({
      outcomes: ideas,
      voided: [
        { origin: 'replayed', ruleVersion: 'swing@1.0.0', types: ['Trend'], count: 2 },
        { origin: 'live', ruleVersion: 'swing@1.0.0', count: 1 },
      ],
    }),
  );
  const group = (origin: string, type: string, ruleVersion = 'swing@1.0.0') =>
    record.groups.find((g) => g.origin === origin && g.type === type && g.ruleVersion === ruleVersion);

  it('answers the contract', () => {
    expect(() => trackRecord.parse(record)).not.toThrow();
    expect(record).toMatchObject({ engine: 'swing', costBps: 5, asOf: NOW, survivorshipNote: null, scope: { from: null, to: null, symbol: null } });
  });

  it('never pools origins: each (type, origin, RuleVersion) counts only its own ideas', () => {
    expect(group('replayed', 'All')!.allClosed.n).toBe(3);
    expect(group('live', 'All')!.allClosed.n).toBe(1);
    expect(group('live', 'All')!.allClosed.meanReturn).toBeCloseTo(0.08, 12);
    expect(group('replayed', 'All', 'swing@0.9.0')!.allClosed.n).toBe(1);
    for (const g of record.groups) expect(g.allClosed.n + g.open.count).toBeLessThanOrEqual(4);
  });

  it("has an 'All' group and one per type; Level System overlaps the others", () => {
    expect(record.groups.filter((g) => g.origin === 'replayed' && g.ruleVersion === 'swing@1.0.0').map((g) => g.type)).toEqual([
      'All',
      'Level System',
      'Price Drop',
      'Trend',
    ]);
    expect(group('replayed', 'Level System')!.allClosed.n).toBe(2);
    expect(group('replayed', 'Trend')!.allClosed.n).toBe(2);
    expect(group('replayed', 'Price Drop')!.allClosed.n).toBe(1);
    // Newest version first, live before replayed.
    expect(record.groups.map((g) => `${g.ruleVersion} ${g.origin}`).filter((v, i, a) => a.indexOf(v) === i)).toEqual([
      'swing@1.0.0 live',
      'swing@1.0.0 replayed',
      'swing@0.9.0 replayed',
    ]);
  });

  it('mature: only cohorts past their last day + 21 sessions; otherwise "no mature cohort yet"', () => {
    // On 2024-06-28 the March cohort (mature 2024-04-30) is mature; May's (2024-07-01) is not.
    expect(group('replayed', 'All')!.mature!.n).toBe(2);
    expect(group('replayed', 'All')!.mature!.meanReturn).toBeCloseTo(0.01, 12);
    expect(group('live', 'All')!.mature).toBeNull();
    expect(group('live', 'Trend')!.mature).toBeNull();
  });

  it("matures each idea's cohort by its own type's longest hold where the engine's types differ (drop S 21, L 252)", () => {
    const engine = { ...toyEngine({ holdSessions: 252 }), maxHoldSessionsOf: (type: string) => (type === 'S' ? 21 : 252) };
    const mixed = [
      outcome({ ideaId: 's', origin: 'replayed', types: ['S'], entryDate: '2024-03-04', returnPct: 0.05 }),
      outcome({ ideaId: 'l', origin: 'replayed', types: ['L'], entryDate: '2024-03-05', returnPct: 0.2 }),
    ];
    const byType = computeTrackRecord(input({ engine: engine as never, outcomes: mixed }));
    const of = (type: string) => byType.groups.find((g) => g.type === type)!;
    // The March cohort is past 21 sessions on 2024-06-28, not past 252.
    expect(of('S').mature!.n).toBe(1);
    expect(of('L').mature).toBeNull();
    expect(of('All').mature!.n).toBe(1);
    // Without per-type holds the engine's longest applies to every idea.
    const single = computeTrackRecord(input({ engine: toyEngine({ holdSessions: 252 }) as never, outcomes: mixed }));
    expect(single.groups.find((g) => g.type === 'S')!.mature).toBeNull();
  });

  it('shows the open ideas beside the closed: count, average mark, oldest in sessions', () => {
    expect(group('live', 'All')!.open).toEqual({ count: 2, avgMark: expect.closeTo(-0.005, 12), oldestSessions: 14 });
    expect(group('live', 'Price Drop')!.open).toEqual({ count: 1, avgMark: -0.02, oldestSessions: 5 });
    expect(group('replayed', 'All')!.open).toEqual({ count: 0, avgMark: null, oldestSessions: null });
  });

  it('counts voided ideas apart, in All and in the types named', () => {
    expect(group('replayed', 'All')!.voided).toBe(2);
    expect(group('replayed', 'Trend')!.voided).toBe(2);
    expect(group('replayed', 'Price Drop')!.voided).toBe(0);
    expect(group('live', 'All')!.voided).toBe(1);
    expect(group('live', 'Trend')!.voided).toBe(0);
  });

  it('has a baseline only for the current rule version (it runs the current code), and no benchmark without SPY', () => {
    expect(group('replayed', 'All')!.baseline).toEqual({ n: 0, winRate: null, meanReturn: null, dollarWeighted: null });
    expect(group('replayed', 'All', 'swing@0.9.0')!.baseline).toBeNull();
    expect(group('replayed', 'All')!.benchmark).toBeNull();
  });

  it('follows the scope and says so; the survivorship note when biased', () => {
    const scoped = computeTrackRecord(input({ outcomes: ideas, scope: { from: '2024-01-01', to: '2024-12-31', symbol: 'zz' }, survivorshipBiased: true }));
    expect(scoped.scope).toEqual({ from: '2024-01-01', to: '2024-12-31', symbol: 'zz' });
    expect(scoped.groups).toEqual([]);
    expect(scoped.survivorshipNote).toBe(SURVIVORSHIP_NOTE);
    const bySymbol = computeTrackRecord(input({ outcomes: [...ideas, outcome({ ideaId: 'z', symbol: 'ZZZ', origin: 'live' })], scope: { symbol: 'zz' } }));
    expect(bySymbol.groups.map((g) => [g.origin, g.type, g.allClosed.n])).toEqual([
      ['live', 'All', 1],
      ['live', 'Trend', 1],
    ]);
  });
});

describe('computeTrackRecord end to end with a toy engine', () => {
  const DAYS = nyseSessions(160);
  const series = new Map<string, DailySeries>();
  for (let i = 0; i < 30; i += 1) {
    const symbol = `S${String(i).padStart(2, '0')}`;
    series.set(symbol, toySeries(symbol, i + 7, DAYS, 0.005 + i * 0.001));
  }
  const spy = toySeries('SPY', 1234, DAYS, 0.008);
  const engine = toyEngine({ holdSessions: 5, dollars: true });
  // Real ideas: the engine's own events, folded and turned into outcomes as the server will.
  const realIdeas = (origin: 'replayed' | 'live') =>
    [40, 55, 70, 90, 120].map((signalIndex, k) => {
      const s = series.get(`S${String(k * 5).padStart(2, '0')}`)!;
      const ideaId = `swing.${s.symbol}.${isoFromDayNumber(s.day[signalIndex]!)}`;
      const stored: StoredIdeaEvent[] = engine
        .simulate({ params: engine.params, series: s, signalIndex, ideaId })
        .map((e) => ({ ...e, ruleVersion: engine.ruleVersion, paramHash: engine.paramHash, origin, recordedAt: `${e.barDate}T21:30:00.000Z` }));
      return engine.outcome(stored, engine.fold(stored, null, NOW))!;
    });
  const run = () =>
    computeTrackRecord({
      engine,
      outcomes: [...realIdeas('replayed'), ...realIdeas('live')],
      voided: [],
      series,
      universeOn: () => [...series.keys()],
      benchmark: spy,
      scope: {},
      now: isoFromDayNumber(DAYS[159]!) + 'T22:00:00.000Z',
      survivorshipBiased: false,
    });

  it('runs the baseline (≤ 20 draws per idea from its tercile) and the benchmark, deterministically', () => {
    const record = run();
    expect(() => trackRecord.parse(record)).not.toThrow();
    const all = record.groups.find((g) => g.origin === 'replayed' && g.type === 'All')!;
    expect(all.allClosed.n).toBe(5);
    // 30 warm symbols, terciles of 10, less the own symbol: 9 draws per idea.
    expect(all.baseline!.n).toBe(45);
    expect(all.baseline!.winRate).not.toBeNull();
    expect(all.baseline!.dollarWeighted).not.toBeNull();
    expect(all.allClosed.dollarWeighted!.onCommitted).toBeCloseTo((all.allClosed.dollarWeighted!.onDeployed! * 2000) / 10_000, 12);
    expect(all.benchmark!.symbol).toBe('SPY');
    expect(all.benchmark!.meanExcess).toBeCloseTo(all.allClosed.meanReturn! - all.benchmark!.meanReturn!, 12);
    // The same draws for both origins' copies of an idea, but never pooled: each group has its own n.
    const live = record.groups.find((g) => g.origin === 'live' && g.type === 'All')!;
    expect(live.baseline).toEqual(all.baseline);
    expect(run()).toEqual(record);
  });
});
