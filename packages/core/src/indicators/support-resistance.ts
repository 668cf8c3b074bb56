import { assertFraction, assertPeriod, assertSameLength } from './validate';

export interface SwingLevel {
  /** The pivot bar's high (kind 'high') or low (kind 'low'), price units. */
  price: number;
  /** Index of the pivot bar in the input, to recover its date. */
  index: number;
  kind: 'high' | 'low';
}

export interface SwingOptions {
  /** Bars before a pivot that must be lower (for a high) or higher (for a low); default 5. */
  leftBars?: number;
  /** Bars after a pivot that must not exceed it; default 5. The last rightBars bars cannot be pivots yet. */
  rightBars?: number;
  /** Only pivot bars among the last lookbackBars bars (today included) count; default 250 (a year of days). */
  lookbackBars?: number;
}

/**
 * Swing (pivot) levels, oldest first. A swing high is a bar whose high is strictly above the highs of
 * the `leftBars` bars before it and not below the highs of the `rightBars` bars after it (so a flat
 * top of equal highs yields its first bar once); a swing low mirrors this with lows. A bar can be
 * both. Bars with a non-finite high (low) are never swing highs (lows).
 */
export function swingLevels(high: ArrayLike<number>, low: ArrayLike<number>, options: SwingOptions = {}): SwingLevel[] {
  assertSameLength('swingLevels', high, low);
  const { leftBars = 5, rightBars = 5, lookbackBars = 250 } = options;
  assertPeriod('swingLevels', leftBars, 1, 'leftBars');
  assertPeriod('swingLevels', rightBars, 1, 'rightBars');
  assertPeriod('swingLevels', lookbackBars, 1, 'lookbackBars');
  const out: SwingLevel[] = [];
  for (let i = Math.max(leftBars, high.length - lookbackBars); i < high.length - rightBars; i += 1) {
    const h = high[i]!;
    const l = low[i]!;
    let isHigh = Number.isFinite(h);
    let isLow = Number.isFinite(l);
    for (let k = 1; k <= leftBars && (isHigh || isLow); k += 1) {
      if (!(high[i - k]! < h)) isHigh = false;
      if (!(low[i - k]! > l)) isLow = false;
    }
    for (let k = 1; k <= rightBars && (isHigh || isLow); k += 1) {
      if (!(high[i + k]! <= h)) isHigh = false;
      if (!(low[i + k]! >= l)) isLow = false;
    }
    if (isHigh) out.push({ price: h, index: i, kind: 'high' });
    if (isLow) out.push({ price: l, index: i, kind: 'low' });
  }
  return out;
}

export interface SupportResistanceOptions extends SwingOptions {
  /** Pivots within this fraction of a cluster's mean join it (default 0.015 = 1.5 %). */
  mergeFraction?: number;
  /** Most levels answered (default 8). */
  maxLevels?: number;
}

/**
 * Support and resistance levels, price units sorted ascending: what api/support-resistance answers
 * as `levels` when the provider's premium scan is not available.
 * 1. Swing highs and lows of the last `lookbackBars` bars (default 250, 5 bars each side).
 * 2. Sorted by price, a pivot joins the cluster below it when it is within `mergeFraction` (1.5 %)
 *    above that cluster's mean; the level is the touch-weighted mean (each pivot one touch).
 * 3. The `maxLevels` (8) most-touched levels are kept; on equal touches, those nearest the last
 *    close win. No label says which are support: below the price they support, above they resist.
 */
export function supportResistance(
  high: ArrayLike<number>,
  low: ArrayLike<number>,
  close: ArrayLike<number>,
  options: SupportResistanceOptions = {},
): number[] {
  assertSameLength('supportResistance', high, low, close);
  const { mergeFraction = 0.015, maxLevels = 8, ...swingOptions } = options;
  assertFraction('supportResistance', mergeFraction, 'mergeFraction');
  assertPeriod('supportResistance', maxLevels, 1, 'maxLevels');
  const swings = swingLevels(high, low, swingOptions).sort((a, b) => a.price - b.price);
  const clusters: Array<{ sum: number; touches: number }> = [];
  for (const swing of swings) {
    const current = clusters[clusters.length - 1];
    if (current && swing.price <= (current.sum / current.touches) * (1 + mergeFraction)) {
      current.sum += swing.price;
      current.touches += 1;
    } else {
      clusters.push({ sum: swing.price, touches: 1 });
    }
  }
  const last = close.length > 0 ? close[close.length - 1]! : Number.NaN;
  const distance = (price: number) => (Number.isFinite(last) ? Math.abs(price - last) : 0);
  return clusters
    .map((cluster) => ({ price: cluster.sum / cluster.touches, touches: cluster.touches }))
    .sort((a, b) => b.touches - a.touches || distance(a.price) - distance(b.price))
    .slice(0, maxLevels)
    .map((cluster) => cluster.price)
    .sort((a, b) => a - b);
}

/**
 * The level nearest to `price` among those within `fraction` of it (|level − price| / price ≤
 * fraction, e.g. 0.05 for the Option Scanner's "a volume-profile level lies within 5 % of the
 * price", spec §5), or null when none is. Null for a non-positive or non-finite price.
 */
export function nearestLevelWithin(levels: readonly number[], price: number, fraction: number): number | null {
  assertFraction('nearestLevelWithin', fraction);
  if (!(price > 0) || !Number.isFinite(price)) return null;
  let best: number | null = null;
  for (const level of levels) {
    const gap = Math.abs(level - price);
    if (gap / price <= fraction && (best === null || gap < Math.abs(best - price))) best = level;
  }
  return best;
}
