import { describe, expect, it } from 'vitest';
import { optionTrade } from '../../../contract/option-trades';
import { dayNumber, isoFromDayNumber } from '../../../market/trading-calendar';
import { replay } from '../../kit/replay';
import { indexOnOrBefore } from '../../kit/series';
import { randomUniverse, truncatedCopy } from '../../kit/test-bars';
import type { DailySeries, StoredIdeaEvent, UniverseMember } from '../../types';
import { optionsEngine } from './engine';

/**
 * docs/rules/track-record.md §6.5 for `options@1.1.0` over a seeded random-walk universe (the size of the
 * OPTION_ALERT list): truncation, replay = live, determinism, projection, every row parsing with
 * the API schema, and simulate() running the same code as the engine.
 */

const SERIES = randomUniverse(12, 57, 520);
const DAYS = SERIES.get('S000')!.day;
const SESSIONS = [...DAYS.subarray(260)].map((d) => isoFromDayNumber(d));
const MEMBERS: UniverseMember[] = [...SERIES.keys()].map((symbol) => ({ symbol, market: 'US', survivorshipBiased: true }));
const NOW = '2030-01-01T00:00:00.000Z';
const engine = optionsEngine;

function run(series: ReadonlyMap<string, DailySeries>, sessions: readonly string[], prior?: StoredIdeaEvent[]) {
  return replay(engine, { series, sessions, universeFor: () => MEMBERS, origin: 'replayed', ...(prior ? { prior } : {}) });
}

function byIdea(events: readonly StoredIdeaEvent[]): Map<string, StoredIdeaEvent[]> {
  const out = new Map<string, StoredIdeaEvent[]>();
  for (const event of events) out.set(event.ideaId, [...(out.get(event.ideaId) ?? []), event]);
  return out;
}

