import { describe, expect, it } from 'vitest';
import { layeredTrade } from '../../../contract/trades';
import { isoFromDayNumber } from '../../../market/trading-calendar';
import { replay } from '../../kit/replay';
import { flatBars, risingBars, seriesOf, type Bar } from '../../kit/test-bars';
import { closeTimeOf, passTimeOf } from '../../kit/times';
import { LAYERED_PARAMS, layeredEngine, type LayeredParams } from './engine';
import { layeredDerivedFields, type LayeredPlanFields } from './row';
import type { DailySeries, IdeaEvent, StoredIdeaEvent, UniverseMember } from '../../types';

// A flat base: close 100, High/Low ± 0.5, so ATR14 = 1, ATR% = 1 % and u = clamp(1.5 %, 3 %, 8 %) = 3 %;
// H = 100.5. Levels: ENL2..5 = 94.47, 91.45, 86.93, 82.41 (down); EXL1..5 = 100.5, 103.52, 106.53,
// 109.55, 115.58 (up); stop 77.88 (down).
const BASE = flatBars(270);
const SIGNAL = 269;
const b = (o: number, h: number, l: number, c: number): Bar => ({ o, h, l, c });
const NOW = '2030-01-01T00:00:00.000Z';

function simulate(after: Bar[], params: LayeredParams = LAYERED_PARAMS): IdeaEvent[] {
  const series = seriesOf('AAA', [...BASE, ...after]);
  return layeredEngine.simulate({ params, series, signalIndex: SIGNAL, ideaId: 'layered.AAA.test' });
}

function stamp(events: readonly IdeaEvent[]): StoredIdeaEvent[] {
  return events.map((event) => ({ ...event, ruleVersion: layeredEngine.ruleVersion, paramHash: layeredEngine.paramHash, origin: 'replayed', recordedAt: passTimeOf(event.barDate) }));
}

const rowOf = (events: readonly IdeaEvent[], mark: { price: number; at: string } | null = null) => layeredTrade.parse(layeredEngine.fold(stamp(events), mark, NOW));
const hits = (events: readonly IdeaEvent[], level: string) => events.filter((e) => e.type === 'level_hit' && e.level === level);
const after = (events: readonly IdeaEvent[], type: string) => events.filter((e) => e.type === type);

describe('layered levels (§1.2)', () => {
  it('freezes the levels at creation, rounded to the cent (entries and stop down, exits up)', () => {
    const [opened] = simulate([]);
    expect(opened!.type).toBe('opened');
    expect(opened!.data).toMatchObject({
      anchorHigh: 100.5,
      step: 0.03,
      entries: [94.47, 91.45, 86.93, 82.41],
      exits: [100.5, 103.52, 106.53, 109.55, 115.58],
      stop: 77.88,
      budget: 10_000,
    });
    expect(opened!.price).toBe(100);
  });

  it('voids when the entry bar opens at or above EXL1, and enters at the open just below it', () => {
    const voided = simulate([b(100.5, 101, 100, 100.5)]);
    expect(voided.map((e) => e.type)).toEqual(['opened', 'voided']);
    const row = rowOf(voided);
    expect(row).toMatchObject({ IsActive: false, CloseReason: 'void', Status: 'Failed', EntryPending: false });
    const entered = simulate([b(100.49, 100.49, 100, 100.2)]);
    expect(entered[1]).toMatchObject({ type: 'entry_filled', level: 'ENL1', price: 100.49 });
  });

  it('shows the signal price while pending, then ENL1 = the open at count 1, last reached at 16:00 New York', () => {
    const pending = rowOf(simulate([]));
    expect(pending).toMatchObject({ EntryPending: true, OriginalEntryPrice: 100, ENL1: 100, ENL1_Count: 0, CurrentProfit: 0, IsActive: true, Status: 'Active' });
    const events = simulate([b(99.8, 100.2, 99.5, 100)]);
    const row = rowOf(events);
    const entryDate = events[1]!.barDate;
    expect(row).toMatchObject({ EntryPending: false, OriginalEntryPrice: 99.8, ENL1: 99.8, IsENL1: true, ENL1_Count: 1 });
    expect(row.ENL1_LastReached).toBe(closeTimeOf(entryDate));
    expect(row.SharesHeld).toBeCloseTo(2000 / 99.8, 10);
    expect(row.CapitalDeployed).toBe(2000);
  });
});

