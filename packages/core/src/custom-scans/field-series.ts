/**
 * The values of a custom scan's fields bar by bar (issue 26, docs/custom-scans.md, "Fields" and "Runs
 * as of a date"): each field of the catalogue (fields.ts) as a number at each bar index of one
 * symbol, computed from the bars up to and including that index and nothing after, so a run as of
 * bar `end` gives exactly what a run on the bars cut after `end` gives.
 *
 * A value that is not there (too little history, a zero divisor, a bar that is not a finite number)
 * is NaN, never a throw. The cheap fields are computed here without allocating, index by index, each
 * value from its own window (so a value is the same bit for bit however many bars around it are
 * computed); the TA-Lib fields (rsi, ema, atr, adx) are the core indicators run over the bars
 * 0..end (whose value at an index never depends on later bars), computed by wilder-kernels.ts in one
 * pass that writes only the values asked for.
 */
import { nearestLevelWithin, volumeProfileLevels } from '../indicators/index';
import { fieldKey, type FieldRef } from './ast';
import { paramProblem, scanField, withDefaults } from './fields';
import { adxTail, atrTail, emaTail, rsiAdxTail, rsiTail } from './wilder-kernels';

/** The daily bars of one symbol, oldest first, in parallel arrays (the shortest one sets the length). */
export interface ScanBars {
  open: Float64Array;
  high: Float64Array;
  low: Float64Array;
  close: Float64Array;
  volume: Float64Array;
  /** The bars' dates (ISO `YYYY-MM-DD`), when the caller has them; not read by the evaluator. */
  dates?: readonly string[];
}

/**
 * What the server knows of a symbol besides its bars, as of the run date: these do not vary by bar
 * index (a cross over a fact compares the same value every session). Missing (null, undefined, not
 * a finite number, a blank text): the field has no value, and a condition on it is no match. Texts
 * are compared trimmed and without regard to case (evaluate.ts).
 */
export interface ScanFacts {
  /** The sector as the source lists it (today's listing data). */
  sector?: string | null;
  /** The listing exchange (today's listing data). */
  exchange?: string | null;
  /** Calendar days from the run date to the next earnings date in the calendar. */
  daysToEarnings?: number | null;
  /** Bullish minus bearish articles about the symbol over the 7 days to the run date. */
  newsSentiment?: number | null;
}

/**
 * Writes the field's values at bar indexes from..end (0 ≤ from ≤ end < bar count) into
 * out[0..end − from]. `p` is the field's one parameter (0 for a field without).
 */
type Kernel = (bars: ScanBars, p: number, from: number, end: number, out: Float64Array, facts: ScanFacts) => void;

/** A field of the catalogue with its parameter bound, ready to compute (see `resolveField`). */
export interface ResolvedField {
  ref: FieldRef;
  /** `fieldKey(ref)`: the results table's column and the per-symbol cache's key. */
  key: string;
  kind: 'number' | 'text';
  /** The field's one parameter as bound (its default when left out; 0 for a field without). */
  param: number;
  /** A number field's values at from..end into out[0..end − from] (see Kernel); NaN for a text field. */
  fill(bars: ScanBars, facts: ScanFacts, from: number, end: number, out: Float64Array): void;
  /** A text field's value as the facts give it (not trimmed; null when not a string); null for a number field. */
  text(facts: ScanFacts): string | null;
  /** A rough cost of computing `count` trailing values over `bars` bars, to try cheap conditions first. */
  cost(count: number, bars: number): number;
  /**
   * The field walks every bar from the first whatever values are asked for (the recursive TA-Lib
   * indicators): a replay over many sessions computes it once per symbol (evaluate.ts `memoize`).
   */
  whole: boolean;
}

/** The number itself when finite, else NaN (a zero divisor's ±Infinity, bad data's NaN). */
const finite = (value: number): number => (value - value === 0 ? value : Number.NaN);

/** The shortest of the five arrays' lengths: the bars every field can read. */
export function barCount(bars: ScanBars): number {
  return Math.min(bars.open.length, bars.high.length, bars.low.length, bars.close.length, bars.volume.length);
}

/** Sum of values[first..last], oldest first; NaN (or ±Infinity) when one of them is not finite. */
function windowSum(values: Float64Array, first: number, last: number): number {
  let sum = 0;
  for (let j = first; j <= last; j += 1) sum += values[j]!;
  return sum;
}

