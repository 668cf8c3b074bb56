/**
 * What a backtest replays (docs/custom-scans.md "Backtest jobs"): core's BacktestInput built from the
 * market, for a saved scan as it is now.
 * - Sessions: the benchmark's bar days (else every day any member has a bar) of the last
 *   BACKTEST_WINDOW_DAYS calendar days through today, from the first one with the scan's whole
 *   warm-up (lookbackDays, as a run reads before its run date) of history before it: a source whose
 *   history is shorter replays fewer sessions, and the result's from/to say which. When the
 *   universe's imported prices (or its benchmark's) go back further, the window starts with their
 *   history's first day after its warm-up, at most BACKTEST_MAX_WINDOW_DAYS back; the sessions before
 *   the benchmark's history are the days any member has a bar.
 * - Bars: every member's daily bars from the warm-up before the first session through today, read
 *   the way a run reads them (scan-bars.ts). A symbol without bars is not replayed.
 * - Facts: sector and exchange as listed today. A scan that reads the earnings calendar or news
 *   cannot be replayed (unreplayableProblem): what the server can read of them is not what was known
 *   on each day of the last two years.
 * - Benchmark: SPY (BTC for crypto) from the same market; none when the source lacks it.
 * - Seed: the first 8 bytes of SHA-256("custom-scan-backtest|<scan id>|<version>"): a rerun of one
 *   version draws the same random entries.
 * - Data version: that of the bars read (backtest-data.ts), stored with the result.
 */
import { compileScan, isoFromDayNumber, scanField, sha256, type BacktestBenchmark, type BacktestInput, type BacktestSymbol, type CompiledScan, type ScanFacts } from '@signalboard/core';
import type { Clock } from '../../lib/clock';
import type { ScanLog } from '../../lib/scan-failure';
import type { CachedMarket } from '../../providers/market/cached-market';
import { CapabilityUnavailableError, NoPriceHistoryError, UnknownSymbolError, type Bars } from '../../providers/market/types';
import type { FavoritesRepo } from '../watchlist/watchlist.repo';
import type { BacktestScan } from './backtest.repo';
import { loadScanBars, scanConcurrency } from './scan-bars';
import { storedDefinition } from './scan-definition';
import { factSourcesOf, readScanFacts } from './scan-facts';
import { lookbackDays } from './scan-run.service';
import { BACKTEST_BENCHMARKS, dataVersionRead, importedHistoryStart } from './backtest-data';
import { scanUniverseMembers } from './scan-universe';

/** Calendar days of sessions a backtest replays: two years through today. */
export const BACKTEST_WINDOW_DAYS = 730;
/**
 * Calendar days of sessions at most, when the universe's imported prices go back further: five years
 * (about 1,260 sessions). Measured over 500 symbols (docs/custom-scans.md "Backtest jobs", "Speed"), a
 * scan that computes RSI, ADX and SMA every session held 29 MB more heap over two years, 38 MB over
 * five and 90 MB over ten (its entries and their random draws): five stays near the two years'
 * memory, ten would take a third of the server's 250 MB. The bars are views of the histories the
 * cache holds anyway.
 */
export const BACKTEST_MAX_WINDOW_DAYS = 1_826;

const DAY_SECONDS = 86_400;
/** The longest run of days without a session (weekends, holidays) at the start of the bars read. */
const HISTORY_GAP_DAYS = 7;

/** A reason the backtest cannot be done that the user can read as it is. */
export class BacktestError extends Error {}

export interface BacktestInputDeps {
  market: CachedMarket;
  /** The market's clock: "today" is its UTC date. */
  marketClock: Clock;
  favorites: Pick<FavoritesRepo, 'list'>;
  log: ScanLog;
}

export interface BacktestLoadOptions {
  /** Once aborted, no further symbol's bars are asked for, and the load throws the signal's reason. */
  signal?: AbortSignal;
  /** Awaited after each member's bars were read (or not): progress, and a pause for requests. */
  onSymbol?: () => Promise<void> | void;
}

/** What cannot be replayed honestly, by fact source: the scan's fields of these sources are refused. */
const UNREPLAYABLE = new Set(['earnings', 'news']);

