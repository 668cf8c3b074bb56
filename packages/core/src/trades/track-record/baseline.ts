/**
 * The random-entry baseline (docs/rules/track-record.md §6.4 b): for each real closed idea entered on day d,
 * K = 20 warm symbols of the engine's universe on d, from the idea's ATR% tercile and never the
 * idea's own symbol, are forced open at the same signal bar (the bar before d's entry open) and run
 * through the engine's own update and close code (`engine.simulate`). Their outcomes (`engine.fold`
 * then `engine.outcome`, as for real ideas) are what a coin-flip entry with the same rules earns.
 *
 * - Warm: the symbol has ≥ engine.warmupBars bars through the signal bar, and a bar on d (so the
 *   draw enters at the same session's open).
 * - ATR% = ATR14 (Wilder, TA-Lib's convention) / close, on the signal bar. Terciles: the 1/3 and 2/3
 *   quantiles of ATR% across the warm universe on d (the idea's own symbol included); a value on a
 *   cut point belongs to the lower tercile. The idea's tercile comes from its own `atrPct`.
 * - Draws: without replacement (a symbol drawn twice would repeat the same deterministic run); from
 *   the pool sorted by symbol (code point), so the universe's order does not matter; all of the pool
 *   when it holds fewer than K.
 * - Seed: xoshiro128** seeded with the first 8 bytes of
 *   SHA-256("baseline|engine|ruleVersion|paramHash|ideaId|d"): the same idea always gets the same draws.
 * - Counted: draws whose entry filled and that have closed, like real ideas (§6.1); the baseline of
 *   a set of ideas pools their draws.
 */
import { type TrackRecordGroup } from '../../contract/trades';
import { atr } from '../../indicators/atr';
import { dayNumber, newYorkInstantMs } from '../../market/trading-calendar';
import { type DailySeries, type EngineDefinition, type IdeaEvent, type IdeaOutcome, type Origin, type StoredIdeaEvent } from '../types';
import { type Xoshiro128, xoshiroFromSeedBytes } from './prng';
import { sha256 } from '../kit/sha256';
import { mean, wilsonInterval } from './stats';

/** Draws per real idea (K). */
export const BASELINE_DRAWS = 20;
/** The ATR period of the tercile split. */
export const BASELINE_ATR_PERIOD = 14;
/** The replay's nominal pass time, 16:30 New York (docs/rules/conventions.md §0.5), in minutes of the day. */
const PASS_MINUTE = 16 * 60 + 30;

/** The 8-byte seed of an idea's draws: the first 8 bytes of SHA-256("baseline|engine|ruleVersion|paramHash|ideaId|d"). */
export function baselineSeed(engine: { id: string; ruleVersion: string; paramHash: string }, ideaId: string, entryDate: string): Uint8Array {
  return sha256(`baseline|${engine.id}|${engine.ruleVersion}|${engine.paramHash}|${ideaId}|${entryDate}`).slice(0, 8);
}

/** A warm symbol on a day: where its signal bar is and its ATR% there. */
export interface WarmSymbol {
  symbol: string;
  signalIndex: number;
  atrPct: number;
}

/** The warm universe on a day, split into ATR% terciles (each sorted by symbol). */
export interface WarmUniverse {
  /** The 1/3 and 2/3 quantiles of ATR% across the warm universe. */
  cuts: [number, number];
  terciles: [WarmSymbol[], WarmSymbol[], WarmSymbol[]];
}

/** The 1/3 and 2/3 quantiles (linear between neighbours) of ascending values; NaN for none. */
export function tercileCuts(sorted: Float64Array): [number, number] {
  const cut = (q: number) => {
    if (sorted.length === 0) return Number.NaN;
    const position = (sorted.length - 1) * q;
    const below = Math.floor(position);
    const above = Math.min(sorted.length - 1, below + 1);
    return sorted[below]! + (sorted[above]! - sorted[below]!) * (position - below);
  };
  return [cut(1 / 3), cut(2 / 3)];
}

/** 0, 1 or 2: the ATR% tercile of a value given the cut points (a value on a cut goes to the lower one). */
export function tercileOf(atrPct: number, cuts: readonly [number, number]): 0 | 1 | 2 {
  if (atrPct <= cuts[0]) return 0;
  return atrPct <= cuts[1] ? 1 : 2;
}

