/**
 * "Would this have worked?" (issue 26, docs/custom-scans.md "Backtest"): a scan replayed session by
 * session with no look-ahead, its new entries' forward returns beside random entries and a benchmark.
 *
 * - Each replayed session d, the scan runs on every symbol with a bar dated d, as of that bar (bars
 *   0..d only: evaluate.ts). A symbol that matches on d and did not on the session before (or had no
 *   bar then) newly enters the results: an entry at the open of its next bar. The first replayed
 *   session only sets who is in the results (its members are not new).
 * - Forward return over h sessions (5, 21, 63): bought at the entry bar's open, sold at the close
 *   of the h-th bar counting the entry bar as the first, net of 5 bps a side:
 *   close·(1 − c) / (open·(1 + c)) − 1.
 * - Mature cohorts only: an entry counts at horizon h when every entry of its month could have
 *   held h sessions, i.e. the month's last replayed session is at least h sessions before the last
 *   bar; so the tally never favours the entries that happened to come early in a month.
 * - Random entries: for each entry, RANDOM_DRAWS other symbols with a bar that session and of the
 *   entry's ATR% tercile that session (the trade screens' baseline, trades/track-record/baseline.ts:
 *   ATR(14) / close on the signal bar, cut at the 1/3 and 2/3 quantiles of the symbols that traded),
 *   drawn without replacement (all of them when the tercile holds fewer) by a seeded xoshiro128**,
 *   so a rerun draws the same; entered and held the same way. A scan that picks volatile stocks is
 *   so compared with volatile stocks, not credited with their wider swings.
 * - Benchmark (SPY, BTC for crypto): its return from the entry bar's open to the exit bar's close,
 *   without costs, beside each entry's; the mean excess is entry minus benchmark.
 * - Equity: every entry held 21 sessions, equal weight, the portfolio's daily return the mean of the
 *   open positions' (0 on a day with none), compounded over the replay.
 * The replay runs in steps (`step`), so a job can report progress between them and stop; its statistics
 * too (`resultSteps`), so a job can give way to other work between them.
 */
import { cohortOf } from '../trades/track-record/cohorts';
import { atr } from '../indicators/atr';
import { tercileCuts, tercileOf } from '../trades/track-record/baseline';
import { xoshiroFromSeedBytes } from '../trades/track-record/prng';
import { bootstrapMeanInterval, entryWeekOf, mean, median, wilsonInterval, type RateWithInterval } from '../trades/track-record/stats';
import { isoFromDayNumber } from '../market/trading-calendar';
import type { CompiledScan, ScanBars, ScanFacts } from './evaluate';

export const BACKTEST_HORIZONS = [5, 21, 63] as const;
export type BacktestHorizon = (typeof BACKTEST_HORIZONS)[number];
/** Cost per side, in basis points. */
export const BACKTEST_COST_BPS = 5;
/** Sessions each entry is held in the equity curve. */
export const EQUITY_HOLD_SESSIONS = 21;
/** Random entries drawn per real entry (fewer when the entry's tercile holds fewer other symbols). */
export const RANDOM_DRAWS = 20;
/** The ATR period of the random entries' volatility terciles (the trade screens' baseline's). */
const TERCILE_ATR_PERIOD = 14;
/** Entries listed as the worst (by their 21-session return). */
export const WORST_ENTRIES = 10;

export interface BacktestSymbol {
  symbol: string;
  bars: ScanBars;
  /** The day number (days since 1970-01-01) of each bar, ascending. */
  day: Int32Array;
  /** Facts as known today (sector, exchange): they do not change over the replay. */
  facts: ScanFacts;
}

export interface BacktestBenchmark {
  symbol: string;
  day: Int32Array;
  open: Float64Array;
  close: Float64Array;
}

export interface BacktestInput {
  /** Compiled with `{ memoize: true }` (evaluate.ts): the recursive indicators are then computed once per symbol, not once per session. */
  compiled: CompiledScan;
  symbols: readonly BacktestSymbol[];
  /** The sessions to replay (day numbers, ascending); the last is "now". */
  sessions: Int32Array;
  benchmark: BacktestBenchmark | null;
  /** Seeds the random entries and the bootstrap. */
  seed: Uint8Array;
}