/** The scan compiled once, from its stored formula, keeping each symbol's recursive indicators across the replayed sessions (core's `memoize`). */
export const compiledScanOf = (formula: string): CompiledScan => compileScan(storedDefinition(formula).expr, { memoize: true });

/**
 * Why the scan cannot be backtested, naming its fields that read the earnings calendar or the news
 * (`This scan reads news sentiment, which cannot be replayed: …`); null when it can.
 */
export function unreplayableProblem(compiled: Pick<CompiledScan, 'fields'>): string | null {
  const names = [...new Set(compiled.fields.map((ref) => scanField(ref.field)!).filter((spec) => UNREPLAYABLE.has(spec.source)).map((spec) => spec.label.toLowerCase()))];
  if (names.length === 0) return null;
  const listed = names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
  return (
    `This scan reads ${listed}, which cannot be replayed: the earnings calendar and the news the server can read are today's, ` +
    'and say nothing reliable of what was known on each day of the last two years. Remove it to backtest the scan.'
  );
}

const NO_FACTS: ScanFacts = {};
const dayOf = (seconds: number) => Math.round(seconds / DAY_SECONDS);
const daysOf = (bars: Bars) => Int32Array.from(bars.time, dayOf);

/** The benchmark's bars in the window (null when the source does not have it), and the bars read. */
async function benchmarkOf(market: CachedMarket, symbol: string, fromDay: number, toDay: number, loaded: ReadonlyMap<string, Bars>): Promise<{ benchmark: BacktestBenchmark | null; bars?: Bars }> {
  let bars = loaded.get(symbol);
  if (!bars) {
    try {
      bars = (await market.getDailyBars(symbol, fromDay * DAY_SECONDS, toDay * DAY_SECONDS)).value;
    } catch (error) {
      if (error instanceof UnknownSymbolError || error instanceof NoPriceHistoryError || error instanceof CapabilityUnavailableError) return { benchmark: null };
      throw error;
    }
  }
  return { benchmark: bars.time.length > 0 ? { symbol, day: daysOf(bars), open: bars.open, close: bars.close } : null, bars };
}

/**
 * The replayed sessions: the calendar's days in the window through today. A history that starts
 * later than the warm-up asked for (more than a week of weekends and holidays after `fromDay`) is
 * replayed from its first day with the whole warm-up before it.
 */
function sessionsOf(calendar: Int32Array, window: { fromDay: number; startDay: number; warmUpDays: number; todayDay: number }): Int32Array {
  const historyStart = calendar[0] ?? window.todayDay;
  const first = historyStart - window.fromDay <= HISTORY_GAP_DAYS ? window.startDay : Math.max(window.startDay, historyStart + window.warmUpDays);
  return calendar.filter((day) => day >= first && day <= window.todayDay);
}

/** Every day any of the symbols has a bar (before `beforeDay` when given), ascending. */
function unionOfDays(symbols: readonly BacktestSymbol[], beforeDay = Number.POSITIVE_INFINITY): Int32Array {
  const days = new Set<number>();
  for (const { day } of symbols) for (const each of day) if (each < beforeDay) days.add(each);
  return Int32Array.from([...days].sort((a, b) => a - b));
}

/** The calendar of the sessions: the benchmark's days; a window that reaches before them (imported history) starts with the members' days. */
function calendarOf(benchmark: BacktestBenchmark | null, symbols: readonly BacktestSymbol[], extended: boolean): Int32Array {
  if (!benchmark) return unionOfDays(symbols);
  if (!extended) return benchmark.day;
  const before = unionOfDays(symbols, benchmark.day[0]);
  if (before.length === 0) return benchmark.day;
  const calendar = new Int32Array(before.length + benchmark.day.length);
  calendar.set(before);
  calendar.set(benchmark.day, before.length);
  return calendar;
}

/** What a backtest replays, with the data version of the bars it read (backtest-data.ts). */
export type LoadedBacktest = BacktestInput & { dataVersion: string };

