/**
 * What the backtest panel says about a result (docs/custom-scans.md "Backtest"): the verdict of each
 * horizon against the random entries, the equity curve's final value and drawdown, and the texts.
 * Returns are fractions (0.05 = +5 %).
 */
import { dayNumber, type BacktestResultBody, type BacktestStats, type ScanBacktestResponse } from '@signalboard/core';
import { formatDecimal } from '../../components/en-us-format';
import { formatFraction, formatShare } from '../../components/trade-ideas/idea-format';
import { formatSessionDate } from './results-model';

/** 1234 → '1,234'. */
const count = (n: number) => formatDecimal(n, { min: 0, max: 0 });

export type BacktestHorizon = BacktestResultBody['horizons'][number];
export type EquityPoint = BacktestResultBody['equity'][number];

/**
 * The scan against random entries, from the 95 % intervals of the two means: it beats them only when
 * its whole interval lies above theirs, is worse only when below; overlapping intervals (touching
 * ones included) tell the two apart from nothing. Without a mature entry there is nothing to judge.
 */
export type Verdict = 'beats' | 'worse' | 'indistinguishable' | 'no-data';

export const VERDICT_TEXT: Record<Verdict, string> = {
  beats: 'Beats random entries',
  worse: 'Worse than random entries',
  indistinguishable: 'Not distinguishable from random entries',
  'no-data': 'No mature entries to judge yet',
};

export function verdictOf({ scan, random }: Pick<BacktestHorizon, 'scan' | 'random'>): Verdict {
  if (scan.n === 0 || scan.mean_low === null || scan.mean_high === null) return 'no-data';
  if (random.n === 0 || random.mean_low === null || random.mean_high === null) return 'no-data';
  if (scan.mean_low > random.mean_high) return 'beats';
  if (scan.mean_high < random.mean_low) return 'worse';
  return 'indistinguishable';
}

/** The sentence under a verdict: the two intervals it was read from. */
export function verdictReason(horizon: Pick<BacktestHorizon, 'scan' | 'random'>): string {
  const verdict = verdictOf(horizon);
  if (verdict === 'no-data') return 'No entry of this scan is old enough for this horizon yet.';
  const scan = intervalText(horizon.scan);
  const random = intervalText(horizon.random);
  if (verdict === 'beats') return `The scan's mean interval (${scan}) lies above the random entries' (${random}).`;
  if (verdict === 'worse') return `The scan's mean interval (${scan}) lies below the random entries' (${random}).`;
  return `The scan's mean interval (${scan}) overlaps the random entries' (${random}).`;
}

/** '−0.40% to +2.80%', '—' without an interval. */
export function intervalText(stats: Pick<BacktestStats, 'mean_low' | 'mean_high'>): string {
  if (stats.mean_low === null || stats.mean_high === null) return '—';
  return `${formatFraction(stats.mean_low)} to ${formatFraction(stats.mean_high)}`;
}

/** '55.0%', and its Wilson interval '45.2%–64.1%'. */
export const positiveText = (stats: BacktestStats) => formatShare(stats.positive?.rate);
export const positiveIntervalText = (stats: BacktestStats) => (stats.positive ? `${formatShare(stats.positive.low)}–${formatShare(stats.positive.high)}` : '—');

/** '12 entries too recent for 63 sessions (left out of the figures)'; null when there are none. */
export function immatureText({ immature, horizon }: Pick<BacktestHorizon, 'immature' | 'horizon'>): string | null {
  if (immature === 0) return null;
  return `${immature} ${immature === 1 ? 'entry' : 'entries'} too recent for ${horizon} sessions (left out of the figures)`;
}

/** 'Nov 20, 2024 – Nov 20, 2026 · 501 sessions · 503 symbols · 143 entries'. */
export function windowText(result: Pick<BacktestResultBody, 'from' | 'to' | 'sessions' | 'symbols' | 'entries'>): string {
  const plural = (n: number, one: string, many: string) => `${count(n)} ${n === 1 ? one : many}`;
  return [
    `${formatSessionDate(result.from)} – ${formatSessionDate(result.to)}`,
    plural(result.sessions, 'session', 'sessions'),
    plural(result.symbols, 'symbol', 'symbols'),
    plural(result.entries, 'entry', 'entries'),
  ].join(' · ');
}

/** The equity curve in numbers: its final return and its largest fall from a peak (≤ 0), as fractions. */
export interface EquitySummary {
  finalReturn: number;
  maxDrawdown: number;
}

/** Null for an empty curve; the curve starts at 1. */
export function equitySummary(equity: readonly EquityPoint[]): EquitySummary | null {
  if (equity.length === 0) return null;
  let peak = 1;
  let maxDrawdown = 0;
  for (const { value } of equity) {
    if (value > peak) peak = value;
    else if (peak > 0) maxDrawdown = Math.min(maxDrawdown, value / peak - 1);
  }
  return { finalReturn: equity.at(-1)!.value - 1, maxDrawdown };
}

/** The chart's text alternative (and the line under it). */
export function equityDescription(result: Pick<BacktestResultBody, 'equity' | 'from' | 'to'>): string {
  const summary = equitySummary(result.equity);
  if (!summary) return 'No equity curve: the replay had no entries.';
  return (
    `Equal-weight entries held 21 sessions, ${formatSessionDate(result.equity[0]!.date)} to ${formatSessionDate(result.equity.at(-1)!.date)}: ` +
    `final value ${formatFraction(summary.finalReturn)}, max drawdown ${formatFraction(summary.maxDrawdown)}.`
  );
}

/** 'Replaying session 120 of 501', or what comes before the first session. */
export function progressText(backtest: Pick<ScanBacktestResponse, 'status' | 'done' | 'total'>): string {
  if (backtest.total > 0) return `Replaying session ${count(backtest.done)} of ${count(backtest.total)}`;
  return backtest.status === 'queued' ? 'Waiting for the backtest to start...' : 'Reading the daily bars...';
}

/**
 * What the panel says when the universe's imported prices changed since the backtest
 * (docs/custom-scans.md "The data it ran on"): a run under way replays the new ones; a finished result
 * waiting for the user's other backtest is of the earlier ones.
 */
export const DATA_CHANGED = 'The imported prices changed since this backtest: it runs again on them.';
export const DATA_CHANGED_WAITING =
  'The imported prices changed since this backtest: this result is of the earlier prices. It runs again on the new ones once your other backtest has finished.';

/** Calendar days a backtest usually covers (the server's BACKTEST_WINDOW_DAYS: two years through today). */
const USUAL_WINDOW_DAYS = 730;

/**
 * The range of a backtest that reached back further than two years (the universe's imported prices
 * are older; five years at most), in words; null for the usual two years.
 */
export function longerRangeText(result: Pick<BacktestResultBody, 'from' | 'to'>): string | null {
  if (dayNumber(result.to) - dayNumber(result.from) < USUAL_WINDOW_DAYS) return null;
  return `The universe's imported prices go back further than two years, so this backtest covers ${formatSessionDate(result.from)} – ${formatSessionDate(result.to)} (five years at most).`;
}

/** The benchmark's name: the result's, or the universe's before there is one. */
export const benchmarkName = (universe: string) => (universe === 'crypto' ? 'BTC' : 'SPY');
