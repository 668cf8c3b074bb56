// The drop-item engine (drop@1.1.0): the install replay over a seeded 500-symbol × 504-bar universe
// (244 sessions after the 260-bar warm-up; "Best of S&P 500" rebuilt every session; 57 of the
// symbols are OPTION_ALERT underlyings priced by a model-like test pricer), and one daily pass (the
// last session, continuing the replay's open items), on one core. Budgets: replay < 5 s, pass < 200 ms.
import { createDropEngine, isoFromDayNumber, replay, type DailySeries, type SessionExtras, type StoredIdeaEvent, type UniverseMember } from '@signalboard/core';
import { testPricer } from '../packages/core/src/trades/engines/drop-items/test-pricer';
import { randomUniverse } from '../packages/core/src/trades/kit/test-bars';

const SYMBOLS = 500;
const BARS = 504;
const WARM_UP = 260;
const OPTION_UNDERLYINGS = 57;
/** Timed runs (odd, so the median is one of them), each on fresh buffers: the indicator cache starts cold. */
const RUNS = 3;

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
  const engine = createDropEngine({ optionPricer: testPricer({ timeValue: 0.03, halfSpread: 0.03 }) });
  const universe = randomUniverse(2026, SYMBOLS, BARS);
  const members: UniverseMember[] = [...universe.keys()].map((symbol) => ({ symbol, market: 'US', sector: 'Industrials', survivorshipBiased: true }));
  const underlyings = new Set([...universe.keys()].slice(0, OPTION_UNDERLYINGS));
  const extras = (): SessionExtras => ({ dropOptionUnderlyings: underlyings });
  const sessions = [...universe.get('S000')!.day.subarray(WARM_UP)].map((day) => isoFromDayNumber(day));
  const replayAll = (series: Map<string, DailySeries>, range: string[], prior?: StoredIdeaEvent[]) =>
    replay(engine, { series, sessions: range, universeFor: () => members, extras, origin: 'replayed', ...(prior ? { prior } : {}) });

  // Warm the JIT once (untimed), then time the full replay on fresh buffers.
  replayAll(fresh(universe), sessions);
  const replayTimes: number[] = [];
  let events: StoredIdeaEvent[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    const series = fresh(universe);
    const start = performance.now();
    events = replayAll(series, sessions);
    replayTimes.push(performance.now() - start);
  }
  const items = new Map<string, string>();
  for (const event of events) if (event.type === 'opened') items.set(event.ideaId, String(event.data.stockType));
  const count = (type: string) => [...items.values()].filter((value) => value === type).length;

  // One daily pass: the last session, continuing from the log of every earlier session (folded),
  // on fresh buffers (cold indicator cache), as the live pass runs after loading today's bars.
  const last = sessions[sessions.length - 1]!;
  const prior = events.filter((e) => e.barDate < last);
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
      `drop engine replay, ${SYMBOLS} × ${BARS} bars, ${sessions.length} sessions`,
      `${replayMs.toFixed(0)} ms median of ${RUNS} (S ${count('S')}, L ${count('L')}, O ${count('O')} items)`,
      '< 5,000 ms',
      replayMs < 5000 ? 'ok' : 'OVER',
    ],
    [`drop engine daily pass, ${SYMBOLS} symbols`, `${passMs.toFixed(1)} ms median of ${RUNS + 2}`, '< 200 ms', passMs < 200 ? 'ok' : 'OVER'],
  ];
}