/** Builds the replay's input for the scan (the owner's favourites for `favorites`); a BacktestError says why it cannot be done. */
export async function loadBacktestInput(deps: BacktestInputDeps, owner: { userId: number; scan: BacktestScan }, options: BacktestLoadOptions = {}): Promise<LoadedBacktest> {
  const { market, log } = deps;
  const { scan } = owner;
  const compiled = compiledScanOf(scan.formula);
  const problem = unreplayableProblem(compiled);
  if (problem) throw new BacktestError(problem);

  const todayDay = Math.floor(deps.marketClock.nowMs() / 1000 / DAY_SECONDS);
  const warmUpDays = lookbackDays(compiled);

  const members = await scanUniverseMembers(scan.universe, { market, favorites: deps.favorites }, owner.userId);
  if (members.length === 0) throw new BacktestError(scan.universe === 'favorites' ? 'Your favourites are empty: add symbols to them to backtest a scan over them.' : 'The universe has no symbols on this market data source.');
  const concurrency = scanConcurrency(market);
  const benchmarkSymbol = BACKTEST_BENCHMARKS[scan.universe];

  // Two years, or back to the universe's imported history (after its warm-up), at most five years.
  const twoYearsStart = todayDay - BACKTEST_WINDOW_DAYS + 1;
  const earliestStart = todayDay - BACKTEST_MAX_WINDOW_DAYS + 1;
  const importedStart = await importedHistoryStart(market, [...members.map((member) => member.symbol), benchmarkSymbol], earliestStart - warmUpDays, todayDay, { concurrency, ...options });
  options.signal?.throwIfAborted();
  const windowStartDay = importedStart === null ? twoYearsStart : Math.min(twoYearsStart, Math.max(earliestStart, importedStart + warmUpDays));
  const extended = windowStartDay < twoYearsStart;
  const fromDay = windowStartDay - warmUpDays;
  const loaded = await loadScanBars(market, members, fromDay, todayDay, { concurrency, ...options });
  // Stopped while reading (cancelled, the process stops): the signal's reason is thrown.
  options.signal?.throwIfAborted();
  if (loaded.failed > 0) {
    log.warn({ failed: loaded.failed, err: loaded.firstError }, 'custom scan backtest: some symbols\' bars could not be read (not replayed)');
    // Nothing could be read and the market is why: the job fails with the market's error.
    if (loaded.bars.size === 0) throw loaded.firstError;
  }

  const replayed = members.filter((member) => (loaded.bars.get(member.symbol)?.time.length ?? 0) > 0);
  const sources = factSourcesOf(compiled.fields);
  const facts = sources.size === 0 || replayed.length === 0 ? new Map<string, ScanFacts>() : await readScanFacts(sources, { market, members: replayed, runDay: todayDay, concurrency, log });
  const symbols: BacktestSymbol[] = replayed.map((member) => {
    const bars = loaded.bars.get(member.symbol)!;
    return { symbol: member.symbol, bars: { open: bars.open, high: bars.high, low: bars.low, close: bars.close, volume: bars.volume }, day: daysOf(bars), facts: facts.get(member.symbol) ?? NO_FACTS };
  });
  if (symbols.length === 0) throw new BacktestError('No symbol of the universe has daily bars on this market data source in the last two years.');

  const { benchmark, bars: benchmarkBars } = await benchmarkOf(market, benchmarkSymbol, fromDay, todayDay, loaded.bars);
  const calendar = calendarOf(benchmark, symbols, extended);
  const sessions = sessionsOf(calendar, { fromDay, startDay: windowStartDay, warmUpDays, todayDay });
  if (sessions.length < 2) {
    throw new BacktestError(
      `The source's history is too short to replay this scan: it starts on ${isoFromDayNumber(calendar[0] ?? todayDay)}, and the scan's fields need ${warmUpDays} calendar days of bars before the first session replayed.`,
    );
  }
  const seed = sha256(`custom-scan-backtest|${scan.id}|${scan.version}`).slice(0, 8);
  const dataVersion = dataVersionRead([...loaded.bars.values(), ...(benchmarkBars ? [benchmarkBars] : [])]);
  return { compiled, symbols, sessions, benchmark, seed, dataVersion };
}