/** Largest of values[first..last]; NaN when one of them is not finite. */
function windowMax(values: Float64Array, first: number, last: number): number {
  let max = Number.NEGATIVE_INFINITY;
  let poison = 0; // v − v is 0 for a finite v, NaN otherwise
  for (let j = first; j <= last; j += 1) {
    const v = values[j]!;
    poison += v - v;
    if (v > max) max = v;
  }
  return max + poison;
}

/** Smallest of values[first..last]; NaN when one of them is not finite. */
function windowMin(values: Float64Array, first: number, last: number): number {
  let min = Number.POSITIVE_INFINITY;
  let poison = 0;
  for (let j = first; j <= last; j += 1) {
    const v = values[j]!;
    poison += v - v;
    if (v < min) min = v;
  }
  return min + poison;
}

/** close[i]. */
const closeKernel: Kernel = (b, _p, from, end, out) => {
  for (let i = from; i <= end; i += 1) out[i - from] = finite(b.close[i]!);
};

/** change_pct(N) = (close[i] / close[i − N] − 1) · 100; NaN for i < N. */
const changeKernel: Kernel = (b, n, from, end, out) => {
  const close = b.close;
  for (let i = from; i <= end; i += 1) out[i - from] = i < n ? Number.NaN : finite((close[i]! / close[i - n]! - 1) * 100);
};

/** pct_below_high(N) = (H − close[i]) / H · 100, H the highest high of bars i − N + 1..i; NaN for i < N − 1. */
const belowHighKernel: Kernel = (b, n, from, end, out) => {
  for (let i = from; i <= end; i += 1) {
    if (i < n - 1) {
      out[i - from] = Number.NaN;
      continue;
    }
    const high = windowMax(b.high, i - n + 1, i);
    out[i - from] = finite(((high - b.close[i]!) / high) * 100);
  }
};

/** pct_above_low(N) = (close[i] − L) / L · 100, L the lowest low of bars i − N + 1..i; NaN for i < N − 1. */
const aboveLowKernel: Kernel = (b, n, from, end, out) => {
  for (let i = from; i <= end; i += 1) {
    if (i < n - 1) {
      out[i - from] = Number.NaN;
      continue;
    }
    const low = windowMin(b.low, i - n + 1, i);
    out[i - from] = finite(((b.close[i]! - low) / low) * 100);
  }
};

/** sma(N) = the sum of close[i − N + 1..i], oldest first, / N; NaN for i < N − 1. */
const smaKernel: Kernel = (b, n, from, end, out) => {
  for (let i = from; i <= end; i += 1) out[i - from] = i < n - 1 ? Number.NaN : finite(windowSum(b.close, i - n + 1, i) / n);
};

/** pct_from_sma(N) = (close[i] / sma(N)[i] − 1) · 100. */
const fromSmaKernel: Kernel = (b, n, from, end, out) => {
  for (let i = from; i <= end; i += 1) {
    out[i - from] = i < n - 1 ? Number.NaN : finite((b.close[i]! / (windowSum(b.close, i - n + 1, i) / n) - 1) * 100);
  }
};

/** rvol = volume[i] / (the sum of volume[i − 20..i − 1] / 20); NaN for i < 20. */
const rvolKernel: Kernel = (b, _p, from, end, out) => {
  const volume = b.volume;
  for (let i = from; i <= end; i += 1) out[i - from] = i < 20 ? Number.NaN : finite(volume[i]! / (windowSum(volume, i - 20, i - 1) / 20));
};

/** avg_dollar_volume(N) = the sum of close[j] · volume[j] over j = i − N + 1..i, oldest first, / N. */
const dollarVolumeKernel: Kernel = (b, n, from, end, out) => {
  const { close, volume } = b;
  for (let i = from; i <= end; i += 1) {
    if (i < n - 1) {
      out[i - from] = Number.NaN;
      continue;
    }
    let sum = 0;
    for (let j = i - n + 1; j <= i; j += 1) sum += close[j]! * volume[j]!;
    out[i - from] = finite(sum / n);
  }
};

/** gap_pct = (open[i] / close[i − 1] − 1) · 100; NaN for i = 0. */
const gapKernel: Kernel = (b, _p, from, end, out) => {
  for (let i = from; i <= end; i += 1) out[i - from] = i < 1 ? Number.NaN : finite((b.open[i]! / b.close[i - 1]! - 1) * 100);
};