describe('layered fills (§0.1, §1.3, §6.5 test 4)', () => {
  it('a buy limit does not fill at Low = limit, and fills at the limit one cent below', () => {
    const touch = simulate([b(100, 100.4, 99.6, 100), b(95, 95.2, 94.47, 95)]);
    expect(hits(touch, 'ENL2')).toHaveLength(0);
    const through = simulate([b(100, 100.4, 99.6, 100), b(95, 95.2, 94.46, 95)]);
    expect(hits(through, 'ENL2')).toEqual([expect.objectContaining({ price: 94.47, data: { fill: true, shares: 2000 / 94.47, amount: 2000 } })]);
  });

  it('a gap through limits fills each at its limit, also ENL2 on a gapped-down entry bar', () => {
    const gap = simulate([b(100, 100.4, 99.6, 100), b(90, 90.5, 89.5, 90)]);
    expect(hits(gap, 'ENL2')[0]!.price).toBe(94.47);
    expect(hits(gap, 'ENL3')[0]!.price).toBe(91.45);
    expect(hits(gap, 'ENL4')).toHaveLength(0);
    const gappedEntry = simulate([b(93, 93.5, 92.5, 93)]);
    expect(gappedEntry[1]).toMatchObject({ type: 'entry_filled', price: 93 });
    expect(hits(gappedEntry, 'ENL2')[0]).toMatchObject({ price: 94.47, barDate: gappedEntry[1]!.barDate });
  });

  it('EXL1 and an ENL on one bar: no entry; unfilled entries are cancelled (the distribution lock)', () => {
    const events = simulate([b(100, 100.4, 99.6, 100), b(99, 100.6, 94, 100)]);
    expect(hits(events, 'ENL2')).toHaveLength(0);
    expect(after(events, 'levels_cancelled')[0]!.data).toEqual({ levels: ['ENL2', 'ENL3', 'ENL4', 'ENL5'] });
    expect(hits(events, 'EXL1')[0]).toMatchObject({ price: 100.5, data: { fill: true, shares: 4, amount: 402 } });
    const row = rowOf(events);
    expect(row).toMatchObject({ ENL2: null, IsENL2: false, ENL2_Count: 0, ENL2_LastReached: null, entriesHit: '1/1', exitsHit: '1/5' });
  });

  it('sells a fifth of the locked position per exit, EXL5 the rest, and closes on target (Successful)', () => {
    const events = simulate([b(100, 100.4, 99.6, 100), b(100, 103.6, 99.8, 103), b(103, 106.6, 102, 106), b(106, 109.6, 105, 109), b(109, 115.6, 108, 115)]);
    const sold = ['EXL1', 'EXL2', 'EXL3', 'EXL4', 'EXL5'].map((level) => hits(events, level)[0]!.data.shares);
    expect(sold).toEqual([4, 4, 4, 4, 4]);
    const closed = after(events, 'closed')[0]!;
    expect(closed).toMatchObject({ price: 115.58, data: expect.objectContaining({ reason: 'target', shares: 0 }) });
    const row = rowOf(events);
    const proceeds = 4 * (100.5 + 103.52 + 106.53 + 109.55 + 115.58);
    expect(row).toMatchObject({ IsActive: false, IsTarget: true, Status: 'Successful', CloseReason: 'target', SharesHeld: 0, exitsHit: '5/5', latestExitLevel: 115.58 });
    expect(row.Proceeds).toBeCloseTo(proceeds, 9);
    expect(row.CurrentProfit).toBe(Math.round(((proceeds - 2000) / 2000) * 10_000) / 100);
  });

  it('a touch counts once, then again only after a close above ENL + 0.5 × ATR14 (re-arm)', () => {
    const events = simulate([
      b(100, 100.4, 99.6, 100),
      b(95, 95.5, 94.4, 95), // ENL2 fills
      b(95, 95.5, 94.4, 95), // still disarmed: 95 is not above 94.47 + 0.5 × ATR
      b(96, 97.5, 96, 97.2), // re-arms at this close
      b(96, 96.5, 94.4, 95), // counts again, no second fill
    ]);
    const enl2 = hits(events, 'ENL2');
    expect(enl2.map((e) => e.data.fill)).toEqual([true, false]);
    expect(enl2[1]!.barDate).toBe(events[events.length - 1]!.barDate);
    const row = rowOf(events);
    expect(row.ENL2_Count).toBe(2);
    expect(row.CapitalDeployed).toBe(4000);
  });

  it('stop: close = stop holds; close below it exits at the next open, before any target that bar', () => {
    const down = [b(100, 100.4, 99.6, 100), b(90, 90, 78, 80)];
    const holds = simulate([...down, b(80, 80, 77.5, 77.88)]);
    expect(after(holds, 'stop_hit')).toHaveLength(0);
    const stopped = simulate([...down, b(80, 80, 77.5, 77.87), b(80, 101, 79, 100)]);
    const stopHit = after(stopped, 'stop_hit')[0]!;
    const closed = after(stopped, 'closed')[0]!;
    expect(stopHit.price).toBe(77.87);
    expect(closed).toMatchObject({ price: 80, data: expect.objectContaining({ reason: 'stop', exitAt: 'open' }) });
    expect(closed.barDate > stopHit.barDate).toBe(true);
    expect(hits(stopped, 'EXL1')).toHaveLength(0);
    const row = rowOf(stopped);
    expect(row).toMatchObject({ IsActive: false, Status: 'Failed', CloseReason: 'stop', ExitPrice: 80, SharesHeld: 0 });
    expect(row.ClosedAt).toBe(passTimeOf(closed.barDate));
  });

  it('time stop: closes at the close of session N, the entry bar being session 1', () => {
    const params = { ...LAYERED_PARAMS, timeStopSessions: 5 };
    const bars = [b(100, 100.4, 99.6, 100), b(100, 100.4, 99.6, 100), b(100, 100.4, 99.6, 100), b(100, 100.4, 99.6, 100)];
    expect(after(simulate(bars, params), 'closed')).toHaveLength(0);
    const events = simulate([...bars, b(100, 100.4, 99.6, 101)], params);
    expect(after(events, 'time_stop')).toHaveLength(1);
    expect(after(events, 'closed')[0]).toMatchObject({ price: 101, data: expect.objectContaining({ reason: 'time', exitAt: 'close', sessionsHeld: 5 }) });
  });
});