/** Forward returns at one horizon: n, mean with its bootstrap interval, median, share positive with its Wilson interval. */
export interface HorizonStats {
  n: number;
  mean: number | null;
  meanLow: number | null;
  meanHigh: number | null;
  median: number | null;
  positive: RateWithInterval | null;
}

export interface HorizonResult {
  horizon: BacktestHorizon;
  scan: HorizonStats;
  random: HorizonStats;
  /** The benchmark over the same windows; null without a benchmark. */
  benchmarkMean: number | null;
  /** Mean of (entry − benchmark) over the entries with both. */
  excessMean: number | null;
  /** Entries not yet counted: their month is not mature at this horizon. */
  immature: number;
}

export interface BacktestEntry {
  symbol: string;
  /** The entry bar's date (bought at its open). */
  date: string;
  return21: number;
}

export interface BacktestResult {
  from: string;
  to: string;
  sessions: number;
  symbols: number;
  entries: number;
  horizons: HorizonResult[];
  equity: Array<{ date: string; value: number }>;
  worst: BacktestEntry[];
  benchmark: string | null;
}

export interface Backtest {
  /** Sessions replayed so far, of `total`. */
  readonly done: number;
  readonly total: number;
  /** Replays up to `sessions` more sessions; true once every session is replayed. */
  step(sessions: number): boolean;
  /** The result of a finished replay (throws before). */
  result(): BacktestResult;
  /**
   * The same result worked out in pieces (each horizon's returns, each bootstrap, the equity curve):
   * the generator yields between them, so a job can give way to other work; it returns result()'s value.
   */
  resultSteps(): Generator<void, BacktestResult, void>;
}

interface Entry {
  symbol: number;
  /** Index of the entry bar (bought at its open) in the symbol's bars. */
  bar: number;
  /** The replayed session index of the signal. */
  session: number;
  random: boolean;
}

const cost = BACKTEST_COST_BPS / 10_000;

/** Index of the bar dated `day` in `days` from `from` on, or −1 (advancing a cursor). */
function barOn(days: Int32Array, day: number, from: number): number {
  let i = from;
  while (i < days.length && days[i]! < day) i += 1;
  return i < days.length && days[i] === day ? i : -1;
}

