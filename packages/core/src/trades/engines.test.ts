import { describe, expect, it } from 'vitest';
import { dropItem } from '../contract/drop-items';
import { optionTrade } from '../contract/option-trades';
import { layeredTrade, swingTrade } from '../contract/trades';
import { dayNumber, isoFromDayNumber } from '../market/trading-calendar';
import { TRADE_ENGINES } from './index';
import { replay } from './kit/replay';
import { indexOnOrBefore } from './kit/series';
import { randomUniverse, truncatedCopy } from './kit/test-bars';
import type { DailySeries, EngineDefinition, StoredIdeaEvent, UniverseMember } from './types';

/**
 * docs/rules/track-record.md §6.5 over a realistic seeded universe, for both engines: truncation, replay = live,
 * determinism, projection, and the random baseline's simulate() running the same code.
 */

const SERIES = randomUniverse(11, 80, 520);
const DAYS = SERIES.get('S000')!.day;
const SESSIONS = [...DAYS.subarray(260)].map((d) => isoFromDayNumber(d));
const MEMBERS: UniverseMember[] = [...SERIES.keys()].map((symbol) => ({ symbol, market: 'US', survivorshipBiased: true }));
const NOW = '2030-01-01T00:00:00.000Z';

type AnyEngine = EngineDefinition<unknown, unknown, Record<string, unknown>>;
// The stock and option engines over a random stock universe; the crypto engine (coins, every UTC day,
// no entries) has the same §6.5 tests over random coins in engines/crypto/properties.test.ts.
const ALL_ENGINES: readonly AnyEngine[] = Object.values(TRADE_ENGINES);
const ENGINES = ALL_ENGINES.filter((engine) => engine.id !== 'crypto');
const SCHEMAS = { layered: layeredTrade, swing: swingTrade, options: optionTrade, drop: dropItem } as const;

/** The kind of idea simulate() forces: the engine's own field (swing: tradeType, options: side, drop: stockType). */
/** IsActive (drop: StockIsActive). */
const activeOf = (row: Record<string, unknown>) => (row.IsActive ?? row.StockIsActive) === true;

function variantOf(data: Record<string, unknown>): string | undefined {
  for (const key of ['tradeType', 'side', 'stockType']) if (typeof data[key] === 'string') return data[key];
  return undefined;
}

function run(engine: AnyEngine, series: ReadonlyMap<string, DailySeries>, sessions: readonly string[], prior?: StoredIdeaEvent[]) {
  return replay(engine, { series, sessions, universeFor: () => MEMBERS, origin: 'replayed', ...(prior ? { prior } : {}) });
}

function byIdea(events: readonly StoredIdeaEvent[]): Map<string, StoredIdeaEvent[]> {
  const out = new Map<string, StoredIdeaEvent[]>();
  for (const event of events) out.set(event.ideaId, [...(out.get(event.ideaId) ?? []), event]);
  return out;
}

describe.each(ENGINES.map((engine) => [engine.id, engine] as const))('%s engine over a seeded random-walk universe', (id, engine) => {
  const full = run(engine, SERIES, SESSIONS);
  const ideas = byIdea(full);

  it('produces ideas, some closed, every row parsing with the API schema', () => {
    const rows = [...ideas.values()].map((events) => (SCHEMAS[id as keyof typeof SCHEMAS].parse(engine.fold(events, null, NOW)) as Record<string, unknown>));
    expect(rows.length).toBeGreaterThan(10);
    expect(rows.filter((row) => !activeOf(row)).length).toBeGreaterThan(3);
    expect(rows.filter((row) => activeOf(row)).length).toBeGreaterThan(0);
    for (const row of rows) expect(row).toMatchObject({ RuleVersion: engine.ruleVersion, ParamHash: engine.paramHash, Origin: 'replayed', SurvivorshipBiased: true });
  });

  it('truncation: a run on history cut at c gives byte-identical events dated ≤ c', { timeout: 120_000 }, () => {
    for (const cutIndex of [0, 37, 101, 180, 233, SESSIONS.length - 1]) {
      const cut = SESSIONS[cutIndex]!;
      const truncated = new Map([...SERIES].map(([symbol, series]) => [symbol, truncatedCopy(series, indexOnOrBefore(series.day, dayNumber(cut)) + 1)]));
      const short = run(engine, truncated, SESSIONS.slice(0, cutIndex + 1));
      expect(JSON.stringify(short)).toBe(JSON.stringify(full.filter((event) => event.barDate <= cut)));
    }
  });

  // Not a speed check (bench/engines.bench.ts is): the session-by-session run is slow on a loaded machine.
  it('replay = live: session by session, folding the log in between, gives the same events', { timeout: 120_000 }, () => {
    const live: StoredIdeaEvent[] = [];
    for (const session of SESSIONS) live.push(...run(engine, SERIES, [session], live));
    expect(JSON.stringify(live)).toBe(JSON.stringify(full));
  });

  it('determinism: the same inputs give the same events', () => {
    expect(JSON.stringify(run(engine, SERIES, SESSIONS))).toBe(JSON.stringify(full));
  });

  it('projection: rows are the fold of the events; closed ideas have no open state; outcomes follow', () => {
    for (const events of ideas.values()) {
      const row = engine.fold(events, null, NOW);
      const ended = events.some((event) => event.type === 'closed' || event.type === 'voided');
      expect(activeOf(row)).toBe(!ended);
      expect(engine.openState(events) === null).toBe(ended);
      // Folding a prefix then the rest is folding everything (the row depends on the log only).
      expect(JSON.stringify(engine.fold([...events], null, NOW))).toBe(JSON.stringify(row));
      const outcome = engine.outcome(events, row);
      const entered = events.some((event) => event.type === 'entry_filled');
      expect(outcome === null).toBe(!entered);
      if (!outcome) continue;
      expect(Number.isFinite(outcome.returnPct)).toBe(true);
      expect(outcome.maxAdverseExcursion).toBeLessThanOrEqual(Math.min(0, outcome.returnPct));
      expect(outcome.closed).toBe(ended);
      expect(outcome.atrPct).toBeGreaterThan(0);
      if (outcome.cashFlows) expect(outcome.cashFlows.reduce((sum, flow) => sum + flow.amount, 0)).toBeCloseTo(outcome.pnl!, 6);
    }
  });

  it('simulate() forced at a real idea’s signal bar runs the same code: the same fills and close', () => {
    let compared = 0;
    for (const events of ideas.values()) {
      const opened = events[0]!;
      if (!events.some((event) => event.type === 'closed') || compared >= 15) continue;
      const series = SERIES.get(opened.symbol)!;
      const signalIndex = indexOnOrBefore(series.day, dayNumber(opened.barDate));
      const variant = variantOf(opened.data);
      const simulated = engine.simulate({ params: engine.params, series, signalIndex, ideaId: opened.ideaId, ...(variant ? { variant } : {}) });
      const strip = (list: readonly { type: string; level: string; barDate: string; price: number | null; data: Record<string, unknown> }[]) =>
        list
          .slice(1)
          .filter((event) => event.type !== 'alert_repeat')
          .map(({ type, level, barDate, price, data }) => ({ type, level, barDate, price, data }));
      expect(strip(simulated)).toEqual(strip(events));
      compared += 1;
    }
    expect(compared).toBeGreaterThan(3);
  });
});
