import type { CryptoScorecard, CryptoScorecardCell, CryptoScorecardGroup } from '../../../contract/crypto-trades';
import { dayNumber, isoFromDayNumber } from '../../../market/trading-calendar';
import { indexOnOrBefore } from '../../kit/series';
import { sha256 } from '../../kit/sha256';
import { bootstrapMeanInterval, BOOTSTRAP_RESAMPLES, entryWeekOf, mean, median, wilsonInterval } from '../../track-record/stats';
import { engineEvent, type Origin, type StoredIdeaEvent } from '../../types';
import { CRYPTO_HORIZONS, CRYPTO_LABELS, type CryptoHorizon, type CryptoLabel } from './series';
import type { CryptoEventData } from './state';

/**
 * The crypto engine's track record: the signal scorecard (docs/rules/crypto.md §3.4, with docs/rules/track-record.md §6.3's
 * intervals). Pure: every input is an argument, `now` included.
 *
 * - **Signals**: the `signal_changed` log (cryptoSignalLog), each a change of a displayed label to
 *   `to` on candle d. Grouped by (ruleVersion, origin, horizon, to): origins and versions are never
 *   pooled (§0.5). Scope: d within [from, to] and the symbol containing the filter (ignoring case).
 * - **Forward return** at k = 7, 30, 90 days: close(d + k) / close(d) − 1 from the coin's daily
 *   closes, counted once d + k has passed: d + k ≤ asOf, the last completed UTC candle before
 *   `now` (its UTC date − 1), and both closes are known (a candle missing on d or d + k leaves the
 *   signal pending). Days are calendar days (every UTC day is a candle).
 * - **Score**: sign × return, sign −1 for Sell ("scored with the sign flipped"), +1 for Buy and Hold.
 * - **Report** per cell (group × k): N, mean, median, share positive (with its Wilson interval),
 *   the mean's 95 % interval by a block bootstrap over the weeks of d (2,000 resamples,
 *   xoshiro128** seeded with the first 8 bytes of SHA-256("crypto|scorecard")), deterministic.
 * - **Baseline**: for each coin, the mean k-day forward return over EVERY day of the scorecard
 *   window (d from the window's first day through its last, each counted once d + k has passed);
 *   a cell's baseline is the mean over its counted signals of sign × their coin's baseline, so
 *   coins weigh as they appear among the signals. Excess = mean − baseline.
 * - **Window**: [scope.from, scope.to] clipped to asOf; without `from`, the first signal date in scope.
 * - **Benchmark**: BTC's k-day return over each counted signal's own window (d → d + k): its mean
 *   (raw), and the mean of score − sign × BTC's return, over the signals whose BTC closes are known.
 */

export const CRYPTO_SCORECARD_DAYS: readonly number[] = [7, 30, 90];
export const CRYPTO_BENCHMARK = 'BTC';
/** The bootstrap's fixed seed: the first 8 bytes of SHA-256("crypto|scorecard"). */
export const CRYPTO_SCORECARD_SEED: Uint8Array = sha256('crypto|scorecard').slice(0, 8);

/** One entry of the signal log (docs/rules/crypto.md §3.4: coin, horizon, from, to, date d, close). */
export interface CryptoSignalChange {
  symbol: string;
  horizon: CryptoHorizon;
  from: CryptoLabel;
  to: CryptoLabel;
  /** The candle of the change (YYYY-MM-DD). */
  date: string;
  close: number;
  ruleVersion: string;
  origin: Origin;
}

/** The signal log out of an event log (any engines, any order): the crypto `signal_changed` events, by date then symbol. */
export function cryptoSignalLog(events: readonly StoredIdeaEvent[]): CryptoSignalChange[] {
  const out: CryptoSignalChange[] = [];
  for (const item of events) {
    if (item.engine !== 'crypto') continue;
    const event = engineEvent<CryptoEventData>(item);
    if (event.type !== 'signal_changed') continue;
    const { data } = event;
    out.push({ symbol: item.symbol, horizon: data.horizon, from: data.from, to: data.to, date: item.barDate, close: item.price ?? Number.NaN, ruleVersion: item.ruleVersion, origin: item.origin });
  }
  return out.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0));
}

