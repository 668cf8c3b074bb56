import { assertPeriod } from './validate';

/** An extreme price and the bar that made it (index into the input, to recover the bar's date). */
export interface Extreme {
  /** The price, in the units of the input. */
  value: number;
  /** Index of the bar that made it; the latest such bar when several tie. */
  index: number;
}

/**
 * The highest high of the last `window` bars, the last bar (today) included: bars
 * max(0, n − window) .. n − 1 of an oldest-first series. Uses highs, not closes.
 * With fewer bars than the window, all available bars count (a stock listed 3 months ago has a
 * 6-month high over those 3 months); null only when there is no finite high at all.
 * Non-finite highs (missing bars) are skipped. window: integer ≥ 1 (bars).
 */
export function highestHigh(high: ArrayLike<number>, window: number): Extreme | null {
  assertPeriod('highestHigh', window, 1, 'window');
  let best: Extreme | null = null;
  for (let i = Math.max(0, high.length - window); i < high.length; i += 1) {
    const value = high[i]!;
    if (Number.isFinite(value) && (best === null || value >= best.value)) best = { value, index: i };
  }
  return best;
}

/** The lowest low of the last `window` bars, today included; same rules as `highestHigh`. */
export function lowestLow(low: ArrayLike<number>, window: number): Extreme | null {
  assertPeriod('lowestLow', window, 1, 'window');
  let best: Extreme | null = null;
  for (let i = Math.max(0, low.length - window); i < low.length; i += 1) {
    const value = low[i]!;
    if (Number.isFinite(value) && (best === null || value <= best.value)) best = { value, index: i };
  }
  return best;
}
