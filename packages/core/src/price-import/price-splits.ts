/**
 * From a checked series to the bars to store: in date order, without duplicate dates and bars on
 * closed days, and, where the user chose, with the bars before a split scaled by the Adj Close ratio.
 */
import { dayNumber } from '../market/trading-calendar';
import { dateOrder, pickBars } from './price-series';
import type { PossibleSplit, PriceSeries, PriceSeriesReport } from './types';

/**
 * The bars before each split's date multiplied by its `adjRatio` (prices; volumes divided by it, so
 * the traded value stays), splits compounding backwards; the Adj Close is left as it is (it is
 * adjusted already). `series` is in date order (preparePriceSeries' answer). Splits whose adjRatio
 * is null (the file has no Adj Close) are skipped. Answers a new series.
 */
export function adjustForSplits(series: PriceSeries, splits: readonly Pick<PossibleSplit, 'date' | 'adjRatio'>[]): PriceSeries {
  const usable = splits.filter((split) => split.adjRatio !== null && split.adjRatio > 0).map((split) => ({ day: dayNumber(split.date), ratio: split.adjRatio! }));
  const out = pickBars(series, Array.from({ length: series.length }, (_, i) => i));
  if (usable.length === 0) return out;
  for (let i = 0; i < out.length; i += 1) {
    let factor = 1;
    for (const split of usable) if (out.day[i]! < split.day) factor *= split.ratio;
    if (factor === 1) continue;
    out.open[i] = out.open[i]! * factor;
    out.high[i] = out.high[i]! * factor;
    out.low[i] = out.low[i]! * factor;
    out.close[i] = out.close[i]! * factor;
    out.volume[i] = out.volume[i]! / factor;
  }
  return out;
}

/**
 * The bars to store for a series its report accepts: sorted by date, the closed days' bars left out,
 * then adjustForSplits(`adjust`: the report's possibleSplits the user chose). Throws a RangeError for a
 * refused series (the report has errors): a refused file is never stored.
 */
export function preparePriceSeries(series: PriceSeries, report: PriceSeriesReport, adjust: readonly PossibleSplit[] = []): PriceSeries {
  if (report.errors.length > 0) throw new RangeError(`${report.symbol} is refused: ${report.errors[0]!.message}`);
  const closed = new Set(report.closedDayBars.map(dayNumber));
  const order = dateOrder(series);
  const kept = Array.from(order).filter((i) => !closed.has(series.day[i]!));
  return adjustForSplits(pickBars(series, kept), adjust);
}