describe('layered marks and outcome (§1.5, §6.1)', () => {
  it('marks CurrentPrice, CurrentProfit and UpdatedAt from a quote', () => {
    const row = rowOf(simulate([b(100, 100.4, 99.6, 100)]), { price: 102, at: '2030-01-01T15:00:00.000Z' });
    expect(row).toMatchObject({ CurrentPrice: 102, CurrentProfit: 2, UpdatedAt: '2030-01-01T15:00:00.000Z' });
  });

  it('answers the dollar-weighted return net of 5 bps a side, with dated cash flows', () => {
    const events = simulate([b(100, 100.4, 99.6, 100), b(100, 103.6, 99.8, 103), b(103, 106.6, 102, 106), b(106, 109.6, 105, 109), b(109, 115.6, 108, 115)]);
    const stored = stamp(events);
    const outcome = layeredEngine.outcome(stored, layeredEngine.fold(stored, null, NOW))!;
    const paid = 2000 * 1.0005;
    const received = 4 * (100.5 + 103.52 + 106.53 + 109.55 + 115.58) * 0.9995;
    expect(outcome).toMatchObject({ types: ['All'], closed: true, status: 'Successful', closeReason: 'target', exitAt: 'close', holdingSessions: 5 });
    expect(outcome.deployed).toBeCloseTo(paid, 9);
    expect(outcome.returnPct).toBeCloseTo((received - paid) / paid, 12);
    expect(outcome.cashFlows!.map((flow) => flow.date)).toEqual(events.filter((e) => e.type === 'entry_filled' || e.type === 'level_hit').map((e) => e.barDate));
    expect(outcome.atrPct).toBeCloseTo(0.01, 12);
    expect(layeredEngine.outcome(stamp(simulate([])), rowOf(simulate([])))).toBeNull();
  });
});

