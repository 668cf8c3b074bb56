/**
 * The track record's statistics (docs/rules/track-record.md §6.3) over a set of closed ideas' outcomes. Returns
 * are fractions (0.05 = +5 %). A win is a return > 0, a loss a return < 0; a return of exactly 0 is
 * neither (it counts in n, so it lowers the win rate, and in no average of wins or losses).
 * Everything is deterministic: the bootstrap draws from xoshiro128** with a fixed seed.
 */
import { type IdeaStats } from '../../contract/trades';
import { dayNumber } from '../../market/trading-calendar';
import { type IdeaOutcome } from '../types';
import { type Xoshiro128, xoshiroFromSeedBytes } from './prng';
import { sha256 } from '../kit/sha256';

/** z for a two-sided 95 % interval. */
export const WILSON_Z = 1.96;
/** Bootstrap resamples of the mean (§6.3). */
export const BOOTSTRAP_RESAMPLES = 2000;
/** The layered plan's nominal budget B (docs/rules/long-term.md §1.2): Σ committed = N × B. */
export const LAYERED_BUDGET = 10_000;

/** A share with its 95 % Wilson score interval. */
export interface RateWithInterval {
  rate: number;
  low: number;
  high: number;
}

/**
 * The Wilson score interval of `wins` out of `n` (docs/rules/track-record.md §6.3): p = wins / n,
 * centre = (p + z²/2n) / (1 + z²/n), half-width = z·√(p(1−p)/n + z²/4n²) / (1 + z²/n).
 * Null without trials. Unlike p ± z·√(p(1−p)/n) it stays inside [0, 1] and is not empty at 0 or n wins.
 */
