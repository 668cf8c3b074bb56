/**
 * The recursive TA-Lib indicators of the custom-scan fields (rsi, ema, atr, adx), computed as of bar
 * `end` in one pass over the bars 0..end and written only at the indexes asked for (from..end), with
 * no allocation: a scan over 8,000 symbols reads one or a few trailing values per symbol
 * (docs/custom-scans.md, "Evaluation"). Each is bit for bit the core indicator (indicators/rsi.ts,
 * adx.ts, atr.ts, moving-averages.ts) run over the bars 0..end: the same operations on the same
 * numbers in the same order (wilder-kernels.test.ts checks it on random, TA-Lib, flat, short and
 * non-finite series). Their recursions are seeded from the first bar, so no history is skipped.
 *
 * Every function writes `out[i − from]` for i in from..end (0 ≤ from ≤ end < the arrays' lengths),
 * the indicator's value at i, NaN where it has none, and never reads past `end`.
 *
 * RSI and ADX take each bar's gain, loss, +DM and −DM without a branch on the sign of the move (a
 * coin flip on real prices, which costs more than the arithmetic), which is exact for finite moves
 * only: a move that is not finite leaves a running sum that is not finite to the last bar (NaN and
 * ∞ stay), and such a series is computed again by the core indicator itself.
 */
import { directionalMovement, rsi, type DirectionalMovement } from '../indicators/index';

/** True range of bar i ≥ 1 as indicators/atr.ts and adx.ts compute it. */
function trueRange(high: Float64Array, low: Float64Array, close: Float64Array, i: number): number {
  const previous = close[i - 1]!;
  const h = high[i]!;
  const l = low[i]!;
  return Math.max(h - l, Math.abs(h - previous), Math.abs(l - previous));
}

/** The series the fallbacks write into, grown to the longest history seen (kernels are synchronous). */
let scratch: DirectionalMovement & { rsi: Float64Array } = { rsi: new Float64Array(0), plusDi: new Float64Array(0), minusDi: new Float64Array(0), adx: new Float64Array(0) };

function scratchFor(length: number): typeof scratch {
  if (scratch.rsi.length < length) {
    const size = Math.max(length, 2 * scratch.rsi.length);
    scratch = { rsi: new Float64Array(size), plusDi: new Float64Array(size), minusDi: new Float64Array(size), adx: new Float64Array(size) };
  }
  return scratch;
}

/** RSI from Wilder's averages as indicators/rsi.ts (`rsiOf`). */
const rsiOf = (gain: number, loss: number): number => {
  const sum = gain + loss;
  return sum === 0 ? 0 : 100 * (gain / sum);
};

/** Average losses at the indexes asked for, beside the average gains kept in `out` until the pass ends. */
let losses = new Float64Array(0);

function lossesFor(count: number): Float64Array {
  if (losses.length < count) losses = new Float64Array(Math.max(count, 2 * losses.length));
  return losses;
}

/**
 * out[k] = rsiOf(out[k], losses[k]) for k in first − from..end − from: the RSI from the averages a pass
 * kept (computing it in the pass, rather than storing two numbers, makes the whole pass slower).
 */
function rsiFromAverages(out: Float64Array, from: number, end: number, first: number): void {
  for (let k = Math.max(first, from) - from; k <= end - from; k += 1) out[k] = rsiOf(out[k]!, losses[k]!);
}

/** Whether x is a finite number (x − x is NaN for ±∞ and NaN). */
const finiteNumber = (x: number): boolean => x - x === 0;

/** NaN at the indexes from..end below `first` (where the indicator has no value yet). */
function fillNaN(out: Float64Array, from: number, end: number, first: number): void {
  for (let i = from; i < first && i <= end; i += 1) out[i - from] = Number.NaN;
}

/** rsi() itself (indicators/rsi.ts) over the closes 0..end: a series with a change that is not finite. */
function rsiFallback(close: Float64Array, period: number, from: number, end: number, out: Float64Array): void {
  const n = end + 1;
  const series = rsi(close.subarray(0, n), period, scratchFor(n).rsi);
  for (let i = from; i <= end; i += 1) out[i - from] = series[i]!;
}

/** directionalMovement() itself (indicators/adx.ts) over the bars 0..end: highs or lows that are not all finite. */
function adxFallback(high: Float64Array, low: Float64Array, close: Float64Array, period: number, from: number, end: number, out: Float64Array): void {
  const n = end + 1;
  const into = scratchFor(n);
  directionalMovement(high.subarray(0, n), low.subarray(0, n), close.subarray(0, n), period, into);
  for (let i = from; i <= end; i += 1) out[i - from] = into.adx[i]!;
}