describe('layered derived fields (§1.5)', () => {
  const base: LayeredPlanFields = {
    IsActive: true,
    CurrentPrice: 95,
    ThirtyDayHigh: 100.5,
    OriginalEntryPrice: 100,
    CreatedAt: '2024-05-01T20:30:00.000Z',
    SharesHeld: 20 + 2000 / 94.47,
    CapitalDeployed: 4000,
    Proceeds: 0,
    EntryPending: false,
    ENL1: 100,
    ENL1_Count: 1,
    ENL2: 94.47,
    ENL2_Count: 1,
    ENL3: 91.45,
    ENL3_Count: 0,
    EXL1: 100.5,
    EXL1_Count: 0,
    EXL2: 103.52,
    EXL2_Count: 0,
  };

  it('sorts defined levels ascending with equal allocations; counts n/total; dollar-weighted profit', () => {
    const derived = layeredDerivedFields(base, '2024-05-02T20:29:59.999Z');
    expect(derived.entryPlan.map((l) => [l.name, l.price, l.allocation, l.hit])).toEqual([
      ['ENL3', 91.45, 33.3, false],
      ['ENL2', 94.47, 33.3, true],
      ['ENL1', 100, 33.3, true],
    ]);
    expect(derived.entriesHit).toBe('2/3');
    expect(derived.exitsHit).toBe('0/2');
    expect(derived.latestExitLevel).toBe(100.5);
    expect(derived.PotentialProfit).toBe(0.5);
    expect(derived.CurrentProfit).toBe(Math.round((((20 + 2000 / 94.47) * 95 - 4000) / 4000) * 10_000) / 100);
    expect(derived.IsNewTrade).toBe(true);
    expect(layeredDerivedFields(base, '2024-05-02T20:30:00.000Z').IsNewTrade).toBe(false);
    expect(derived.Status).toBe('Active');
  });

  it('falls back to one 100 % level at the current price / the thirty-day high; the highest hit exit is the latest', () => {
    const bare = layeredDerivedFields({ ...base, ENL1: null, ENL2: null, ENL3: null, EXL1: null, EXL2: null }, NOW);
    expect(bare.entryPlan).toEqual([{ name: 'CURRENT', price: 95, allocation: 100, hit: false, count: 0, lastReached: null }]);
    expect(bare.exitPlan).toEqual([{ name: 'HIGH', price: 100.5, allocation: 100, hit: false, count: 0, lastReached: null }]);
    expect(bare.latestExitLevel).toBe(100.5);
    const twoHit = layeredDerivedFields({ ...base, EXL1_Count: 1, EXL2_Count: 2 }, NOW);
    expect(twoHit.latestExitLevel).toBe(103.52);
    const done = layeredDerivedFields({ ...base, IsActive: false, ENL3: null, EXL1_Count: 1, EXL2_Count: 1 }, NOW);
    expect(done).toMatchObject({ IsTarget: true, Status: 'Successful' });
    expect(layeredDerivedFields({ ...base, IsActive: false }, NOW)).toMatchObject({ IsTarget: false, Status: 'Failed' });
    expect(layeredDerivedFields({ ...base, EntryPending: true }, NOW).CurrentProfit).toBe(0);
  });
});