/** out[0..end − from] with NaN for each value that is not finite (the TA-Lib kernels' values). */
function keepFinite(out: Float64Array, from: number, end: number): void {
  for (let k = 0; k <= end - from; k += 1) out[k] = finite(out[k]!);
}

/** rsi(N): TA-Lib's RSI of the closes 0..end at i (`rsi` in indicators/rsi.ts; wilder-kernels.ts). */
const rsiKernel: Kernel = (b, n, from, end, out) => {
  rsiTail(b.close, n, from, end, out);
  keepFinite(out, from, end);
};

/** ema(N): TA-Lib's EMA of the closes 0..end at i (`ema` in indicators/moving-averages.ts; wilder-kernels.ts). */
const emaKernel: Kernel = (b, n, from, end, out) => {
  emaTail(b.close, n, from, end, out);
  keepFinite(out, from, end);
};

/** pct_from_ema(N) = (close[i] / ema(N)[i] − 1) · 100. */
const fromEmaKernel: Kernel = (b, n, from, end, out) => {
  emaTail(b.close, n, from, end, out);
  for (let i = from; i <= end; i += 1) out[i - from] = finite((b.close[i]! / out[i - from]! - 1) * 100);
};

/** atr(N): TA-Lib's ATR of the bars 0..end at i (`atr` in indicators/atr.ts; wilder-kernels.ts). */
const atrKernel: Kernel = (b, n, from, end, out) => {
  atrTail(b.high, b.low, b.close, n, from, end, out);
  keepFinite(out, from, end);
};

/** atr_pct(N) = atr(N)[i] / close[i] · 100. */
const atrPctKernel: Kernel = (b, n, from, end, out) => {
  atrTail(b.high, b.low, b.close, n, from, end, out);
  for (let i = from; i <= end; i += 1) out[i - from] = finite((out[i - from]! / b.close[i]!) * 100);
};

/** adx(N): TA-Lib's ADX of the bars 0..end at i (`directionalMovement` in indicators/adx.ts; wilder-kernels.ts). */
const adxKernel: Kernel = (b, n, from, end, out) => {
  adxTail(b.high, b.low, b.close, n, from, end, out);
  keepFinite(out, from, end);
};

/**
 * An rsi(N) field's values at rsiFrom..end into rsiOut and an adx(M) field's at adxFrom..end into
 * adxOut, as their `fill`s give them, in one pass over the bars (wilder-kernels.ts `rsiAdxTail`).
 */
export function fillRsiAdx(bars: ScanBars, rsi: ResolvedField, rsiFrom: number, rsiOut: Float64Array, adx: ResolvedField, adxFrom: number, adxOut: Float64Array, end: number): void {
  rsiAdxTail(bars.high, bars.low, bars.close, end, rsi.param, rsiFrom, rsiOut, adx.param, adxFrom, adxOut);
  keepFinite(rsiOut, rsiFrom, end);
  keepFinite(adxOut, adxFrom, end);
}

/** The bars of the volume profile behind vp_distance_pct (volumeProfileLevels' default lookback). */
const VOLUME_PROFILE_BARS = 120;

/**
 * vp_distance_pct = |level − close[i]| / close[i] · 100 for the level nearest the close among the
 * volume-profile levels (`volumeProfileLevels`, default options) of the 120 bars i − 119..i; NaN for
 * i < 119, without levels (no traded volume) or for a close that is not positive. One profile per
 * index: compute it only at the indexes a condition reads.
 */
const vpDistanceKernel: Kernel = (b, _p, from, end, out) => {
  for (let i = from; i <= end; i += 1) {
    const close = b.close[i]!;
    if (i < VOLUME_PROFILE_BARS - 1) {
      out[i - from] = Number.NaN;
      continue;
    }
    const first = i - VOLUME_PROFILE_BARS + 1;
    const window = (values: Float64Array) => values.subarray(first, i + 1);
    const levels = volumeProfileLevels(window(b.high), window(b.low), window(b.close), window(b.volume));
    // Every level is "within" the largest fraction: this is the nearest level, or null for a bad close.
    const nearest = nearestLevelWithin(levels, close, Number.MAX_VALUE);
    out[i - from] = nearest === null ? Number.NaN : finite((Math.abs(nearest - close) / close) * 100);
  }
};

/** A fact that does not vary by bar index: the same value at every index (NaN when missing). */
const factKernel =
  (read: (facts: ScanFacts) => number | null | undefined): Kernel =>
  (_b, _p, from, end, out, facts) => {
    const value = finite(read(facts) ?? Number.NaN);
    for (let i = from; i <= end; i += 1) out[i - from] = value;
  };

