/**
 * Which intraday bars `getIntradayBars` serves (every source the same way): the last session's, and
 * while that session has fewer than MIN_INTRADAY_BARS bars (its first ~70 minutes), the session
 * before it first, so RSI(14) on 5-minute closes (`dailyrsi`) is defined from the open.
 */

/** RSI(14) needs 15 closes. */
export const MIN_INTRADAY_BARS = 15;

/**
 * The index of the first bar to serve, given each bar's session day (oldest first, so each
 * session's bars are one run): the last session's first bar, or the previous session's when the
 * last one has fewer than `minBars` bars. 0 for no bars.
 */
export function intradayWindowStart(days: ArrayLike<number>, minBars: number = MIN_INTRADAY_BARS): number {
  const n = days.length;
  if (n === 0) return 0;
  const runStart = (end: number) => {
    let index = end;
    while (index > 0 && days[index - 1] === days[end]) index -= 1;
    return index;
  };
  const last = runStart(n - 1);
  return n - last < minBars && last > 0 ? runStart(last - 1) : last;
}