// An uptrend (close 50 → 109.8, +0.2 a day, range ±0.5) then a 4.8 % pullback: H = 110.3, u = 3 %,
// H(1 − 2u) = 103.68 < 105 ≤ H(1 − u) = 106.99, SMA200 rising, close ≥ 0.75 × the 52-week high.
function pullbackSeries(symbol: string, rising: number, extraPullbackDays = 0): DailySeries {
  const bars = [...risingBars(rising, 50 + 0.2 * (300 - rising), 0.2), b(109.8, 109.9, 104.5, 105)];
  for (let i = 0; i < extraPullbackDays; i += 1) bars.push(b(105, 105.5, 104.5, 105));
  return seriesOf(symbol, bars);
}

function runOn(seriesList: DailySeries[], options: { universeFrom?: string; removals?: Record<string, string>; sessions?: number } = {}): StoredIdeaEvent[] {
  const series = new Map(seriesList.map((s) => [s.symbol, s]));
  const days = seriesList[0]!.day;
  const count = options.sessions ?? 6;
  const sessions = [...days.subarray(Math.max(0, days.length - count))].map((d) => isoFromDayNumber(d));
  return replay(layeredEngine, {
    series,
    sessions,
    universeFor: (date) =>
      seriesList.filter(() => !options.universeFrom || date >= options.universeFrom).map((s): UniverseMember => ({ symbol: s.symbol, market: 'US', survivorshipBiased: false })),
    extras: (date) => ({ removals: new Set(Object.entries(options.removals ?? {}).filter(([, d]) => d === date).map(([s]) => s)) }),
    origin: 'replayed',
  });
}

describe('layered creation (§1.1)', () => {
  it('opens on an orderly pullback in an uptrend, with the pass time as CreatedAt', () => {
    const series = pullbackSeries('AAA', 300);
    const events = runOn([series]);
    const opened = after(events, 'opened');
    expect(opened).toHaveLength(1);
    const signalDate = isoFromDayNumber(series.day[300]!);
    expect(opened[0]).toMatchObject({ ideaId: `layered.AAA.${signalDate}`, barDate: signalDate, price: 105 });
    expect(opened[0]!.data).toMatchObject({ createdAt: passTimeOf(signalDate) });
    expect(opened[0]!.data.anchorHigh).toBeCloseTo(110.3, 9);
  });

  it('warm-up: no signal with 259 bars, a signal with 260', () => {
    expect(after(runOn([pullbackSeries('AAA', 258)]), 'opened')).toHaveLength(0);
    expect(after(runOn([pullbackSeries('AAA', 259)]), 'opened')).toHaveLength(1);
  });

  it('point-in-time universe: a symbol joining on d gives no signal before d; one open plan per symbol', () => {
    const series = pullbackSeries('AAA', 300, 4);
    const joinDate = isoFromDayNumber(series.day[302]!);
    const opened = after(runOn([series], { universeFrom: joinDate }), 'opened');
    expect(opened.map((e) => e.barDate)).toEqual([joinDate]);
    expect(after(runOn([series]), 'opened')).toHaveLength(1);
  });

  it('capacity: 10 a day, equal scores by ticker in code-point order', () => {
    const symbols = ['b', 'A', 'C', 'B', 'D', 'E', 'F', 'G', 'H', 'I', 'J', 'a'];
    const opened = after(runOn(symbols.map((s) => pullbackSeries(s, 300))), 'opened');
    expect(opened.map((e) => e.symbol)).toEqual(['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J']);
  });

  it('closes on an index exit at that session close', () => {
    const series = pullbackSeries('AAA', 300, 3);
    const exitDate = isoFromDayNumber(series.day[303]!);
    const events = runOn([series], { removals: { AAA: exitDate } });
    expect(after(events, 'closed')[0]).toMatchObject({ barDate: exitDate, price: 105, data: expect.objectContaining({ reason: 'index_exit' }) });
  });
});
