import { assertPeriod, assertSameLength } from './validate';

/** Peaks this close (in bins) to a larger one are one node split by the binning (2 bins: 4 % of the range at 50 bins). */
const MIN_SEPARATION_BINS = 2;

export interface VolumeProfileOptions {
  /** Bars of history, today included (default 120 daily bars). */
  lookbackBars?: number;
  /** Equal-width price bins between the lowest low and the highest high of the lookback (default 50). */
  bins?: number;
  /** Most levels answered (default 5). */
  maxLevels?: number;
}

/**
 * Volume-profile levels (Stock metrics `volumeProfileLevels`, spec §3; the Option Scanner wants one
 * within 5 % of the price, spec §5): the high-volume price nodes of the last `lookbackBars` bars,
 * today included, in price units.
 * 1. Cut [lowest low, highest high] of the lookback into `bins` equal bins.
 * 2. Spread each bar's volume over the bins its [low, high] range covers, in proportion to the
 *    overlap (volume assumed to trade uniformly across the bar's range; a bar with high = low puts
 *    it all in one bin). Closes are not used; the parameter keeps the OHLCV signature.
 * 3. Nodes are the local maxima of that histogram: bins with more volume than both neighbours (a run
 *    of equal bins counts once, at its middle bin). A node within 2 bins of a larger one is dropped.
 * 4. Answer the bin-centre prices of the `maxLevels` largest nodes, most volume first.
 * Bars with a non-finite high, low or volume, a negative volume or a low above the high are skipped.
 * Empty without traded volume; one level when every bar trades at one price.
 */
export function volumeProfileLevels(
  high: ArrayLike<number>,
  low: ArrayLike<number>,
  close: ArrayLike<number>,
  volume: ArrayLike<number>,
  options: VolumeProfileOptions = {},
): number[] {
  assertSameLength('volumeProfileLevels', high, low, close, volume);
  const { lookbackBars = 120, bins = 50, maxLevels = 5 } = options;
  assertPeriod('volumeProfileLevels', lookbackBars, 1, 'lookbackBars');
  assertPeriod('volumeProfileLevels', bins, 1, 'bins');
  assertPeriod('volumeProfileLevels', maxLevels, 1, 'maxLevels');
  const n = high.length;
  const start = Math.max(0, n - lookbackBars);
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  let total = 0;
  for (let i = start; i < n; i += 1) {
    const h = high[i]!;
    const l = low[i]!;
    const v = volume[i]!;
    if (!(l <= h && v >= 0 && Number.isFinite(h - l + v))) continue;
    if (l < min) min = l;
    if (h > max) max = h;
    total += v;
  }
  if (!(total > 0)) return [];
  if (max === min) return [min];
  const width = (max - min) / bins;
  const perBin = bins / (max - min);
  const histogram = new Float64Array(bins);
  for (let i = start; i < n; i += 1) {
    const h = high[i]!;
    const l = low[i]!;
    const v = volume[i]!;
    if (!(l <= h && v >= 0 && Number.isFinite(h - l + v))) continue;
    const first = Math.min(bins - 1, Math.floor((l - min) * perBin));
    const last = Math.min(bins - 1, Math.floor((h - min) * perBin));
    if (first === last) {
      histogram[first] = histogram[first]! + v;
      continue;
    }
    // Volume per unit of price; the end bins get their overlap, the bins between a full width.
    const perPrice = v / (h - l);
    histogram[first] = histogram[first]! + (min + (first + 1) * width - l) * perPrice;
    histogram[last] = histogram[last]! + (h - (min + last * width)) * perPrice;
    for (let b = first + 1; b < last; b += 1) histogram[b] = histogram[b]! + width * perPrice;
  }
  return topNodes(histogram, maxLevels).map((b) => min + (b + 0.5) * width);
}

/**
 * Bins of the `count` largest local maxima, largest first. A run of equal bins (a plateau) is one
 * peak, at its middle bin, when both bins beside the run are lower. A peak within
 * MIN_SEPARATION_BINS of a larger chosen one is the same node split by binning and is dropped.
 * At most bins / 2 peaks exist, so picking by repeated scans is cheaper than sorting them.
 */
function topNodes(histogram: Float64Array, count: number): number[] {
  const bins = histogram.length;
  const peakBin: number[] = [];
  const peakVolume: number[] = [];
  for (let b = 0; b < bins; ) {
    const value = histogram[b]!;
    let end = b;
    while (end + 1 < bins && histogram[end + 1] === value) end += 1;
    if (value > 0 && (b === 0 || histogram[b - 1]! < value) && (end === bins - 1 || histogram[end + 1]! < value)) {
      peakBin.push((b + end) >> 1);
      peakVolume.push(value);
    }
    b = end + 1;
  }
  const chosen: number[] = [];
  while (chosen.length < count) {
    let best = -1;
    for (let p = 0; p < peakVolume.length; p += 1) {
      if (peakVolume[p]! > 0 && (best < 0 || peakVolume[p]! > peakVolume[best]!)) best = p;
    }
    if (best < 0) break;
    const bin = peakBin[best]!;
    peakVolume[best] = 0;
    let apart = true;
    for (let c = 0; c < chosen.length; c += 1) if (Math.abs(chosen[c]! - bin) <= MIN_SEPARATION_BINS) apart = false;
    if (apart) chosen.push(bin);
  }
  return chosen;
}
