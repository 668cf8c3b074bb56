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

/** The defaults, as a shared constant so that a call without options allocates no `{}`. */
const DEFAULT_OPTIONS: VolumeProfileOptions = Object.freeze({});

/**
 * Volume-profile levels (Stock metrics `volumeProfileLevels`, spec §3; the Option Scanner wants one
 * within 5 % of the price, spec §5): the high-volume price nodes of the last `lookbackBars` bars,
 * today included, in price units.
 * 1. Cut [lowest low, highest high] of the lookback into `bins` equal bins.
 * 2. Spread each bar's volume over the bins its [low, high] range covers, in proportion to the
 *    overlap (volume assumed to trade uniformly across the bar's range; a bar with high = low puts
 *    it all in one bin). Closes are not used; the parameter keeps the OHLCV signature.
 * 3. Nodes are the local maxima of that histogram: bins with more volume than both neighbours (a run
 *    of equal bins, equal within 1e-9 relative to absorb rounding, counts once, at its middle bin).
 *    A node within 2 bins of a larger node already chosen is dropped.
 * 4. Answer the bin-centre prices of the `maxLevels` largest nodes, most volume first.
 * Bars with a non-finite high, low or volume, a negative volume or a low above the high are skipped.
 * Empty without traded volume; one level when every bar trades at one price.
 */
export function volumeProfileLevels(
  high: ArrayLike<number>,
  low: ArrayLike<number>,
  close: ArrayLike<number>,
  volume: ArrayLike<number>,
  options: VolumeProfileOptions = DEFAULT_OPTIONS,
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
  let skipped = 0;
  for (let i = start; i < n; i += 1) {
    const h = high[i]!;
    const l = low[i]!;
    const v = volume[i]!;
    if (!(l <= h && v >= 0 && Number.isFinite(h - l + v))) {
      skipped += 1;
      continue;
    }
    if (l < min) min = l;
    if (h > max) max = h;
    total += v;
  }
  if (!(total > 0)) return [];
  if (max === min) return [min];
  const width = (max - min) / bins;
  const perBin = bins / (max - min);
  // Scans call this for thousands of symbols: reuse two buffers instead of allocating per call
  // (the function stays pure: it is synchronous and the buffers never escape it).
  const histogram = scratch(0, bins);
  // Bins strictly inside a bar's range all get `width · perPrice`: added as a difference array
  // (one add at the first inner bin, one subtract past the last) and summed once at the end, so a
  // bar costs O(1) however many bins it spans.
  const inner = scratch(1, bins + 1);
  for (let i = start; i < n; i += 1) {
    const h = high[i]!;
    const l = low[i]!;
    const v = volume[i]!;
    // The usual all-valid lookback skips the check (pass 1 counted the bars it skipped).
    if (skipped > 0 && !(l <= h && v >= 0 && Number.isFinite(h - l + v))) continue;
    // Only a high at `max` (or rounding next to it) reaches bin `bins`: a rarely taken branch
    // rather than Math.min on every bar.
    let first = Math.floor((l - min) * perBin);
    let last = Math.floor((h - min) * perBin);
    if (last >= bins) {
      last = bins - 1;
      if (first >= bins) first = bins - 1;
    }
    if (first === last) {
      histogram[first] = histogram[first]! + v;
      continue;
    }
    // Volume per unit of price; the end bins get their overlap, the bins between a full width.
    const perPrice = v / (h - l);
    histogram[first] = histogram[first]! + (min + (first + 1) * width - l) * perPrice;
    histogram[last] = histogram[last]! + (h - (min + last * width)) * perPrice;
    if (last > first + 1) {
      inner[first + 1] = inner[first + 1]! + width * perPrice;
      inner[last] = inner[last]! - width * perPrice;
    }
  }
  let running = 0;
  for (let b = 0; b < bins; b += 1) {
    running += inner[b]!;
    histogram[b] = histogram[b]! + running;
  }
  return topNodes(histogram, maxLevels, min, width);
}

/** For the default 50 bins: the histogram, its difference array (one longer), the peaks' volumes. */
const scratchBuffers: Float64Array[] = [new Float64Array(50), new Float64Array(51), new Float64Array(50)];
/** The peaks' bins and the chosen nodes' bins (topNodes). */
let peakBins = new Int32Array(50);
let chosenBins = new Int32Array(50);

/** Buffer `slot`, zeroed, `length` long (grown when a caller asks for more bins). */
function scratch(slot: number, length: number): Float64Array {
  const buffer = scratchBuffers[slot]!;
  if (buffer.length === length) return buffer.fill(0);
  if (buffer.length < length) return (scratchBuffers[slot] = new Float64Array(length));
  return buffer.subarray(0, length).fill(0);
}

/**
 * Bins that one bar covers get the same volume, but not always bit for bit: the end bins' overlaps
 * are computed from the price (h − binStart) rather than as `width`, so a flat run can wobble by
 * rounding and a lone 'peak' appear in it (typically at the top or bottom edge of the range, covered
 * by one wide bar). Volumes within this relative difference are equal.
 */
const EQUAL_VOLUME_RELATIVE = 1e-9;

function nearlyEqual(a: number, b: number): boolean {
  return Math.abs(a - b) <= EQUAL_VOLUME_RELATIVE * Math.max(Math.abs(a), Math.abs(b));
}

/** Lower by more than rounding. */
function lower(neighbour: number, value: number): boolean {
  return neighbour < value && !nearlyEqual(neighbour, value);
}

/**
 * Bin-centre prices (`min + (bin + 0.5) · width`) of the `count` largest local maxima, largest
 * first. A run of (nearly) equal bins (a plateau) is one peak, at its middle bin, when both bins
 * beside the run are lower. A peak within MIN_SEPARATION_BINS of a larger chosen one is the same
 * node split by binning and is dropped.
 * At most bins / 2 peaks exist, so picking by repeated scans is cheaper than sorting them.
 */
function topNodes(histogram: Float64Array, count: number, min: number, width: number): number[] {
  const bins = histogram.length;
  const peakVolume = scratch(2, bins);
  if (peakBins.length < bins) {
    peakBins = new Int32Array(bins);
    chosenBins = new Int32Array(bins);
  }
  let peaks = 0;
  for (let b = 0; b < bins; ) {
    const value = histogram[b]!;
    let end = b;
    while (end + 1 < bins && nearlyEqual(histogram[end + 1]!, value)) end += 1;
    // The bin after the run is not nearly equal to `value` (the run stopped there), so `lower` is
    // a plain `<` on that side; the cheap tests go first, `lower` on the left side last.
    if (value > 0 && (end === bins - 1 || histogram[end + 1]! < value) && (b === 0 || lower(histogram[b - 1]!, value))) {
      peakBins[peaks] = (b + end) >> 1;
      peakVolume[peaks] = value;
      peaks += 1;
    }
    b = end + 1;
  }
  const levels: number[] = [];
  let chosen = 0;
  while (chosen < count) {
    let best = -1;
    for (let p = 0; p < peaks; p += 1) {
      if (peakVolume[p]! > 0 && (best < 0 || peakVolume[p]! > peakVolume[best]!)) best = p;
    }
    if (best < 0) break;
    const bin = peakBins[best]!;
    peakVolume[best] = 0;
    let apart = true;
    for (let c = 0; c < chosen; c += 1) if (Math.abs(chosenBins[c]! - bin) <= MIN_SEPARATION_BINS) apart = false;
    if (apart) {
      chosenBins[chosen] = bin;
      chosen += 1;
      levels.push(min + (bin + 0.5) * width);
    }
  }
  return levels;
}