export function wilsonInterval(wins: number, n: number, z = WILSON_Z): RateWithInterval | null {
  if (n <= 0) return null;
  const p = wins / n;
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denominator;
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denominator;
  return { rate: p, low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

/** |avg loss| / (avg win + |avg loss|): the win rate at which the average trade breaks even; null without both. */
export function breakEvenWinRate(avgWin: number | null, avgLoss: number | null): number | null {
  if (avgWin === null || avgLoss === null) return null;
  const loss = Math.abs(avgLoss);
  return avgWin + loss > 0 ? loss / (avgWin + loss) : null;
}

export function mean(values: ArrayLike<number>): number | null {
  if (values.length === 0) return null;
  let sum = 0;
  for (let i = 0; i < values.length; i += 1) sum += values[i]!;
  return sum / values.length;
}

/** The q-quantile (0…1) of ascending `sorted` values, interpolated between ranks (Hyndman–Fan type 7). */
export function quantileSorted(sorted: ArrayLike<number>, q: number): number | null {
  const n = sorted.length;
  if (n === 0) return null;
  const position = (n - 1) * q;
  const below = Math.floor(position);
  const above = Math.min(n - 1, below + 1);
  return sorted[below]! + (sorted[above]! - sorted[below]!) * (position - below);
}

export function median(values: readonly number[]): number | null {
  return quantileSorted(Float64Array.from(values).sort(), 0.5);
}

/** Σ gains / |Σ losses|; null ('—') when nothing lost. */
export function profitFactor(returns: readonly number[]): number | null {
  let gains = 0;
  let losses = 0;
  for (const r of returns) {
    if (r > 0) gains += r;
    else if (r < 0) losses -= r;
  }
  return losses > 0 ? gains / losses : null;
}

/** The Monday (day number) of the week of an ISO date: ideas entered the same week share a bootstrap block. */
export function entryWeekOf(isoDate: string): number {
  const day = dayNumber(isoDate);
  // Day 0 (1970-01-01) was a Thursday: (day + 3) mod 7 is the days since Monday.
  return day - ((((day + 3) % 7) + 7) % 7);
}

/** The fixed seed of the bootstrap: the first 8 bytes of SHA-256("track-record|bootstrap"). */
export const BOOTSTRAP_SEED: Uint8Array = sha256('track-record|bootstrap').slice(0, 8);

/**
 * The 95 % interval of the mean return by a block bootstrap over entry weeks (§6.3: ideas cluster on
 * sell-off days, so they are not independent draws). Each resample draws as many weeks as there are,
 * with replacement, and takes the mean of every return in the drawn weeks; the interval is the 2.5 %
 * and 97.5 % quantiles of the resampled means. `weeks[i]` is the block of `returns[i]`. Null when empty.
 */
export function bootstrapMeanInterval(
  returns: readonly number[],
  weeks: readonly number[],
  options: { resamples?: number; seed?: Uint8Array } = {},
): { low: number; high: number } | null {
  if (returns.length === 0) return null;
  if (weeks.length !== returns.length) throw new RangeError('bootstrapMeanInterval: one week per return');
  const resamples = options.resamples ?? BOOTSTRAP_RESAMPLES;
  const blockOf = new Map<number, number>();
  const sums: number[] = [];
  const counts: number[] = [];
  for (let i = 0; i < returns.length; i += 1) {
    let block = blockOf.get(weeks[i]!);
    if (block === undefined) {
      block = sums.length;
      blockOf.set(weeks[i]!, block);
      sums.push(0);
      counts.push(0);
    }
    sums[block]! += returns[i]!;
    counts[block]! += 1;
  }
  const blocks = sums.length;
  const rng: Xoshiro128 = xoshiroFromSeedBytes(options.seed ?? BOOTSTRAP_SEED);
  const means = new Float64Array(resamples);
  for (let r = 0; r < resamples; r += 1) {
    let sum = 0;
    let count = 0;
    for (let b = 0; b < blocks; b += 1) {
      const pick = rng.nextInt(blocks);
      sum += sums[pick]!;
      count += counts[pick]!;
    }
    means[r] = sum / count;
  }
  means.sort();
  return { low: quantileSorted(means, 0.025)!, high: quantileSorted(means, 0.975)! };
}

/** A dated cash flow (buys negative). */
export interface CashFlow {
  date: string;
  amount: number;
}

/**
 * XIRR: the annual rate r with Σ amountᵢ / (1 + r)^(daysᵢ / 365) = 0, days counted from the first
 * flow (Excel's convention). Robust rather than fast: flows are pooled per date, the unknown is
 * x = ln(1 + r) (so r > −1 always), and the root nearest r = 0 is bracketed by stepping outward
 * from x = 0 in steps of 0.01 up to |x| = 9 (r from −99.99 % to ×8,100), then bisected to 1e-13.
 * Null when the flows do not change sign, or no root lies in that range.
 */
export function xirr(flows: readonly CashFlow[]): number | null {
  const byDay = new Map<number, number>();
  let scale = 0;
  for (const flow of flows) {
    if (!Number.isFinite(flow.amount)) return null;
    const day = dayNumber(flow.date);
    byDay.set(day, (byDay.get(day) ?? 0) + flow.amount);
    scale = Math.max(scale, Math.abs(flow.amount));
  }
  if (scale === 0) return null;
  const days = [...byDay.keys()].sort((a, b) => a - b);
  const first = days[0]!;
  const years = Float64Array.from(days, (day) => (day - first) / 365);
  const amounts = Float64Array.from(days, (day) => byDay.get(day)! / scale);
  let hasIn = false;
  let hasOut = false;
  for (const a of amounts) {
    if (a > 0) hasIn = true;
    if (a < 0) hasOut = true;
  }
  if (!hasIn || !hasOut) return null;
  const npv = (x: number): number => {
    let sum = 0;
    for (let i = 0; i < amounts.length; i += 1) sum += amounts[i]! * Math.exp(-years[i]! * x);
    return sum;
  };
  const STEP = 0.01;
  const LIMIT = 9;
  const atZero = npv(0);
  if (atZero === 0) return 0;
  // Step outward on both sides at once, so the first sign change found is the root nearest r = 0.
  let bracket: [number, number, number] | null = null; // lo, hi, npv(lo)
  let up = atZero;
  let down = atZero;
  for (let k = 1; k * STEP <= LIMIT; k += 1) {
    const x = k * STEP;
    const v = npv(x);
    if (Math.sign(v) !== Math.sign(up)) {
      bracket = [(k - 1) * STEP, x, up];
      break;
    }
    const w = npv(-x);
    if (Math.sign(w) !== Math.sign(down)) {
      bracket = [-x, -(k - 1) * STEP, w];
      break;
    }
    up = v;
    down = w;
  }
  if (bracket === null) return null;
  let [lo, hi, loV] = bracket;
  for (let i = 0; i < 200 && hi - lo > 1e-13; i += 1) {
    const mid = (lo + hi) / 2;
    const v = npv(mid);
    if (v === 0) return Math.expm1(mid);
    if (Math.sign(v) === Math.sign(loV)) {
      lo = mid;
      loV = v;
    } else hi = mid;
  }
  const root = Math.expm1((lo + hi) / 2);
  return Number.isFinite(root) ? root : null;
}

/**
 * The §6.3 statistics of closed outcomes. `budget` is the committed capital per plan for the
 * dollar-weighted figures, which are computed only when every outcome carries deployed dollars and
 * P&L (layered plans); `seed` overrides the bootstrap's fixed seed (tests).
 */
export function computeIdeaStats(outcomes: readonly IdeaOutcome[], options: { budget?: number; seed?: Uint8Array } = {}): IdeaStats {
  const n = outcomes.length;
  const returns = outcomes.map((o) => o.returnPct);
  const weeks = outcomes.map((o) => entryWeekOf(o.entryDate));
  const winsList = returns.filter((r) => r > 0);
  const lossList = returns.filter((r) => r < 0);
  const avgWin = mean(winsList);
  const avgLoss = mean(lossList);
  const holding = outcomes.map((o) => o.holdingSessions);
  return {
    n,
    entryWeeks: new Set(weeks).size,
    wins: winsList.length,
    winRate: wilsonInterval(winsList.length, n),
    breakEvenWinRate: breakEvenWinRate(avgWin, avgLoss),
    meanReturn: mean(returns),
    meanInterval: bootstrapMeanInterval(returns, weeks, options.seed ? { seed: options.seed } : {}),
    medianReturn: median(returns),
    avgWin,
    avgLoss,
    profitFactor: profitFactor(returns),
    dollarWeighted: dollarWeighted(outcomes, options.budget ?? LAYERED_BUDGET),
    holdingMedian: median(holding),
    holdingMax: extreme(holding, 1),
    worstReturn: extreme(returns, -1),
    maxAdverseExcursion: extreme(
      outcomes.map((o) => o.maxAdverseExcursion),
      -1,
    ),
    exitReasons: shares(outcomes.map((o) => o.closeReason)),
    statuses: shares(outcomes.map((o) => o.status)),
  };
}

/**
 * The dollar-weighted figures (§6.3, layered): Σ P&L / Σ deployed, Σ P&L / (N × budget), and the
 * XIRR of every plan's dated cash flows pooled. Never the mean of per-plan percentages: averaging
 * down puts more dollars into the losing paths (§1.7). Null unless every outcome has dollars.
 */
export function dollarWeighted(outcomes: readonly IdeaOutcome[], budget: number): IdeaStats['dollarWeighted'] {
  if (outcomes.length === 0 || outcomes.some((o) => o.deployed === null || o.pnl === null)) return null;
  let pnl = 0;
  let deployed = 0;
  const flows: CashFlow[] = [];
  for (const o of outcomes) {
    pnl += o.pnl!;
    deployed += o.deployed!;
    if (o.cashFlows) flows.push(...o.cashFlows);
  }
  return {
    onDeployed: deployed > 0 ? pnl / deployed : null,
    onCommitted: budget > 0 ? pnl / (outcomes.length * budget) : null,
    xirr: flows.length > 0 ? xirr(flows) : null,
  };
}

/** The largest (sign 1) or smallest (sign −1) value; null when empty. A loop: spreading 100k values into Math.max overflows the stack. */
function extreme(values: readonly number[], sign: 1 | -1): number | null {
  if (values.length === 0) return null;
  let best = values[0]!;
  for (const value of values) if (sign * value > sign * best) best = value;
  return best;
}

/** Each non-null value's share (0…1) of all values (nulls count in the denominator). */
function shares(values: readonly (string | null)[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of values) if (value !== null) counts[value] = (counts[value] ?? 0) + 1;
  for (const key of Object.keys(counts)) counts[key] = counts[key]! / values.length;
  return counts;
}