/** Each number field's kernel and the rough cost per computed index (`whole`: the indicator runs over all the bars). */
const NUMBER_FIELDS: Record<string, { kernel: Kernel; cost: (p: number) => number; whole?: boolean }> = {
  close: { kernel: closeKernel, cost: () => 1 },
  change_pct: { kernel: changeKernel, cost: () => 1 },
  gap_pct: { kernel: gapKernel, cost: () => 1 },
  pct_below_high: { kernel: belowHighKernel, cost: (p) => p },
  pct_above_low: { kernel: aboveLowKernel, cost: (p) => p },
  sma: { kernel: smaKernel, cost: (p) => p },
  pct_from_sma: { kernel: fromSmaKernel, cost: (p) => p },
  rvol: { kernel: rvolKernel, cost: () => 20 },
  avg_dollar_volume: { kernel: dollarVolumeKernel, cost: (p) => 2 * p },
  rsi: { kernel: rsiKernel, cost: () => 4, whole: true },
  ema: { kernel: emaKernel, cost: () => 3, whole: true },
  pct_from_ema: { kernel: fromEmaKernel, cost: () => 3, whole: true },
  atr: { kernel: atrKernel, cost: () => 5, whole: true },
  atr_pct: { kernel: atrPctKernel, cost: () => 5, whole: true },
  adx: { kernel: adxKernel, cost: () => 15, whole: true },
  vp_distance_pct: { kernel: vpDistanceKernel, cost: () => 3000 },
  days_to_earnings: { kernel: factKernel((facts) => facts.daysToEarnings), cost: () => 0 },
  news_sentiment: { kernel: factKernel((facts) => facts.newsSentiment), cost: () => 0 },
};

const TEXT_FIELDS: Record<string, (facts: ScanFacts) => string | null | undefined> = {
  sector: (facts) => facts.sector,
  exchange: (facts) => facts.exchange,
};

/**
 * The field of a reference, checked against the catalogue and with its parameter bound. Throws a
 * RangeError for an unknown field or parameters the catalogue refuses (a scan that got past the
 * parser never has them); parameters left out take their defaults.
 */
export function resolveField(ref: FieldRef): ResolvedField {
  const spec = scanField(ref.field);
  if (!spec) throw new RangeError(`Unknown scan field "${ref.field}"`);
  const problem = paramProblem(spec, ref.params);
  if (problem !== null) throw new RangeError(problem);
  const p = withDefaults(spec, ref.params)[0] ?? 0;
  const key = fieldKey(ref);
  const readText = TEXT_FIELDS[spec.name];
  if (spec.kind === 'text' && readText) {
    return {
      ref,
      key,
      kind: 'text',
      param: p,
      fill: (_bars, _facts, from, end, out) => out.fill(Number.NaN, 0, end - from + 1),
      text: (facts) => {
        const value = readText(facts);
        return typeof value === 'string' ? value : null;
      },
      cost: () => 0,
      whole: false,
    };
  }
  const number = NUMBER_FIELDS[spec.name];
  if (spec.kind !== 'number' || !number) throw new RangeError(`Scan field "${spec.name}" has no evaluator`);
  const { kernel, cost, whole = false } = number;
  return {
    ref,
    key,
    kind: 'number',
    param: p,
    fill: (bars, facts, from, end, out) => kernel(bars, p, from, end, out, facts),
    text: () => null,
    cost: (count, bars) => cost(p) * (whole ? bars : count),
    whole,
  };
}

/**
 * The field's value at each bar index 0..end (a new array of end + 1 values), NaN where it has none;
 * the value at i reads bars 0..i only. `facts` gives the fact fields (the same at every index); a
 * text field has no numbers and is all NaN. Throws a RangeError for a field `resolveField` refuses
 * or an `end` outside −1..bar count − 1 (−1: an empty series).
 */
export function fieldSeries(ref: FieldRef, bars: ScanBars, end: number, facts: ScanFacts = {}): Float64Array {
  const field = resolveField(ref);
  if (!Number.isInteger(end) || end < -1 || end >= barCount(bars)) throw new RangeError(`fieldSeries: end must be a bar index, got ${end}`);
  const out = new Float64Array(end + 1);
  if (end >= 0) field.fill(bars, facts, 0, end, out);
  return out;
}
