import { assertSameLength } from './validate';

/**
 * Volume-profile levels (spec §3 `volumeProfileLevels`): the high-volume price nodes of the last
 * `lookbackBars` daily bars (120). The price range is cut into `bins` equal bins; each bar's volume
 * is spread evenly over the bins its low–high range covers; the local maxima of that histogram are
 * the nodes. Answers up to `maxLevels` bin-centre prices, most traded first.
 */
export function volumeProfileLevels(
  high: ArrayLike<number>,
  low: ArrayLike<number>,
  close: ArrayLike<number>,
  volume: ArrayLike<number>,
  options: { lookbackBars?: number; bins?: number; maxLevels?: number } = {},
): number[] {
  assertSameLength('volumeProfileLevels', high, low, close, volume);
  const { lookbackBars = 120, bins = 50, maxLevels = 5 } = options;
  const start = Math.max(0, close.length - lookbackBars);
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (let i = start; i < close.length; i += 1) {
    if (low[i]! < min) min = low[i]!;
    if (high[i]! > max) max = high[i]!;
  }
  if (!Number.isFinite(min) || !Number.isFinite(max)) return [];
  if (max === min) return [min];
  const width = (max - min) / bins;
  const perBin = bins / (max - min);
  const histogram = new Float64Array(bins);
  for (let i = start; i < close.length; i += 1) {
    const first = Math.min(bins - 1, ((low[i]! - min) * perBin) | 0);
    const last = Math.min(bins - 1, ((high[i]! - min) * perBin) | 0);
    const share = volume[i]! / (last - first + 1);
    for (let b = first; b <= last; b += 1) histogram[b] = histogram[b]! + share;
  }
  // Keep the `maxLevels` largest local maxima without sorting every peak.
  const topVolume = new Float64Array(maxLevels).fill(-1);
  const topBin = new Int32Array(maxLevels).fill(-1);
  for (let b = 0; b < bins; b += 1) {
    const value = histogram[b]!;
    if (value <= 0 || (b > 0 && histogram[b - 1]! > value) || (b < bins - 1 && histogram[b + 1]! >= value)) continue;
    if (value <= topVolume[maxLevels - 1]!) continue;
    let k = maxLevels - 1;
    while (k > 0 && topVolume[k - 1]! < value) {
      topVolume[k] = topVolume[k - 1]!;
      topBin[k] = topBin[k - 1]!;
      k -= 1;
    }
    topVolume[k] = value;
    topBin[k] = b;
  }
  const levels: number[] = [];
  for (let k = 0; k < maxLevels && topBin[k]! >= 0; k += 1) levels.push(min + (topBin[k]! + 0.5) * width);
  return levels;
}

export interface SwingLevel {
  price: number;
  index: number;
  kind: 'high' | 'low';
}

/**
 * Swing (pivot) levels: a bar whose high is above the highs of the `leftBars` before it and at least
 * the highs of the `rightBars` after it is a swing high (lows likewise), within the last `lookbackBars`.
 */
export function swingLevels(
  high: ArrayLike<number>,
  low: ArrayLike<number>,
  options: { leftBars?: number; rightBars?: number; lookbackBars?: number } = {},
): SwingLevel[] {
  assertSameLength('swingLevels', high, low);
  const { leftBars = 5, rightBars = 5, lookbackBars = 250 } = options;
  const out: SwingLevel[] = [];
  const start = Math.max(leftBars, high.length - lookbackBars);
  for (let i = start; i < high.length - rightBars; i += 1) {
    let isHigh = true;
    let isLow = true;
    for (let k = 1; k <= leftBars && (isHigh || isLow); k += 1) {
      if (high[i - k]! >= high[i]!) isHigh = false;
      if (low[i - k]! <= low[i]!) isLow = false;
    }
    for (let k = 1; k <= rightBars && (isHigh || isLow); k += 1) {
      if (high[i + k]! > high[i]!) isHigh = false;
      if (low[i + k]! < low[i]!) isLow = false;
    }
    if (isHigh) out.push({ price: high[i]!, index: i, kind: 'high' });
    if (isLow) out.push({ price: low[i]!, index: i, kind: 'low' });
  }
  return out;
}

/**
 * Support and resistance levels (what api/support-resistance answers when the provider's premium
 * scan is not available): swing levels of the last year, merged when within `mergeFraction` (1.5 %)
 * of each other into their touch-weighted mean; the `maxLevels` most-touched, sorted ascending.
 */
export function supportResistance(
  high: ArrayLike<number>,
  low: ArrayLike<number>,
  close: ArrayLike<number>,
  options: { mergeFraction?: number; maxLevels?: number; leftBars?: number; rightBars?: number } = {},
): number[] {
  assertSameLength('supportResistance', high, low, close);
  const { mergeFraction = 0.015, maxLevels = 8, leftBars = 5, rightBars = 5 } = options;
  const swings = swingLevels(high, low, { leftBars, rightBars, lookbackBars: 250 }).sort((a, b) => a.price - b.price);
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
  return clusters
    .map((cluster) => ({ price: cluster.sum / cluster.touches, touches: cluster.touches }))
    .sort((a, b) => b.touches - a.touches)
    .slice(0, maxLevels)
    .map((cluster) => cluster.price)
    .sort((a, b) => a - b);
}

/** The level nearest to `price` within `fraction` of it (spec §5: "a level lies within 5% of the price"), or null. */
export function nearestLevelWithin(levels: readonly number[], price: number, fraction: number): number | null {
  let best: number | null = null;
  for (const level of levels) {
    const distance = Math.abs(level - price) / price;
    if (distance <= fraction && (best === null || Math.abs(level - price) < Math.abs(best - price))) best = level;
  }
  return best;
}
