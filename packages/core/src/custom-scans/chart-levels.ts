/**
 * The levels a result row's "Details" chart draws (issue 26, docs/custom-scans.md "Running a scan"):
 * the scan's fields that are price levels, at their values as of the run date, and the numbers the
 * scan compares a price with. Each comes from the row itself, so the chart shows what the scan saw:
 *
 * - `sma(N)`, `ema(N)`: their value; `pct_from_sma(N)` and `pct_from_ema(N)` give the same average
 *   back from the close (close / (1 + p / 100));
 * - `pct_below_high(N)`: the N-session high, close / (1 − p / 100); `pct_above_low(N)`: the low,
 *   close / (1 + p / 100) (field-series.ts defines both against the close);
 * - `vp_distance_pct`: the nearest volume-profile level of the 120 bars through the run date, from
 *   the chart's own bars (the distance alone does not say on which side it lies);
 * - a comparison, range or cross of `close`, `sma` or `ema` with a number: a line at that number,
 *   titled with the condition (`close > 150`).
 * `close` itself is the last candle and ATR is a distance, not a level: neither is drawn. A level
 * that is not a positive finite number is left out, and one title is drawn once.
 */
import { volumeProfileLevels } from '../indicators/volume-profile';
import { nearestLevelWithin } from '../indicators/support-resistance';
import { isCondition, type FieldRef, type ScanExpr } from './ast';
import type { ScanValue } from './evaluate';
import { printFormula } from './formula';

export interface ScanChartLevel {
  /** `SMA(50)`, `21-session high`, `close > 150`. */
  title: string;
  price: number;
  /** A field's value as of the run date, or a number the scan compares a price with. */
  kind: 'field' | 'threshold';
}

/** A column of the run's answer (`columns`): the field and its parameters. */
export interface LevelColumn {
  field: string;
  params: readonly number[];
}

/** The chart's bars through the run date (oldest first), for the volume-profile level. */
export interface LevelBars {
  high: ArrayLike<number>;
  low: ArrayLike<number>;
  close: ArrayLike<number>;
  volume: ArrayLike<number>;
}

/** Fields whose value is a price the chart can draw a threshold of. */
const PRICE_FIELDS = new Set(['close', 'sma', 'ema']);
/** The bars of the volume profile behind vp_distance_pct (field-series.ts). */
const VOLUME_PROFILE_BARS = 120;

const sessionsTitle = (n: number, what: 'high' | 'low') => (n === 252 ? `52-week ${what}` : `${n}-session ${what}`);

/** The level a field's value stands for, with its title; null for a field that is not one. */
function fieldLevel(column: LevelColumn, value: number, close: number): ScanChartLevel | null {
  const n = column.params[0] ?? 0;
  const level = (title: string, price: number): ScanChartLevel => ({ title, price, kind: 'field' });
  switch (column.field) {
    case 'sma':
      return level(`SMA(${n})`, value);
    case 'ema':
      return level(`EMA(${n})`, value);
    case 'pct_from_sma':
      return level(`SMA(${n})`, close / (1 + value / 100));
    case 'pct_from_ema':
      return level(`EMA(${n})`, close / (1 + value / 100));
    case 'pct_below_high':
      return level(sessionsTitle(n, 'high'), close / (1 - value / 100));
    case 'pct_above_low':
      return level(sessionsTitle(n, 'low'), close / (1 + value / 100));
    default:
      return null;
  }
}

/** The nearest volume-profile level to the last close of `bars` (120 bars), or null. */
function volumeProfileLevel(bars: LevelBars): number | null {
  const n = bars.close.length;
  if (n < VOLUME_PROFILE_BARS) return null;
  const window = (values: ArrayLike<number>) => Array.from({ length: VOLUME_PROFILE_BARS }, (_, i) => values[n - VOLUME_PROFILE_BARS + i]!);
  const close = bars.close[n - 1]!;
  if (!(close > 0)) return null;
  return nearestLevelWithin(volumeProfileLevels(window(bars.high), window(bars.low), window(bars.close), window(bars.volume)), close, Number.MAX_VALUE);
}

/** Every comparison of a price field with a number in the expression, as (title, number). */
function thresholds(expr: ScanExpr, out: ScanChartLevel[]) {
  if (!isCondition(expr)) {
    for (const item of expr.kind === 'not' ? [expr.item] : expr.items) thresholds(item, out);
    return;
  }
  const isPrice = (ref: FieldRef) => PRICE_FIELDS.has(ref.field);
  if (!isPrice(expr.left)) return;
  const title = printFormula(expr);
  if ((expr.kind === 'compare' || expr.kind === 'cross') && expr.right.kind === 'number') out.push({ title, price: expr.right.value, kind: 'threshold' });
  if (expr.kind === 'between') out.push({ title: `${title} (low)`, price: expr.low, kind: 'threshold' }, { title: `${title} (high)`, price: expr.high, kind: 'threshold' });
}

/**
 * The levels of one result row: `columns` and `values` as the run answered them (the same order),
 * `close` the row's price, `bars` the chart's bars through the run date.
 */
export function scanChartLevels(input: { expr: ScanExpr; columns: readonly LevelColumn[]; values: readonly ScanValue[]; close: number | null; bars?: LevelBars }): ScanChartLevel[] {
  const { expr, columns, values, close, bars } = input;
  const levels: ScanChartLevel[] = [];
  columns.forEach((column, index) => {
    const value = values[index];
    if (typeof value !== 'number' || close === null) return;
    if (column.field === 'vp_distance_pct') {
      const price = bars ? volumeProfileLevel(bars) : null;
      if (price !== null) levels.push({ title: 'Volume-profile level', price, kind: 'field' });
      return;
    }
    const level = fieldLevel(column, value, close);
    if (level) levels.push(level);
  });
  thresholds(expr, levels);
  const seen = new Set<string>();
  return levels.filter((level) => {
    if (!(Number.isFinite(level.price) && level.price > 0) || seen.has(level.title)) return false;
    seen.add(level.title);
    return true;
  });
}
