import { describe, expect, it } from 'vitest';
import { dropItem } from '../../../contract/drop-items';
import { dayNumber, isoFromDayNumber } from '../../../market/trading-calendar';
import { replay } from '../../kit/replay';
import { indexOnOrBefore } from '../../kit/series';
import { randomUniverse, truncatedCopy } from '../../kit/test-bars';
import type { DailySeries, StoredIdeaEvent, UniverseMember } from '../../types';
import { createDropEngine } from './engine';
import type { DropExtras } from './extras';
import { testPricer } from './test-pricer';

/**
 * docs/rules/track-record.md §6.5 for the drop engine over a seeded random-walk universe (S, L and O with a
 * test option pricer): truncation, replay = live, point-in-time universe, warm-up, determinism,
 * projection, and simulate() running the same code.
 */

const SERIES = randomUniverse(12, 80, 520);
const DAYS = SERIES.get('S000')!.day;
const SESSIONS = [...DAYS.subarray(200)].map((d) => isoFromDayNumber(d));
const MEMBERS: UniverseMember[] = [...SERIES.keys()].map((symbol, i) => ({ symbol, market: 'US', sector: i % 2 === 0 ? 'Energy' : 'Health Care', survivorshipBiased: true }));
const UNDERLYINGS = new Set([...SERIES.keys()].filter((_, i) => i % 4 === 0));
const NOW = '2030-01-01T00:00:00.000Z';
const engine = createDropEngine({ optionPricer: testPricer({ timeValue: 0.03, halfSpread: 0.03, dteDays: 35 }) });
const extras = (): DropExtras => ({ dropOptionUnderlyings: UNDERLYINGS });

function run(series: ReadonlyMap<string, DailySeries>, sessions: readonly string[], prior?: StoredIdeaEvent[], universeFor: (date: string) => readonly UniverseMember[] = () => MEMBERS) {
  return replay(engine, { series, sessions, universeFor, extras, origin: 'replayed', ...(prior ? { prior } : {}) });
}

function byIdea(events: readonly StoredIdeaEvent[]): Map<string, StoredIdeaEvent[]> {
  const out = new Map<string, StoredIdeaEvent[]>();
  for (const event of events) out.set(event.ideaId, [...(out.get(event.ideaId) ?? []), event]);
  return out;
}

describe('drop engine over a seeded random-walk universe (§6.5)', () => {
  const full = run(SERIES, SESSIONS);
  const ideas = byIdea(full);

  it('produces S, L and O items, some closed, every row parsing with dropItem', () => {
    const rows = [...ideas.values()].map((events) => dropItem.parse(engine.fold(events, null, NOW)));
    for (const type of ['S', 'L', 'O'] as const) {
      expect(rows.filter((row) => row.StockType === type).length).toBeGreaterThan(2);
      expect(rows.filter((row) => row.StockType === type && !row.StockIsActive).length).toBeGreaterThan(0);
    }
    expect(rows.filter((row) => row.StockIsActive).length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row).toMatchObject({ RuleVersion: 'drop@1.1.0', ParamHash: engine.paramHash, Origin: 'replayed', SurvivorshipBiased: true, Status: row.StockIsActive ? 'Active' : 'Deactivated' });
      expect(row.OptionChainId === null).toBe(row.StockType !== 'O');
      expect(row.StockSectorName).toMatch(/^(Energy|Health Care)$/);
    }
  });

  it('truncation: a run on history cut at c gives byte-identical events dated ≤ c', () => {
    for (const cutIndex of [0, 59, 101, 180, 263, SESSIONS.length - 1]) {
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

  it('warm-up: no item before bar 260', () => {
    const first = full.filter((event) => event.type === 'opened').map((event) => indexOnOrBefore(DAYS, dayNumber(event.barDate)));
    expect(first.length).toBeGreaterThan(0);
    expect(Math.min(...first)).toBeGreaterThanOrEqual(259);
  });

  it('point-in-time universe: a symbol joining on d gives no item before d', () => {
    const symbol = full.find((event) => event.type === 'opened')!.symbol;
    const firstOwn = full.filter((event) => event.type === 'opened' && event.symbol === symbol).map((event) => event.barDate);
    const join = SESSIONS[SESSIONS.indexOf(firstOwn[0]!) + 1]!;
    const joined = run(SERIES, SESSIONS, undefined, (date) => (date >= join ? MEMBERS : MEMBERS.filter((member) => member.symbol !== symbol)));
    const own = joined.filter((event) => event.type === 'opened' && event.symbol === symbol);
    expect(own.every((event) => event.barDate >= join)).toBe(true);
    expect(firstOwn[0]! < join).toBe(true);
  });

  it('projection: rows are the fold of the events; closed items have no open state; outcomes follow', () => {
    for (const events of ideas.values()) {
      const row = engine.fold(events, null, NOW);
      const ended = events.some((event) => event.type === 'closed' || event.type === 'voided');
      expect(row.StockIsActive).toBe(!ended);
      expect(engine.openState(events) === null).toBe(ended);
      expect(JSON.stringify(engine.fold([...events], null, NOW))).toBe(JSON.stringify(row));
      const outcome = engine.outcome(events, row);
      const entered = events.some((event) => event.type === 'entry_filled');
      expect(outcome === null).toBe(!entered);
      if (!outcome) continue;
      expect(outcome.types).toEqual([row.StockType]);
      expect(Number.isFinite(outcome.returnPct)).toBe(true);
      expect(outcome.maxAdverseExcursion).toBeLessThanOrEqual(Math.min(0, outcome.returnPct));
      expect(outcome.closed).toBe(ended);
      expect(outcome.atrPct).toBeGreaterThan(0);
      expect(outcome.holdingSessions).toBeGreaterThan(0);
    }
  });

  it('simulate() forced at a real item’s signal bar runs the same code: the same fills and close', () => {
    const compared = { S: 0, L: 0, O: 0 };
    for (const events of ideas.values()) {
      const opened = events[0]!;
      const type = opened.data.stockType as 'S' | 'L' | 'O';
      if (!events.some((event) => event.type === 'closed' || event.type === 'voided') || compared[type] >= 8) continue;
      const series = SERIES.get(opened.symbol)!;
      const signalIndex = indexOnOrBefore(series.day, dayNumber(opened.barDate));
      const simulated = engine.simulate({ params: engine.params, series, signalIndex, ideaId: opened.ideaId, variant: type });
      const strip = (list: readonly { type: string; level: string; barDate: string; price: number | null; data: Record<string, unknown> }[]) =>
        list.slice(1).map(({ type: kind, level, barDate, price, data }) => ({ kind, level, barDate, price, data }));
      expect(strip(simulated)).toEqual(strip(events));
      compared[type] += 1;
    }
    expect(compared.S).toBeGreaterThan(1);
    expect(compared.L + compared.O).toBeGreaterThan(1);
  });
});