describe('options engine over a seeded random-walk universe (§6.5)', () => {
  const full = run(SERIES, SESSIONS);
  const ideas = byIdea(full);

  it('produces ideas of both sides, every close reason but corporate actions, every row parsing', () => {
    const rows = [...ideas.values()].map((events) => optionTrade.parse(engine.fold(events, null, NOW)));
    expect(rows.length).toBeGreaterThan(50);
    expect(new Set(rows.map((row) => row.Side))).toEqual(new Set(['CALL', 'PUT']));
    expect(new Set(rows.map((row) => row.CloseReason))).toEqual(new Set(['target', 'stop', 'time', null]));
    expect(rows.some((row) => row.AlertCount > 1)).toBe(true);
    expect(new Set(rows.map((row) => row.AlertKind)).size).toBe(4);
    for (const row of rows) {
      expect(row).toMatchObject({ RuleVersion: 'options@1.1.0', ParamHash: engine.paramHash, Origin: 'replayed', SurvivorshipBiased: true, PriceSource: 'model' });
      expect(Math.abs(row.DeltaAtEntry)).toBeGreaterThanOrEqual(0.35);
      expect(Math.abs(row.DeltaAtEntry)).toBeLessThanOrEqual(0.55);
    }
    // Capacity: at most 10 new ideas a session.
    const perDay = new Map<string, number>();
    for (const event of full) if (event.type === 'opened') perDay.set(event.barDate, (perDay.get(event.barDate) ?? 0) + 1);
    expect(Math.max(...perDay.values())).toBeLessThanOrEqual(10);
  });

  it('dedupe: at most one open idea per underlying at any session', () => {
    const spans = new Map<string, [string, string][]>();
    for (const events of ideas.values()) {
      const list = spans.get(events[0]!.symbol) ?? [];
      list.push([events[0]!.barDate, events[events.length - 1]!.type === 'closed' ? events[events.length - 1]!.barDate : '9999-12-31']);
      spans.set(events[0]!.symbol, list);
    }
    for (const list of spans.values()) {
      list.sort((a, b) => (a[0] < b[0] ? -1 : 1));
      for (let i = 1; i < list.length; i += 1) expect(list[i]![0] > list[i - 1]![1]).toBe(true);
    }
  });

  it('truncation: a run on history cut at c gives byte-identical events dated ≤ c (6 cut dates)', () => {
    for (const cutIndex of [0, 37, 101, 180, 233, SESSIONS.length - 1]) {
      const cut = SESSIONS[cutIndex]!;
      const truncated = new Map([...SERIES].map(([symbol, series]) => [symbol, truncatedCopy(series, indexOnOrBefore(series.day, dayNumber(cut)) + 1)]));
      const short = run(truncated, SESSIONS.slice(0, cutIndex + 1));
      expect(JSON.stringify(short)).toBe(JSON.stringify(full.filter((event) => event.barDate <= cut)));
    }
  });

  it('replay = live: session by session, folding the log in between, gives the same events', () => {
    const live: StoredIdeaEvent[] = [];
    for (const session of SESSIONS) live.push(...run(SERIES, [session], live));
    expect(JSON.stringify(live)).toBe(JSON.stringify(full));
  });

  it('determinism: the same inputs give the same events', () => {
    expect(JSON.stringify(run(SERIES, SESSIONS))).toBe(JSON.stringify(full));
  });

  it('projection: rows are the fold of the events; closed ideas have no open state; outcomes follow', () => {
    for (const events of ideas.values()) {
      const row = engine.fold(events, null, NOW);
      const ended = events.some((event) => event.type === 'closed' || event.type === 'voided');
      expect(row.IsActive).toBe(!ended);
      expect(engine.openState(events) === null).toBe(ended);
      expect(JSON.stringify(engine.fold([...events], null, NOW))).toBe(JSON.stringify(row));
      // Folding the events one at a time reproduces the row the whole log gives.
      let state = engine.openState(events.slice(0, 1));
      for (let i = 2; i <= events.length && state !== null; i += 1) state = engine.openState(events.slice(0, i));
      expect(state === null).toBe(ended);
      const outcome = engine.outcome(events, row);
      const entered = events.some((event) => event.type === 'entry_filled');
      expect(outcome === null).toBe(!entered);
      if (!outcome) continue;
      expect(outcome.types).toEqual([row.Side, row.VolumeSpikeCheck === '1' ? 'Volume tag' : 'No Volume tag']);
      expect(outcome.returnPct).toBeCloseTo((row.ExitValue ?? row.Current_Value) / row.EntryValue - 1, 12);
      expect(outcome.maxAdverseExcursion).toBeLessThanOrEqual(Math.min(0, outcome.returnPct));
      expect(outcome.closed).toBe(ended);
      expect(outcome.atrPct).toBeGreaterThan(0);
      if (ended) expect(outcome.holdingSessions).toBeLessThanOrEqual(10);
      if (row.CloseReason === 'target') expect(row).toMatchObject({ IsTargetHit: true, Status: 'Successful' });
      if (row.CloseReason === 'stop' || row.CloseReason === 'time') expect(row).toMatchObject({ IsTargetHit: false, Status: 'Failed' });
    }
  });

  it('simulate() forced at a real idea’s signal bar runs the same code: the same fills and close', () => {
    let compared = 0;
    for (const events of ideas.values()) {
      const opened = events[0]!;
      if (!events.some((event) => event.type === 'closed') || compared >= 20) continue;
      const series = SERIES.get(opened.symbol)!;
      const signalIndex = indexOnOrBefore(series.day, dayNumber(opened.barDate));
      const simulated = engine.simulate({ params: engine.params, series, signalIndex, ideaId: opened.ideaId, variant: String(opened.data.side) });
      const strip = (list: readonly { type: string; level: string; barDate: string; price: number | null; data: Record<string, unknown> }[]) =>
        list.filter((e) => e.type !== 'alert_repeat').map(({ type, level, barDate, price, data }) => ({ type, level, barDate, price, data: type === 'opened' ? { ...data, createdAt: '', survivorshipBiased: false } : data }));
      expect(strip(simulated)).toEqual(strip(events));
      compared += 1;
    }
    expect(compared).toBeGreaterThan(5);
  });
});
