// The trade-idea engines (layered@1.0.0 and swing@1.0.0): the install replay of both over a seeded
// 500-symbol × 504-bar universe (244 sessions after the 260-bar warm-up), and one daily pass (the
// last session, continuing the replay's open ideas), on one core. Budgets: replay < 5 s, pass < 200 ms.
import { isoFromDayNumber, replay, TRADE_ENGINES, type DailySeries, type EngineDefinition, type StoredIdeaEvent, type UniverseMember } from '@signalboard/core';
import { randomUniverse } from '../packages/core/src/trades/kit/test-bars';

const SYMBOLS = 500;
const BARS = 504;
const WARM_UP = 260;
/** Timed runs (odd, so the median is one of them), each on fresh buffers: the indicator cache starts cold. */
const RUNS = 3;

type AnyEngine = EngineDefinition<unknown, unknown, unknown>;
// The stock and option engines (crypto, on coins and UTC days, has bench/crypto-engine.bench.ts).
const ENGINES = (Object.values(TRADE_ENGINES) as unknown as AnyEngine[]).filter((engine) => engine.id !== 'crypto');

/** Fresh copies of every series (new buffers, as a pass that loads bars from the database has). */
function fresh(universe: ReadonlyMap<string, DailySeries>): Map<string, DailySeries> {
  return new Map(
    [...universe].map(([symbol, s]) => [
      symbol,
      { ...s, day: s.day.slice(), open: s.open.slice(), high: s.high.slice(), low: s.low.slice(), close: s.close.slice(), volume: s.volume.slice() },
    ]),
  );
}

function median(times: number[]): number {
  return [...times].sort((a, b) => a - b)[times.length >> 1]!;
}

export async function run(): Promise<string[][]> {
  const universe = randomUniverse(2026, SYMBOLS, BARS);
  const members: UniverseMember[] = [...universe.keys()].map((symbol) => ({ symbol, market: 'US', survivorshipBiased: true }));
  const sessions = [...universe.get('S000')!.day.subarray(WARM_UP)].map((day) => isoFromDayNumber(day));
  const replayAll = (series: Map<string, DailySeries>, range: string[], prior?: Map<string, StoredIdeaEvent[]>) =>
    ENGINES.map((engine) => replay(engine, { series, sessions: range, universeFor: () => members, origin: 'replayed', ...(prior ? { prior: prior.get(engine.id)! } : {}) }));

  // Warm the JIT once (untimed), then time the full replay on fresh buffers.
  replayAll(fresh(universe), sessions);
  const replayTimes: number[] = [];
  let events: StoredIdeaEvent[][] = [];
  for (let i = 0; i < RUNS; i += 1) {
    const series = fresh(universe);
    const start = performance.now();
    events = replayAll(series, sessions);
    replayTimes.push(performance.now() - start);
  }
  const counts = ENGINES.map((engine, k) => `${engine.id} ${new Set(events[k]!.map((e) => e.ideaId)).size} ideas`).join(', ');

  // One daily pass: the last session, continuing from the log of every earlier session (folded),
  // on fresh buffers (cold indicator cache), as the live pass runs after loading today's bars.
  const last = sessions[sessions.length - 1]!;
  const prior = new Map(ENGINES.map((engine, k) => [engine.id, events[k]!.filter((e) => e.barDate < last)]));
  const passTimes: number[] = [];
  for (let i = 0; i < RUNS + 2; i += 1) {
    const series = fresh(universe);
    const start = performance.now();
    replayAll(series, [last], prior);
    passTimes.push(performance.now() - start);
  }
  const replayMs = median(replayTimes);
  const passMs = median(passTimes);
  return [
    [
      `engines replay (layered + swing), ${SYMBOLS} × ${BARS} bars, ${sessions.length} sessions`,
      `${replayMs.toFixed(0)} ms median of ${RUNS} (${counts})`,
      '< 5,000 ms',
      replayMs < 5000 ? 'ok' : 'OVER',
    ],
    [`engines daily pass (layered + swing), ${SYMBOLS} symbols`, `${passMs.toFixed(1)} ms median of ${RUNS + 2}`, '< 200 ms', passMs < 200 ? 'ok' : 'OVER'],
  ];
}
