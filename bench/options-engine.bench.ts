// The option-trade engine (options@1.1.0): the install replay over a seeded 57-underlying × 504-bar
// universe (the OPTION_ALERT list's size; 244 sessions after the 260-bar warm-up, model pricing),
// and one daily pass (the last session, continuing the replay's open ideas), on one core.
// Budgets: replay < 1 s, pass < 100 ms.
import { isoFromDayNumber, OPTIONS_ENGINE, replay, type DailySeries, type StoredIdeaEvent, type UniverseMember } from '@signalboard/core';
import { randomUniverse } from '../packages/core/src/trades/kit/test-bars';

const SYMBOLS = 57;
const BARS = 504;
const WARM_UP = 260;
/** Timed runs (odd, so the median is one of them), each on fresh buffers: the indicator cache starts cold. */
const RUNS = 5;

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
  const replayOver = (series: Map<string, DailySeries>, range: string[], prior?: StoredIdeaEvent[]) =>
    replay(OPTIONS_ENGINE, { series, sessions: range, universeFor: () => members, origin: 'replayed', ...(prior ? { prior } : {}) });

  // Warm the JIT once (untimed), then time the full replay on fresh buffers.
  replayOver(fresh(universe), sessions);
  const replayTimes: number[] = [];
  let events: StoredIdeaEvent[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    const series = fresh(universe);
    const start = performance.now();
    events = replayOver(series, sessions);
    replayTimes.push(performance.now() - start);
  }
  const ideas = new Set(events.map((e) => e.ideaId)).size;

  // One daily pass: the last session, continuing from the log of every earlier session (folded).
  const last = sessions[sessions.length - 1]!;
  const prior = events.filter((e) => e.barDate < last);
  const passTimes: number[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    const series = fresh(universe);
    const start = performance.now();
    replayOver(series, [last], prior);
    passTimes.push(performance.now() - start);
  }
  const replayMs = median(replayTimes);
  const passMs = median(passTimes);
  return [
    [`options engine replay, ${SYMBOLS} × ${BARS} bars, ${sessions.length} sessions`, `${replayMs.toFixed(0)} ms median of ${RUNS} (${ideas} ideas)`, '< 1,000 ms', replayMs < 1000 ? 'ok' : 'OVER'],
    [`options engine daily pass, ${SYMBOLS} underlyings (${prior.length} prior events folded)`, `${passMs.toFixed(1)} ms median of ${RUNS}`, '< 100 ms', passMs < 100 ? 'ok' : 'OVER'],
  ];
}
