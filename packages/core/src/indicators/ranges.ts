import { assertPeriod } from './validate';

/** Trading days in the windows the scanners use (spec §3 metrics). Today's bar is included. */
export const ONE_MONTH_TRADING_DAYS = 21;
export const SIX_MONTH_TRADING_DAYS = 126;

export interface Extreme {
  value: number;
  /** Index of the bar that made it (the latest one when tied). */
  index: number;
}

/**
 * The highest high of the last `window` bars, today's bar included (1MonthHigh: window 21,
 * 6MonthHigh: window 126). With fewer bars than the window, all bars count. Null for no bars.
 */
export function highestHigh(high: ArrayLike<number>, window: number): Extreme | null {
  assertPeriod('highestHigh', window);
  let best: Extreme | null = null;
  for (let i = Math.max(0, high.length - window); i < high.length; i += 1) {
    const value = high[i]!;
    if (Number.isFinite(value) && (best === null || value >= best.value)) best = { value, index: i };
  }
  return best;
}

/** The lowest low of the last `window` bars, today's bar included (1MonthLow, 6MonthLow). */
export function lowestLow(low: ArrayLike<number>, window: number): Extreme | null {
  assertPeriod('lowestLow', window);
  let best: Extreme | null = null;
  for (let i = Math.max(0, low.length - window); i < low.length; i += 1) {
    const value = low[i]!;
    if (Number.isFinite(value) && (best === null || value <= best.value)) best = { value, index: i };
  }
  return best;
}

export interface RangeWindows {
  '1MonthHigh': number | null;
  '1MonthLow': number | null;
  '6MonthHigh': number | null;
  '6MonthLow': number | null;
}

/**
 * The four range metrics of spec §3 in one pass over the last 126 bars: 1MonthHigh/Low over the
 * last 21 daily bars and 6MonthHigh/Low over the last 126, today included; null without bars.
 */
export function rangeMetrics(high: ArrayLike<number>, low: ArrayLike<number>): RangeWindows {
  const n = high.length;
  if (n === 0) return { '1MonthHigh': null, '1MonthLow': null, '6MonthHigh': null, '6MonthLow': null };
  let high6 = Number.NEGATIVE_INFINITY;
  let low6 = Number.POSITIVE_INFINITY;
  let high1 = Number.NEGATIVE_INFINITY;
  let low1 = Number.POSITIVE_INFINITY;
  const monthStart = n - ONE_MONTH_TRADING_DAYS;
  for (let i = Math.max(0, n - SIX_MONTH_TRADING_DAYS); i < n; i += 1) {
    const h = high[i]!;
    const l = low[i]!;
    if (h > high6) high6 = h;
    if (l < low6) low6 = l;
    if (i >= monthStart) {
      if (h > high1) high1 = h;
      if (l < low1) low1 = l;
    }
  }
  const finite = (value: number) => (Number.isFinite(value) ? value : null);
  return { '1MonthHigh': finite(high1), '1MonthLow': finite(low1), '6MonthHigh': finite(high6), '6MonthLow': finite(low6) };
}
