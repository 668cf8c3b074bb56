// The track record (docs/rules/track-record.md §6) of ~1,500 closed ideas over a 500-symbol universe of 512 daily
// bars each: statistics, cohorts, SPY benchmark and the random-entry baseline (20 draws per idea,
// 30,000 simulations through the engine's code), on one core. Budget: well under 2 s (the server
// caches the answer). The engine is the tests' toy engine (enter at the next open, exit at the close
// of session 21): what is measured is the track record's own work plus a cheap simulate; a real
// engine's simulate adds its own cost per draw.
// Relative imports: the lead wires trades/ into @signalboard/core's index.
import { isoFromDayNumber } from '../packages/core/src/market/trading-calendar';
import { computeTrackRecord } from '../packages/core/src/trades/track-record/index';
import { type DailySeries, type IdeaOutcome } from '../packages/core/src/trades/types';
import { nyseSessions, toyEngine, toySeries } from '../packages/core/src/trades/track-record/test-engine';

const SYMBOLS = 500;
const BARS = 512;
const IDEAS = 1500;
/** Untimed passes first, then timed ones (an odd count, so the median is one of them). */
const WARM_UP = 1;
const RUNS = 5;

function data() {
  const days = nyseSessions(BARS, '2023-01-03');
  const series = new Map<string, DailySeries>();
  for (let i = 0; i < SYMBOLS; i += 1) {
    const symbol = `S${String(i).padStart(3, '0')}`;
    series.set(symbol, toySeries(symbol, i + 1, days, 0.005 + (i % 40) * 0.001));
  }
  const spy = toySeries('SPY', 777, days, 0.008);
  const engine = toyEngine({ holdSessions: 21, dollars: true });
  const symbols = [...series.keys()];
  let state = 4242;
  const next = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4_294_967_296;
  };
  const outcomes: IdeaOutcome[] = [];
  const types = [['Trend'], ['Price Drop'], ['Trend', 'Level System'], ['Price Drop', 'Level System']];
  while (outcomes.length < IDEAS) {
    // Ideas cluster: about 6 a session over 250 sessions after the 260-bar warm-up.
    const signalIndex = 260 + Math.floor(next() * 225);
    const s = series.get(symbols[Math.floor(next() * SYMBOLS)]!)!;
    const ideaId = `swing.${s.symbol}.${isoFromDayNumber(s.day[signalIndex]!)}`;
    const stored = engine
      .simulate({ params: engine.params, series: s, signalIndex, ideaId })
      .map((e) => ({ ...e, ruleVersion: engine.ruleVersion, paramHash: engine.paramHash, origin: 'replayed' as const, recordedAt: `${e.barDate}T21:30:00.000Z` }));
    const outcome = engine.outcome(stored, engine.fold(stored, null, ''));
    if (outcome && outcome.closed && !outcomes.some((o) => o.ideaId === ideaId)) outcomes.push({ ...outcome, types: types[outcomes.length % 4]! });
  }
  return { days, series, spy, engine, symbols, outcomes };
}

export async function run(): Promise<string[][]> {
  const { days, series, spy, engine, symbols, outcomes } = data();
  const now = `${isoFromDayNumber(days[BARS - 1]!)}T22:00:00.000Z`;
  let baselineN = 0;
  const once = () => {
    const record = computeTrackRecord({
      engine,
      outcomes,
      voided: [],
      series,
      universeOn: () => symbols,
      benchmark: spy,
      scope: {},
      now,
      survivorshipBiased: true,
    });
    baselineN = record.groups.find((g) => g.type === 'All')!.baseline!.n;
  };
  // Measured: the wall time of one computeTrackRecord call from scratch (no cache carried between
  // calls), as the median of RUNS calls after WARM_UP untimed ones that let the JIT optimise.
  for (let i = 0; i < WARM_UP; i += 1) once();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    const start = performance.now();
    once();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const median = times[RUNS >> 1]!;
  return [
    [
      `track record, ${IDEAS} closed ideas × 20 baseline draws, ${SYMBOLS} symbols × ${BARS} bars`,
      `${median.toFixed(0)} ms median of ${RUNS} (fastest ${times[0]!.toFixed(0)}, slowest ${times[RUNS - 1]!.toFixed(0)}; ${baselineN} draws)`,
      '< 2,000 ms',
      median < 2000 ? 'ok' : 'OVER',
    ],
  ];
}
