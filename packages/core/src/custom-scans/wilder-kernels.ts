/**
 * The recursive TA-Lib indicators of the custom-scan fields (rsi, ema, atr, adx), computed as of bar
 * `end` in one pass over the bars 0..end and written only at the indexes asked for (from..end), with
 * no allocation: a scan over 8,000 symbols reads one or a few trailing values per symbol
 * (docs/custom-scans.md, "Evaluation"). EMA and ATR are bit for bit the core indicators
 * (moving-averages.ts, atr.ts) run over the bars 0..end: the same operations on the same numbers
 * in the same order. RSI and ADX (rsi.ts, adx.ts) are the same recursions with the divisions by the
 * period made multiplications by 1 / period and the DX taken from the DM sums (the DIs' TR cancels):
 * one division a bar instead of nine, the divider being what set the pace; they agree with the
 * indicators to 1e-9 on their 0–100 scale (wilder-kernels.test.ts checks all of it on random,
 * TA-Lib, flat, short, non-finite and arbitrary series). rsiAdxTail is bit for bit rsiTail and
 * adxTail, so a value never depends on which pass computed it. The recursions are seeded from the
 * first bar, so no history is skipped.
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

/** Running DM and TR sums above this fall back to adx.ts (its 100 · DM / TR overflows near Number.MAX_VALUE; prices never come near). */
const PEAK_LIMIT = 1e300;

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

/** directionalMovement() itself (indicators/adx.ts) over the bars 0..end: bars that are not all finite, or sums beyond PEAK_LIMIT. */
function adxFallback(high: Float64Array, low: Float64Array, close: Float64Array, period: number, from: number, end: number, out: Float64Array): void {
  const n = end + 1;
  const into = scratchFor(n);
  directionalMovement(high.subarray(0, n), low.subarray(0, n), close.subarray(0, n), period, into);
  for (let i = from; i <= end; i += 1) out[i - from] = into.adx[i]!;
}

/**
 * rsi(close[0..end], period)[i] for i in from..end (indicators/rsi.ts, to 1e-9: the averages are
 * multiplied by 1 / period where rsi() divides by the period). A change c gives
 * gain = (c + |c|) · 0.5, exactly c or +0, and loss = |c| − gain, exactly −c or +0: the very terms
 * rsi() adds (adding +0 to a sum ≥ +0 changes nothing), while c + |c| is finite.
 */
export function rsiTail(close: Float64Array, period: number, from: number, end: number, out: Float64Array): void {
  fillNaN(out, from, end, period);
  if (end < period) return;
  const keep = period - 1;
  const inverse = 1 / period;
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
      gain = (gain * keep + up) * inverse;
      loss = (loss * keep + (size - up)) * inverse;
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
 * (indicators/adx.ts, to 1e-9): the same running sums, decayed by (1 − 1 / period), and the DX
 * from them, kept in locals instead of three series.
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
  const inverse = 1 / period;
  const decay = 1 - inverse;
  let plusDm = 0;
  let minusDm = 0;
  let tr = 0;
  let sumDx = 0;
  let value = 0;
  // The largest running sum: beyond PEAK_LIMIT the DIs adx.ts computes overflow where the DX here does not.
  let peak = 0;
  let previousHigh = high[0]!;
  let previousLow = low[0]!;
  let previousClose = close[0]!;
  for (let i = 1; i <= end; i += 1) {
    const h = high[i]!;
    const l = low[i]!;
    const up = h - previousHigh;
    const down = previousLow - l;
    if (i >= period) {
      plusDm *= decay;
      minusDm *= decay;
      tr *= decay;
    }
    plusDm += up * (+(up > down) & +(up > 0));
    minusDm += down * (+(down > up) & +(down > 0));
    tr += Math.max(h - l, Math.abs(h - previousClose), Math.abs(l - previousClose));
    peak = Math.max(peak, tr, plusDm, minusDm);
    previousHigh = h;
    previousLow = l;
    previousClose = close[i]!;
    if (i < period) continue;
    // adx.ts's DX (100 · |−DI − +DI| / (+DI + −DI), the DIs' TR cancelling), or its null (not counted) when the TR sum or the DI sum is 0
    const sum = plusDm + minusDm;
    const counted = tr !== 0 && sum !== 0;
    const dx = counted ? 100 * (Math.abs(minusDm - plusDm) / sum) : 0;
    if (i < first) {
      sumDx += dx;
      continue;
    }
    if (i === first) value = (sumDx + dx) / period;
    else if (counted) value = (value * keep + dx) * inverse;
    if (i >= from) out[i - from] = value;
  }
  // A sum that is not finite (NaN or ∞ stay to the end, so `peak` is not ≤ anything) or huge: adx.ts itself.
  if (!(peak <= PEAK_LIMIT)) adxFallback(high, low, close, period, from, end, out);
}

/**
 * rsiTail(close, rsiPeriod, rsiFrom, end, rsiOut) and adxTail(high, low, close, adxPeriod, adxFrom,
 * end, adxOut) in one pass over the bars, the same operations in the same order: the two interleaved
 * run in little more time than the ADX alone.
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
  const rsiInverse = 1 / rsiPeriod;
  const adxKeep = adxPeriod - 1;
  const adxInverse = 1 / adxPeriod;
  const adxDecay = 1 - adxInverse;
  const lossAt = lossesFor(end - rsiFrom + 1);
  let gain = 0;
  let loss = 0;
  let plusDm = 0;
  let minusDm = 0;
  let tr = 0;
  let sumDx = 0;
  let value = 0;
  // The largest running sum: beyond PEAK_LIMIT the DIs adx.ts computes overflow where the DX here does not.
  let peak = 0;
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
      gain = (gain * rsiKeep + rise) * rsiInverse;
      loss = (loss * rsiKeep + (size - rise)) * rsiInverse;
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
      plusDm *= adxDecay;
      minusDm *= adxDecay;
      tr *= adxDecay;
    }
    plusDm += up * (+(up > down) & +(up > 0));
    minusDm += down * (+(down > up) & +(down > 0));
    tr += Math.max(h - l, Math.abs(h - previousClose), Math.abs(l - previousClose));
    peak = Math.max(peak, tr, plusDm, minusDm);
    previousHigh = h;
    previousLow = l;
    previousClose = c;
    if (i < adxPeriod) continue;
    // As adxTail: the DX from the DM sums, one division.
    const sum = plusDm + minusDm;
    const counted = tr !== 0 && sum !== 0;
    const dx = counted ? 100 * (Math.abs(minusDm - plusDm) / sum) : 0;
    if (i < first) {
      sumDx += dx;
      continue;
    }
    if (i === first) value = (sumDx + dx) / adxPeriod;
    else if (counted) value = (value * adxKeep + dx) * adxInverse;
    if (i >= adxFrom) adxOut[i - adxFrom] = value;
  }
  rsiFromAverages(rsiOut, rsiFrom, end, rsiPeriod);
  if (end >= rsiPeriod && !(finiteNumber(gain) && finiteNumber(loss))) rsiFallback(close, rsiPeriod, rsiFrom, end, rsiOut);
  if (end >= first && !(peak <= PEAK_LIMIT)) adxFallback(high, low, close, adxPeriod, adxFrom, end, adxOut);
}