/**
 * rsi(close[0..end], period)[i] for i in from..end (indicators/rsi.ts). A change c gives
 * gain = (c + |c|) · 0.5, exactly c or +0, and loss = |c| − gain, exactly −c or +0: the very terms
 * rsi() adds (adding +0 to a sum ≥ +0 changes nothing), while c + |c| is finite.
 */
export function rsiTail(close: Float64Array, period: number, from: number, end: number, out: Float64Array): void {
  fillNaN(out, from, end, period);
  if (end < period) return;
  const keep = period - 1;
  const lossAt = lossesFor(end - from + 1);
  let gain = 0;
  let loss = 0;
  let previous = close[0]!;
  for (let i = 1; i <= end; i += 1) {
    const value = close[i]!;
    const change = value - previous;
    previous = value;
    const size = Math.abs(change);
    const up = (change + size) * 0.5;
    if (i > period) {
      gain = (gain * keep + up) / period;
      loss = (loss * keep + (size - up)) / period;
    } else {
      gain += up;
      loss += size - up;
      if (i < period) continue;
      gain /= period;
      loss /= period;
    }
    if (i >= from) {
      out[i - from] = gain;
      lossAt[i - from] = loss;
    }
  }
  rsiFromAverages(out, from, end, period);
  if (!(finiteNumber(gain) && finiteNumber(loss))) rsiFallback(close, period, from, end, out);
}

/** ema(values[0..end], period)[i] for i in from..end (indicators/moving-averages.ts). */
export function emaTail(values: Float64Array, period: number, from: number, end: number, out: Float64Array): void {
  fillNaN(out, from, end, period - 1);
  if (end < period - 1) return;
  const k = 2 / (period + 1);
  let seed = 0;
  for (let i = 0; i < period; i += 1) seed += values[i]!;
  let value = seed / period;
  if (from <= period - 1) out[period - 1 - from] = value;
  for (let i = period; i <= end; i += 1) {
    value = (values[i]! - value) * k + value;
    if (i >= from) out[i - from] = value;
  }
}

/** atr(high, low, close cut after end, period)[i] for i in from..end (indicators/atr.ts). */
export function atrTail(high: Float64Array, low: Float64Array, close: Float64Array, period: number, from: number, end: number, out: Float64Array): void {
  fillNaN(out, from, end, period);
  if (end < period) return;
  let value = 0;
  for (let i = 1; i <= period; i += 1) value += trueRange(high, low, close, i);
  value /= period;
  if (from <= period) out[period - from] = value;
  const keep = period - 1;
  for (let i = period + 1; i <= end; i += 1) {
    value = (value * keep + trueRange(high, low, close, i)) / period;
    if (i >= from) out[i - from] = value;
  }
}

/**
 * directionalMovement(high, low, close cut after end, period).adx[i] for i in from..end
 * (indicators/adx.ts): the same running sums, DIs and DX, kept in locals instead of three series.
 * A bar's +DM is up when up > 0 and up > down, its −DM down when down > 0 and down > up: adx.ts's
 * if / else if for finite moves, taken by multiplying the move by 0 or 1 (adding ±0 to a sum ≥ +0
 * changes nothing). rsiAdxTail repeats these steps beside the RSI's: one function for both, with
 * the RSI switched off here, would be compiled by V8 for whichever use came first and run the
 * other several times slower.
 */
export function adxTail(high: Float64Array, low: Float64Array, close: Float64Array, period: number, from: number, end: number, out: Float64Array): void {
  const first = 2 * period - 1;
  fillNaN(out, from, end, first);
  if (end < first) return;
  const keep = period - 1;
  let plusDm = 0;
  let minusDm = 0;
  let tr = 0;
  let sumDx = 0;
  let value = 0;
  let previousHigh = high[0]!;
  let previousLow = low[0]!;
  let previousClose = close[0]!;
  for (let i = 1; i <= end; i += 1) {
    const h = high[i]!;
    const l = low[i]!;
    const up = h - previousHigh;
    const down = previousLow - l;
    if (i >= period) {
      plusDm -= plusDm / period;
      minusDm -= minusDm / period;
      tr -= tr / period;
    }
    plusDm += up * (+(up > down) & +(up > 0));
    minusDm += down * (+(down > up) & +(down > 0));
    tr += Math.max(h - l, Math.abs(h - previousClose), Math.abs(l - previousClose));
    previousHigh = h;
    previousLow = l;
    previousClose = close[i]!;
    if (i < period) continue;
    const plus = tr === 0 ? 0 : (100 * plusDm) / tr;
    const minus = tr === 0 ? 0 : (100 * minusDm) / tr;
    const sum = plus + minus;
    // adx.ts's DX, or its null (not counted) when the TR sum or the DI sum is 0
    const counted = tr !== 0 && sum !== 0;
    const dx = counted ? (100 * Math.abs(minus - plus)) / sum : 0;
    if (i < first) {
      sumDx += dx;
      continue;
    }
    if (i === first) value = (sumDx + dx) / period;
    else if (counted) value = (value * keep + dx) / period;
    if (i >= from) out[i - from] = value;
  }
  if (!(finiteNumber(plusDm) && finiteNumber(minusDm))) adxFallback(high, low, close, period, from, end, out);
}

