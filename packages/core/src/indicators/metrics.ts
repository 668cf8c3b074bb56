/**
 * The named range metrics of the Stock metrics entity (spec §3) that the drop scanner and the
 * Option Scanner rule (spec §5) compare the current price against:
 * - 1MonthHigh / 1MonthLow: highest high / lowest low of the last 21 daily bars;
 * - 6MonthHigh / 6MonthLow: highest high / lowest low of the last 126 daily bars.
 * Windows count trading days (bars), not calendar days, and include today's bar (the last one of an
 * oldest-first series, partial during the session); they use highs and lows, not closes. With
 * fewer bars than a window, all available bars count (see `highestHigh`).
 */

/** Trading days in one month: the 1MonthHigh/1MonthLow window (bars, today included). */
export const ONE_MONTH_TRADING_DAYS = 21;
/** Trading days in six months: the 6MonthHigh/6MonthLow window (bars, today included). */
export const SIX_MONTH_TRADING_DAYS = 126;

/** The four range metrics, in price units; null when there are no bars. */
export interface RangeWindows {
  '1MonthHigh': number | null;
  '1MonthLow': number | null;
  '6MonthHigh': number | null;
  '6MonthLow': number | null;
}

/**
 * 1MonthHigh/Low (last 21 daily bars) and 6MonthHigh/Low (last 126), today included, from daily
 * highs and lows (oldest-first, same length) in one pass over the last 126 bars. Equal to
 * highestHigh/lowestLow with those windows; NaN bars are skipped; null without bars.
 * Takes parallel arrays like every kernel here (callers hold bars as columns).
 */
export function rangeMetrics(high: ArrayLike<number>, low: ArrayLike<number>): RangeWindows {
  const n = Math.min(high.length, low.length);
  let high6 = Number.NEGATIVE_INFINITY;
  let low6 = Number.POSITIVE_INFINITY;
  let high1 = Number.NEGATIVE_INFINITY;
  let low1 = Number.POSITIVE_INFINITY;
  // Two loops (the older bars of the six months, then the last month) rather than one with an
  // `i >= monthStart` test per bar: the branch-free inner loops run markedly faster.
  const monthStart = Math.max(0, n - ONE_MONTH_TRADING_DAYS);
  let i = Math.max(0, n - SIX_MONTH_TRADING_DAYS);
  for (; i < monthStart; i += 1) {
    const h = high[i]!;
    const l = low[i]!;
    if (h > high6) high6 = h;
    if (l < low6) low6 = l;
  }
  for (; i < n; i += 1) {
    const h = high[i]!;
    const l = low[i]!;
    if (h > high1) high1 = h;
    if (l < low1) low1 = l;
  }
  if (high1 > high6) high6 = high1;
  if (low1 < low6) low6 = low1;
  return { '1MonthHigh': finite(high1), '1MonthLow': finite(low1), '6MonthHigh': finite(high6), '6MonthLow': finite(low6) };
}

function finite(value: number): number | null {
  return Number.isFinite(value) ? value : null;
}