/** The index of the last bar dated before `day` (−1 when none): binary search over the ascending days. */
export function lastIndexBefore(days: Int32Array, day: number): number {
  let lo = 0;
  let hi = days.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (days[mid]! < day) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

export interface BaselineContext<P, S, Row> {
  engine: EngineDefinition<P, S, Row>;
  /** Full histories of every symbol that may be drawn. */
  series: ReadonlyMap<string, DailySeries>;
  /** The engine's universe on a session (point in time where the source knows it). */
  universeOn: (date: string) => readonly string[];
  /** Passed to engine.fold. */
  now: string;
  /** K, BASELINE_DRAWS unless a test says otherwise. */
  draws?: number;
}

/**
 * The baseline runner: memoises each symbol's ATR% column and each day's warm universe, so ideas
 * sharing an entry day (they cluster) split the universe once. `drawsFor` answers an idea's closed
 * draws; `warmUniverse` is exposed for tests and the bench.
 */
export function createBaseline<P, S, Row>(context: BaselineContext<P, S, Row>) {
  const { engine, series, universeOn, now } = context;
  const k = context.draws ?? BASELINE_DRAWS;
  const atrPctColumns = new Map<string, Float64Array>();
  const universes = new Map<string, WarmUniverse>();
  const recordedAt = new Map<string, string>();

  const atrPctColumn = (symbol: string, s: DailySeries): Float64Array => {
    let column = atrPctColumns.get(symbol);
    if (!column) {
      column = atr(s.high, s.low, s.close, BASELINE_ATR_PERIOD);
      for (let i = 0; i < column.length; i += 1) column[i] = column[i]! / s.close[i]!;
      atrPctColumns.set(symbol, column);
    }
    return column;
  };

  const warmUniverse = (entryDate: string): WarmUniverse => {
    let universe = universes.get(entryDate);
    if (universe) return universe;
    const day = dayNumber(entryDate);
    const warm: WarmSymbol[] = [];
    for (const symbol of new Set(universeOn(entryDate))) {
      const s = series.get(symbol);
      if (!s) continue;
      const signalIndex = lastIndexBefore(s.day, day);
      if (signalIndex < 0 || signalIndex + 1 < engine.warmupBars || s.day[signalIndex + 1] !== day) continue;
      const atrPct = atrPctColumn(symbol, s)[signalIndex]!;
      if (Number.isFinite(atrPct) && atrPct > 0) warm.push({ symbol, signalIndex, atrPct });
    }
    const cuts = tercileCuts(Float64Array.from(warm, (w) => w.atrPct).sort());
    const terciles: WarmUniverse['terciles'] = [[], [], []];
    warm.sort((a, b) => (a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0));
    for (const w of warm) terciles[tercileOf(w.atrPct, cuts)].push(w);
    universe = { cuts, terciles };
    universes.set(entryDate, universe);
    return universe;
  };

  const stamp = (events: readonly IdeaEvent[], origin: Origin): StoredIdeaEvent[] =>
    events.map((event) => {
      let at = recordedAt.get(event.barDate);
      if (at === undefined) {
        at = new Date(newYorkInstantMs(dayNumber(event.barDate), PASS_MINUTE)).toISOString();
        recordedAt.set(event.barDate, at);
      }
      // A literal, not a spread: 30,000 draws make ~100,000 of these, and spreads are markedly slower.
      return {
        ideaId: event.ideaId,
        engine: event.engine,
        market: event.market,
        symbol: event.symbol,
        type: event.type,
        level: event.level,
        barDate: event.barDate,
        price: event.price,
        data: event.data,
        ruleVersion: engine.ruleVersion,
        paramHash: engine.paramHash,
        origin,
        recordedAt: at,
      };
    });

  /** The symbols an idea's draws use, in draw order (seeded; without replacement). */
  const drawSymbols = (idea: IdeaOutcome): WarmSymbol[] => {
    if (!Number.isFinite(idea.atrPct)) return [];
    const universe = warmUniverse(idea.entryDate);
    const pool = universe.terciles[tercileOf(idea.atrPct, universe.cuts)].filter((w) => w.symbol !== idea.symbol);
    const rng: Xoshiro128 = xoshiroFromSeedBytes(baselineSeed(engine, idea.ideaId, idea.entryDate));
    const count = Math.min(k, pool.length);
    // A partial Fisher–Yates shuffle: the first `count` places get distinct random members.
    for (let i = 0; i < count; i += 1) {
      const j = i + rng.nextInt(pool.length - i);
      const swap = pool[i]!;
      pool[i] = pool[j]!;
      pool[j] = swap;
    }
    return pool.slice(0, count);
  };

  /** An idea's closed draws' outcomes (entered, closed), in draw order. */
  const drawsFor = (idea: IdeaOutcome): IdeaOutcome[] => {
    const out: IdeaOutcome[] = [];
    drawSymbols(idea).forEach((w, n) => {
      const ideaId = `baseline.${idea.ideaId}.${n + 1}.${w.symbol}`;
      // The draw is of the idea's own kind (swing: its Price Drop or Trend stop), the engine's first type.
      const events = engine.simulate({ params: engine.params, series: series.get(w.symbol)!, signalIndex: w.signalIndex, ideaId, variant: idea.types[0] });
      if (events.length === 0) return;
      const stored = stamp(events, idea.origin);
      const result = engine.outcome(stored, engine.fold(stored, null, now));
      if (result !== null && result.closed) out.push(result);
    });
    return out;
  };

  return { warmUniverse, drawSymbols, drawsFor };
}

/** The baseline figures of pooled draws (§6.4 b display): n, win rate with Wilson interval, mean, dollar-weighted. */
export function baselineSummary(draws: readonly IdeaOutcome[]): NonNullable<TrackRecordGroup['baseline']> {
  const returns = draws.map((d) => d.returnPct);
  const wins = returns.filter((r) => r > 0).length;
  let pnl = 0;
  let deployed = 0;
  let dollars = draws.length > 0;
  for (const d of draws) {
    if (d.pnl === null || d.deployed === null) dollars = false;
    else {
      pnl += d.pnl;
      deployed += d.deployed;
    }
  }
  return {
    n: draws.length,
    winRate: wilsonInterval(wins, draws.length),
    meanReturn: mean(returns),
    dollarWeighted: dollars && deployed > 0 ? pnl / deployed : null,
  };
}
