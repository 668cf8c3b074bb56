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
