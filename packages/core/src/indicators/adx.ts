import { assertPeriod, assertSameLength } from './validate';

/** +DI, −DI and ADX series of the same length as the input (NaN where not yet defined). */
export interface DirectionalMovement {
  plusDi: Float64Array;
  minusDi: Float64Array;
  adx: Float64Array;
}

/**
 * Wilder's directional movement exactly as TA-Lib's ta_PLUS_DI.c, ta_MINUS_DI.c and ta_ADX.c
 * (classic mode, no unstable period), in points 0–100, oldest first; period ≥ 2 (default 14).
 * - For bar i ≥ 1: up = H[i] − H[i−1], down = L[i−1] − L[i]. −DM = down when down > 0 and up < down;
 *   otherwise +DM = up when up > 0 and up > down; else both 0 (an inside bar, or up = down).
 *   TR[i] = max(H[i] − L[i], |H[i] − C[i−1]|, |L[i] − C[i−1]|).
 * - Seed: the plain sums of +DM, −DM and TR over bars 1 .. period − 1; from bar `period` on,
 *   Wilder's running sums: S = S − S / period + x(i).
 * - +DI = 100 · S(+DM) / S(TR) and −DI likewise, from index `period`; 0 when S(TR) is 0.
 * - DX = 100 · |+DI − −DI| / (+DI + −DI). The first ADX, at index 2·period − 1, is the mean of the
 *   `period` DX values at indexes period .. 2·period − 1 (a DX whose DI sum is 0 adds 0); then
 *   ADX = (ADX · (period − 1) + DX) / period, left unchanged on a bar whose TR sum or DI sum is 0.
 * TA-Lib tests those sums against 1e-8 (TA_IS_ZERO); we test for exact 0, as rsi() does, so coins
 * priced in millionths keep a real ADX. Otherwise identical.
 * `into`: buffers of at least close.length values to write into (and answer) instead of new
 * arrays, for scans over thousands of symbols (custom-scans/field-series.ts); only their first
 * close.length values are written.
 */
export function directionalMovement(
  high: ArrayLike<number>,
  low: ArrayLike<number>,
  close: ArrayLike<number>,
  period = 14,
  into?: DirectionalMovement,
): DirectionalMovement {
  assertPeriod('directionalMovement', period, 2);
  assertSameLength('directionalMovement', high, low, close);
  const n = close.length;
  if (into && Math.min(into.plusDi.length, into.minusDi.length, into.adx.length) < n) throw new RangeError(`directionalMovement: the buffers hold fewer than the ${n} values needed`);
  const series = (buffer: Float64Array | undefined) => (buffer ? buffer.fill(Number.NaN, 0, n) : new Float64Array(n).fill(Number.NaN));
  const plusDi = series(into?.plusDi);
  const minusDi = series(into?.minusDi);
  const adx = series(into?.adx);
  let plusDm = 0;
  let minusDm = 0;
  let tr = 0;
  let sumDx = 0;
  let value = 0;
  for (let i = 1; i < n; i += 1) {
    const up = high[i]! - high[i - 1]!;
    const down = low[i - 1]! - low[i]!;
    const h = high[i]!;
    const l = low[i]!;
    const previous = close[i - 1]!;
    const range = Math.max(h - l, Math.abs(h - previous), Math.abs(l - previous));
    if (i >= period) {
      plusDm -= plusDm / period;
      minusDm -= minusDm / period;
      tr -= tr / period;
    }
    if (down > 0 && up < down) minusDm += down;
    else if (up > 0 && up > down) plusDm += up;
    tr += range;
    if (i < period) continue;
    const plus = tr === 0 ? 0 : (100 * plusDm) / tr;
    const minus = tr === 0 ? 0 : (100 * minusDm) / tr;
    plusDi[i] = plus;
    minusDi[i] = minus;
    const sum = plus + minus;
    const dx = tr !== 0 && sum !== 0 ? (100 * Math.abs(minus - plus)) / sum : null;
    if (i < 2 * period - 1) {
      if (dx !== null) sumDx += dx;
      continue;
    }
    if (i === 2 * period - 1) {
      if (dx !== null) sumDx += dx;
      value = sumDx / period;
    } else if (dx !== null) {
      value = (value * (period - 1) + dx) / period;
    }
    adx[i] = value;
  }
  return { plusDi, minusDi, adx };
}