/** A coin's daily closes (a DailySeries fits): day numbers ascending and the closes. */
export interface CryptoCloses {
  day: Int32Array;
  close: Float64Array;
}

export interface CryptoScorecardInput {
  signals: readonly CryptoSignalChange[];
  /** Daily closes per symbol: every coin with signals, and the benchmark. */
  closes: ReadonlyMap<string, CryptoCloses>;
  /** ISO 8601 UTC. */
  now: string;
  scope?: { from?: string | null; to?: string | null; symbol?: string | null };
  /** Forward-return horizons in days (default 7, 30, 90). */
  days?: readonly number[];
  benchmarkSymbol?: string;
  resamples?: number;
  seed?: Uint8Array;
}

/** The close on day `day` exactly, or null (missing candle or not a positive number). */
function closeOn(series: CryptoCloses | undefined, day: number): number | null {
  if (!series) return null;
  const i = indexOnOrBefore(series.day, day);
  if (i < 0 || series.day[i] !== day) return null;
  const value = series.close[i]!;
  return Number.isFinite(value) && value > 0 ? value : null;
}

/** The k-day forward return from `day`, or null when d + k is after `asOf` or a close is missing. */
function forwardReturn(series: CryptoCloses | undefined, day: number, k: number, asOf: number): number | null {
  if (day + k > asOf) return null;
  const start = closeOn(series, day);
  const end = closeOn(series, day + k);
  return start === null || end === null ? null : end / start - 1;
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

function scopeDay(value: string, field: 'from' | 'to'): number {
  if (!DATE_ONLY.test(value) || isoFromDayNumber(dayNumber(value)) !== value) throw new RangeError(`${field} must be a date (YYYY-MM-DD)`);
  return dayNumber(value);
}

/** The scorecard (see the header; the contract's CryptoScorecard documents every field). */
export function computeCryptoScorecard(input: CryptoScorecardInput): CryptoScorecard {
  const nowMs = Date.parse(input.now);
  if (!Number.isFinite(nowMs)) throw new RangeError(`now is not an ISO 8601 instant: ${input.now}`);
  const asOf = Math.floor(nowMs / 86_400_000) - 1;
  const days = [...(input.days ?? CRYPTO_SCORECARD_DAYS)];
  const benchmarkSymbol = input.benchmarkSymbol ?? CRYPTO_BENCHMARK;
  const bench = input.closes.get(benchmarkSymbol);
  const scope = input.scope ?? {};
  const fromDay = scope.from ? scopeDay(scope.from, 'from') : null;
  const toDay = Math.min(scope.to ? scopeDay(scope.to, 'to') : asOf, asOf);
  const needle = scope.symbol ? scope.symbol.toUpperCase() : '';
  const inScope = input.signals.filter((signal) => {
    const day = dayNumber(signal.date);
    return (fromDay === null || day >= fromDay) && day <= toDay && (needle === '' || signal.symbol.toUpperCase().includes(needle));
  });
  let windowFrom = fromDay;
  if (windowFrom === null) for (const signal of inScope) windowFrom = Math.min(windowFrom ?? Infinity, dayNumber(signal.date));

  // Baseline per (coin, k): the mean forward return over every day of the window.
  const baselines = new Map<string, number | null>();
  const baselineOf = (symbol: string, k: number): number | null => {
    const key = `${symbol}\u0000${k}`;
    if (baselines.has(key)) return baselines.get(key)!;
    const series = input.closes.get(symbol);
    let sum = 0;
    let count = 0;
    if (series && windowFrom !== null) {
      for (let day = windowFrom; day <= toDay; day += 1) {
        const r = forwardReturn(series, day, k, asOf);
        if (r === null) continue;
        sum += r;
        count += 1;
      }
    }
    const value = count > 0 ? sum / count : null;
    baselines.set(key, value);
    return value;
  };

  const groups = new Map<string, { ruleVersion: string; origin: Origin; horizon: CryptoHorizon; label: CryptoLabel; signals: CryptoSignalChange[] }>();
  for (const signal of inScope) {
    const key = [signal.ruleVersion, signal.origin, signal.horizon, signal.to].join('\u0000');
    let group = groups.get(key);
    if (!group) {
      group = { ruleVersion: signal.ruleVersion, origin: signal.origin, horizon: signal.horizon, label: signal.to, signals: [] };
      groups.set(key, group);
    }
    group.signals.push(signal);
  }

  const out: CryptoScorecardGroup[] = [];
  for (const group of groups.values()) {
    const sign: 1 | -1 = group.label === 'Sell' ? -1 : 1;
    const cells: CryptoScorecardCell[] = days.map((k) => {
      const scores: number[] = [];
      const weeks: number[] = [];
      const baselineScores: number[] = [];
      const benchReturns: number[] = [];
      const benchExcess: number[] = [];
      let pending = 0;
      for (const signal of group.signals) {
        const day = dayNumber(signal.date);
        const r = forwardReturn(input.closes.get(signal.symbol), day, k, asOf);
        if (r === null) {
          pending += 1;
          continue;
        }
        const score = sign * r;
        scores.push(score);
        weeks.push(entryWeekOf(signal.date));
        const base = baselineOf(signal.symbol, k);
        if (base !== null) baselineScores.push(sign * base);
        const b = forwardReturn(bench, day, k, asOf);
        if (b !== null) {
          benchReturns.push(b);
          benchExcess.push(score - sign * b);
        }
      }
      const n = scores.length;
      const meanScore = mean(scores);
      // Every counted signal's own day is in the window, so its coin always has a baseline.
      const baseline = baselineScores.length === n ? mean(baselineScores) : null;
      return {
        days: k,
        n,
        pending,
        mean: meanScore,
        median: median(scores),
        sharePositive: wilsonInterval(scores.filter((s) => s > 0).length, n),
        meanInterval: bootstrapMeanInterval(scores, weeks, { resamples: input.resamples ?? BOOTSTRAP_RESAMPLES, seed: input.seed ?? CRYPTO_SCORECARD_SEED }),
        baseline,
        excess: meanScore !== null && baseline !== null ? meanScore - baseline : null,
        benchmark: { symbol: benchmarkSymbol, n: benchReturns.length, meanReturn: mean(benchReturns), meanExcess: mean(benchExcess) },
      };
    });
    out.push({ ruleVersion: group.ruleVersion, origin: group.origin, horizon: group.horizon, label: group.label, sign, signals: group.signals.length, cells });
  }
  out.sort(compareGroups);
  return {
    asOf: isoFromDayNumber(asOf),
    window: { from: windowFrom === null ? null : isoFromDayNumber(windowFrom), to: isoFromDayNumber(toDay) },
    symbol: scope.symbol || null,
    days,
    benchmarkSymbol,
    groups: out,
  };
}

/** Newer rule versions first (numeric-aware), live before replayed, then Short, Medium, Long and Buy, Sell, Hold. */
function compareGroups(a: CryptoScorecardGroup, b: CryptoScorecardGroup): number {
  const version = b.ruleVersion.localeCompare(a.ruleVersion, 'en', { numeric: true });
  if (version !== 0) return version;
  if (a.origin !== b.origin) return a.origin === 'live' ? -1 : 1;
  const horizon = CRYPTO_HORIZONS.indexOf(a.horizon) - CRYPTO_HORIZONS.indexOf(b.horizon);
  if (horizon !== 0) return horizon;
  return CRYPTO_LABELS.indexOf(a.label) - CRYPTO_LABELS.indexOf(b.label);
}
