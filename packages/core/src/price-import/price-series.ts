/**
 * Bars grouped by symbol in typed arrays (PriceSeries, ≈ 56 bytes a bar), and the helpers the checks
 * and the adjustment share: the date order of a series and a copy of chosen bars.
 */
import type { PriceBar, PriceSeries } from './types';

const INITIAL_CAPACITY = 256;

function emptySeries(symbol: string, capacity: number): PriceSeries {
  return {
    symbol,
    length: 0,
    line: new Int32Array(capacity),
    day: new Int32Array(capacity),
    open: new Float64Array(capacity),
    high: new Float64Array(capacity),
    low: new Float64Array(capacity),
    close: new Float64Array(capacity),
    adjClose: new Float64Array(capacity),
    volume: new Float64Array(capacity),
    hasAdjClose: false,
    hasVolume: false,
  };
}

/** The series' arrays cut to its length (views, no copy). */
function trimmed(series: PriceSeries): PriceSeries {
  const n = series.length;
  return {
    ...series,
    line: series.line.subarray(0, n),
    day: series.day.subarray(0, n),
    open: series.open.subarray(0, n),
    high: series.high.subarray(0, n),
    low: series.low.subarray(0, n),
    close: series.close.subarray(0, n),
    adjClose: series.adjClose.subarray(0, n),
    volume: series.volume.subarray(0, n),
  };
}

/**
 * Collects a file's bars by symbol as they come out of PriceFileParser.push. A bar without a symbol
 * goes under `fallbackSymbol` ('' when none is given).
 */
export class PriceSeriesCollector {
  private readonly bySymbol = new Map<string, PriceSeries>();

  constructor(private readonly fallbackSymbol = '') {}

  add(bars: readonly PriceBar[]): void {
    let current: PriceSeries | null = null;
    for (const bar of bars) {
      const symbol = bar.symbol ?? this.fallbackSymbol;
      if (current === null || current.symbol !== symbol) {
        current = this.bySymbol.get(symbol) ?? emptySeries(symbol, INITIAL_CAPACITY);
        this.bySymbol.set(symbol, current);
      }
      if (current.length === current.day.length) {
        current = grown(current);
        this.bySymbol.set(symbol, current);
      }
      const i = current.length;
      current.line[i] = bar.line;
      current.day[i] = bar.day;
      current.open[i] = bar.open;
      current.high[i] = bar.high;
      current.low[i] = bar.low;
      current.close[i] = bar.close;
      current.adjClose[i] = bar.adjClose ?? Number.NaN;
      current.volume[i] = bar.volume ?? Number.NaN;
      if (bar.adjClose !== null) current.hasAdjClose = true;
      if (bar.volume !== null) current.hasVolume = true;
      current.length = i + 1;
    }
  }

  /** The symbols, in the order they first appeared. */
  symbols(): string[] {
    return [...this.bySymbol.keys()];
  }

  /** A symbol's bars in file order (an empty series for a symbol never seen). */
  series(symbol: string): PriceSeries {
    return trimmed(this.bySymbol.get(symbol) ?? emptySeries(symbol, 0));
  }
}

function grown(series: PriceSeries): PriceSeries {
  const bigger = emptySeries(series.symbol, series.day.length * 2);
  bigger.line.set(series.line);
  bigger.day.set(series.day);
  bigger.open.set(series.open);
  bigger.high.set(series.high);
  bigger.low.set(series.low);
  bigger.close.set(series.close);
  bigger.adjClose.set(series.adjClose);
  bigger.volume.set(series.volume);
  return { ...bigger, length: series.length, hasAdjClose: series.hasAdjClose, hasVolume: series.hasVolume };
}

/** A PriceSeries of bars (all taken as `symbol`'s). */
export function toPriceSeries(symbol: string, bars: readonly PriceBar[]): PriceSeries {
  const collector = new PriceSeriesCollector(symbol);
  collector.add(bars.map((bar) => (bar.symbol === symbol ? bar : { ...bar, symbol })));
  return collector.series(symbol);
}

/** The bars' indexes by date (then line): ascending files and newest-first files need no sort. */
export function dateOrder(series: PriceSeries): Int32Array {
  const n = series.length;
  const order = new Int32Array(n);
  let ascending = true;
  let descending = true;
  for (let i = 1; i < n; i += 1) {
    if (series.day[i]! < series.day[i - 1]!) ascending = false;
    if (series.day[i]! >= series.day[i - 1]!) descending = false;
  }
  for (let i = 0; i < n; i += 1) order[i] = descending ? n - 1 - i : i;
  if (!ascending && !descending) {
    const sorted = Array.from(order).sort((a, b) => series.day[a]! - series.day[b]! || series.line[a]! - series.line[b]!);
    order.set(sorted);
  }
  return order;
}

/** A new series of the bars at `indexes`, in that order. */
export function pickBars(series: PriceSeries, indexes: ArrayLike<number>): PriceSeries {
  const out = emptySeries(series.symbol, indexes.length);
  for (let k = 0; k < indexes.length; k += 1) {
    const i = indexes[k]!;
    out.line[k] = series.line[i]!;
    out.day[k] = series.day[i]!;
    out.open[k] = series.open[i]!;
    out.high[k] = series.high[i]!;
    out.low[k] = series.low[i]!;
    out.close[k] = series.close[i]!;
    out.adjClose[k] = series.adjClose[i]!;
    out.volume[k] = series.volume[i]!;
  }
  return { ...out, length: indexes.length, hasAdjClose: series.hasAdjClose, hasVolume: series.hasVolume };
}