/**
 * rsiTail(close, rsiPeriod, rsiFrom, end, rsiOut) and adxTail(high, low, close, adxPeriod, adxFrom,
 * end, adxOut) in one pass over the bars: each recursion waits on its own divisions, and the two
 * interleaved run in little more time than the ADX alone (the divisions, nine a bar, set the pace).
 */
export function rsiAdxTail(
  high: Float64Array,
  low: Float64Array,
  close: Float64Array,
  end: number,
  rsiPeriod: number,
  rsiFrom: number,
  rsiOut: Float64Array,
  adxPeriod: number,
  adxFrom: number,
  adxOut: Float64Array,
): void {
  const first = 2 * adxPeriod - 1;
  fillNaN(rsiOut, rsiFrom, end, rsiPeriod);
  fillNaN(adxOut, adxFrom, end, first);
  const rsiKeep = rsiPeriod - 1;
  const adxKeep = adxPeriod - 1;
  const lossAt = lossesFor(end - rsiFrom + 1);
  let gain = 0;
  let loss = 0;
  let plusDm = 0;
  let minusDm = 0;
  let tr = 0;
  let sumDx = 0;
  let value = 0;
  let previousHigh = high[0]!;
  let previousLow = low[0]!;
  let previousClose = close[0]!;
  for (let i = 1; i <= end; i += 1) {
    const h = high[i]!;
    const l = low[i]!;
    const c = close[i]!;
    const change = c - previousClose;
    const size = Math.abs(change);
    const rise = (change + size) * 0.5;
    if (i > rsiPeriod) {
      gain = (gain * rsiKeep + rise) / rsiPeriod;
      loss = (loss * rsiKeep + (size - rise)) / rsiPeriod;
    } else {
      gain += rise;
      loss += size - rise;
      if (i === rsiPeriod) {
        gain /= rsiPeriod;
        loss /= rsiPeriod;
      }
    }
    if (i >= rsiFrom && i >= rsiPeriod) {
      rsiOut[i - rsiFrom] = gain;
      lossAt[i - rsiFrom] = loss;
    }
    const up = h - previousHigh;
    const down = previousLow - l;
    if (i >= adxPeriod) {
      plusDm -= plusDm / adxPeriod;
      minusDm -= minusDm / adxPeriod;
      tr -= tr / adxPeriod;
    }
    plusDm += up * (+(up > down) & +(up > 0));
    minusDm += down * (+(down > up) & +(down > 0));
    tr += Math.max(h - l, Math.abs(h - previousClose), Math.abs(l - previousClose));
    previousHigh = h;
    previousLow = l;
    previousClose = c;
    if (i < adxPeriod) continue;
    const plus = tr === 0 ? 0 : (100 * plusDm) / tr;
    const minus = tr === 0 ? 0 : (100 * minusDm) / tr;
    const sum = plus + minus;
    // adx.ts's DX, or its null (not counted) when the TR sum or the DI sum is 0
    const counted = tr !== 0 && sum !== 0;
    const dx = counted ? (100 * Math.abs(minus - plus)) / sum : 0;
    if (i < first) {
      sumDx += dx;
      continue;
    }
    if (i === first) value = (sumDx + dx) / adxPeriod;
    else if (counted) value = (value * adxKeep + dx) / adxPeriod;
    if (i >= adxFrom) adxOut[i - adxFrom] = value;
  }
  rsiFromAverages(rsiOut, rsiFrom, end, rsiPeriod);
  if (end >= rsiPeriod && !(finiteNumber(gain) && finiteNumber(loss))) rsiFallback(close, rsiPeriod, rsiFrom, end, rsiOut);
  if (end >= first && !(finiteNumber(plusDm) && finiteNumber(minusDm))) adxFallback(high, low, close, adxPeriod, adxFrom, end, adxOut);
}