/** Last index whose day is ≤ day, or −1. */
function lastAtOrBefore(days: Int32Array, day: number): number {
  let lo = 0;
  let hi = days.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (days[mid]! <= day) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

/** Entries looked at between two yields of resultSteps (some tens of ms). */
const ENTRIES_PER_STEP = 1 << 16;

/** A horizon's statistics; yields between the bootstrap (over the weeks' sums) and the rest (the median sorts all n returns). */
function* horizonStats(returns: number[], weeks: number[], seed: Uint8Array): Generator<void, HorizonStats, void> {
  const interval = bootstrapMeanInterval(returns, weeks, { seed });
  yield;
  return {
    n: returns.length,
    mean: mean(returns),
    meanLow: interval?.low ?? null,
    meanHigh: interval?.high ?? null,
    median: median(returns),
    positive: wilsonInterval(returns.filter((r) => r > 0).length, returns.length),
  };
}

export function createBacktest(input: BacktestInput): Backtest {
  const { compiled, symbols, sessions, benchmark, seed } = input;
  const total = sessions.length;
  const cursor = new Int32Array(symbols.length);
  const wasIn = new Uint8Array(symbols.length);
  const entries: Entry[] = [];
  const rng = xoshiroFromSeedBytes(seed);
  const present: number[] = [];
  let done = 0;

  const replay = (s: number) => {
    const day = sessions[s]!;
    present.length = 0;
    const newcomers: Array<[number, number]> = [];
    for (let i = 0; i < symbols.length; i += 1) {
      const { bars, day: days, facts } = symbols[i]!;
      const at = barOn(days, day, cursor[i]!);
      if (at < 0) {
        wasIn[i] = 0;
        continue;
      }
      cursor[i] = at;
      present.push(i);
      const isIn = compiled.matches(bars, facts, at);
      if (isIn && !wasIn[i] && s > 0) newcomers.push([i, at]);
      wasIn[i] = isIn ? 1 : 0;
    }
    if (newcomers.length === 0) return;
    const terciles = tercilesOf(present);
    for (const [i, at] of newcomers) {
      entries.push({ symbol: i, bar: at + 1, session: s, random: false });
      // An entry without an ATR% yet (too few bars) draws from every symbol that traded.
      const own = atrPct(i, at);
      const pool = (Number.isNaN(own) ? terciles.all : terciles.pools[tercileOf(own, terciles.cuts)]).filter((j) => j !== i);
      const count = Math.min(RANDOM_DRAWS, pool.length);
      // A partial Fisher–Yates shuffle: the first `count` places get distinct random members.
      for (let d = 0; d < count; d += 1) {
        const j = d + rng.nextInt(pool.length - d);
        const pick = pool[j]!;
        pool[j] = pool[d]!;
        pool[d] = pick;
        entries.push({ symbol: pick, bar: cursor[pick]! + 1, session: s, random: true });
      }
    }
  };

  /** ATR(14) / close of each symbol's bars, computed on first use. */
  const atrPctColumns: Array<Float64Array | undefined> = [];
  const atrPct = (i: number, bar: number): number => {
    let column = atrPctColumns[i];
    if (!column) {
      const { high, low, close } = symbols[i]!.bars;
      column = atr(high, low, close, TERCILE_ATR_PERIOD);
      for (let k = 0; k < column.length; k += 1) column[k] = column[k]! / close[k]!;
      atrPctColumns[i] = column;
    }
    const value = column[bar]!;
    return Number.isFinite(value) && value > 0 ? value : Number.NaN;
  };

  /** The symbols that traded this session (`all`), and those with an ATR% split into its terciles. */
  const tercilesOf = (traded: readonly number[]) => {
    const known = traded.filter((i) => !Number.isNaN(atrPct(i, cursor[i]!)));
    const cuts = tercileCuts(Float64Array.from(known, (i) => atrPct(i, cursor[i]!)).sort());
    const pools: [number[], number[], number[]] = [[], [], []];
    for (const i of known) pools[tercileOf(atrPct(i, cursor[i]!), cuts)].push(i);
    return { cuts, pools, all: [...traded] };
  };

  const forward = (entry: Entry, h: number): number | null => {
    const { bars } = symbols[entry.symbol]!;
    const exit = entry.bar + h - 1;
    if (exit >= symbols[entry.symbol]!.day.length || exit >= bars.close.length) return null;
    const open = bars.open[entry.bar]!;
    const close = bars.close[exit]!;
    const r = (close * (1 - cost)) / (open * (1 + cost)) - 1;
    return Number.isFinite(r) && open > 0 ? r : null;
  };

  const benchmarkReturn = (entry: Entry, h: number): number | null => {
    if (!benchmark) return null;
    const { day } = symbols[entry.symbol]!;
    const entryDay = day[entry.bar]!;
    const exitDay = day[entry.bar + h - 1]!;
    const first = lastAtOrBefore(benchmark.day, entryDay - 1) + 1;
    const last = lastAtOrBefore(benchmark.day, exitDay);
    if (first >= benchmark.day.length || last < first) return null;
    const r = benchmark.close[last]! / benchmark.open[first]! - 1;
    return Number.isFinite(r) ? r : null;
  };

  function* resultSteps(): Generator<void, BacktestResult, void> {
    if (done < total) throw new Error('The backtest has not finished');
    const lastDay = sessions[total - 1] ?? 0;
    // Per replayed session, once (not per entry): the last replayed session of its month (a month is
    // mature at h when it is ≥ h sessions before the end) and its entry week (the bootstrap's block).
    const months = Array.from(sessions, (day) => cohortOf(isoFromDayNumber(day)));
    const monthEnd = new Map<string, number>();
    months.forEach((month, s) => monthEnd.set(month, s));
    const monthLast = Int32Array.from(months, (month) => monthEnd.get(month)!);
    const weekOf = Array.from(sessions, (day) => entryWeekOf(isoFromDayNumber(day)));
    const real = entries.filter((entry) => !entry.random);
    const horizons: HorizonResult[] = [];
    for (const h of BACKTEST_HORIZONS) {
      const scanReturns: number[] = [];
      const scanWeeks: number[] = [];
      const randomReturns: number[] = [];
      const randomWeeks: number[] = [];
      const benchReturns: number[] = [];
      const excess: number[] = [];
      let immature = 0;
      for (let index = 0; index < entries.length; index += 1) {
        if (index % ENTRIES_PER_STEP === ENTRIES_PER_STEP - 1) yield;
        const entry = entries[index]!;
        const mature = monthLast[entry.session]! + h <= total - 1;
        if (!mature) {
          if (!entry.random) immature += 1;
          continue;
        }
        const r = forward(entry, h);
        if (r === null) {
          if (!entry.random) immature += 1;
          continue;
        }
        const week = weekOf[entry.session]!;
        if (entry.random) {
          randomReturns.push(r);
          randomWeeks.push(week);
          continue;
        }
        scanReturns.push(r);
        scanWeeks.push(week);
        const b = benchmarkReturn(entry, h);
        if (b !== null) {
          benchReturns.push(b);
          excess.push(r - b);
        }
      }
      yield;
      const scan = yield* horizonStats(scanReturns, scanWeeks, seed);
      yield;
      const random = yield* horizonStats(randomReturns, randomWeeks, seed);
      yield;
      horizons.push({ horizon: h, scan, random, benchmarkMean: mean(benchReturns), excessMean: mean(excess), immature });
    }
    const equity = yield* equityCurve(real);
    yield;
    return {
      from: total > 0 ? isoFromDayNumber(sessions[0]!) : '',
      to: total > 0 ? isoFromDayNumber(lastDay) : '',
      sessions: total,
      symbols: symbols.length,
      entries: real.length,
      horizons,
      equity,
      worst: worstEntries(real),
      benchmark: benchmark?.symbol ?? null,
    };
  }

  /** Equal-weight entries held EQUITY_HOLD_SESSIONS sessions, compounded over the replayed sessions. */
  const equityCurve = function* (real: Entry[]): Generator<void, BacktestResult['equity'], void> {
    const sum = new Map<number, number>();
    const count = new Map<number, number>();
    // Each entry adds up to EQUITY_HOLD_SESSIONS days: about ENTRIES_PER_STEP days between two yields.
    const perStep = Math.ceil(ENTRIES_PER_STEP / EQUITY_HOLD_SESSIONS);
    for (let index = 0; index < real.length; index += 1) {
      if (index % perStep === perStep - 1) yield;
      const entry = real[index]!;
      const { bars, day } = symbols[entry.symbol]!;
      const last = Math.min(entry.bar + EQUITY_HOLD_SESSIONS - 1, day.length - 1);
      for (let t = entry.bar; t <= last; t += 1) {
        let r = t === entry.bar ? bars.close[t]! / (bars.open[t]! * (1 + cost)) - 1 : bars.close[t]! / bars.close[t - 1]! - 1;
        if (t === entry.bar + EQUITY_HOLD_SESSIONS - 1) r = (1 + r) * (1 - cost) - 1;
        if (!Number.isFinite(r)) continue;
        sum.set(day[t]!, (sum.get(day[t]!) ?? 0) + r);
        count.set(day[t]!, (count.get(day[t]!) ?? 0) + 1);
      }
    }
    let value = 1;
    const curve: BacktestResult['equity'] = [];
    for (let s = 0; s < total; s += 1) {
      const day = sessions[s]!;
      const n = count.get(day);
      if (n) value *= 1 + sum.get(day)! / n;
      curve.push({ date: isoFromDayNumber(day), value });
    }
    return curve;
  };

  const worstEntries = (real: Entry[]): BacktestEntry[] =>
    real
      .map((entry) => ({ entry, r: forward(entry, EQUITY_HOLD_SESSIONS) }))
      .filter((item): item is { entry: Entry; r: number } => item.r !== null)
      .sort((a, b) => a.r - b.r)
      .slice(0, WORST_ENTRIES)
      .map(({ entry, r }) => ({ symbol: symbols[entry.symbol]!.symbol, date: isoFromDayNumber(symbols[entry.symbol]!.day[entry.bar]!), return21: r }));

  return {
    get done() {
      return done;
    },
    total,
    step(count) {
      const until = Math.min(total, done + count);
      while (done < until) {
        replay(done);
        done += 1;
      }
      return done >= total;
    },
    result() {
      const steps = resultSteps();
      for (;;) {
        const next = steps.next();
        if (next.done) return next.value;
      }
    },
    resultSteps,
  };
}
